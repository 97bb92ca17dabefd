"""Human-readable output, in the style of ruff: ``path:line:col: severity rule-id message``,
with a legend for the fix markers ``[*]`` (``--fix``) and ``[~]`` (``--unsafe-fixes``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from filid.model.escape import visible
from filid.model.nodes import FractalTree, NodeCategory
from filid.model.report import ValidationResult
from filid.model.violations import Risk, Severity, Violation
from filid.report.regime import regime_sentence
from filid.report.rule_counts import count_by_rule

if TYPE_CHECKING:
    # Annotations only: a check's report is rendered without importing the rules (and the
    # graph code they import), about 0.015 s of every pre-commit run.
    from filid.rules.base import RuleMeta

_COLORS = {
    Severity.ERROR: "\x1b[31m",
    Severity.WARNING: "\x1b[33m",
    Severity.INFO: "\x1b[36m",
}
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"
_MAX_NOTES = 5


def _paint(text: str, code: str, color: bool) -> str:
    return f"{code}{text}{_RESET}" if color else text


LEGEND = "[*] fixable with --fix, [~] fixable with --unsafe-fixes"


def fix_marker(violation: Violation, refused: frozenset[str] = frozenset()) -> str:
    """``[*]`` for a safe fix (``--fix``), ``[~]`` for a moderate one (``--unsafe-fixes``);
    nothing for a fix the planner ``refused`` (fingerprints): the marker promises a fix."""
    if violation.fix is None or violation.fingerprint in refused:
        return ""
    if violation.fix.risk is Risk.SAFE:
        return "[*] "
    if violation.fix.risk is Risk.MODERATE:
        return "[~] "
    return ""


def render_violation(
    violation: Violation, *, color: bool = False, refused: frozenset[str] = frozenset()
) -> str:
    """One violation: the location line, then an indented ``help:`` line if any."""
    loc = violation.location
    where = _paint(f"{visible(loc.file)}:{loc.line}:{loc.column}:", _BOLD, color)
    severity = _paint(violation.severity.value, _COLORS[violation.severity], color)
    line = f"{where} {severity} {violation.rule_id} {fix_marker(violation, refused)}"
    line += visible(violation.message)
    if violation.suggestion:
        line += "\n  " + _paint(f"help: {visible(violation.suggestion)}", _DIM, color)
    return line


def fixable_counts(
    violations: Iterable[Violation], refused: frozenset[str] = frozenset()
) -> tuple[int, int]:
    """(safe-fixable, moderate-fixable) counts, leaving out fixes the planner ``refused``."""
    safe = moderate = 0
    for violation in violations:
        if violation.fix is None or violation.fingerprint in refused:
            continue
        if violation.fix.risk is Risk.SAFE:
            safe += 1
        elif violation.fix.risk is Risk.MODERATE:
            moderate += 1
    return safe, moderate


def render_check(
    result: ValidationResult, *, color: bool = False, quiet: bool = False, verbose: bool = False
) -> str:
    """The text report of ``filid check``: violations, fixes applied, summary, fix hint, notes."""
    lines: list[str] = []
    if not quiet:
        lines.extend(
            render_violation(v, color=color, refused=result.refused_fixes)
            for v in result.violations
        )
    applied = [item for item in result.fixed if item.success]
    if applied:
        if lines:
            lines.append("")
        lines.append(f"Fixed {len(applied)} violation(s):")
        lines.extend(
            f"  {item.action}: {item.result_path} ({item.violation.rule_id})" for item in applied
        )
    if result.changed_files:
        if lines:
            lines.append("")
        count = len(result.changed_files)
        lines.append(f"Changed {count} file{'s' if count != 1 else ''}:")
        lines.extend(f"  {visible(path)}" for path in result.changed_files)
    total = len(result.violations)
    if lines:
        lines.append("")
    if total == 0:
        lines.append(_paint("All checks passed!", _BOLD, color))
    else:
        lines.append(f"Found {total} violation{'s' if total != 1 else ''}.")
        for severity in Severity:
            count = result.count(severity)
            if count:
                lines.append(f"{_paint(severity.value, _COLORS[severity], color)}: {count}")
        lines.extend(_rule_count_lines(result.violations))
        safe, moderate = fixable_counts(result.violations, result.refused_fixes)
        refused = sum(
            1
            for v in result.violations
            if v.fix is not None and v.fingerprint in result.refused_fixes
        )
        if refused:
            lines.append(
                f"{refused} proposed fix(es) cannot be applied (the notes say why; -v lists all)."
            )
        if safe or moderate:
            hint = f"{safe} fixable with --fix"
            if moderate:
                hint += f" ({moderate} more with --unsafe-fixes)"
            lines.append(hint + ".")
            lines.append(LEGEND)
    lines.append(regime_sentence(result))
    if result.baseline_suppressed:
        lines.append(f"{result.baseline_suppressed} known violation(s) hidden by the baseline.")
    if result.new_since is not None:
        since = result.new_since
        lines.append(
            f"Since {visible(since.ref)} (merge base {since.commit[:12]}): {since.new} new, "
            f"{since.fixed} fixed, {since.unchanged} unchanged (only new ones are listed)."
        )
    notes = list(result.notes)
    if notes and not quiet:
        shown = notes if verbose else notes[:_MAX_NOTES]
        lines.extend(f"note: {visible(note)}" for note in shown)
        if len(notes) > len(shown):
            lines.append(f"note: … and {len(notes) - len(shown)} more (use -v to see all)")
    return "\n".join(lines) + "\n"


def _rule_count_lines(violations: Sequence[Violation]) -> list[str]:
    """One line per rule (``ruff --statistics`` style): the count, the rule id and its worst
    severity; cycles first, then errors, then by count (``report.rule_counts``)."""
    counts = count_by_rule(violations)
    worst: dict[str, Severity] = {}
    for v in violations:
        if v.rule_id not in worst or v.severity.rank < worst[v.rule_id].rank:
            worst[v.rule_id] = v.severity
    width = max(len(str(count)) for _, count in counts)
    rule_width = max(len(rule) for rule, _ in counts)
    return [
        f"{count:>{width}}  {rule:<{rule_width}}  {worst[rule].value}".rstrip()
        for rule, count in counts
    ]


_CATEGORY_MARK = {
    NodeCategory.FRACTAL: "fractal",
    NodeCategory.ORGAN: "organ",
    NodeCategory.PURE_FUNCTION: "pure-function",
    NodeCategory.HYBRID: "hybrid",
}


def render_tree(tree: FractalTree, *, max_depth: int | None = None, color: bool = False) -> str:
    """The classified tree as an indented outline with categories and entry/doc markers."""
    lines: list[str] = []
    counts: dict[NodeCategory, int] = {}

    def visit(path: str, prefix: str, is_last: bool, is_root: bool) -> None:
        node = tree.nodes[path]
        counts[node.category] = counts.get(node.category, 0) + 1
        marks = [m for m, on in (("index", node.index_file), ("main", node.main_file)) if on]
        if node.intent_doc:
            marks.append(visible(node.intent_doc))
        name = visible(node.name)
        label = name + "/" if not is_root else f"{name}/ (.)"
        category = _paint(f"[{_CATEGORY_MARK[node.category]}]", _DIM, color)
        extra = f"  {', '.join(marks)}" if marks else ""
        branch = "" if is_root else ("└── " if is_last else "├── ")
        lines.append(f"{prefix}{branch}{label} {category}{extra}")
        if max_depth is not None and node.depth >= max_depth:
            return
        child_prefix = prefix if is_root else prefix + ("    " if is_last else "│   ")
        for i, child in enumerate(node.children):
            visit(child, child_prefix, i == len(node.children) - 1, False)

    visit(".", "", True, True)
    summary = ", ".join(f"{counts[c]} {c.value}" for c in NodeCategory if counts.get(c))
    lines.append("")
    lines.append(f"{len(tree.nodes)} nodes ({summary}), depth {tree.depth}")
    return "\n".join(lines) + "\n"


def render_rule_list(rules: Iterable[tuple[RuleMeta, bool]]) -> str:
    """``filid rules list``: id, severity, category, enabled, description."""
    rows = [
        (m.id, m.default_severity.value, m.category.value, on, m.description) for m, on in rules
    ]
    width = max((len(r[0]) for r in rows), default=0)
    lines = [
        f"{rid.ljust(width)}  {sev:<7}  {cat:<13}  {'on ' if on else 'off'}  {desc}"
        for rid, sev, cat, on, desc in rows
    ]
    return "\n".join(lines) + "\n"


def render_rule_detail(
    meta: RuleMeta, enabled: bool, options: tuple[tuple[str, str, str], ...] = ()
) -> str:
    """``filid rules get ID``: everything about one rule, with its examples."""
    lines = [
        f"{meta.id} ({meta.category.value}, {meta.default_severity.value}"
        f"{'' if enabled else ', disabled'})",
        "",
        meta.description,
        "",
        "Why: " + meta.rationale,
        "Applies to: " + ", ".join(sorted(c.value for c in meta.applies_to)),
    ]
    if not meta.enabled_by_default:
        lines.append(
            "Off by default (the upstream plugin removed it in 1.0): runs when "
            f".filid/config.json sets rules.{meta.id}.enabled to true"
        )
    if meta.fix_action is not None and meta.fix_risk is not None:
        lines.append(f"Fix: {meta.fix_action.value} ({meta.fix_risk.value})")
    if meta.aliases:
        lines.append("Aliases: " + ", ".join(meta.aliases))
    if options:
        lines.append("Options (rules.<id>.options in .filid/config.json):")
        lines.extend(f"  {name} (default {default}): {doc}" for name, default, doc in options)
    else:
        lines.append("Options: none")
    for title, examples in (("Valid", meta.valid), ("Invalid", meta.invalid)):
        for example in examples:
            lines.append("")
            lines.append(f"{title} example: {example.description}")
            for path, content in sorted(example.files.items()):
                lines.append(f"  // {path}")
                lines.extend(f"  {line}" for line in content.rstrip("\n").splitlines())
    return "\n".join(lines) + "\n"
