"""A loose peer file moved into a folder of its own (``zero-peer-file``)."""

from __future__ import annotations

from filid.fix.candidate import Candidate, NotFixable, basename
from filid.fix.move_rewrites import rewrite_for_moves, verify_moves
from filid.fix.planning import RESOLUTION_FILES, FixKind, PlanningContext
from filid.fix.specifiers import (
    file_matches_segment,
)
from filid.graph.tsconfig import parent_dir
from filid.model.nodes import NodeCategory
from filid.model.violations import SyncActionKind
from filid.scan.classify import ORGAN_NAMES, is_infra_name

__all__ = ["KIND", "plan"]


def plan(ctx: PlanningContext, candidate: Candidate) -> None:
    """Fill ``candidate`` with this fix's operations, or raise ``NotFixable`` saying why."""
    source = candidate.violation.path
    target = candidate.result_path
    if source not in ctx.files:
        raise NotFixable(f"{source} is not a project file")
    if basename(source) in RESOLUTION_FILES:
        raise NotFixable(f"moving {source} would change import resolution")
    target_dir = parent_dir(target)
    if parent_dir(target_dir) != parent_dir(source):
        raise NotFixable(f"{target} is not in a sub-folder beside {source}")
    if ctx.exists(target):
        raise NotFixable(f"{target} already exists")
    ctx.refuse_protected([source, target], {source: target})
    beside = sorted(
        edge.target
        for edge in ctx.edges_by_source.get(source, [])
        if parent_dir(edge.target) == parent_dir(source) and edge.target != source
    )
    if beside:
        # Moved down, the file would become a sub-module importing its parent module's
        # files (external-import-boundary, often a cycle): a new violation, not a fix.
        raise NotFixable(
            f"{source} imports {beside[0]} beside it; in a sub-folder it would import "
            "its parent module's files"
        )
    _refuse_new_pure_function(ctx, source, basename(target_dir))
    ctx.read(source)
    candidate.moves = {source: target}
    candidate.reads.add(source)
    folder = basename(target_dir)

    def remap(path: str) -> str | None:
        # A specifier names the file as `x`, `x.ts` or `x.js` in the file's directory.
        if parent_dir(path) == parent_dir(source) and file_matches_segment(
            basename(path), basename(source)
        ):
            return f"{target_dir}/{basename(path)}"
        return None

    def alias(specifier: str, resolved: str) -> str | None:
        segments = specifier.split("/")
        if len(segments) < 2 or not file_matches_segment(segments[-1], basename(resolved)):
            return None
        return "/".join([*segments[:-1], folder, segments[-1]])

    edited = rewrite_for_moves(ctx, candidate, remap, alias)
    verify_moves(ctx, candidate, edited)


def _refuse_new_pure_function(ctx: PlanningContext, source: str, folder: str) -> None:
    """Refuse a peer move that would make a pure-function folder importing modules.

    Alone in a new folder, a side-effect free file makes that folder a pure-function node
    that owns itself (SPEC §2 step 7): its imports of module files (its old parent's organs
    included) would then be pure-function-isolation violations and new cycles.
    """
    facts = ctx.project.facts.get(source)
    if facts is None or not facts.is_side_effect_free or source in ctx.project.test_files:
        return
    organs = ORGAN_NAMES | frozenset(ctx.project.config.structure.additional_organ_names)
    if folder in organs or is_infra_name(folder):
        return
    tree = ctx.project.tree
    modules = sorted(
        edge.target
        for edge in ctx.edges_by_source.get(source, [])
        if tree.owner_of(edge.target).category in (NodeCategory.FRACTAL, NodeCategory.HYBRID)
    )
    if modules:
        raise NotFixable(
            f"{source} is side-effect free: alone in {folder}/ it would be a pure-function "
            f"folder importing module file {modules[0]}"
        )


KIND = FixKind(SyncActionKind.MOVE, plan, rule_id="zero-peer-file")
