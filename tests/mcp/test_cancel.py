"""A cancelled fix applies nothing: ``notifications/cancelled`` before the commit point rolls
the run back, and the next answer on that root says so (``restored``)."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.fix.run import run_fix
from filid.model.errors import FixCancelled
from tests.conftest import REPO
from tests.mcp.test_budget import answer, server_environment

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _generator() -> ModuleType:
    path = REPO / "benchmarks" / "generate.py"
    spec = importlib.util.spec_from_file_location("bench_generate_cancel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def snapshot(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        if p.is_file()
        else "dir"
        for p in sorted(root.rglob("*"))
        if ".filid" not in p.parts
    }


@pytest.fixture
def fixable(tmp_path: Path) -> Path:
    project = (tmp_path / "mono").resolve()
    _generator().generate(600, project, 3)
    safe = [v for v in evaluate(load_project(project)).violations if v.fix is not None]
    assert len(safe) > 10, "the generated project has many fixable files"
    return project


def test_a_fix_cancelled_after_its_first_pass_restores_every_file(fixable: Path) -> None:
    before = snapshot(fixable)
    asked = 0

    def cancelled() -> bool:
        nonlocal asked
        asked += 1
        return asked > 3  # before the run, after planning, after the first pass: yes

    with pytest.raises(FixCancelled) as caught:
        run_fix(fixable, cancelled=cancelled)
    assert caught.value.restored, "the first pass had written files"
    assert "nothing was applied" in str(caught.value)
    assert snapshot(fixable) == before


# Loaded by the server process (sitecustomize on its PYTHONPATH): after the fix's first pass
# has written its files, it says so in a marker file and holds the run for a few seconds, so
# that the cancellation deterministically arrives before the commit point, however fast or
# loaded the machine is (a bare timer raced the fix: on a quiet machine it finished first).
SLOW_FIRST_PASS = """
import os, time
from pathlib import Path
import filid.fix.run as _run

_apply = _run.apply_plan

def _slow_apply(plan, journal):
    changed = _apply(plan, journal)
    Path(os.environ["FILID_TEST_PASS_MARKER"]).write_text("applied")
    time.sleep(3)
    return changed

_run.apply_plan = _slow_apply
"""


@pytest.mark.slow
async def test_notifications_cancelled_on_a_running_fix_applies_nothing_over_stdio(
    fixable: Path, tmp_path: Path
) -> None:
    before = snapshot(fixable)
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SLOW_FIRST_PASS)
    marker = tmp_path / "first-pass-applied"
    env = server_environment()
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(hook), env.get("PYTHONPATH")) if p)
    env["FILID_TEST_PASS_MARKER"] = str(marker)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "filid", "mcp", "--root", str(fixable.parent)],
        env=env,
        cwd=str(fixable.parent),
    )
    outcome: list[Any] = []
    async with Client(params, mode="legacy", read_timeout_seconds=120) as client:

        async def fix() -> None:
            outcome.append(
                await client.call_tool("structure-validate", {"path": str(fixable), "fix": True})
            )

        async with anyio.create_task_group() as group:
            group.start_soon(fix)
            with anyio.fail_after(120):
                while not marker.exists():
                    await anyio.sleep(0.05)
            assert snapshot(fixable) != before, "the first pass wrote files before the cancel"
            # Cancelling the caller makes the SDK client send notifications/cancelled.
            group.cancel_scope.cancel()
        # The next call on the root waits for the cancelled fix to finish rolling back.
        after = answer(await client.call_tool("structure-validate", {"path": str(fixable)}))
    assert outcome == [], "a cancelled request gets no answer (MCP specification)"
    assert snapshot(fixable) == before
    assert "cancelled" in after["restored"]["reason"]
    assert "nothing was applied" in after["restored"]["reason"]
    assert list(after)[:2] == ["summary", "restored"]
    assert after["summary"]["safeFixes"] > 0
