"""A folder renamed to its conventional name; every import into it is rewritten, and the
whole folder moves (dot and ignored files too).

Never renamed: a folder whose name orders it among its siblings (``00-guides``,
``2_setup``: documentation sidebars, ordered steps), and one that holds no source file
(assets, documents), whose name no import spells.
"""

from __future__ import annotations

import re

from filid.fix.candidate import Candidate, NotFixable, basename
from filid.fix.move_rewrites import rewrite_for_moves, verify_moves
from filid.fix.planned_paths import folder_contents
from filid.fix.planning import RESOLUTION_FILES, FixKind, PlanningContext
from filid.fix.specifiers import SOURCE_EXTENSIONS, segment_of, split_ext
from filid.graph.compiler_paths import is_within, parent_dir
from filid.model.violations import SyncActionKind

__all__ = ["KIND", "plan"]

_ORDERING_PREFIX = re.compile(r"^\d+[-_.]")


def plan(ctx: PlanningContext, candidate: Candidate) -> None:
    """Fill ``candidate`` with this fix's operations, or raise ``NotFixable`` saying why."""
    old = candidate.violation.path
    new = candidate.result_path
    if old == "." or old not in ctx.tree.nodes:
        raise NotFixable(f"{old} is not a directory that can be renamed")
    if parent_dir(new) != parent_dir(old) or "/" in basename(new) or not basename(new):
        raise NotFixable(f"{new} is not a sibling name for {old}")
    if ctx.exists(new):
        raise NotFixable(f"{new} already exists")
    if _ORDERING_PREFIX.match(basename(old)):
        raise NotFixable(f"{old} is named to order its siblings (a numbered prefix)")
    members = folder_contents(ctx.root, old)
    if not any(split_ext(basename(m))[1] in SOURCE_EXTENSIONS for m in members):
        raise NotFixable(f"{old} holds no source file; its name is not an import path")
    for member in members:
        if basename(member) in RESOLUTION_FILES:
            raise NotFixable(f"{old} holds {member}; moving it would change import resolution")
    ctx.refuse_protected([old, new, *members], {m: new + m[len(old) :] for m in members})
    candidate.moves = {f: new + f[len(old) :] for f in members}
    for member in members:
        candidate.reads.add(member)
        ctx.read(member)  # the move's digest; fails early if unreadable
    candidate.removes = sorted(
        (p for p in ctx.tree.nodes if is_within(p, old) and p != "."),
        key=lambda p: (-p.count("/"), p),
    )
    candidate.renamed_dir = old
    new_name = basename(new)
    depth = old.count("/") + 1

    def remap(path: str) -> str | None:
        return new + path[len(old) :] if path == old or path.startswith(old + "/") else None

    def alias(specifier: str, target: str) -> str | None:
        segments = specifier.split("/")
        position = segment_of(segments, target, depth)
        if position is None or position < 0 or segments[position] != basename(old):
            return None
        segments[position] = new_name
        return "/".join(segments)

    edited = rewrite_for_moves(ctx, candidate, remap, alias)
    verify_moves(ctx, candidate, edited)
    ctx.refuse_spelled_elsewhere(basename(old), set(members))


KIND = FixKind(SyncActionKind.RENAME, plan, rule_id=None)
