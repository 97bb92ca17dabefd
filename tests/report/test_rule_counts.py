"""Summaries count per rule (cycles first) and name their counts for what they count."""

from __future__ import annotations

import json

from click.testing import CliRunner

from filid.cli import cli
from tests.conftest import ProjectFactory

INTENT = "# M\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"
# FCA 1.0: a module's DETAIL.md beside its INTENT.md (else detail-document-contract errors).
DETAIL = (
    "# M\n\n## Requirements\n- r\n\n## API Contracts\n- c\n\n## Acceptance Criteria\n"
    "### AC-1 — Works\n- w\n\n## Last Updated\n2026-01-01\n"
)


def _project(make_project: ProjectFactory, *, root_intent: bool = False) -> str:
    files = {
        # a and b import each other: one cycle (1 error)
        "src/a/INTENT.md": INTENT,
        "src/a/DETAIL.md": DETAIL,
        "src/a/index.ts": "import { b } from '../b';\nexport const a = () => b;\n",
        "src/b/INTENT.md": INTENT,
        "src/b/DETAIL.md": DETAIL,
        "src/b/index.ts": "import { a } from '../a';\nexport const b = () => a;\n",
        # c reaches past d's entry point twice (2 errors)
        "src/c/INTENT.md": INTENT,
        "src/c/DETAIL.md": DETAIL,
        "src/c/index.ts": "export { x } from '../d/x';\nexport { y } from '../d/y';\n",
        "src/d/INTENT.md": INTENT,
        "src/d/DETAIL.md": DETAIL,
        "src/d/index.ts": "export { x } from './x';\nexport { y } from './y';\n",
        "src/d/x.ts": "export const x = 1;\n",
        "src/d/y.ts": "export const y = 1;\n",
    }
    if root_intent:
        files["INTENT.md"] = INTENT
    return str(make_project(files))


def _check(*args: str) -> str:
    result = CliRunner().invoke(cli, ["check", *args, "--no-cache", "--no-progress"])
    assert result.exit_code == 1, result.output
    return result.stdout


def test_text_summary_counts_per_rule_with_cycles_first(make_project: ProjectFactory) -> None:
    out = _check(_project(make_project), "-q")
    lines = out.splitlines()
    start = lines.index("error: 3")
    rule_lines = [line.split() for line in lines[start + 1 :] if line.strip()[:1].isdigit()]
    # the cycle comes first although external-import-boundary counts more
    assert rule_lines[0] == ["1", "circular-dependency", "error"]
    assert ["2", "external-import-boundary", "error"] in rule_lines
    warnings = [r for r in rule_lines if r[2] == "warning"]
    assert rule_lines.index(warnings[0]) > rule_lines.index(
        ["2", "external-import-boundary", "error"]
    )


def test_json_counts_beside_the_seed_fields(make_project: ProjectFactory) -> None:
    data = json.loads(_check(_project(make_project), "--format", "json"))["result"]
    violations = data["violations"]
    assert data["violationCount"] == len(violations)
    assert data["severityCounts"] == {
        level: sum(1 for v in violations if v["severity"] == level)
        for level in ("error", "warning", "info")
    }
    assert data["ruleCounts"][0] == {"ruleId": "circular-dependency", "count": 1}
    assert {"ruleId": "external-import-boundary", "count": 2} in data["ruleCounts"]
    assert sum(r["count"] for r in data["ruleCounts"]) == len(violations)
    # passed/failed are (node, rule) pairs: together they are every check made
    assert data["passed"] + data["failed"] == data["checkedPairs"]


def test_the_root_is_not_called_an_organ(make_project: ProjectFactory) -> None:
    plain = json.loads(_check(_project(make_project), "--format", "json"))["result"]
    assert "category" not in plain
    declared = json.loads(_check(_project(make_project, root_intent=True), "--format", "json"))[
        "result"
    ]
    assert declared["category"] == "fractal"
