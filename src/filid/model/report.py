"""The result of one validation run, as every reporter (text, json, sarif, junit…) reads it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from filid.model.violations import Severity, SyncActionKind, Violation


class Regime(StrEnum):
    """Which claims a project signed up for (SPEC §0).

    ``declared``: the root holds ``.filid/config.json`` or a folder holds a boundary document;
    the FCA rules run. ``undeclared``: only the claims that hold for any TypeScript project run.
    """

    DECLARED = "declared"
    UNDECLARED = "undeclared"


@dataclass(frozen=True, slots=True)
class FixedItem:
    """One applied (or attempted) fix."""

    violation: Violation
    action: SyncActionKind
    result_path: str
    success: bool


@dataclass(frozen=True, slots=True)
class NewSince:
    """``--new-since``: the revision asked for, the merge base used, and the counts."""

    ref: str
    commit: str
    new: int
    fixed: int
    unchanged: int
    # Lines the change touched, per root-relative file (``None``: the whole file is new);
    # annotations put violations on these lines first.
    changed_lines: Mapping[str, frozenset[int] | None] = field(default_factory=dict)
    # The violations the merge base already had (SARIF keeps them as "unchanged").
    unchanged_violations: tuple[Violation, ...] = ()

    def touches(self, file: str, line: int) -> int:
        """0 if ``line`` of ``file`` changed, 1 if only the file changed, 2 otherwise."""
        if file not in self.changed_lines:
            return 2
        lines = self.changed_lines[file]
        return 0 if lines is None or line in lines else 1


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """Rules evaluated over a scope of a project.

    ``evaluated`` maps each applied rule id to the node paths it was evaluated on, so that
    pass/fail counts are over (node, rule) pairs; ``violations`` are sorted (path, rule, line).
    ``remaining`` is set after a fix run: the violations still present after re-validation.
    """

    root: Path
    scope: str
    violations: tuple[Violation, ...]
    evaluated: Mapping[str, tuple[str, ...]]
    rules_applied: tuple[str, ...]
    rules_skipped: tuple[str, ...]
    config_path: str | None
    timestamp: str
    notes: tuple[str, ...] = ()
    fixed: tuple[FixedItem, ...] = ()
    remaining: tuple[Violation, ...] | None = None
    baseline_suppressed: int = 0
    extra: Mapping[str, object] = field(default_factory=dict)
    new_since: NewSince | None = None
    # After a fix run: the files it wrote, created or removed (root-relative, sorted), and the
    # fingerprints of violations whose proposed fix the planner refused (not "fixable").
    changed_files: tuple[str, ...] = ()
    refused_fixes: frozenset[str] = frozenset()
    # The files whose content the fix planner read to find ``refused_fixes``: a change to one
    # of them can change the refusals even when no parsed fact changed; and the folder names
    # it looked for in every other file's text (never rendered).
    fix_inputs: frozenset[str] = frozenset()
    fix_needles: frozenset[str] = frozenset()
    # SPEC §0: the regime that ran and what declared it (a root-relative file, or None).
    regime: Regime = Regime.DECLARED
    declared_by: str | None = None

    @property
    def failed_pairs(self) -> int:
        """Number of evaluated (rule, node) pairs with at least one violation."""
        return len({(v.rule_id, v.node) for v in self.violations})

    @property
    def total_pairs(self) -> int:
        """Number of evaluated (rule, node) pairs."""
        return sum(len(nodes) for nodes in self.evaluated.values())

    @property
    def passed_pairs(self) -> int:
        """Number of evaluated (rule, node) pairs without a violation."""
        return max(self.total_pairs - self.failed_pairs, 0)

    def count(self, severity: Severity) -> int:
        """How many violations have ``severity``."""
        return sum(1 for v in self.violations if v.severity is severity)
