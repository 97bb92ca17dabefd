"""Cycles between modules: strongly connected components and one shortest route each."""

from __future__ import annotations

from filid.graph import Cycle, find_cycles
from filid.model.facts import ImportKind
from filid.model.graph import ImportEdge, ModuleEdge, ModuleGraph
from tests.graph.conftest import make_import


def ev(source: str, target: str, line: int = 1, kind: ImportKind = ImportKind.STATIC) -> ImportEdge:
    return ImportEdge(source, target, make_import("./x", kind, line=line))


def graph(*edges: ModuleEdge) -> ModuleGraph:
    nodes = sorted({e.source for e in edges} | {e.target for e in edges})
    return ModuleGraph(tuple(nodes), tuple(sorted(edges, key=lambda e: (e.source, e.target))))


def hop_files(cycle: Cycle) -> list[tuple[str, int, str]]:
    return [(e.source, e.fact.line, e.target) for e in cycle.route]


def test_three_module_cycle_with_route_and_evidence_per_hop() -> None:
    g = graph(
        ModuleEdge("a", "b", (ev("a/x.ts", "b/y.ts", 4), ev("a/x.ts", "b/index.ts", 9))),
        ModuleEdge("b", "c", (ev("b/y.ts", "c/z.ts", 2),)),
        ModuleEdge("c", "a", (ev("c/z.ts", "a/index.ts", 1),)),
        ModuleEdge("c", "d", (ev("c/z.ts", "d/w.ts", 1),)),  # d is not part of the cycle
    )
    (cycle,) = find_cycles(g, include_type_imports=False)
    assert cycle.members == ("a", "b", "c")
    assert cycle.modules == ("a", "b", "c")
    assert hop_files(cycle) == [
        ("a/x.ts", 4, "b/y.ts"),  # the smallest evidence of the a -> b edge
        ("b/y.ts", 2, "c/z.ts"),
        ("c/z.ts", 1, "a/index.ts"),
    ]


def test_type_only_cycle_is_reported_only_with_type_imports() -> None:
    g = graph(
        ModuleEdge("a", "b", (ev("a/x.ts", "b/y.ts"),)),
        ModuleEdge("b", "a", (ev("b/y.ts", "a/x.ts", kind=ImportKind.TYPE),)),
    )
    assert find_cycles(g, include_type_imports=False) == []
    (cycle,) = find_cycles(g, include_type_imports=True)
    assert cycle.members == ("a", "b")


def test_type_evidence_is_skipped_when_a_value_import_supports_the_edge() -> None:
    g = graph(
        ModuleEdge("a", "b", (ev("a/x.ts", "b/y.ts"),)),
        ModuleEdge(
            "b",
            "a",
            (ev("b/y.ts", "a/x.ts", 1, ImportKind.TYPE), ev("b/y.ts", "a/x.ts", 5)),
        ),
    )
    (cycle,) = find_cycles(g, include_type_imports=False)
    assert hop_files(cycle) == [("a/x.ts", 1, "b/y.ts"), ("b/y.ts", 5, "a/x.ts")]


def test_two_separate_components() -> None:
    g = graph(
        ModuleEdge("x", "y", (ev("x/1.ts", "y/1.ts"),)),
        ModuleEdge("y", "x", (ev("y/1.ts", "x/1.ts"),)),
        ModuleEdge("m", "n", (ev("m/1.ts", "n/1.ts"),)),
        ModuleEdge("n", "o", (ev("n/1.ts", "o/1.ts"),)),
        ModuleEdge("o", "m", (ev("o/1.ts", "m/1.ts"),)),
        ModuleEdge("o", "x", (ev("o/1.ts", "x/1.ts"),)),  # joins the two, one way only
    )
    cycles = find_cycles(g, include_type_imports=False)
    assert [c.members for c in cycles] == [("m", "n", "o"), ("x", "y")]


def test_route_is_a_shortest_cycle_and_deterministic() -> None:
    # One component {a, b, c, d}: a->b->c->d->a has 4 hops, a<->c and a<->d have 2.
    edges = [
        ModuleEdge("a", "b", (ev("a/1.ts", "b/1.ts"),)),
        ModuleEdge("b", "c", (ev("b/1.ts", "c/1.ts"),)),
        ModuleEdge("c", "d", (ev("c/1.ts", "d/1.ts"),)),
        ModuleEdge("d", "a", (ev("d/1.ts", "a/1.ts"),)),
        ModuleEdge("a", "d", (ev("a/1.ts", "d/1.ts", 2),)),
        ModuleEdge("c", "a", (ev("c/1.ts", "a/1.ts"),)),
        ModuleEdge("a", "c", (ev("a/1.ts", "c/1.ts", 3),)),
    ]
    first = find_cycles(graph(*edges), include_type_imports=False)
    again = find_cycles(graph(*reversed(edges)), include_type_imports=False)
    assert first == again
    (cycle,) = first
    assert cycle.members == ("a", "b", "c", "d")
    # Two 2-hop cycles exist through a (a<->c, a<->d); the sorted walk picks c first.
    assert cycle.modules == ("a", "c")
    assert hop_files(cycle) == [("a/1.ts", 3, "c/1.ts"), ("c/1.ts", 1, "a/1.ts")]


def test_long_chain_does_not_recurse() -> None:
    n = 20_000
    names = [f"m{i:05d}" for i in range(n)]
    edges = [
        ModuleEdge(
            names[i], names[(i + 1) % n], (ev(f"{names[i]}/a.ts", f"{names[(i + 1) % n]}/a.ts"),)
        )
        for i in range(n)
    ]
    (cycle,) = find_cycles(graph(*edges), include_type_imports=False)
    assert len(cycle.members) == n
    assert len(cycle.route) == n
    assert cycle.route[-1].target == f"{names[0]}/a.ts"
