"""The fix kinds, one module each, and their registry (the order ``plan`` tries them in)."""

from __future__ import annotations

from filid.fix.kinds import create_index, move_file, rename, rewrite_import, split
from filid.fix.planning import FixKind

__all__ = ["KINDS"]

KINDS: tuple[FixKind, ...] = (
    create_index.KIND,
    rewrite_import.KIND,
    rename.KIND,
    move_file.KIND,
    split.KIND,
)
