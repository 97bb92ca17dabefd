"""circular-dependency: no import cycles between modules."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from filid.graph.cycles import find_cycles
from filid.graph.lca import resolve_lca
from filid.model.errors import InputError
from filid.model.nodes import NodeCategory
from filid.model.violations import FixInfo, Risk, Severity, SyncActionKind
from filid.rules.base import (
    Finding,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
    import_location,
)


@dataclass(frozen=True, slots=True)
class CircularDependencyOptions:
    """``includeTypeImports``: count ``import type`` edges too (default: they are ignored)."""

    includeTypeImports: bool = False


class CircularDependency:
    """Flags every strongly connected component of two or more modules."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="circular-dependency",
        category=RuleCategory.DEPENDENCY,
        default_severity=Severity.ERROR,
        applies_to=frozenset(
            {NodeCategory.FRACTAL, NodeCategory.HYBRID, NodeCategory.PURE_FUNCTION}
        ),
        description="Modules do not import each other in a cycle.",
        rationale=(
            "A cycle welds modules together: none can be understood, tested or moved alone, and "
            "load order bugs appear. Move the shared part to the modules' lowest common ancestor."
        ),
        valid=(
            RuleExample(
                "a one-way dependency",
                {
                    "src/a/index.ts": "import { b } from '../b';\nexport const a = b;\n",
                    "src/b/index.ts": "export const b = 1;\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "two modules importing each other",
                {
                    "src/a/index.ts": "export { a } from './a';\n",
                    "src/a/a.ts": "import { b } from '../b';\nexport const a = () => b;\n",
                    "src/b/index.ts": "export { b } from './b';\n",
                    "src/b/b.ts": "import { a } from '../a';\nexport const b = () => a;\n",
                },
            ),
        ),
        fix_action=SyncActionKind.MOVE,
        fix_risk=Risk.RISKY,
    )
    options_type: ClassVar[type[CircularDependencyOptions]] = CircularDependencyOptions

    def check(self, context: RuleContext, options: CircularDependencyOptions) -> Iterable[Finding]:
        """Yield one finding per cycle, at its smallest member, with one route of evidence."""
        cycles = find_cycles(context.module_graph, include_type_imports=options.includeTypeImports)
        for cycle in cycles:
            members = cycle.members
            first = members[0]
            lca = members[0]
            try:
                for other in members[1:]:
                    lca = resolve_lca(context.tree, lca, other).lca
                placement = resolve_lca(context.tree, lca, lca).suggested_placement
            except InputError:
                placement = "."
            hops = [import_location(edge.source, edge.fact) for edge in cycle.route]
            route_text = " -> ".join(
                [*cycle.modules, cycle.modules[0]] if cycle.modules else members
            )
            evidence = "; ".join(
                f"{e.source}:{e.fact.line} imports '{e.fact.specifier}'" for e in cycle.route
            )
            location = hops[0] if hops else None
            yield Finding(
                node=first,
                path=first,
                message=(
                    f"import cycle between {len(members)} modules ({', '.join(members)}): "
                    f"{route_text} [{evidence}]"
                ),
                location=location,
                suggestion=f"move the shared part to {placement}",
                fix=FixInfo(
                    action=SyncActionKind.MOVE,
                    risk=Risk.RISKY,
                    description=f"move the code the cycle shares into {placement}",
                    target_path=placement,
                ),
                related=tuple(hops),
                members=members,
                fingerprint_parts=members,
            )
