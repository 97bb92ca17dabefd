"""The file graph: resolved edges, unresolved imports, externals dropped."""

from __future__ import annotations

from pathlib import Path

from filid.graph import DYNAMIC_SPECIFIER, build_file_graph, build_resolver
from filid.model.facts import ImportKind
from filid.model.graph import UnresolvedImport
from tests.graph.conftest import make_facts, make_import, write_project


def test_edges_sorted_unresolved_listed_externals_dropped(tmp_path: Path) -> None:
    universe = write_project(
        tmp_path,
        {
            "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./src/*"]}}}',
            "src/b.ts": "",
            "src/c.ts": "",
            "src/a.ts": "",
        },
    )
    facts = {
        "src/b.ts": make_facts("src/b.ts", make_import("./c", line=1)),
        "src/a.ts": make_facts(
            "src/a.ts",
            make_import("@/c", ImportKind.TYPE, line=4),
            make_import("react", line=1),
            make_import("./b", line=2, column=20),
            make_import("./c", ImportKind.DYNAMIC, line=2, column=1),
            make_import(None, ImportKind.DYNAMIC, line=7),
            make_import("./gone", line=5),
            make_import("@/gone", line=3),
        ),
    }
    graph = build_file_graph(facts, build_resolver(tmp_path, universe))
    assert [(e.source, e.fact.line, e.fact.column, e.target) for e in graph.edges] == [
        ("src/a.ts", 2, 1, "src/c.ts"),
        ("src/a.ts", 2, 20, "src/b.ts"),
        ("src/a.ts", 4, 1, "src/c.ts"),
        ("src/b.ts", 1, 1, "src/c.ts"),
    ]
    # The edge keeps the import fact itself (kind and specifier reach the rules).
    assert graph.edges[2].fact.kind is ImportKind.TYPE
    assert graph.edges[2].fact.specifier == "@/c"
    assert graph.unresolved == (
        UnresolvedImport("src/a.ts", 3, "@/gone", "the tsconfig `paths` alias matches no file"),
        UnresolvedImport("src/a.ts", 5, "./gone", "no such file"),
        UnresolvedImport("src/a.ts", 7, DYNAMIC_SPECIFIER, "the argument is not a string literal"),
    )
