"""Rule findings as users see them: severities, locations, fix metadata, violations."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    """A violation's severity; ``rank`` orders them (error is worst)."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """0 for error, 1 for warning, 2 for info."""
        return _RANK[self]


_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


class SyncActionKind(StrEnum):
    """The action that would resolve a violation (SPEC §6)."""

    MOVE = "move"
    RENAME = "rename"
    CREATE_INDEX = "create-index"
    CREATE_MAIN = "create-main"
    RECLASSIFY = "reclassify"
    SPLIT = "split"
    MERGE = "merge"
    REWRITE_IMPORT = "rewrite-import"


class Risk(StrEnum):
    """How risky a fix is: safe (``--fix``), moderate (``--unsafe-fixes``), risky (never)."""

    SAFE = "safe"
    MODERATE = "moderate"
    RISKY = "risky"


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a real file: 1-based line and character column (root-relative ``file``)."""

    file: str
    line: int = 1
    column: int = 1
    end_line: int | None = None
    end_column: int | None = None
    utf16_column: int | None = None


@dataclass(frozen=True, slots=True)
class FixInfo:
    """The SyncAction attached to a violation."""

    action: SyncActionKind
    risk: Risk
    description: str
    target_path: str


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule violation, after the engine applied config and attached a location.

    ``node`` is the node path the violation is counted against (for pass/fail pairs);
    ``related`` carries import-chain evidence (e.g. one location per hop of a cycle);
    ``members`` lists the member paths of a cycle; ``fingerprint`` is stable across unrelated
    line moves (used by baselines and SARIF).
    """

    rule_id: str
    severity: Severity
    message: str
    path: str
    location: Location
    node: str
    suggestion: str | None = None
    fix: FixInfo | None = None
    related: tuple[Location, ...] = ()
    members: tuple[str, ...] = ()
    fingerprint: str = ""

    def sort_key(self) -> tuple[str, str, int, int]:
        """Violations sort by path, rule id, line, column."""
        return (self.path, self.rule_id, self.location.line, self.location.column)
