"""The shipped JSON Schema, and keeping pydantic off the start-up path."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import jsonschema
import pytest

from filid.config.schema import SCHEMA_FILE, config_json_schema
from filid.config.template import render_default_config


def test_shipped_schema_is_current() -> None:
    shipped = json.loads(SCHEMA_FILE.read_text("utf-8"))
    assert shipped == config_json_schema(), (
        "regenerate: python -m filid.config.schema > src/filid/config/config.schema.json"
    )


def test_schema_is_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(config_json_schema())


def test_template_validates_against_schema() -> None:
    text = render_default_config(excluded_names=["examples"], generated=["src/gen/**"])
    jsonschema.validate(json.loads(text), config_json_schema())


@pytest.mark.parametrize(
    "document",
    [
        {"bogus": 1},
        {"structure": {"maxDepth": 0}},
        {"structure": {"additionalAllowedPeers": [3]}},
        {"rules": {"max-depth": {"severity": "fatal"}}},
        {"rules": {"max-depth": "off"}},
        {"version": "3.0"},
    ],
)
def test_schema_rejects_what_the_loader_rejects(document: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(config_json_schema())
    assert list(validator.iter_errors(document))


def test_schema_accepts_the_contract_example() -> None:
    document = {
        "version": "2.0",
        "rules": {"max-depth": {"enabled": True, "severity": "error", "exempt": ["src/legacy/**"]}},
        "structure": {
            "maxDepth": 10,
            "additionalOrganNames": [],
            "additionalExcludedDirectories": [],
            "additionalAllowedPeers": [{"basename": "vite.config.ts", "paths": ["apps/*"]}, "a.ts"],
            "namingPatterns": ["^[A-Z][A-Za-z0-9]*$"],
        },
    }
    jsonschema.validate(document, config_json_schema())


_PROBE = """
import sys
from pathlib import Path
import filid.config
from filid.config.load import load_config
config = load_config(Path(sys.argv[1]), None, known_rule_ids=["max-depth"], rule_aliases={})
assert config.path is None
print("pydantic" in sys.modules, "filid.config.schema" in sys.modules)
"""


def test_loading_without_a_config_file_does_not_import_pydantic(tmp_path: Any) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == ["False", "False"]


def test_loading_a_config_file_imports_pydantic_then(tmp_path: Any) -> None:
    (tmp_path / ".filid").mkdir()
    (tmp_path / ".filid" / "config.json").write_text("{}")
    probe = _PROBE.replace("assert config.path is None", "assert config.path is not None")
    result = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == ["True", "True"]
