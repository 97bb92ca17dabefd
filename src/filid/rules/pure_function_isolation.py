"""pure-function-isolation: pure-function folders do not depend on modules."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from filid.model.facts import ImportKind
from filid.model.nodes import NodeCategory
from filid.model.violations import FixInfo, Risk, Severity, SyncActionKind
from filid.rules.base import (
    Finding,
    NoOptions,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
    import_location,
)

_MODULES = (NodeCategory.FRACTAL, NodeCategory.HYBRID)
# Pure-function folders are declared (SPEC §2 step 3): the examples carry that config.
_DECLARED = '{"version": "2.0", "structure": {"pureFunctionPaths": ["src/math", "src/consts"]}}\n'


class PureFunctionIsolation:
    """Flags imports from a pure-function folder into a fractal or hybrid module."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="pure-function-isolation",
        category=RuleCategory.DEPENDENCY,
        default_severity=Severity.ERROR,
        applies_to=frozenset({NodeCategory.PURE_FUNCTION}),
        description=(
            "Pure-function folders import no fractal or hybrid module at run time "
            "(type-only imports are fine)."
        ),
        rationale=(
            "Pure functions are the leaves everyone may depend on. Once one imports a module it "
            "drags that module (and its side effects) into every caller and cycles follow."
        ),
        valid=(
            RuleExample(
                "a pure folder importing another pure folder",
                {
                    ".filid/config.json": _DECLARED,
                    "src/math/add.ts": "import { one } from '../consts/one';\n"
                    "export const add = (a: number) => a + one;\n",
                    "src/consts/one.ts": "export const one = 1;\n",
                },
            ),
            RuleExample(
                "a pure folder importing only a module's types",
                {
                    ".filid/config.json": _DECLARED,
                    "src/math/add.ts": "import type { Rate } from '../billing';\n"
                    "export const add = (a: number, r: Rate) => a + r;\n",
                    "src/billing/index.ts": "export type Rate = number;\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "a pure folder importing a module",
                {
                    ".filid/config.json": _DECLARED,
                    "src/math/add.ts": "import { rate } from '../billing';\n"
                    "export const add = (a: number) => a + rate;\n",
                    "src/billing/index.ts": "export const rate = 2;\n",
                },
            ),
        ),
        fix_action=SyncActionKind.MOVE,
        fix_risk=Risk.RISKY,
    )
    options_type: ClassVar[type[NoOptions]] = NoOptions

    def check(self, context: RuleContext, options: NoOptions) -> Iterable[Finding]:
        """Yield one finding per offending import."""
        owner = context.file_owners().__getitem__
        test_files = context.test_files
        for edge in context.file_graph.edges:
            if edge.source in test_files or edge.fact.kind is ImportKind.TYPE:
                continue
            source_owner = owner(edge.source)
            if source_owner.category is not NodeCategory.PURE_FUNCTION:
                continue
            target_owner = owner(edge.target)
            if target_owner.category not in _MODULES or target_owner.path == source_owner.path:
                continue
            yield Finding(
                node=source_owner.path,
                path=edge.source,
                message=(
                    f"pure-function folder '{source_owner.path}' imports "
                    f"{target_owner.category} module '{target_owner.path}' "
                    f"('{edge.fact.specifier}')"
                ),
                location=import_location(edge.source, edge.fact),
                suggestion=(
                    f"move the needed code into a pure-function folder, or move "
                    f"{edge.source} into {target_owner.path}"
                ),
                fix=FixInfo(
                    action=SyncActionKind.MOVE,
                    risk=Risk.RISKY,
                    description=f"move {edge.source} under {target_owner.path}",
                    target_path=target_owner.path,
                ),
                fingerprint_parts=(edge.fact.specifier or "", edge.target),
            )
