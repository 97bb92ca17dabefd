"""structure-validate fix='preview' → planToken → fix=true applies exactly that plan."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.fix.apply import preview_diff
from filid.fix.planner import plan_fixes
from filid.mcp.fix_plans import split_diff
from tests.mcp.conftest import ClientFactory, Workspace
from tests.mcp.test_budget import server_environment
from tests.mcp.test_server import error_text, ok

pytestmark = pytest.mark.anyio

WHOLE = 50_000


def snapshot(root: Path) -> dict[str, str]:
    """Every file below ``root`` (caches aside) with its SHA-256."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "cache" not in p.relative_to(root).parts
    }


def apply_action(data: dict[str, Any]) -> dict[str, Any]:
    [action] = [a for a in data["nextActions"] if a["args"].get("fix") is True]
    return action


async def test_preview_writes_nothing_and_apply_does_exactly_the_plan(
    connect: ClientFactory, workspace: Workspace
) -> None:
    before = snapshot(workspace.project)
    project = load_project(workspace.project)
    plan = plan_fixes(project, evaluate(project).violations)
    expected_diff = preview_diff(plan)
    async with connect() as client:
        preview = ok(
            await client.call_tool(
                "structure-validate",
                {"path": str(workspace.project), "preview": True, "maxChars": WHOLE},
            )
        )
        assert snapshot(workspace.project) == before, "a preview writes nothing"
        token = preview["preview"]["planToken"]
        assert token.startswith("plan-sha256:") and preview["summary"]["planToken"] == token
        assert preview["preview"]["diff"] == split_diff(expected_diff)
        assert "".join(c["diff"] for c in preview["preview"]["diff"]) == expected_diff
        assert len(preview["preview"]["fixes"]) == len(plan.fixes)
        action = apply_action(preview)
        assert action["args"] == {"path": str(workspace.project), "fix": True, "planToken": token}
        # The same preview again gives the same token: it depends on the plan and the files.
        again = ok(
            await client.call_tool(
                "structure-validate", {"path": str(workspace.project), "preview": True}
            )
        )
        assert again["preview"]["planToken"] == token
        applied = ok(await client.call_tool(action["tool"], {**action["args"], "maxChars": WHOLE}))
    after = snapshot(workspace.project)
    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    assert changed == sorted(applied["changedFiles"])
    assert changed == sorted({c["file"] for c in preview["preview"]["diff"]})
    assert (workspace.project / "src/orders/index.ts").is_file()
    fixed = applied["fixedItems"]
    assert len(fixed) == len(plan.fixes) and all(f["success"] for f in fixed)
    # What the answer reports is what a fresh validation finds now.
    fresh = evaluate(load_project(workspace.project))
    assert sorted(v["fingerprint"] for v in applied["result"]["violations"]) == sorted(
        v.fingerprint for v in fresh.violations
    )


async def test_a_file_touched_between_preview_and_apply_is_refused(
    connect: ClientFactory, workspace: Workspace
) -> None:
    async with connect() as client:
        preview = ok(
            await client.call_tool(
                "structure-validate",
                {"path": str(workspace.project), "preview": True, "maxChars": WHOLE},
            )
        )
        edited = [c["file"] for c in preview["preview"]["diff"] if "/dev/null" not in c["diff"]]
        assert edited, "the example plan edits an existing file"
        target = workspace.project / edited[0]
        target.write_text(target.read_text() + "\n// touched by someone else\n")
        before = snapshot(workspace.project)
        action = apply_action(preview)
        refused = await client.call_tool(action["tool"], action["args"])
        message = error_text(refused)
        assert "refused" in message and edited[0] in message
        assert "preview=true again" in message
        assert snapshot(workspace.project) == before, "a refused apply writes nothing"
        # A new preview of the changed tree gives a token that applies.
        fresh = ok(
            await client.call_tool(
                "structure-validate", {"path": str(workspace.project), "preview": True}
            )
        )
        assert fresh["preview"]["planToken"] != preview["preview"]["planToken"]
        ok(await client.call_tool("structure-validate", apply_action(fresh)["args"]))
    assert (workspace.project / "src/orders/index.ts").is_file()


async def test_a_created_file_appearing_before_apply_is_refused(
    connect: ClientFactory, workspace: Workspace
) -> None:
    async with connect() as client:
        preview = ok(
            await client.call_tool(
                "structure-validate", {"path": str(workspace.project), "preview": True}
            )
        )
        (workspace.project / "src/orders/index.ts").write_text("export {};\n")
        refused = await client.call_tool("structure-validate", apply_action(preview)["args"])
    assert "src/orders/index.ts" in error_text(refused)


async def test_a_token_applies_once(connect: ClientFactory, workspace: Workspace) -> None:
    async with connect() as client:
        preview = ok(
            await client.call_tool(
                "structure-validate", {"path": str(workspace.project), "preview": True}
            )
        )
        args = apply_action(preview)["args"]
        ok(await client.call_tool("structure-validate", args))
        second = await client.call_tool("structure-validate", args)
    assert "refused" in error_text(second)


async def test_plain_fix_true_still_applies_every_pass(
    connect: ClientFactory, workspace: Workspace
) -> None:
    async with connect() as client:
        data = ok(
            await client.call_tool(
                "structure-validate", {"path": str(workspace.project), "fix": True}
            )
        )
    assert data["summary"]["fixed"] > 0 and data["changedFiles"]
    assert (workspace.project / "src/components/index.ts").is_file()


@pytest.mark.slow
async def test_preview_then_apply_over_stdio(workspace: Workspace, tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "filid", "mcp", "--root", str(workspace.allowed)],
        env=server_environment(),
        cwd=str(workspace.allowed),
    )
    async with Client(params, mode="legacy", read_timeout_seconds=60) as client:
        preview = ok(
            await client.call_tool("structure-validate", {"path": "project", "preview": True})
        )
        action = apply_action(preview)
        applied = ok(await client.call_tool(action["tool"], action["args"]))
    assert applied["changedFiles"]
    assert (workspace.project / "src/orders/index.ts").is_file()


async def test_paths_narrow_what_a_preview_shows_not_the_plan(
    connect: ClientFactory, workspace: Workspace
) -> None:
    path = str(workspace.project)
    async with connect() as client:
        whole = ok(await client.call_tool("structure-validate", {"path": path, "preview": True}))
        narrow = ok(
            await client.call_tool(
                "structure-validate",
                {"path": path, "preview": True, "paths": ["src/orders"]},
            )
        )
    assert narrow["preview"]["planToken"] == whole["preview"]["planToken"]
    assert [c["file"] for c in narrow["preview"]["diff"]] == ["src/orders/index.ts"]
    assert len(whole["preview"]["diff"]) > 1


async def test_every_list_of_a_fix_answer_can_be_paged_without_fixing_again(
    connect: ClientFactory, workspace: Workspace
) -> None:
    async with connect() as client:
        first = ok(
            await client.call_tool(
                "structure-validate", {"path": "project", "fix": True, "maxChars": 2000}
            )
        )
        after_fix = snapshot(workspace.project)
        cut = first["truncated"]
        assert "fixedItems" in cut, "a small budget cuts the fixed items"
        collected = {name: list(first.get(name) or []) for name in ("fixedItems", "changedFiles")}
        for name in collected:
            data = first
            while "nextOffset" in data["truncated"].get(name, {}):
                [step] = [a for a in data["nextActions"] if a["args"].get("list") == name]
                offset = data["truncated"][name]["nextOffset"]
                assert step["args"]["offset"] == offset and f"from item {offset}" in step["why"]
                assert step["args"]["fixRun"] == first["summary"]["fixRun"]
                assert "fix" not in step["args"]
                data = ok(await client.call_tool(step["tool"], step["args"]))
                assert data["truncated"][name]["offset"] == offset
                collected[name].extend(data[name])
        assert snapshot(workspace.project) == after_fix, "paging never fixes again"
    summary = first["summary"]
    assert len(collected["fixedItems"]) == summary["fixed"] + summary["fixFailed"]
    assert len(collected["changedFiles"]) == summary["changedFiles"]
    assert collected["changedFiles"] == sorted(collected["changedFiles"])


async def test_an_expired_fix_run_is_a_clean_error(connect: ClientFactory) -> None:
    async with connect() as client:
        result = await client.call_tool(
            "structure-validate",
            {"path": "project", "fixRun": "fix-0-0000", "list": "fixedItems", "offset": 3},
        )
    assert result.is_error
    assert "fixRun: unknown or expired" in result.content[0].text  # type: ignore[union-attr]


async def test_no_preview_is_offered_that_would_be_empty_and_the_answer_says_why(
    connect: ClientFactory, workspace: Workspace
) -> None:
    """Both modules without an entry point have a file the parser rejects: the safe
    create-index fixes cannot be planned, so no preview is offered and the answer says why."""
    for module in ("src/orders", "src/components"):
        for source in (workspace.project / module).iterdir():
            if source.suffix in (".ts", ".tsx"):
                source.write_text("export const broken = (;\n")
    arguments = {"path": "project", "rules": ["module-entry-point"]}
    async with connect() as client:
        validated = ok(await client.call_tool("structure-validate", arguments))
        previewed = ok(await client.call_tool("structure-validate", {**arguments, "preview": True}))
    assert validated["summary"]["safeFixes"] == 2
    assert not [a for a in validated["nextActions"] if a["args"].get("preview")]
    assert "syntax errors" in validated["summary"]["safeFixesBlocked"]
    assert previewed["summary"]["plannedFixes"] == 0
    assert previewed["summary"]["outcome"].startswith("nothing to apply: ")
    assert "syntax errors" in previewed["summary"]["outcome"]
    assert not [a for a in previewed["nextActions"] if a["args"].get("fix")]
