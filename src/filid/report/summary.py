"""The Markdown job summary for ``$GITHUB_STEP_SUMMARY`` (``filid check --github-summary``).

It carries what annotations cannot: totals, counts per rule and severity, every violation in
one table and a Mermaid diagram of each import cycle. GitHub accepts at most 1 MiB per step
summary, so the violation table is cut (with a note saying so) to keep the whole document
under ``max_bytes``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from filid.model.escape import markdown_cell
from filid.model.report import ValidationResult
from filid.model.violations import Severity, Violation
from filid.report.mermaid import render_cycle
from filid.report.regime import regime_sentence
from filid.rules.base import RuleMeta

SUMMARY_LIMIT_BYTES = 1024 * 1024

_SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)
_CONTROL_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Characters that could start emphasis, code, links, HTML or end a table cell; CommonMark lets
# every ASCII punctuation character be backslash-escaped, so escaping is always safe.
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<>|~&])")
_NEWLINES = re.compile(r"\r\n|\r|\n")
_TABLE_HEADER = "| Location | Rule | Severity | Message |\n|---|---|---|---|\n"


def render_summary(
    result: ValidationResult,
    rules: Sequence[RuleMeta],
    *,
    max_bytes: int = SUMMARY_LIMIT_BYTES,
) -> str:
    """Render the Markdown summary of ``result``, at most ``max_bytes`` UTF-8 bytes long."""
    head = _head(result, rules)
    rows = [_violation_row(v) for v in result.violations]
    cycles = [v for v in result.violations if v.members]
    tail = _cycles_section(cycles)
    if not rows:
        return _fit_text(head + tail, max_bytes)
    table = "\n### Violations\n\n" + _TABLE_HEADER
    note_reserve = _size(_truncation_note(len(rows), len(rows)))
    budget = max_bytes - _size(head) - _size(table) - _size(tail) - note_reserve
    if budget < 0 and tail:
        # The cycle diagrams are the least essential part: drop them before the table.
        tail = (
            "\n### Import cycles\n\n"
            "The cycle diagrams were left out to stay under the size limit.\n"
        )
        budget = max_bytes - _size(head) - _size(table) - _size(tail) - note_reserve
    kept: list[str] = []
    used = 0
    for row in rows:
        if used + _size(row) > budget:
            break
        kept.append(row)
        used += _size(row)
    note = _truncation_note(len(kept), len(rows)) if len(kept) < len(rows) else ""
    return _fit_text(head + table + "".join(kept) + note + tail, max_bytes)


def _head(result: ValidationResult, rules: Sequence[RuleMeta]) -> str:
    lines = ["## filid check", ""]
    counts = [result.count(severity) for severity in _SEVERITIES]
    if result.violations:
        lines.append(
            f"**{counts[0]} {_plural(counts[0], 'error')}, "
            f"{counts[1]} {_plural(counts[1], 'warning')}, {counts[2]} info** — "
            f"{result.failed_pairs} of {result.total_pairs} (rule, node) checks failed "
            f"(scope: {escape_cell(result.scope)})"
        )
    else:
        lines.append(
            f"**No violations** — {result.total_pairs} (rule, node) checks passed "
            f"(scope: {escape_cell(result.scope)})"
        )
    lines += ["", escape_cell(regime_sentence(result))]
    if result.baseline_suppressed:
        noun = _plural(result.baseline_suppressed, "violation")
        lines += ["", f"{result.baseline_suppressed} known {noun} suppressed by the baseline."]
    if result.new_since is not None:
        since = result.new_since
        lines += [
            "",
            f"Since `{markdown_cell(since.ref)}`: **{since.new} new**, {since.fixed} fixed, "
            f"{since.unchanged} unchanged.",
        ]
    if result.notes:
        lines.append("")
        lines.extend(f"- {escape_cell(note)}" for note in result.notes)
    if result.violations:
        lines += ["", "### Violations by rule", "", *_rule_table(result.violations, rules)]
    return "\n".join(lines) + "\n"


def _rule_table(violations: Sequence[Violation], rules: Sequence[RuleMeta]) -> list[str]:
    descriptions = {meta.id: meta.description for meta in rules}
    per_rule: Counter[tuple[str, Severity]] = Counter((v.rule_id, v.severity) for v in violations)
    lines = [
        "| Rule | Errors | Warnings | Info | Description |",
        "|---|---:|---:|---:|---|",
    ]
    for rule_id in sorted({v.rule_id for v in violations}):
        cells = [str(per_rule[(rule_id, severity)]) for severity in _SEVERITIES]
        description = escape_cell(descriptions.get(rule_id, ""))
        lines.append(f"| {escape_cell(rule_id)} | {' | '.join(cells)} | {description} |")
    return lines


def _violation_row(violation: Violation) -> str:
    location = violation.location
    where = f"{location.file}:{location.line}:{location.column}"
    return (
        f"| {escape_cell(where)} | {escape_cell(violation.rule_id)} | {violation.severity} "
        f"| {escape_cell(violation.message)} |\n"
    )


def _cycles_section(cycles: Sequence[Violation]) -> str:
    if not cycles:
        return ""
    parts = ["\n### Import cycles\n"]
    for violation in cycles:
        members = len(violation.members)
        parts.append(
            f"\n#### {escape_cell(violation.path)} ({members} {_plural(members, 'member')})\n"
            f"\n```mermaid\n{render_cycle(violation)}```\n"
        )
    return "".join(parts)


def _truncation_note(shown: int, total: int) -> str:
    return (
        f"\n_Showing the first {shown} of {total} violations: GitHub limits a job summary "
        "to 1 MiB. The SARIF, JUnit or JSON output has all of them._\n"
    )


def _fit_text(text: str, max_bytes: int) -> str:
    """Last resort for a tiny ``max_bytes``: cut at a character boundary."""
    encoded = text.encode("utf-8")
    if len(encoded) <= max_bytes:
        return text
    return encoded[:max_bytes].decode("utf-8", errors="ignore")


def escape_cell(text: str) -> str:
    """Make ``text`` one literal Markdown table cell: escaped specials, ``<br>`` for breaks."""
    return "<br>".join(markdown_cell(part) for part in _NEWLINES.split(text))


def _plural(count: int, noun: str) -> str:
    return noun if count == 1 else noun + "s"


def _size(text: str) -> int:
    return len(text.encode("utf-8"))
