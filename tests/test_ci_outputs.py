"""One `filid check` run writes annotations, SARIF, JUnit and the summary, and they agree;
a baseline hides known violations (even after their lines move) and fails on new ones."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from click.testing import CliRunner

from filid.cli import cli
from tests.conftest import EXAMPLES


def copy_examples(tmp_path: Path) -> Path:
    target = tmp_path / "examples"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns("cache"))
    return target


def test_one_run_writes_every_format_and_they_agree(tmp_path: Path) -> None:
    root = copy_examples(tmp_path)
    sarif, junit, summary = tmp_path / "f.sarif", tmp_path / "f.xml", tmp_path / "summary.md"
    summary.write_text("# earlier step\n")
    runner = CliRunner()
    done = runner.invoke(
        cli,
        [
            "check",
            str(root),
            "--no-cache",
            "--format",
            "github",
            "--sarif",
            str(sarif),
            "--junit",
            str(junit),
            "--github-summary",
            str(summary),
        ],
    )
    assert done.exit_code == 1
    reference = json.loads(
        runner.invoke(cli, ["check", str(root), "--no-cache", "--format", "json"]).stdout
    )["result"]["violations"]
    expected = Counter(v["severity"] for v in reference)
    total = len(reference)

    annotations = re.findall(r"^::(error|warning|notice) file=", done.stdout, flags=re.M)
    github_levels = {"error": "error", "warning": "warning", "notice": "info"}
    # GitHub shows 10 annotations per level; the rest are counted in one closing notice.
    shown = Counter({level: min(count, 10) for level, count in expected.items()})
    assert Counter(github_levels[a] for a in annotations) == shown
    hidden = total - sum(shown.values())
    if hidden:
        assert f"filid: {hidden} more " in done.stdout

    results = json.loads(sarif.read_text())["runs"][0]["results"]
    sarif_levels = {"error": "error", "warning": "warning", "note": "info"}
    assert Counter(sarif_levels[r["level"]] for r in results) == expected

    suites = ET.parse(junit).getroot()
    failures = suites.findall(".//failure")
    assert len(failures) == total
    by_rule = Counter(f.get("type") for f in failures)
    assert by_rule == Counter(v["ruleId"] for v in reference)

    text = summary.read_text()
    assert text.startswith("# earlier step\n")  # appended, not overwritten
    for severity, count in expected.items():
        assert re.search(rf"{count}\s*{severity}|{severity}\D*{count}", text, flags=re.I)


def test_baseline_hides_known_violations_even_after_line_moves(tmp_path: Path) -> None:
    root = copy_examples(tmp_path)
    baseline = tmp_path / "baseline.json"
    runner = CliRunner()
    written = runner.invoke(
        cli, ["check", str(root), "--no-cache", "--write-baseline", str(baseline), "--exit-zero"]
    )
    assert written.exit_code == 0
    assert (
        runner.invoke(
            cli, ["check", str(root), "--no-cache", "--baseline", str(baseline)]
        ).exit_code
        == 0
    )
    # unrelated edits move every import of app.ts down two lines: still known
    app = root / "src/app/app.ts"
    app.write_text("// header\n\n" + app.read_text())
    moved = runner.invoke(cli, ["check", str(root), "--no-cache", "--baseline", str(baseline)])
    assert moved.exit_code == 0, moved.stdout
    assert "hidden by the baseline" in moved.stdout
    # a new violation is reported and fails
    (root / "src/app/extra.ts").write_text(
        "import { hash } from '../auth/utils/hash';\nexport const h = hash;\n"
    )
    new = runner.invoke(
        cli, ["check", str(root), "--no-cache", "--baseline", str(baseline), "--format", "json"]
    )
    assert new.exit_code == 1
    paths = {v["path"] for v in json.loads(new.stdout)["result"]["violations"]}
    assert paths == {"src/app/extra.ts"}
