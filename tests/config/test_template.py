"""render_default_config: strict JSON that loads back into the default behaviour."""

from __future__ import annotations

import json
from pathlib import Path

from filid.config.load import load_config
from filid.config.model import StructureConfig
from filid.config.template import (
    UPSTREAM_RULE_KEYS,
    UPSTREAM_STRUCTURE_KEYS,
    UPSTREAM_TOP_LEVEL_KEYS,
    render_default_config,
)


def test_template_round_trips_to_defaults(tmp_path: Path) -> None:
    path = tmp_path / ".filid" / "config.json"
    path.parent.mkdir()
    path.write_text(render_default_config(), "utf-8")

    config = load_config(tmp_path, None, known_rule_ids=["max-depth"], rule_aliases={})

    assert config.path == path
    assert config.notes == ()
    assert config.version == "2.0"
    # No rule entry and no structure: exactly what the engine does with no file at all.
    assert config.structure == StructureConfig()
    assert config.rules == {}


def test_template_holds_only_what_init_chose_each_once(tmp_path: Path) -> None:
    text = render_default_config(
        excluded_names=["examples", "__fixtures__", "examples"], generated=["src/gen/**"]
    )
    document = json.loads(text)
    assert document == {
        "version": "2.0",
        "adapters": {"mode": "auto", "enabled": ["ecmascript"]},
        "rules": {},
        "structure": {
            "additionalExcludedDirectories": ["__fixtures__", "examples"],
            "generatedPaths": ["src/gen/**"],
        },
    }
    assert "$comment" not in text
    path = tmp_path / ".filid" / "config.json"
    path.parent.mkdir()
    path.write_text(text, "utf-8")
    config = load_config(tmp_path, None, known_rule_ids=["max-depth"], rule_aliases={})
    assert config.structure.additional_excluded_directories == ("__fixtures__", "examples")
    assert config.structure.generated_paths == ("src/gen/**",)


def test_template_is_strict_json_that_the_upstream_schema_accepts() -> None:
    text = render_default_config(excluded_names=["examples"], generated=["src/gen/**"])
    document = json.loads(text)
    assert text.endswith("\n")
    assert document["version"] == "2.0"
    # Upstream's schema is strict and requires adapters and rules: every key must be one it
    # knows.
    assert set(document) <= UPSTREAM_TOP_LEVEL_KEYS
    assert {"version", "adapters", "rules"} <= set(document)
    assert document["adapters"] == {"mode": "auto", "enabled": ["ecmascript"]}
    assert set(document["structure"]) <= UPSTREAM_STRUCTURE_KEYS
    for entry in document["rules"].values():
        assert set(entry) <= UPSTREAM_RULE_KEYS
