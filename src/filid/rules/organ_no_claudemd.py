"""organ-no-claudemd: organ folders must not own boundary (intent) documents."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from filid.model.nodes import NodeCategory
from filid.model.violations import FixInfo, Location, Risk, Severity, SyncActionKind
from filid.rules.base import (
    Finding,
    NoOptions,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
    join_path,
    parent_path,
)

_DOC = "# Utils\n\n## Always do\n- x\n\n## Ask first\n- y\n\n## Never do\n- z\n"


class OrganNoClaudemd:
    """Flags an intent document inside an organ-named folder (which makes it hybrid)."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="organ-no-claudemd",
        category=RuleCategory.STRUCTURE,
        default_severity=Severity.ERROR,
        applies_to=frozenset({NodeCategory.HYBRID}),
        description="Organ folders (utils/, hooks/, components/…) do not own CLAUDE.md/INTENT.md.",
        rationale=(
            "An organ serves the fractal that owns it and has no boundary of its own. An intent "
            "document there tells agents the folder is a module, blurring who owns the code: "
            "move the document up to the owning fractal, or rename the folder into a real module."
        ),
        valid=(
            RuleExample(
                "the intent document sits in the owning fractal",
                {
                    "src/auth/CLAUDE.md": _DOC,
                    "src/auth/index.ts": "export { hash } from './utils/hash';\n",
                    "src/auth/utils/hash.ts": "export const hash = (s: string) => s;\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "utils/ holds a CLAUDE.md",
                {
                    "src/auth/index.ts": "export { hash } from './utils/hash';\n",
                    "src/auth/utils/CLAUDE.md": _DOC,
                    "src/auth/utils/hash.ts": "export const hash = (s: string) => s;\n",
                },
            ),
        ),
        fix_action=SyncActionKind.MOVE,
        fix_risk=Risk.RISKY,
        aliases=("organ-no-intentmd",),
    )
    options_type: ClassVar[type[NoOptions]] = NoOptions

    def check(self, context: RuleContext, options: NoOptions) -> Iterable[Finding]:
        """Yield one finding per hybrid node holding an intent document."""
        for node in context.tree.nodes.values():
            if node.category is not NodeCategory.HYBRID or node.intent_doc is None:
                continue
            doc = node.file_path(node.intent_doc)
            owner = context.tree.owner_of(parent_path(node.path)) if node.path != "." else node
            target = join_path(owner.path, node.intent_doc)
            yield Finding(
                node=node.path,
                path=node.path,
                message=(
                    f"organ folder '{node.name}' holds {node.intent_doc}; organs must not own "
                    "boundary documents"
                ),
                location=Location(file=doc),
                suggestion=f"merge {doc} into {target}, or rename the folder into a module",
                fix=FixInfo(
                    action=SyncActionKind.MOVE,
                    risk=Risk.RISKY,
                    description=f"move {doc} into the owning fractal ({owner.path})",
                    target_path=target,
                ),
            )
