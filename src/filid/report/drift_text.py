"""Human-readable drift report: items by severity, then the SyncPlan when requested."""

from __future__ import annotations

from filid.drift.detect import DriftReport
from filid.model.escape import visible
from filid.report.regime import describe_regime


def render_drift(report: DriftReport) -> str:
    """Each drift item with expected/actual state, a severity summary, and the ordered plan."""
    lines: list[str] = []
    for item in report.items:
        lines.append(f"[{item.severity.value}] {item.path}: {item.rule}")
        lines.append(f"  expected: {item.expected}")
        lines.append(f"  actual:   {item.actual}")
        lines.append(f"  action:   {item.suggested_action}")
    if lines:
        lines.append("")
    if report.total == 0:
        lines.append("No drift: the tree matches the rules.")
    else:
        counts = ", ".join(
            f"{report.by_severity.get(level, 0)} {level}"
            for level in ("critical", "high", "medium", "low")
        )
        lines.append(f"{report.total} drift item{'s' if report.total != 1 else ''} ({counts}).")
    lines.append(describe_regime(report.regime, report.declared_by))
    if report.sync_plan is not None:
        lines.append("")
        lines.append("Sync plan (apply top to bottom):")
        if not report.sync_plan:
            lines.append("  nothing to do")
        for number, step in enumerate(report.sync_plan, start=1):
            lines.append(
                f"  {number}. {step.action.value} {step.target_path} "
                f"[{step.estimated_risk.value}] {step.description}"
            )
    # Paths and names come from the repository: one item stays one line, shown as it is.
    return "\n".join(visible(line) for line in lines) + "\n"
