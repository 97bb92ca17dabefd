"""The hand-written input schemas and the argument check that enforces them."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from filid.mcp import schemas
from filid.mcp.schemas import validate_arguments
from filid.model.errors import UsageError
from filid.rules.query import NODE_CATEGORIES, RULE_CATEGORIES

ALL = {
    "fractal-scan": schemas.FRACTAL_SCAN,
    "drift-detect": schemas.DRIFT_DETECT,
    "lca-resolve": schemas.LCA_RESOLVE,
    "rule-query": schemas.RULE_QUERY,
    "structure-validate": schemas.STRUCTURE_VALIDATE,
}

# (schema, arguments) pairs on both sides of every keyword the schemas use.
CASES: list[tuple[str, dict[str, Any]]] = [
    ("fractal-scan", {"path": "."}),
    ("fractal-scan", {"path": ".", "depth": 1}),
    ("fractal-scan", {"path": ".", "depth": 20, "includeModuleInfo": True}),
    ("fractal-scan", {"path": ".", "depth": 0}),
    ("fractal-scan", {"path": ".", "depth": 21}),
    ("fractal-scan", {"path": ".", "depth": 2.5}),
    ("fractal-scan", {"path": ".", "depth": "3"}),
    ("fractal-scan", {"path": ".", "depth": True}),
    ("fractal-scan", {"path": ".", "includeModuleInfo": "yes"}),
    ("fractal-scan", {"path": ""}),
    ("fractal-scan", {"path": 3}),
    ("fractal-scan", {"path": None}),
    ("fractal-scan", {}),
    ("fractal-scan", {"path": ".", "extra": 1}),
    ("drift-detect", {"path": ".", "severity": "high", "generatePlan": True}),
    ("drift-detect", {"path": ".", "severity": "severe"}),
    ("lca-resolve", {"path": ".", "moduleA": "a", "moduleB": "b"}),
    ("lca-resolve", {"path": ".", "moduleA": "a"}),
    ("rule-query", {"path": ".", "action": "list", "category": "organ"}),
    ("rule-query", {"path": ".", "action": "list", "category": "dependency"}),
    ("rule-query", {"path": ".", "action": "remove"}),
    ("rule-query", {"path": ".", "action": "list", "category": "misc"}),
    ("rule-query", {"path": "."}),
    ("structure-validate", {"path": ".", "rules": ["max-depth"], "fix": False}),
    ("structure-validate", {"path": ".", "rules": []}),
    ("structure-validate", {"path": ".", "rules": "max-depth"}),
    ("structure-validate", {"path": ".", "rules": ["max-depth", 3]}),
    ("structure-validate", {"path": ".", "fix": 1}),
    ("structure-validate", {"path": ".", "preview": True}),
    ("structure-validate", {"path": ".", "fix": "apply"}),
    ("structure-validate", {"path": ".", "fix": True, "planToken": "t"}),
    ("structure-validate", {"path": ".", "baseline": ""}),
    ("fractal-scan", {"path": ".", "depth": 3.0}),
    ("fractal-scan", {"path": ".", "maxChars": 1999}),
    ("fractal-scan", {"path": ".", "maxChars": 2000, "offset": 0, "paths": ["src/**"]}),
    ("fractal-scan", {"path": ".", "offset": -1}),
    ("fractal-scan", {"path": ".", "paths": [""]}),
    ("drift-detect", {"path": ".", "rules": ["max-depth"], "paths": ["a"], "offset": 4}),
    ("rule-query", {"path": ".", "action": "list", "ruleCategory": "naming"}),
    ("rule-query", {"path": ".", "action": "list", "category": "naming"}),
    ("lca-resolve", {"path": ".", "moduleA": "a", "moduleB": "b", "offset": 1}),
]


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_schema_is_a_valid_closed_object_schema(name: str) -> None:
    schema = ALL[name]
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert "path" in schema["required"]
    assert set(schema["required"]) <= set(schema["properties"])


@pytest.mark.parametrize(("name", "arguments"), CASES)
def test_the_check_accepts_exactly_what_json_schema_accepts(
    name: str, arguments: dict[str, Any]
) -> None:
    schema = ALL[name]
    expected_valid = jsonschema.Draft202012Validator(schema).is_valid(arguments)
    try:
        validate_arguments(schema, arguments)
    except UsageError:
        accepted = False
    else:
        accepted = True
    assert accepted == expected_valid


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"path": ".", "depth": 30}, "depth: must be between 1 and 20 (got 30)"),
        ({"path": ".", "depth": 0}, "depth: must be between 1 and 20 (got 0)"),
        ({"path": ".", "depth": "5"}, 'depth: must be a number (got "5")'),
        ({"path": ".", "depth": 2.5}, "depth: must be a whole number (got 2.5)"),
        ({"path": ".", "maxChars": 10}, "maxChars: must be between 2000 and 50000 (got 10)"),
        ({"path": ".", "offset": -3}, "offset: must be at least 0 (got -3)"),
        ({"path": ".", "paths": []}, "paths: must list at least 1 item(s)"),
        ({}, "path: required argument missing"),
        (
            {"path": ".", "colour": "red"},
            "colour: unknown argument (valid arguments: path, depth, includeModuleInfo, "
            "paths, list, offset, maxChars)",
        ),
        ({"path": ""}, "path: must not be empty"),
    ],
)
def test_reasons_are_one_line_and_name_the_argument(
    arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(UsageError) as caught:
        validate_arguments(schemas.FRACTAL_SCAN, arguments)
    assert str(caught.value) == message


def test_enum_and_item_reasons() -> None:
    with pytest.raises(UsageError, match=r"^severity: must be one of critical, high, medium, low"):
        validate_arguments(schemas.DRIFT_DETECT, {"path": ".", "severity": "severe"})
    with pytest.raises(UsageError, match=r"^rules\[1\]: must be a string \(got 3\)$"):
        validate_arguments(schemas.STRUCTURE_VALIDATE, {"path": ".", "rules": ["a", 3]})


def test_defaults_are_filled_and_integral_numbers_become_ints() -> None:
    checked = validate_arguments(schemas.FRACTAL_SCAN, {"path": "p", "depth": 4.0})
    assert checked == {
        "path": "p",
        "depth": 4,
        "includeModuleInfo": False,
        "offset": 0,
        "maxChars": 20_000,
    }
    assert isinstance(checked["depth"], int)
    assert validate_arguments(schemas.FRACTAL_SCAN, {"path": "p"})["depth"] == 10


def test_category_enum_is_the_seeds_and_rule_category_covers_the_rest() -> None:
    properties = schemas.RULE_QUERY["properties"]
    enum = properties["category"]["enum"]
    # The seed's six values, exactly; every other rule category through ruleCategory.
    assert enum == ["fractal", "organ", "pure-function", "hybrid", "structure", "dependency"]
    assert set(enum) <= NODE_CATEGORIES | RULE_CATEGORIES
    assert set(properties["ruleCategory"]["enum"]) == RULE_CATEGORIES
    assert set(enum) | set(properties["ruleCategory"]["enum"]) == NODE_CATEGORIES | RULE_CATEGORIES
