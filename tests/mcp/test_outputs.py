"""Each tool publishes an outputSchema, and real answers of every kind conform to it."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest

from filid.mcp import outputs
from tests.mcp.conftest import ClientFactory, Workspace
from tests.mcp.test_server import ok

pytestmark = pytest.mark.anyio

PUBLISHED = {
    "fractal-scan": outputs.FRACTAL_SCAN,
    "drift-detect": outputs.DRIFT_DETECT,
    "lca-resolve": outputs.LCA_RESOLVE,
    "rule-query": outputs.RULE_QUERY,
    "structure-validate": outputs.STRUCTURE_VALIDATE,
}


async def test_every_tool_lists_a_valid_output_schema(connect: ClientFactory) -> None:
    async with connect() as client:
        listed = await client.list_tools()
    schemas = {t.name: t.output_schema for t in listed.tools}
    assert schemas == PUBLISHED
    for schema in schemas.values():
        assert schema is not None
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object"
        assert {"summary", "nextActions"} <= set(schema["required"])


def answers_to_check(path: str) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("fractal-scan", {"path": path}),
        ("fractal-scan", {"path": path, "includeModuleInfo": True, "depth": 3}),
        ("fractal-scan", {"path": path, "maxChars": 2000, "offset": 3}),
        ("drift-detect", {"path": path}),
        ("drift-detect", {"path": path, "generatePlan": True, "severity": "high"}),
        ("drift-detect", {"path": path, "maxChars": 2000, "paths": ["src/**"]}),
        ("lca-resolve", {"path": path, "moduleA": "src/auth", "moduleB": "src/billing"}),
        ("rule-query", {"path": path, "action": "list"}),
        ("rule-query", {"path": path, "action": "list", "ruleCategory": "naming"}),
        ("rule-query", {"path": path, "action": "get", "ruleId": "circular-dependency"}),
        ("rule-query", {"path": path, "action": "check", "targetPath": "src/auth"}),
        ("structure-validate", {"path": path}),
        ("structure-validate", {"path": path, "maxChars": 2000, "offset": 5}),
        ("structure-validate", {"path": path, "preview": True}),
        ("structure-validate", {"path": path, "preview": True, "maxChars": 2000}),
        ("structure-validate", {"path": path, "fix": True}),
    ]


async def test_real_answers_conform_to_the_published_schemas(
    connect: ClientFactory, workspace: Workspace
) -> None:
    seen: set[str] = set()
    async with connect() as client:
        for tool, arguments in answers_to_check(str(workspace.project)):
            data = ok(await client.call_tool(tool, arguments))
            jsonschema.Draft202012Validator(PUBLISHED[tool]).validate(data)
            seen.add(tool)
            if "truncated" in data:
                seen.add(f"{tool} truncated")
            if "preview" in data:
                seen.add("preview")
            if "fixedItems" in data:
                seen.add("fixed")
    assert {"preview", "fixed", "structure-validate truncated", "fractal-scan truncated"} <= seen
    assert set(PUBLISHED) <= seen


@pytest.mark.parametrize(
    ("tool", "arguments", "tamper"),
    [
        ("fractal-scan", {}, lambda d: d.pop("summary")),
        ("fractal-scan", {}, lambda d: d.__setitem__("duration", "12ms")),
        (
            "structure-validate",
            {},
            lambda d: d["config"].__setitem__("rulesApplied", d["config"]["rulesAppliedIds"]),
        ),
        (
            "structure-validate",
            {},
            lambda d: d["nextActions"].append("call structure-validate with fix=true"),
        ),
        ("drift-detect", {}, lambda d: d["items"][0].__setitem__("suggestedAction", "manual")),
        ("rule-query", {"action": "list"}, lambda d: d.__setitem__("filtered", 0)),
        (
            "rule-query",
            {"action": "get", "ruleId": "max-depth"},
            lambda d: d["examples"].__setitem__("valid", d["exampleCases"]["valid"]),
        ),
    ],
)
async def test_the_schemas_reject_the_types_the_seed_does_not_define(
    connect: ClientFactory, workspace: Workspace, tool: str, arguments: dict[str, Any], tamper: Any
) -> None:
    async with connect() as client:
        data = ok(await client.call_tool(tool, {"path": str(workspace.project), **arguments}))
    broken = copy.deepcopy(data)
    tamper(broken)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, PUBLISHED[tool])
