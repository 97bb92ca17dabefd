"""circular-dependency: no import cycles between modules.

In a declared project (SPEC §0) the units are the owners of the module graph (§4). In an
undeclared one no ``index.*`` is a boundary, so the rule claims only what holds for any
TypeScript project: a cycle between workspace packages, and a runtime import cycle between
files of one package that passes through the ``index.*`` of two or more folders (a barrel
loop: loading one barrel loads the other, whose load needs the first), reported between those
folders. The loop must pass through a barrel: an ``index.*`` that only imports and
re-exports (types aside), or the entry of a folder that holds the importing file (``'..'``,
``@/components/x`` from inside ``x``, a package importing its own entry). A loop between
implementation files that happen to be named ``index.tsx`` and use each other (a React provider
and the component it renders, a drawer and the editor plugin that opens it) is how such code
is written, not a structure problem its maintainers would change. A folder-level loop of deep
imports that no file-level cycle backs is no claim there.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from filid.graph.compiler_paths import join_path
from filid.graph.cycles import Cycle, find_cycles, strongly_connected
from filid.graph.lca import resolve_lca
from filid.graph.module_graph import build_package_graph, package_of
from filid.model.errors import InputError
from filid.model.graph import FileGraph, ImportEdge, ModuleGraph
from filid.model.nodes import NodeCategory
from filid.model.violations import FixInfo, Risk, Severity, SyncActionKind
from filid.rules.barrel_loops import barrel_loops, is_cycle_silenced, runtime_edges
from filid.rules.base import (
    Finding,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
    import_location,
)
from filid.rules.enum_reads import EnumReads
from filid.rules.shipped import unshipped_files
from filid.scan.classify import is_fixture_path


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
        # A fixture is a tool's input, not a package anything depends on (knip's
        # `fixtures/workspaces/cross-reference` is a workspace cycle on purpose).
        fixtures = frozenset(f for f in context.tree.files if is_fixture_path(f))
        left_out = context.test_files | unshipped_files(context, packages) | fixtures
        # An import the maintainers silenced the cycle rule on closes no claimed cycle.
        accepted = FileGraph(
            tuple(e for e in context.file_graph.edges if not is_cycle_silenced(e, context.facts)),
            context.file_graph.unresolved,
        )
        package_graph = _without_nested(build_package_graph(accepted, packages, left_out))
        enums = EnumReads(context)
        spanning = _packages_in_file_loops(context, packages, left_out, enums)
        for cycle in find_cycles(package_graph, include_type_imports=include):
            finding = _finding(context, cycle, "workspace packages")
            backed = any(len(set(cycle.members) & loop) >= 2 for loop in spanning)
            if not backed:
                inlined = [e for e in cycle.route if enums.reads_only_enums(e)]
                message = finding.message + "".join(
                    f" ({e.source}:{e.fact.line} reads only enums of '{e.fact.specifier}',"
                    " which a build may inline)"
                    for e in inlined
                )
                finding = dataclasses.replace(finding, severity=Severity.WARNING, message=message)
            yield finding

        yield from barrel_loops(context, packages, _finding)


def _without_nested(graph: ModuleGraph) -> ModuleGraph:
    """The package graph without edges between a package and one nested in its folder.

    Decision (SPEC is silent): a manifest inside another package's sources is part of that
    package's tree, not a unit beside it — amplication's code generator keeps the
    ``package.json`` it writes into generated apps in ``src/admin/package-json/``, next to the
    code that fills it in, and the relative imports between them are no package cycle.
    """

    def nested(a: str, b: str) -> bool:
        return a.startswith(b + "/") or b.startswith(a + "/")

    edges = tuple(e for e in graph.edges if not nested(e.source, e.target))
    return ModuleGraph(nodes=graph.nodes, edges=edges)


def _finding(context: RuleContext, cycle: Cycle, units: str) -> Finding:
    members = cycle.members
    first = members[0]
    hops = [import_location(edge.source, edge.fact) for edge in cycle.route]
    route_text = " -> ".join([*cycle.modules, cycle.modules[0]] if cycle.modules else members)
    evidence = "; ".join(
        f"{e.source}:{e.fact.line} imports '{e.fact.specifier}'" for e in cycle.route
    )
    # A barrel loop names the folders its route passes (the members are the tree's owners,
    # which fold organ folders such as `components/` into their parent and may be `.`): the
    # message lists what the route shows; `members` and the fingerprint stay the owners.
    named = (
        tuple(dict.fromkeys(cycle.modules))
        if units.startswith("folders") and cycle.modules
        else members
    )
    message = (
        f"import cycle between {len(named)} {units} ({', '.join(named)}): {route_text} [{evidence}]"
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
    if not context.declared and cycle.modules:
        placement = join_path(_common_folder(cycle.modules), "shared")
    else:
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


def _common_folder(folders: Iterable[str]) -> str:
    """The deepest folder holding every one of ``folders`` (``.`` at the top).

    A barrel loop of an undeclared project is placed by the folders its files sit in, not by
    the tree's owners: a folder without an ``index.*`` is owned by an ancestor, up to the
    root ``.`` (continue's `gui/src/components/mainInput`), and the code the loop shares
    belongs beside the loop, not at the repository root."""
    common: list[str] | None = None
    for folder in folders:
        parts = [] if folder == "." else folder.split("/")
        if common is None:
            common = parts
            continue
        size = 0
        while size < min(len(common), len(parts)) and common[size] == parts[size]:
            size += 1
        common = common[:size]
    return "/".join(common) if common else "."


def _packages_in_file_loops(
    context: RuleContext, packages: frozenset[str], left_out: frozenset[str], enums: EnumReads
) -> list[frozenset[str]]:
    """For each runtime file-level import cycle, the packages its files belong to.

    Decision (issue 23, SPEC §0 is silent): a package cycle is an error when a file loop backs
    it (loading one package's code loads the other's, which loads the first); when only the
    dependency arrows loop (each package deep-imports the other in different files, as
    documenso's packages do by design), it is reported as a warning. An import of another
    package that reads only enums backs no loop: a build may inline them (``enum_reads``).
    """
    edges = list(runtime_edges(context, left_out))
    loops = _spanning_loops(edges, packages)
    if not loops:
        return []
    component_of: dict[str, int] = {}
    for number, (_, files) in enumerate(loops):
        component_of.update(dict.fromkeys(files, number))
    enum_only = {
        id(edge)
        for edge in edges
        if component_of.get(edge.source, -1) == component_of.get(edge.target, -2)
        and package_of(edge.source, packages) != package_of(edge.target, packages)
        and enums.reads_only_enums(edge)
    }
    if enum_only:
        loops = _spanning_loops([e for e in edges if id(e) not in enum_only], packages)
    return [owners for owners, _ in loops]


def _spanning_loops(
    edges: list[ImportEdge], packages: frozenset[str]
) -> list[tuple[frozenset[str], frozenset[str]]]:
    """(packages, files) of each file-level cycle of ``edges`` that spans two packages."""
    adjacency: dict[str, set[str]] = {}
    for edge in edges:
        adjacency.setdefault(edge.source, set()).add(edge.target)
    nodes = sorted(set(adjacency) | {t for targets in adjacency.values() for t in targets})
    loops: list[tuple[frozenset[str], frozenset[str]]] = []
    for component in strongly_connected(nodes, adjacency):
        owners = {package_of(f, packages) for f in component} - {None}
        if len(owners) >= 2:
            loops.append((frozenset(o for o in owners if o is not None), frozenset(component)))
    return loops
