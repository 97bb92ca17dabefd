"""drift-detect: violations as drift items, most severe first, optionally with the SyncPlan.

Next: preview the safe fixes the plan would make, explain the manual ones, or order the
corrective actions into a plan.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from filid.check import CheckOptions, run_check
from filid.mcp import outputs, schemas
from filid.mcp.budget import Section
from filid.mcp.tools.calls import call, given_args, pager
from filid.mcp.tools.context import JsonObject, ToolContext, ToolSpec
from filid.mcp.tools.paging import budgeted, matches_paths
from filid.mcp.tools.violations import fix_actions

__all__ = ["SPEC", "run_drift_detect"]

_DRIFT_RANK: Final = {"critical": 0, "high": 1, "medium": 2, "low": 3}


def run_drift_detect(ctx: ToolContext, root: Path, args: Mapping[str, Any]) -> JsonObject:
    """drift-detect: violations as drift items, optionally with the SyncPlan."""
    from filid.drift.detect import detect_drift

    with ctx.locks.reading(root):
        run = run_check(
            CheckOptions(root, rules=args.get("rules"), reuse=False, note_refusals=False)
        )
    result = run.result
    report = detect_drift(result, min_severity=args.get("severity"), with_plan=args["generatePlan"])
    data: JsonObject = dict(report.to_json())
    patterns = args.get("paths")
    items = [i for i in data["items"] if matches_paths(patterns, i["path"])]
    items.sort(key=lambda i: (_DRIFT_RANK.get(i["severity"], 9), i["path"], i["rule"]))
    by_rule: dict[str, int] = {}
    for item in report.items:
        by_rule[item.rule] = by_rule.get(item.rule, 0) + 1
    summary: JsonObject = {
        "totalDrifts": report.total,
        "bySeverity": data["bySeverity"],
        "byRule": dict(sorted(by_rule.items())),
    }
    sections = [Section("items", ("items",), items)]
    if "syncPlan" in data:
        plan = [p for p in data["syncPlan"] if matches_paths(patterns, p["targetPath"])]
        summary["planSteps"] = len(data["syncPlan"])
        sections.append(Section("syncPlan", ("syncPlan",), plan))
    if patterns:
        summary["matchingPaths"] = len(items)
    # Act on what the answer shows: the kept severities, the matching paths.
    kept = {(i["path"], i["rule"]) for i in items}
    acted = [v for v in result.violations if (v.path, v.rule_id) in kept]
    actions = fix_actions(root, acted, args, run.refused, summary)
    if report.items and not args["generatePlan"]:
        actions.append(
            call(
                "drift-detect",
                root,
                "order the corrective actions into a plan",
                **given_args("drift-detect", args, ("generatePlan",)),
                generatePlan=True,
            )
        )
    return budgeted(
        {"summary": summary}, data, sections, args, actions, pager("drift-detect", root, args)
    )


SPEC: Final = ToolSpec(
    name="drift-detect",
    title="Detect structural drift",
    description=(
        "Compare the project's structure with the fractal rules and list each drift "
        "item (what the rule expects, what is there, severity critical/high/medium/low, "
        "suggested action). generatePlan=true adds an ordered syncPlan. Read-only; "
        "structure-validate with fix=true applies the safe part of the plan."
    ),
    input_schema=schemas.DRIFT_DETECT,
    output_schema=outputs.DRIFT_DETECT,
    run=run_drift_detect,
    read_only=True,
)
