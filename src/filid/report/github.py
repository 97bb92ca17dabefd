"""GitHub Actions workflow commands: one ``::error|warning|notice`` annotation per violation.

GitHub shows at most 10 error and 10 warning annotations per step, so at most
``max_per_level`` annotations are printed per level (errors first) and the rest are counted
in one final ``::notice::``; the job summary (``report.summary``) carries every violation.
Under ``--new-since``, the violations on lines the change touched come first within each
level, then those in files it touched, so a pull request sees its own findings.
"""

from __future__ import annotations

from collections.abc import Mapping

from filid.model.escape import workflow_data, workflow_property
from filid.model.report import Regime, ValidationResult
from filid.model.violations import Severity, Violation
from filid.report.regime import regime_sentence

_COMMANDS: Mapping[Severity, str] = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "notice",
}

_SEVERITY_ORDER = (Severity.ERROR, Severity.WARNING, Severity.INFO)


def render_github(result: ValidationResult, *, max_per_level: int = 10) -> str:
    """Render ``result`` as workflow-command lines (``''`` when there are no violations in a
    declared project; an undeclared one always gets a notice saying how to adopt FCA)."""
    lines: list[str] = []
    if result.regime is Regime.UNDECLARED:
        lines.append("::notice title=filid::" + escape_data(regime_sentence(result)))
    omitted: dict[Severity, int] = {}
    for severity in _SEVERITY_ORDER:
        of_level = [v for v in result.violations if v.severity is severity]
        since = result.new_since
        if since is not None and since.changed_lines:
            of_level.sort(key=lambda v: since.touches(v.location.file, v.location.line))
        lines.extend(annotation(v) for v in of_level[:max_per_level])
        if len(of_level) > max_per_level:
            omitted[severity] = len(of_level) - max_per_level
    if omitted:
        total = sum(omitted.values())
        detail = ", ".join(f"{count} {severity}" for severity, count in omitted.items())
        noun = "violation was" if total == 1 else "violations were"
        lines.append(
            "::notice::"
            + escape_data(
                f"filid: {total} more {noun} not annotated ({detail}); "
                "the job summary lists all of them."
            )
        )
    return "".join(line + "\n" for line in lines)


def annotation(violation: Violation) -> str:
    """One workflow command for ``violation``, with its location and the rule id as title."""
    location = violation.location
    properties = [
        ("file", location.file),
        ("line", str(location.line)),
        ("col", str(location.column)),
    ]
    if location.end_line is not None:
        properties.append(("endLine", str(location.end_line)))
    if location.end_column is not None:
        properties.append(("endColumn", str(location.end_column)))
    properties.append(("title", violation.rule_id))
    rendered = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{_COMMANDS[violation.severity]} {rendered}::{escape_data(violation.message)}"


def escape_data(text: str) -> str:
    """Escape a command's message (``model.escape.workflow_data``)."""
    return workflow_data(text)


def escape_property(text: str) -> str:
    """Escape a property value (``model.escape.workflow_property``)."""
    return workflow_property(text)
