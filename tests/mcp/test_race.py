"""Two fix runs on one project at once (two MCP servers, or a server and the CLI): the one
that loses answers what happened to the tree, never a stale "fixed 0, fixFailed N"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import filid.fix.run as fix_run
from filid.check.engine import evaluate
from filid.check.project import Project, load_project
from filid.store.journal import fix_transaction
from tests.mcp.conftest import ClientFactory, Workspace
from tests.mcp.test_server import error_text, ok

pytestmark = pytest.mark.anyio


async def test_a_fix_while_another_holds_the_lock_changes_nothing_and_says_why(
    connect: ClientFactory, workspace: Workspace
) -> None:
    before = sorted(p.as_posix() for p in workspace.project.rglob("*"))
    with fix_transaction(workspace.project):  # another process's fix, mid-run
        async with connect() as client:
            text = error_text(
                await client.call_tool("structure-validate", {"path": "project", "fix": True})
            )
    assert "another filid fix is running" in text and "this call changed nothing" in text
    assert sorted(p.as_posix() for p in workspace.project.rglob("*")) == before


async def test_a_fix_that_read_the_tree_before_another_run_fixed_it_reports_the_tree_now(
    connect: ClientFactory, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other run commits between this run's reading and its planning."""
    real_load = fix_run.load_project
    raced: list[Any] = []

    def load_then_race(root: Path, **kwargs: Any) -> Project:
        project = real_load(root, **kwargs)
        if not raced:
            raced.append(None)
            monkeypatch.setattr(fix_run, "load_project", real_load)
            raced[0] = fix_run.run_fix(root)  # the other run: fixes and commits
            monkeypatch.setattr(fix_run, "load_project", load_then_race)
        return project

    monkeypatch.setattr(fix_run, "load_project", load_then_race)
    async with connect() as client:
        result = await client.call_tool("structure-validate", {"path": "project", "fix": True})
    assert raced and raced[0].changed_files, "the other run fixed the tree"
    now = evaluate(load_project(workspace.project))
    data = ok(result)
    summary = data["summary"]
    assert "another filid fix" in summary["outcome"]
    assert summary["violations"] == len(now.violations)
    assert sorted(v["fingerprint"] for v in data["remainingViolations"]) == sorted(
        v.fingerprint for v in now.violations
    )
