"""SyncActions as data: the closed union of file operations a fix performs (STYLE "Fixes").

Each operation carries its precondition: a created file must be absent, an edited or moved
file must still have the content digest it had when the fix was planned. Code that handles
operations matches on the union and ends with ``assert_never`` so a new variant cannot be
silently ignored.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from filid.model.violations import Risk, SyncActionKind, Violation

__all__ = [
    "CreateFile",
    "Edit",
    "EditFile",
    "FixPlan",
    "MoveFile",
    "PlannedFix",
    "RemoveDirIfEmpty",
    "SkippedFix",
    "SyncAction",
    "digest",
]


def digest(content: bytes) -> str:
    """The hex SHA-256 of ``content`` (the precondition of edits and moves)."""
    return hashlib.sha256(content).hexdigest()


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace bytes ``[start_byte, end_byte)`` of a file with ``replacement`` (UTF-8 text)."""

    start_byte: int
    end_byte: int
    replacement: str

    def overlaps(self, other: Edit) -> bool:
        """Whether two edits touch the same bytes (two insertions at one point also clash)."""
        if self.start_byte == self.end_byte and other.start_byte == other.end_byte:
            return self.start_byte == other.start_byte
        return self.start_byte < other.end_byte and other.start_byte < self.end_byte


@dataclass(frozen=True, slots=True)
class CreateFile:
    """Write a new file. Precondition: ``path`` does not exist."""

    path: str
    content: str


@dataclass(frozen=True, slots=True)
class EditFile:
    """Apply byte-span edits to a file. Precondition: its SHA-256 is ``expected_sha256``.

    ``edits`` are sorted and do not overlap; offsets are into the content the digest names.
    """

    path: str
    expected_sha256: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class MoveFile:
    """Move a file. Preconditions: ``src`` has SHA-256 ``expected_sha256``; ``dst`` is absent."""

    src: str
    dst: str
    expected_sha256: str


@dataclass(frozen=True, slots=True)
class RemoveDirIfEmpty:
    """Remove a directory a move emptied; left alone when anything remains in it."""

    path: str


SyncAction = CreateFile | EditFile | MoveFile | RemoveDirIfEmpty


@dataclass(frozen=True, slots=True)
class PlannedFix:
    """The operations that resolve one violation, in original (pre-fix) coordinates.

    ``result_path`` is the path the fix produces (created index, new directory, moved file…).
    """

    violation: Violation
    action: SyncActionKind
    risk: Risk
    result_path: str
    operations: tuple[SyncAction, ...]


@dataclass(frozen=True, slots=True)
class SkippedFix:
    """A fix that was not planned (too risky, not computable, or in conflict), and why."""

    violation: Violation
    reason: str


@dataclass(frozen=True, slots=True)
class FixPlan:
    """Everything one fix pass will do, computed before any byte is written.

    ``operations`` merge the accepted fixes in apply order: creations, moves, edits (at the
    files' post-move paths), then directory removals, deepest first.
    """

    root: Path
    fixes: tuple[PlannedFix, ...]
    skipped: tuple[SkippedFix, ...]
    operations: tuple[SyncAction, ...]
    # Root-relative files whose content planning used (digests, import text, a spelled
    # folder name), and the folder names it searched every other file's text for.
    reads: frozenset[str] = frozenset()
    needles: frozenset[str] = frozenset()

    @property
    def is_empty(self) -> bool:
        """True when the pass would write nothing."""
        return not self.operations
