"""Import cycles between modules: strongly connected components of the module graph (SPEC §5).

Tarjan's algorithm runs iteratively (an explicit stack), so a long dependency chain cannot hit
Python's recursion limit. Neighbours are visited in sorted order and each component's route
is found by breadth-first search from its smallest member, so the output is deterministic.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from filid.graph.module_graph import edge_sort_key
from filid.model.facts import ImportKind
from filid.model.graph import ImportEdge, ModuleGraph

__all__ = ["Cycle", "find_cycles", "is_type_import", "strongly_connected"]


@dataclass(frozen=True, slots=True)
class Cycle:
    """A strongly connected component of two or more modules.

    ``members`` are the owner paths, sorted. ``route`` is one shortest cycle through the
    smallest member, one evidence import per hop (the smallest by file, line, column).
    ``modules`` are the owners the route visits, starting at the smallest member: hop ``i``
    goes from ``modules[i]`` to ``modules[(i + 1) % len(modules)]``.
    """

    members: tuple[str, ...]
    route: tuple[ImportEdge, ...]
    modules: tuple[str, ...] = ()


def is_type_import(edge: ImportEdge) -> bool:
    """``import type``, or an import whose every binding is a type in its target."""
    return edge.type_only or edge.fact.kind is ImportKind.TYPE


def _counted_evidence(
    module_graph: ModuleGraph,
    include_type_imports: bool,
) -> dict[str, dict[str, ImportEdge]]:
    """Adjacency ``source -> target -> first evidence`` over the edges that count."""
    adjacency: dict[str, dict[str, ImportEdge]] = {}
    for edge in module_graph.edges:
        evidence = [e for e in edge.evidence if include_type_imports or not is_type_import(e)]
        if not evidence or edge.source == edge.target:
            continue
        adjacency.setdefault(edge.source, {})[edge.target] = min(evidence, key=edge_sort_key)
    return {source: dict(sorted(targets.items())) for source, targets in adjacency.items()}


def strongly_connected(
    nodes: Iterable[str], adjacency: Mapping[str, Iterable[str]]
) -> list[list[str]]:
    """Tarjan's SCCs, iteratively; a component comes after every component it reaches."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        work: list[tuple[str, Iterator[str]]] = [(start, iter(adjacency.get(start, {})))]
        while work:
            node, neighbours = work[-1]
            descended = False
            for nxt in neighbours:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(adjacency.get(nxt, {}))))
                    descended = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if descended:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
    return components


def _shortest_route(
    start: str, members: frozenset[str], adjacency: dict[str, dict[str, ImportEdge]]
) -> list[str]:
    """Owners of one shortest cycle through ``start`` inside ``members`` (BFS, sorted order)."""
    parent: dict[str, str] = {}
    queue: deque[str] = deque([start])
    seen = {start}
    while queue:
        node = queue.popleft()
        for nxt in adjacency.get(node, {}):
            if nxt not in members:
                continue
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            if nxt not in seen:
                seen.add(nxt)
                parent[nxt] = node
                queue.append(nxt)
    return [start]  # unreachable for a real component of two or more members


def find_cycles(
    module_graph: ModuleGraph,
    *,
    include_type_imports: bool,
) -> list[Cycle]:
    """Every strongly connected component of two or more modules, sorted by members.

    Type imports (``import type`` and imports of types only) are ignored unless
    ``include_type_imports``. An edge left with no evidence does not count.
    """
    adjacency = _counted_evidence(module_graph, include_type_imports)
    nodes = sorted(
        set(module_graph.nodes)
        | set(adjacency)
        | {t for targets in adjacency.values() for t in targets}
    )
    cycles: list[Cycle] = []
    for component in strongly_connected(nodes, adjacency):
        if len(component) < 2:
            continue
        members = tuple(sorted(component))
        modules = _shortest_route(members[0], frozenset(members), adjacency)
        route = tuple(
            adjacency[source][modules[(i + 1) % len(modules)]] for i, source in enumerate(modules)
        )
        cycles.append(Cycle(members=members, route=route, modules=tuple(modules)))
    cycles.sort(key=lambda c: c.members)
    return cycles
