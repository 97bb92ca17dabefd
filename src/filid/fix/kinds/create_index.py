"""A missing entry point: a new ``index.ts`` (``index.js`` in a JavaScript project)
re-exporting the folder's files.
"""

from __future__ import annotations

from filid.fix.barrel import index_content
from filid.fix.candidate import Candidate, NotFixable
from filid.fix.planning import FixKind, PlanningContext
from filid.fix.specifiers import (
    split_ext,
)
from filid.graph.tsconfig import parent_dir
from filid.model.facts import FileFacts
from filid.model.violations import SyncActionKind

__all__ = ["KIND", "plan"]


def plan(ctx: PlanningContext, candidate: Candidate) -> None:
    """Fill ``candidate`` with this fix's operations, or raise ``NotFixable`` saying why."""
    directory = parent_dir(candidate.result_path)
    node = ctx.tree.nodes.get(directory)
    if node is None:
        raise NotFixable(f"{directory} is not a directory of the project")
    if node.index_file is not None or node.main_file is not None:
        raise NotFixable(f"{directory} already has an entry point")
    name = "index.ts" if ctx.has_typescript() else "index.js"
    target = node.file_path(name)
    if ctx.exists(target):
        raise NotFixable(f"{target} already exists")
    ctx.refuse_protected([target])
    members: dict[str, FileFacts] = {}
    for file_name in node.files:
        path = node.file_path(file_name)
        facts = ctx.project.facts.get(path)
        if facts is None or path in ctx.project.test_files:
            continue
        if split_ext(file_name)[0] in ("index", "main"):
            continue
        if facts.has_syntax_error:
            raise NotFixable(f"{path} has syntax errors; its exports are not known")
        members[file_name] = facts
    content, _notes = index_content(members, ctx.style_for(directory), ctx.quote())
    candidate.result_path = target
    candidate.creates[target] = content
    candidate.reads |= {node.file_path(n) for n in members}


KIND = FixKind(SyncActionKind.CREATE_INDEX, plan, rule_id=None)
