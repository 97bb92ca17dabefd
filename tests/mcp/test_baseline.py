"""structure-validate with ``baseline``: new violations only, with suppressed and fixed counts."""

from __future__ import annotations

import pytest

from filid.check.baseline import write_baseline
from filid.check.engine import evaluate
from filid.check.project import load_project
from tests.mcp.conftest import ClientFactory, Workspace
from tests.mcp.test_server import error_text, ok

pytestmark = pytest.mark.anyio

WHOLE = 50_000


def record(workspace: Workspace, name: str = ".filid/baseline.json") -> int:
    result = evaluate(load_project(workspace.project))
    target = workspace.project / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(write_baseline(result))
    return len(result.violations)


async def test_nothing_new_right_after_recording(
    connect: ClientFactory, workspace: Workspace
) -> None:
    recorded = record(workspace)
    async with connect() as client:
        data = ok(
            await client.call_tool(
                "structure-validate",
                {"path": str(workspace.project), "baseline": ".filid/baseline.json"},
            )
        )
    assert data["result"]["violations"] == []
    counts = {"path": ".filid/baseline.json", "new": 0, "suppressed": recorded, "fixed": 0}
    assert data["baseline"] == counts
    assert data["summary"]["baseline"] == counts
    assert data["summary"]["violations"] == 0
    assert data["baselineSuppressed"] == recorded


async def test_new_violations_are_reported_and_fixed_ones_counted(
    connect: ClientFactory, workspace: Workspace
) -> None:
    recorded = record(workspace)
    # Fix two known violations (the missing entry points) and add a new one (a peer file).
    for module in ("src/orders", "src/components"):
        (workspace.project / module / "index.ts").write_text("export {};\n")
    (workspace.project / "src/billing/extra.ts").write_text("export const extra = 1;\n")
    now = evaluate(load_project(workspace.project))
    async with connect() as client:
        data = ok(
            await client.call_tool(
                "structure-validate",
                {
                    "path": str(workspace.project),
                    "baseline": str(workspace.project / ".filid/baseline.json"),
                    "maxChars": WHOLE,
                },
            )
        )
    new = data["result"]["violations"]
    assert [(v["ruleId"], v["path"]) for v in new] == [("zero-peer-file", "src/billing/extra.ts")]
    baseline = data["baseline"]
    assert baseline["new"] == 1
    assert baseline["suppressed"] == len(now.violations) - 1
    assert baseline["fixed"] == recorded - baseline["suppressed"] >= 2
    assert data["summary"]["violations"] == 1


async def test_rules_narrow_the_baseline_counts(
    connect: ClientFactory, workspace: Workspace
) -> None:
    record(workspace)
    async with connect() as client:
        data = ok(
            await client.call_tool(
                "structure-validate",
                {
                    "path": str(workspace.project),
                    "baseline": ".filid/baseline.json",
                    "rules": ["module-entry-point"],
                },
            )
        )
    # Entries of rules not evaluated are neither suppressed nor counted as fixed.
    assert data["baseline"] == {
        "path": ".filid/baseline.json",
        "new": 0,
        "suppressed": 2,
        "fixed": 0,
    }


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not valid JSON"),
        ('{"version": 2, "violations": []}', "version: expected 1"),
    ],
)
async def test_a_bad_baseline_is_a_tool_error(
    connect: ClientFactory, workspace: Workspace, content: str, expected: str
) -> None:
    (workspace.project / "baseline.json").write_text(content)
    async with connect() as client:
        result = await client.call_tool(
            "structure-validate", {"path": str(workspace.project), "baseline": "baseline.json"}
        )
    assert expected in error_text(result)


async def test_baseline_is_only_for_validation(
    connect: ClientFactory, workspace: Workspace
) -> None:
    record(workspace)
    async with connect() as client:
        result = await client.call_tool(
            "structure-validate",
            {"path": str(workspace.project), "baseline": ".filid/baseline.json", "fix": True},
        )
    assert "baseline: only when validating" in error_text(result)
