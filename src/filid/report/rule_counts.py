"""Violations counted per rule, in the order a reader should look at them.

Cycles first (the findings a team most readily accepts: two modules that import each other
are coupled, whatever the naming conventions), then the rules by the most severe level they
reported at, then by count (largest first), then by id.
"""

from __future__ import annotations

from collections.abc import Iterable

from filid.model.violations import Violation

__all__ = ["FIRST_RULES", "count_by_rule"]

FIRST_RULES = ("circular-dependency",)


def count_by_rule(violations: Iterable[Violation]) -> list[tuple[str, int]]:
    """``(rule id, number of violations)`` for every rule that reported any, in reading order."""
    counts: dict[str, int] = {}
    worst: dict[str, int] = {}
    for violation in violations:
        rule = violation.rule_id
        counts[rule] = counts.get(rule, 0) + 1
        rank = violation.severity.rank
        worst[rule] = min(worst.get(rule, rank), rank)

    def order(rule: str) -> tuple[int, int, int, str]:
        first = FIRST_RULES.index(rule) if rule in FIRST_RULES else len(FIRST_RULES)
        return (first, worst[rule], -counts[rule], rule)

    return [(rule, counts[rule]) for rule in sorted(counts, key=order)]
