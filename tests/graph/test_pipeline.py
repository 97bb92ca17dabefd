"""The graph stage end to end on real source parsed by the parse stage."""

from __future__ import annotations

from pathlib import Path

import pytest

from filid.graph import build_file_graph, build_module_graph, build_resolver, find_cycles
from filid.model.facts import FileFacts, ImportKind
from filid.model.nodes import NodeCategory
from tests.graph.conftest import make_tree, write_project

extract = pytest.importorskip("filid.parse.extract")

SOURCES = {
    "tsconfig.json": '{\n  // aliases\n  "compilerOptions": {"paths": {"@/*": ["./src/*"],},},\n}',
    "src/auth/index.ts": "export { login } from './login';\n",
    "src/auth/login.ts": (
        "import { pay } from '@/billing';\n"
        "import { hash } from './utils/hash.js';\n"
        "export const login = () => pay(hash('x'));\n"
    ),
    "src/auth/utils/hash.ts": "export const hash = (s: string) => s;\n",
    "src/billing/index.ts": (
        "import type { Session } from '../auth/login';\n"
        "export * from './pay';\n"
        "export type { Session };\n"
    ),
    "src/billing/pay.ts": (
        "import { login } from '../auth';\n"
        "import React from 'react';\n"
        "export const pay = (x: unknown) => [x, login, React];\n"
        "export const later = () => import(`./${'dyn'}`);\n"
    ),
    "src/billing/pay.test.ts": "import { login } from '../auth/login';\n",
}


def test_parsed_project_graph(tmp_path: Path) -> None:
    universe = write_project(tmp_path, SOURCES)
    facts: dict[str, FileFacts] = {
        path: extract.parse_source(path, (tmp_path / path).read_bytes())
        for path in universe
        if path.endswith(".ts")
    }
    resolver = build_resolver(tmp_path, universe)
    file_graph = build_file_graph(facts, resolver)
    pairs = {(e.source, e.target, e.fact.kind) for e in file_graph.edges}
    assert ("src/auth/login.ts", "src/billing/index.ts", ImportKind.STATIC) in pairs
    assert ("src/auth/login.ts", "src/auth/utils/hash.ts", ImportKind.STATIC) in pairs
    assert ("src/billing/index.ts", "src/auth/login.ts", ImportKind.TYPE) in pairs
    assert [(u.file, u.specifier) for u in file_graph.unresolved] == [
        ("src/billing/pay.ts", "<dynamic>")
    ]

    tree = make_tree(universe, {"src/auth/utils": NodeCategory.ORGAN})
    module_graph = build_module_graph(tree, file_graph, ["src/billing/pay.test.ts"])
    (cycle,) = find_cycles(module_graph, include_type_imports=False)
    assert cycle.members == ("src/auth", "src/billing")
    assert [(e.source, e.target) for e in cycle.route] == [
        ("src/auth/login.ts", "src/billing/index.ts"),
        ("src/billing/pay.ts", "src/auth/index.ts"),
    ]
