"""Every ``.filid/config.json`` shape the upstream plugin's repository ever committed, and the
configs of other repositories that declare FCA, load (tests/fixtures/config/upstream/SOURCES.md
says where each comes from). A key filid cannot honour is a one-line note, never an error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from filid.config.load import load_config
from filid.rules.catalogue import ALIASES, RULE_IDS

SHAPES = Path(__file__).resolve().parents[1] / "fixtures" / "config" / "upstream"
FILES = sorted(SHAPES.glob("*.json"))


def test_the_fixture_set_covers_both_versions() -> None:
    versions = {json.loads(f.read_text("utf-8")).get("version") for f in FILES}
    assert versions == {"1.0", "2.0"}
    assert len(FILES) >= 28


@pytest.mark.parametrize("shape", FILES, ids=[f.stem for f in FILES])
def test_every_upstream_config_shape_loads(tmp_path: Path, shape: Path) -> None:
    (tmp_path / ".filid").mkdir()
    shutil.copy(shape, tmp_path / ".filid" / "config.json")
    config = load_config(tmp_path, None, known_rule_ids=RULE_IDS, rule_aliases=ALIASES)
    assert config.version == "2.0"
    assert all("\n" not in note for note in config.notes)
    data = json.loads(shape.read_text("utf-8"))
    # what the file allows beside an entry point is honoured, whichever version's place it uses
    written = [
        *data.get("additional-allowed", ()),
        *data.get("rules", {}).get("zero-peer-file", {}).get("additional-allowed", ()),
        *(data.get("structure") or {}).get("additionalAllowedPeers", ()),
    ]
    names = {w if isinstance(w, str) else w["basename"] for w in written}
    assert {p.basename for p in config.structure.additional_allowed_peers} == names
    for rule_id, entry in data.get("rules", {}).items():
        target = ALIASES.get(rule_id, rule_id)
        if target in RULE_IDS and "enabled" in entry:
            assert config.rules[target].enabled is entry["enabled"], rule_id
