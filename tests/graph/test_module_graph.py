"""The module graph: owner-to-owner edges with evidence."""

from __future__ import annotations

from filid.graph import build_module_graph
from filid.model.graph import FileGraph, ImportEdge
from filid.model.nodes import NodeCategory
from tests.graph.conftest import make_import, make_tree

FILES = [
    "src/index.ts",
    "src/auth/index.ts",
    "src/auth/login.ts",
    "src/auth/utils/hash.ts",
    "src/auth/utils/deep/salt.ts",
    "src/billing/index.ts",
    "src/billing/pay.ts",
    "src/billing/pay.test.ts",
    "src/components/button.tsx",
]
TREE = make_tree(
    FILES,
    {
        "src/auth/utils": NodeCategory.ORGAN,
        "src/auth/utils/deep": NodeCategory.ORGAN,
        "src/components": NodeCategory.ORGAN,
    },
)


def edge(source: str, target: str, line: int = 1) -> ImportEdge:
    return ImportEdge(source, target, make_import("./x", line=line))


def test_owner_edges_with_evidence() -> None:
    edges = (
        edge("src/auth/login.ts", "src/billing/pay.ts", 3),
        edge("src/auth/utils/deep/salt.ts", "src/billing/index.ts", 1),  # organ -> its owner
        edge("src/auth/login.ts", "src/billing/index.ts", 1),
        edge("src/auth/login.ts", "src/auth/utils/hash.ts", 2),  # same owner: dropped
        edge("src/billing/pay.test.ts", "src/auth/index.ts", 1),  # test file: excluded
        # an organ owned by src, an ancestor of src/billing: an owned-organ reference
        edge("src/billing/pay.ts", "src/components/button.tsx", 1),
    )
    graph = build_module_graph(TREE, FileGraph(edges, ()), ["src/billing/pay.test.ts"])
    assert [(e.source, e.target) for e in graph.edges] == [("src/auth", "src/billing")]
    assert [(ev.source, ev.fact.line, ev.target) for ev in graph.edges[0].evidence] == [
        ("src/auth/login.ts", 1, "src/billing/index.ts"),
        ("src/auth/login.ts", 3, "src/billing/pay.ts"),
        ("src/auth/utils/deep/salt.ts", 1, "src/billing/index.ts"),
    ]
    # Owners: every non-organ node plus the root.
    assert graph.nodes == (".", "src", "src/auth", "src/billing")


def test_root_owns_files_under_top_level_organs() -> None:
    tree = make_tree(
        ["utils/a.ts", "feature/index.ts"],
        {".": NodeCategory.ORGAN, "utils": NodeCategory.ORGAN},
    )
    graph = build_module_graph(tree, FileGraph((edge("feature/index.ts", "utils/a.ts"),), ()), [])
    # utils/ is an organ of the root, an ancestor of feature: an owned-organ reference (SPEC
    # §4), so no module edge and no possible cycle through it.
    assert graph.edges == ()


def test_an_organ_of_a_sibling_is_a_module_edge() -> None:
    tree = make_tree(
        ["a/index.ts", "a/utils/x.ts", "b/index.ts"],
        {".": NodeCategory.ORGAN, "a/utils": NodeCategory.ORGAN},
    )
    file_graph = FileGraph(
        (edge("b/index.ts", "a/utils/x.ts"), edge("a/utils/x.ts", "b/index.ts")), ()
    )
    graph = build_module_graph(tree, file_graph, [])
    assert [(e.source, e.target) for e in graph.edges] == [("a", "b"), ("b", "a")]
