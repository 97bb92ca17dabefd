"""Size caps shared by the report formats that code hosts read (SARIF, JUnit)."""

from __future__ import annotations

from collections.abc import Sequence

from filid.model.violations import Severity, Violation

__all__ = ["most_severe"]

_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def most_severe(violations: Sequence[Violation], limit: int) -> Sequence[Violation]:
    """At most ``limit`` violations, the most severe first chosen, in their original order."""
    if len(violations) <= limit:
        return violations
    order = sorted(range(len(violations)), key=lambda i: (_RANK[violations[i].severity], i))
    keep = sorted(order[:limit])
    return [violations[i] for i in keep]
