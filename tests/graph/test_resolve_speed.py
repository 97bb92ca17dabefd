"""Resolution stays fast on a large synthetic universe (memoised, set lookups, no disk)."""

from __future__ import annotations

import time
from pathlib import Path

from filid.graph import build_file_graph, build_resolver
from filid.model.facts import FileFacts
from tests.graph.conftest import make_facts, make_import, write_project

PACKAGES = 20
MODULES = 50
FILES_PER_MODULE = 19  # plus an index.ts: 20 files a module, 20,000 source files in all


def synthetic_project(root: Path) -> tuple[list[str], dict[str, FileFacts]]:
    configs: dict[str, str] = {}
    sources: list[str] = []
    facts: dict[str, FileFacts] = {}
    for p in range(PACKAGES):
        pkg = f"packages/pkg{p:02d}"
        configs[f"{pkg}/package.json"] = (
            f'{{"name": "@bench/pkg{p:02d}", "exports": {{".": {{"types": "./src/index.ts"}}}}}}'
        )
        configs[f"{pkg}/tsconfig.json"] = (
            '{"extends": "../../tsconfig.base.json", // shared options\n'
            ' "compilerOptions": {"paths": {"@/*": ["./src/*"],},},}'
        )
        sources.append(f"{pkg}/src/index.ts")
        for m in range(MODULES):
            sources.append(f"{pkg}/src/mod{m:02d}/index.ts")
            for f in range(FILES_PER_MODULE):
                path = f"{pkg}/src/mod{m:02d}/file{f:02d}.ts"
                sources.append(path)
                facts[path] = make_facts(
                    path,
                    make_import(f"./file{(f + 1) % FILES_PER_MODULE:02d}", line=1),
                    make_import(f"../mod{(m + 1) % MODULES:02d}/file{f:02d}.js", line=2),
                    make_import(f"@/mod{(m + 7) % MODULES:02d}", line=3),
                    make_import(f"@bench/pkg{(p + 1) % PACKAGES:02d}", line=4),
                    make_import("react", line=5),
                    make_import("./missing", line=6),
                    make_import(f"@/mod{m:02d}/file{f:02d}", line=7),
                )
    configs["tsconfig.base.json"] = '{"compilerOptions": {"strict": true}}'
    write_project(root, configs)  # sources need not exist on disk: the universe is the truth
    return sorted([*configs, *sources]), facts


def test_twenty_thousand_files_resolve_quickly(tmp_path: Path) -> None:
    universe, facts = synthetic_project(tmp_path)
    assert len(universe) > 20_000
    started = time.perf_counter()
    resolver = build_resolver(tmp_path, universe)
    built = time.perf_counter()
    graph = build_file_graph(facts, resolver)
    finished = time.perf_counter()
    imports = sum(len(f.imports) for f in facts.values())
    print(
        f"\n{len(universe)} files, {imports} imports: build_resolver {built - started:.3f}s, "
        f"resolve + file graph {finished - built:.3f}s"
    )
    # Five of the seven imports of each file resolve; "react" is external, "./missing"
    # unresolved.
    assert len(graph.edges) == 5 * len(facts)
    assert len(graph.unresolved) == len(facts)
    # Generous bound so slow CI machines pass; the real figure is far lower (see -s output).
    assert finished - started < 10.0
