"""The violations list of an answer: its order, its summary, and the calls that act on it.

A nextAction is only offered when the call it names would not be refused (a preview only
when the planner plans a fix).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from filid.fix.actions import SkippedFix
from filid.mcp.tools.calls import call, plural
from filid.mcp.tools.context import JsonObject
from filid.mcp.tools.paging import matches_paths
from filid.model.violations import Risk, Severity, Violation

__all__ = [
    "blocked_text",
    "fix_actions",
    "safe_fixes",
    "violation_summary",
    "violations_page",
]

_VIOLATION_RANK: Final = {"error": 0, "warning": 1, "info": 2}


def _fix_count_text(count: int) -> str:
    return f"{count} safe fix" + ("" if count == 1 else "es")


def _violation_key(v: JsonObject) -> tuple[int, str, str, int, int]:
    location = v["location"]
    return (
        _VIOLATION_RANK.get(v["severity"], 9),
        v["path"],
        v["ruleId"],
        location["line"],
        location["column"],
    )


def violations_page(violations: Sequence[JsonObject], args: Mapping[str, Any]) -> list[JsonObject]:
    """The violations to page through: filtered by ``paths``, most severe first, then path."""
    patterns = args.get("paths")
    kept = [v for v in violations if matches_paths(patterns, v["path"], v["location"]["file"])]
    return sorted(kept, key=_violation_key)


def violation_summary(
    violations: Sequence[Violation], shown_from: Sequence[JsonObject], args: Mapping[str, Any]
) -> JsonObject:
    """The counts of an answer's violations (by severity, by rule, safe fixes)."""
    by_severity = {level.value: 0 for level in Severity}
    by_rule: dict[str, int] = {}
    for v in violations:
        by_severity[v.severity.value] += 1
        by_rule[v.rule_id] = by_rule.get(v.rule_id, 0) + 1
    summary: JsonObject = {
        "violations": len(violations),
        "bySeverity": by_severity,
        "byRule": dict(sorted(by_rule.items())),
        "safeFixes": len(safe_fixes(violations)),
    }
    if args.get("paths"):
        summary["matchingPaths"] = len(shown_from)
    return summary


def safe_fixes(violations: Sequence[Violation]) -> list[Violation]:
    """The violations whose fix is safe to apply unattended."""
    return [v for v in violations if v.fix is not None and v.fix.risk is Risk.SAFE]


def blocked_text(skipped: Sequence[SkippedFix], limit: int = 3) -> str:
    """Why the planner left safe fixes out, in one short line (the first ``limit`` reasons)."""
    reasons = [f"{s.violation.rule_id} at {s.violation.path}: {s.reason}" for s in skipped]
    shown = "; ".join(r if len(r) <= 200 else r[:199] + "…" for r in reasons[:limit])
    more = f"; and {len(reasons) - limit} more" if len(reasons) > limit else ""
    return shown + more


def fix_actions(
    root: Path,
    violations: Sequence[Violation],
    args: Mapping[str, Any],
    refused: Sequence[SkippedFix],
    summary: JsonObject | None = None,
) -> list[JsonObject]:
    """Calls that act on ``violations``: preview the safe fixes, explain the manual ones.

    ``refused`` are the fixes the check workflow marked refused (or the fix loop's last plan
    could not make), with the planner's reasons: a preview is offered only for the safe
    fixes not among them; when they are all refused, ``summary.safeFixesBlocked`` says why
    (an agent told to preview an empty plan would only loop).
    """
    actions: list[JsonObject] = []
    safe = safe_fixes(violations)
    refused_prints = {s.violation.fingerprint for s in refused}
    offered = [v for v in safe if v.fingerprint not in refused_prints]
    if safe and not offered and summary is not None:
        safe_prints = {v.fingerprint for v in safe}
        blocked = [s for s in refused if s.violation.fingerprint in safe_prints]
        summary["safeFixesBlocked"] = blocked_text(blocked) or "no fix computable"
    safe = offered
    if safe:
        rules = sorted({v.rule_id for v in safe})
        extra: JsonObject = {"rules": list(args["rules"])} if args.get("rules") else {}
        actions.append(
            call(
                "structure-validate",
                root,
                f"preview the {_fix_count_text(len(safe))} ({', '.join(rules)}) as a diff; "
                "then apply exactly that plan with fix=true and its planToken",
                **extra,
                preview=True,
            )
        )
    manual = [v for v in violations if v.fix is None or v.fix.risk is not Risk.SAFE]
    if manual:
        counts: dict[str, int] = {}
        for v in manual:
            counts[v.rule_id] = counts.get(v.rule_id, 0) + 1
        rule_id = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        verb = "needs" if len(manual) == 1 else "need"
        actions.append(
            call(
                "rule-query",
                root,
                f"{plural(len(manual), 'violation')} {verb} a manual change (most are "
                f"{rule_id}): this explains the rule with valid and invalid examples",
                action="get",
                ruleId=rule_id,
            )
        )
    return actions
