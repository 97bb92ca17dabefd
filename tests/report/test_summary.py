"""The Markdown job summary: golden file, tables, cycle diagrams, escaping and the size cap."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from filid.model.report import ValidationResult
from filid.model.violations import Location, Severity, Violation
from filid.report.summary import SUMMARY_LIMIT_BYTES, escape_cell, render_summary
from filid.rules.base import RuleMeta
from tests.report.conftest import make_result

UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def _table(text: str, heading: str) -> list[list[str]]:
    """The rows (cells split on unescaped pipes) of the table under ``heading``."""
    lines = text.split(heading, 1)[1].lstrip("\n").splitlines()
    rows = list(itertools.takewhile(lambda line: line.startswith("|"), lines))
    return [[c.strip() for c in UNESCAPED_PIPE.split(row)[1:-1]] for row in rows[2:]]


def _many(count: int, message_size: int) -> tuple[Violation, ...]:
    return tuple(
        Violation(
            rule_id="zero-peer-file",
            severity=Severity.WARNING,
            message=f"peer file {n} " + "x" * message_size,
            path=f"src/m{n:06}/peer.ts",
            location=Location(f"src/m{n:06}/peer.ts", 1, 1),
            node=f"src/m{n:06}",
        )
        for n in range(count)
    )


def test_golden(
    sample_result: ValidationResult,
    sample_rules: tuple[RuleMeta, ...],
    check_golden: Callable[[str, str], None],
) -> None:
    check_golden("summary.md", render_summary(sample_result, sample_rules))


def test_totals_and_counts_per_rule(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...]
) -> None:
    text = render_summary(sample_result, sample_rules)
    assert text.startswith("## filid check\n")
    assert "**3 errors, 2 warnings, 1 info**" in text
    assert f"{sample_result.failed_pairs} of {sample_result.total_pairs}" in text
    rows = _table(text, "### Violations by rule")
    counts = {row[0]: row[1:4] for row in rows}
    assert counts == {
        "circular-dependency": ["1", "0", "0"],
        "external-import-boundary": ["2", "0", "0"],
        "hybrid-node": ["0", "0", "1"],
        "module-entry-point": ["0", "1", "0"],
        "naming-convention": ["0", "1", "0"],
    }


def test_violation_table_has_every_violation_one_row_each(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...]
) -> None:
    rows = _table(render_summary(sample_result, sample_rules), "### Violations\n")
    assert len(rows) == len(sample_result.violations)
    assert all(len(row) == 4 for row in rows)  # an escaped "|" does not add a column
    deep = rows[1]
    assert deep[0] == "src/b/deep.ts:4:10"
    assert deep[2] == "error"
    assert deep[3] == r"Deep import of src/c/impl.ts (100% private): use src/c<br>see \| docs"
    assert "\x07" not in rows[3][3]


def test_cell_escaping() -> None:
    assert escape_cell("a|b") == r"a\|b"
    assert escape_cell("src/__tests__/x") == r"src/\_\_tests\_\_/x"
    assert escape_cell("<script>&") == r"\<script\>\&"
    assert escape_cell("back\\slash|") == r"back\\slash\|"
    assert escape_cell("one\r\ntwo\nthree") == "one<br>two<br>three"
    # Control and bidi characters are shown, not passed on (U+202E would reverse the cell).
    assert escape_cell("bell\x07") == r"bell\\x07"
    assert escape_cell("a\u202eb") == r"a\\u202eb"


def test_cycle_diagram_and_baseline_note(
    sample_result: ValidationResult, sample_rules: tuple[RuleMeta, ...]
) -> None:
    text = render_summary(sample_result, sample_rules)
    assert "### Import cycles" in text
    block = text.split("```mermaid\n", 1)[1].split("```", 1)[0]
    assert block.startswith("flowchart LR\n")
    for member in ("src/a", "src/b", "src/c", "src/c/util"):
        assert f'["{member}"]' in block
    assert "2 known violations suppressed by the baseline." in text
    assert "1 file could not be parsed: src/broken.ts" in text


def test_no_violations(sample_rules: tuple[RuleMeta, ...]) -> None:
    text = render_summary(make_result(violations=(), baseline_suppressed=0), sample_rules)
    assert "**No violations**" in text
    assert "### Violations" not in text
    assert "baseline" not in text


def test_stays_under_one_mebibyte_with_a_note(sample_rules: tuple[RuleMeta, ...]) -> None:
    cycle = make_result().violations[0]
    violations = (cycle, *_many(12_000, 100))
    text = render_summary(make_result(violations=violations), sample_rules)
    size = len(text.encode("utf-8"))
    assert size <= SUMMARY_LIMIT_BYTES
    assert size > SUMMARY_LIMIT_BYTES - 2_000  # truncated near the limit, not far below it
    shown = len(_table(text, "### Violations\n"))
    assert 0 < shown < len(violations)
    assert f"Showing the first {shown} of {len(violations)} violations" in text
    assert "```mermaid" in text  # the cycle diagram survives the cut


def test_custom_limit_and_nothing_cut_when_it_fits(sample_rules: tuple[RuleMeta, ...]) -> None:
    violations = _many(50, 20)
    full = render_summary(make_result(violations=violations), sample_rules)
    assert "Showing the first" not in full
    assert len(_table(full, "### Violations\n")) == 50
    limit = len(full.encode("utf-8")) - 200
    cut = render_summary(make_result(violations=violations), sample_rules, max_bytes=limit)
    assert len(cut.encode("utf-8")) <= limit
    assert "Showing the first" in cut
