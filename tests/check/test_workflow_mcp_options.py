"""The run_check options the MCP server uses: a subtree target (rule-query check) and the
refused fixes as data instead of notes (structure-validate's nextActions)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from filid.check import CheckOptions, run_check
from filid.model.errors import InputError
from tests.conftest import EXAMPLES


@pytest.fixture
def project(tmp_path: Path) -> Path:
    target = tmp_path / "project"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns(".filid/cache", "cache"))
    return target


def test_a_target_keeps_the_subtree_and_returns_the_project(project: Path) -> None:
    whole = run_check(CheckOptions(project, reuse=False)).result
    scoped = run_check(CheckOptions(project, target="src/auth"))
    assert scoped.project is not None, "a subtree check loads afresh"
    assert scoped.result.scope == "src/auth"
    paths = {v.path for v in scoped.result.violations}
    assert paths and all(p == "src/auth" or p.startswith("src/auth/") for p in paths)
    assert len(scoped.result.violations) < len(whole.violations)


def test_a_target_that_is_not_a_node_is_bad_input(project: Path) -> None:
    with pytest.raises(InputError, match="src/nowhere: not a node"):
        run_check(CheckOptions(project, target="src/nowhere"))


def test_refusals_come_as_data_with_or_without_their_notes(project: Path) -> None:
    noted = run_check(CheckOptions(project, reuse=False))
    quiet = run_check(CheckOptions(project, reuse=False, note_refusals=False))
    assert noted.refused, "the example project has fixes the planner refuses"
    assert quiet.refused == noted.refused
    prints = {s.violation.fingerprint for s in noted.refused}
    assert noted.result.refused_fixes == quiet.result.refused_fixes == prints
    refusal_notes = [n for n in noted.result.notes if n.startswith("fix not possible: ")]
    assert len(refusal_notes) == len(noted.refused)
    assert not [n for n in quiet.result.notes if n.startswith("fix not possible: ")]
    assert quiet.result.notes == tuple(n for n in noted.result.notes if n not in refusal_notes)
