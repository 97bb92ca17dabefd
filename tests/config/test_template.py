"""render_default_config: strict JSON that loads back into the default behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from filid.config.load import load_config
from filid.config.model import StructureConfig
from filid.config.template import (
    UPSTREAM_RULE_KEYS,
    UPSTREAM_STRUCTURE_KEYS,
    UPSTREAM_TOP_LEVEL_KEYS,
    render_default_config,
)
from filid.model.violations import Severity

RULES = (
    ("max-depth", "error", "A node is deeper than structure.maxDepth."),
    ("naming-convention", "warning", "Folder names are kebab-case or camelCase."),
    ("hybrid-node", "info", "An organ-named folder has become a module — “hybrid”."),
)


def test_template_round_trips_to_defaults(tmp_path: Path) -> None:
    path = tmp_path / ".filid" / "config.json"
    path.parent.mkdir()
    path.write_text(render_default_config(RULES), "utf-8")

    config = load_config(
        tmp_path,
        None,
        known_rule_ids=[rule_id for rule_id, _, _ in RULES],
        rule_aliases={},
    )

    assert config.path == path
    assert config.notes == ()
    assert config.version == "2.0"
    assert config.structure == StructureConfig()
    # Every rule is listed, enabled, at its default severity, with nothing exempt: exactly
    # what the engine does with no entry at all.
    assert sorted(config.rules) == sorted(rule_id for rule_id, _, _ in RULES)
    for rule_id, severity, _ in RULES:
        entry = config.rules[rule_id]
        assert entry.enabled is True
        assert entry.severity == Severity(severity)
        assert entry.exempt == ()
        assert entry.options == {}


def test_template_is_strict_json_that_the_upstream_schema_accepts() -> None:
    text = render_default_config(RULES)
    document = json.loads(text)
    assert text.endswith("\n")
    assert document["version"] == "2.0"
    assert list(document["rules"]) == sorted(document["rules"])
    assert document["structure"]["maxDepth"] == StructureConfig().max_depth
    # Upstream's schema is strict and requires adapters: every key must be one it knows.
    assert set(document) <= UPSTREAM_TOP_LEVEL_KEYS
    assert document["adapters"] == {"mode": "auto", "enabled": ["ecmascript"]}
    assert set(document["structure"]) <= UPSTREAM_STRUCTURE_KEYS
    for entry in document["rules"].values():
        assert set(entry) <= UPSTREAM_RULE_KEYS


def test_template_rejects_an_unknown_severity() -> None:
    with pytest.raises(ValueError):
        render_default_config([("max-depth", "fatal", "x")])
