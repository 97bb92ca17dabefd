"""circular-dependency: no import cycles between modules.

In a declared project (SPEC §0) the units are the owners of the module graph (§4). In an
undeclared one no ``index.*`` is a boundary, so the rule claims only what holds for any
TypeScript project: a cycle between workspace packages, and a cycle between folders whose
every hop is a runtime import of the next folder's ``index.*`` inside one package (a barrel
loop: importing one barrel loads the other, whose load needs the first). Deep imports past an
``index.*`` close no such loop there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from filid.graph.cycles import Cycle, find_cycles
from filid.graph.lca import resolve_lca
from filid.graph.module_graph import build_package_graph, package_of
from filid.model.errors import InputError
from filid.model.graph import ImportEdge
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
from filid.scan.classify import entry_stem


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
        include = options.includeTypeImports
        if context.declared:
            for cycle in find_cycles(context.module_graph, include_type_imports=include):
                yield _finding(context, cycle, "modules")
            return
        # The root package of a monorepo is its workspace, not a unit: its files (scripts,
        # examples) are not a package that others depend on.
        packages = context.package_directories - {"."}
        package_graph = build_package_graph(context.file_graph, packages, context.test_files)
        for cycle in find_cycles(package_graph, include_type_imports=include):
            yield _finding(context, cycle, "workspace packages")

        def through_index(edge: ImportEdge) -> bool:
            if entry_stem(edge.target.rpartition("/")[2]) != "index":
                return False
            return package_of(edge.source, packages) == package_of(edge.target, packages)

        cycles = find_cycles(context.module_graph, include_type_imports=False, counts=through_index)
        for cycle in cycles:
            yield _finding(context, cycle, "folders, each entered through its index file")


def _finding(context: RuleContext, cycle: Cycle, units: str) -> Finding:
    members = cycle.members
    first = members[0]
    hops = [import_location(edge.source, edge.fact) for edge in cycle.route]
    route_text = " -> ".join([*cycle.modules, cycle.modules[0]] if cycle.modules else members)
    evidence = "; ".join(
        f"{e.source}:{e.fact.line} imports '{e.fact.specifier}'" for e in cycle.route
    )
    message = (
        f"import cycle between {len(members)} {units} ({', '.join(members)}): "
        f"{route_text} [{evidence}]"
    )
    location = hops[0] if hops else None
    if units == "workspace packages":
        return Finding(
            node=first,
            path=first,
            message=message,
            location=location,
            suggestion="move what both packages need into a package neither imports back",
            related=tuple(hops),
            members=members,
            fingerprint_parts=("packages", *members),
        )
    lca = members[0]
    try:
        for other in members[1:]:
            lca = resolve_lca(context.tree, lca, other).lca
        placement = resolve_lca(context.tree, lca, lca).suggested_placement
    except InputError:
        placement = "."
    return Finding(
        node=first,
        path=first,
        message=message,
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
