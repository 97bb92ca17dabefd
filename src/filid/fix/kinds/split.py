"""An impure barrel split: its declarations move to a new file the index re-exports."""

from __future__ import annotations

from filid.fix.actions import (
    Edit,
)
from filid.fix.barrel import split_index
from filid.fix.candidate import Candidate, NotFixable, basename
from filid.fix.planning import FixKind, PlanningContext
from filid.fix.specifiers import (
    specifier_for_file,
    split_ext,
)
from filid.graph.tsconfig import parent_dir
from filid.model.violations import SyncActionKind
from filid.rules.index_barrel_pattern import split_target

__all__ = ["KIND", "plan"]


def plan(ctx: PlanningContext, candidate: Candidate) -> None:
    """Fill ``candidate`` with this fix's operations, or raise ``NotFixable`` saying why."""
    node = ctx.tree.nodes.get(candidate.violation.path)
    if node is None or node.index_file is None:
        raise NotFixable(f"{candidate.violation.path} has no index file")
    index = node.file_path(node.index_file)
    facts = ctx.project.facts.get(index)
    if facts is None:
        raise NotFixable(f"{index} was not parsed")
    target = candidate.result_path
    if parent_dir(target) != node.path or ctx.exists(target):
        extension = "." + node.index_file.rsplit(".", 1)[1]
        target = split_target(node.path, node.name, node.files, extension)
        if ctx.exists(target):
            raise NotFixable(f"{target} already exists")
    ctx.refuse_protected([index, target])
    content = ctx.read(index, decides=True)
    target_name = basename(target)
    specifier = specifier_for_file(
        f"./{split_ext(target_name)[0]}", target_name, ctx.style_for(node.path)
    )
    result = split_index(index, content, facts, specifier, ctx.quote())
    if result is None:
        raise NotFixable(f"{index} holds statements that cannot be moved safely")
    candidate.result_path = target
    candidate.creates[target] = result.implementation
    candidate.edits[index] = [Edit(0, len(content), result.index)]
    candidate.reads.add(index)


KIND = FixKind(SyncActionKind.SPLIT, plan, rule_id=None)
