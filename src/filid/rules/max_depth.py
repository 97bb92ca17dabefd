"""max-depth: the tree is not nested deeper than ``structure.maxDepth``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from filid.model.violations import FixInfo, Risk, Severity, SyncActionKind
from filid.rules.base import (
    ALL_CATEGORIES,
    Finding,
    NoOptions,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
    parent_path,
)
from filid.scan.classify import SCAFFOLD_FOLDERS

_DEEP = "a/b/c/d/e/f/g/h/i/j/k"


def _is_scaffold(path: str, limit: int) -> bool:
    """A folder below a scaffold folder (``SCAFFOLD_FOLDERS``, the names ``unresolved-import``
    recognises: ``templates``, ``template``, ``starters``…), or below a dynamic route segment
    (``[id]``), that lies within the limit. A scaffold copies a whole project
    (``templates/app/ts/app/api/route.ts``; webiny's ``cwp-template-aws/template/``, which
    create-webiny-project copies into a new project), whose depth is the generated project's,
    whether or not the repository's workspace also builds it; a tree under ``[surveyId]``
    mirrors a URL (``modules/api/v2/surveys/[surveyId]/contacts``, the code behind a route),
    whose depth is the URL's, like a route tree. Decision (SPEC is silent; issue 23:
    ``max-depth`` on scaffold templates was a false claim)."""
    segments = path.split("/")[:limit]
    return any(s in SCAFFOLD_FOLDERS for s in segments) or any(
        len(s) > 2 and s.startswith("[") and s.endswith("]") for s in segments
    )


class MaxDepth:
    """Flags nodes deeper than the configured maximum depth."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="max-depth",
        category=RuleCategory.STRUCTURE,
        default_severity=Severity.ERROR,
        applies_to=ALL_CATEGORIES,
        description="Folders are nested at most structure.maxDepth levels deep (default 10).",
        rationale=(
            "Very deep trees hide code from people and from agents with a limited view; past a "
            "few levels a module usually wants to be flattened or split into a sibling."
        ),
        valid=(RuleExample("ten levels", {"a/b/c/d/e/f/g/h/i/j/x.ts": "export const x = 1;\n"}),),
        invalid=(RuleExample("eleven levels", {f"{_DEEP}/x.ts": "export const x = 1;\n"}),),
        fix_action=SyncActionKind.MERGE,
        fix_risk=Risk.RISKY,
    )
    options_type: ClassVar[type[NoOptions]] = NoOptions

    def check(self, context: RuleContext, options: NoOptions) -> Iterable[Finding]:
        """Yield one finding per node deeper than the limit."""
        limit = context.structure.max_depth
        for node in context.tree.nodes.values():
            if node.depth <= limit or context.is_in_route_tree(node.path):
                continue  # a route tree's depth is its URL (route groups included)
            if not context.holds_source(node.path) or _is_scaffold(node.path, limit):
                continue  # docs, assets, scaffold templates: no module to flatten
            parent = parent_path(node.path)
            yield Finding(
                node=node.path,
                path=node.path,
                message=f"'{node.path}' is at depth {node.depth}, deeper than the maximum {limit}",
                suggestion=f"flatten it into {parent}",
                fix=FixInfo(
                    action=SyncActionKind.MERGE,
                    risk=Risk.RISKY,
                    description=f"merge {node.path} into {parent}",
                    target_path=parent,
                ),
            )
