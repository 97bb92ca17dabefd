"""hybrid-node: reports folders in transition between organ and module."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from filid.model.nodes import NodeCategory
from filid.model.violations import FixInfo, Risk, Severity, SyncActionKind
from filid.rules.base import (
    Finding,
    NoOptions,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
)


class HybridNode:
    """Flags every hybrid node (an organ-named folder that became a module)."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="hybrid-node",
        category=RuleCategory.STRUCTURE,
        default_severity=Severity.INFO,
        applies_to=frozenset({NodeCategory.HYBRID}),
        description=(
            "Organ-named folders promoted to modules by an intent document alone are reported "
            "for reclassification."
        ),
        rationale=(
            "A folder named like an organ (utils/, components/) that has its own entry point or "
            "boundary document is half organ, half module. Decide: rename it into a real module, "
            "or drop the entry point and let it serve its owner."
        ),
        valid=(
            RuleExample(
                "utils/ without an index",
                {"src/app/index.ts": "export {};\n", "src/app/utils/a.ts": "export const a = 1;\n"},
            ),
            RuleExample(
                "utils/ with an index.ts is still an organ (the name wins)",
                {
                    "src/app/index.ts": "export {};\n",
                    "src/app/utils/index.ts": "export { a } from './a';\n",
                    "src/app/utils/a.ts": "export const a = 1;\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "utils/ promoted by an intent document alone",
                {
                    "src/app/index.ts": "export {};\n",
                    "src/app/utils/INTENT.md": (
                        "# Utils\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"
                    ),
                    "src/app/utils/a.ts": "export const a = 1;\n",
                },
            ),
        ),
        fix_action=SyncActionKind.RECLASSIFY,
        fix_risk=Risk.MODERATE,
    )
    options_type: ClassVar[type[NoOptions]] = NoOptions

    def check(self, context: RuleContext, options: NoOptions) -> Iterable[Finding]:
        """Yield one informational finding per hybrid node."""
        for node in context.tree.nodes.values():
            if node.category is not NodeCategory.HYBRID:
                continue
            yield Finding(
                node=node.path,
                path=node.path,
                message=(
                    f"'{node.path}' is hybrid: an organ-named folder promoted to a module by an "
                    "intent document alone"
                ),
                suggestion="rename it into a module, or remove its entry point/boundary document",
                fix=FixInfo(
                    action=SyncActionKind.RECLASSIFY,
                    risk=Risk.MODERATE,
                    description=f"reclassify {node.path} as a fractal (rename) or an organ",
                    target_path=node.path,
                ),
            )
