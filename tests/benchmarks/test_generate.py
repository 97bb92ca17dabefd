"""The benchmark generator writes the promised, reproducible monorepo shape."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
import tree_sitter
import tree_sitter_typescript

GENERATE = Path(__file__).resolve().parents[2] / "benchmarks" / "generate.py"


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_generate", GENERATE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


gen = _load_generator()
# sha256 over the sorted (path, bytes) of generate(200, seed 3) in the monorepo layout.
MONOREPO_200_S3 = "215e4011b5b7a75fcb0d7fc12c7b3391c46b702442650495ea6cff432e01d0ee"


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _jsonc(path: Path) -> dict[str, object]:
    text = "\n".join(
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith("//")
    )
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def _import_specifiers(path: Path) -> list[str]:
    """Static import/re-export specifiers of a generated file, read with tree-sitter."""
    grammar = (
        tree_sitter_typescript.language_tsx()
        if path.suffix == ".tsx"
        else tree_sitter_typescript.language_typescript()
    )
    tree = tree_sitter.Parser(tree_sitter.Language(grammar)).parse(path.read_bytes())
    out = []
    for node in tree.root_node.children:
        source = node.child_by_field_name("source")
        if node.type in ("import_statement", "export_statement") and source is not None:
            assert source.text is not None
            out.append(source.text.decode()[1:-1])
    return out


def _resolve_dir(root: Path, importer: Path, spec: str) -> str | None:
    """The root-relative path a relative or @app specifier names (no extension lookup)."""
    if spec.startswith("."):
        target = os.path.normpath(os.path.join(importer.parent, spec))
    elif spec.startswith("@app/"):
        target = os.path.normpath(root / "apps/web/src" / spec[len("@app/") :])
    else:
        return None
    return Path(target).relative_to(root).as_posix()


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gen") / "repo"
    gen.generate(1000, root, 7)
    return root


def test_same_seed_gives_identical_trees_and_other_seeds_differ(tmp_path: Path) -> None:
    gen.generate(200, tmp_path / "a", 3)
    gen.generate(200, tmp_path / "b", 3)
    gen.generate(200, tmp_path / "c", 4)
    first = _snapshot(tmp_path / "a")
    assert len(first) > 150
    assert first == _snapshot(tmp_path / "b")
    assert first != _snapshot(tmp_path / "c")


def test_regenerating_replaces_the_tree_but_refuses_foreign_directories(tmp_path: Path) -> None:
    gen.generate(200, tmp_path / "a", 3)
    (tmp_path / "a" / "stray.ts").write_text("export {};\n")
    gen.generate(200, tmp_path / "a", 3)
    assert not (tmp_path / "a" / "stray.ts").exists()
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("x")
    with pytest.raises(SystemExit):
        gen.generate(200, foreign, 3)
    assert (foreign / "keep.txt").exists()


def test_file_count_is_close_to_the_request(tree: Path) -> None:
    sources = [p for p in tree.rglob("*") if p.suffix in (".ts", ".tsx")]
    assert 850 <= len(sources) <= 1150
    manifest = json.loads((tree / gen.MARKER).read_text())
    assert manifest["sourceFiles"] == len(sources)


def test_workspaces_and_tsconfig_aliases(tree: Path) -> None:
    root_pkg = json.loads((tree / "package.json").read_text())
    assert root_pkg["workspaces"] == ["packages/*", "apps/*"]
    tsconfig = _jsonc(tree / "tsconfig.json")
    assert tsconfig["extends"] == "./tsconfig.base.json"
    assert (tree / "tsconfig.base.json").is_file()
    options = tsconfig["compilerOptions"]
    assert isinstance(options, dict)
    assert options["paths"]["@app/*"] == ["apps/web/src/*"]
    packages = sorted((tree / "packages").iterdir())
    assert len(packages) >= 3
    for pkg in packages:
        manifest = json.loads((pkg / "package.json").read_text())
        assert manifest["name"] == f"@bench/{pkg.name}"
        assert (pkg / manifest["exports"]["."]).is_file()
        assert _jsonc(pkg / "tsconfig.json")["extends"] == "../../tsconfig.json"


def test_modules_organs_pure_folders_docs_and_tests(tree: Path) -> None:
    dirs = [p for p in tree.rglob("*") if p.is_dir() and ".git" not in p.parts]
    barrels = [d for d in dirs if (d / "index.ts").is_file()]
    assert len(barrels) > 30
    assert any("export * from './" in (d / "index.ts").read_text() for d in barrels)
    claude = [d / "CLAUDE.md" for d in dirs if (d / "CLAUDE.md").is_file()]
    assert claude
    complete = [
        c
        for c in claude
        if all(f"## {h}" in c.read_text() for h in ("Always do", "Ask first", "Never do"))
    ]
    assert complete
    names = {d.name for d in dirs}
    assert {"utils", "hooks", "components", "types"} <= names
    assert any(d.name == "components" and any(d.glob("*.tsx")) for d in dirs)
    pure = [d for d in dirs if d.name in gen.PURE_NAMES]
    assert pure and all(not (d / "index.ts").exists() for d in pure)
    assert any(tree.rglob("*.test.ts"))
    depths = [len(d.relative_to(tree).parts) for d in dirs]
    assert 5 <= max(depths) <= 8


def test_every_generated_file_parses_and_imports_take_every_kind(tree: Path) -> None:
    parser_ts = tree_sitter.Parser(
        tree_sitter.Language(tree_sitter_typescript.language_typescript())
    )
    parser_tsx = tree_sitter.Parser(tree_sitter.Language(tree_sitter_typescript.language_tsx()))
    specs: list[str] = []
    for path in sorted(tree.rglob("*.ts*")):
        parser = parser_tsx if path.suffix == ".tsx" else parser_ts
        assert not parser.parse(path.read_bytes()).root_node.has_error, path
        specs += _import_specifiers(path)
    assert any(s.startswith("./") for s in specs)
    assert any(s.startswith("../") for s in specs)
    assert any(s.startswith("@app/") for s in specs)
    assert any(s.startswith("@bench/") for s in specs)
    text = "\n".join(p.read_text() for p in tree.rglob("*.ts"))
    assert "import type {" in text
    assert "await import(" in text


def test_planted_cycles_are_real_mutual_imports(tree: Path) -> None:
    cycles = json.loads((tree / gen.MARKER).read_text())["plantedCycles"]
    assert cycles
    for a, b in cycles:
        for src, dst in ((a, b), (b, a)):
            main = tree / src / f"{Path(src).name}.ts"
            targets = {_resolve_dir(tree, main, s) for s in _import_specifiers(main)}
            assert dst in targets, (src, dst)


def test_some_imports_bypass_the_index(tree: Path) -> None:
    deep = []
    for path in tree.rglob("*.ts"):
        for spec in _import_specifiers(path):
            target = _resolve_dir(tree, path, spec)
            if target is None or target.startswith(path.parent.relative_to(tree).as_posix()):
                continue
            folder = tree / target
            names_main_file = (
                tree / f"{target}.ts"
            ).is_file() and folder.name == folder.parent.name
            behind_a_barrel = (folder.parent / "index.ts").is_file()
            if names_main_file and behind_a_barrel and folder.parent != path.parent:
                deep.append((path, spec))
    assert deep


# --------------------------------------------------------------------------- other layouts
def _tree_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for rel, data in _snapshot(root).items():
        digest.update(rel.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def test_the_default_layout_is_the_monorepo_byte_for_byte(tmp_path: Path) -> None:
    # The digest of the tree before --layout existed: new layouts must not move a byte of it.
    gen.generate(200, tmp_path / "a", 3)
    gen.generate(200, tmp_path / "b", 3, "monorepo")
    assert _tree_digest(tmp_path / "a") == _tree_digest(tmp_path / "b") == MONOREPO_200_S3


@pytest.mark.parametrize("layout", ["barrels", "deep-empty"])
def test_layouts_are_deterministic_and_close_to_the_request(tmp_path: Path, layout: str) -> None:
    first = gen.generate(300, tmp_path / "a", 3, layout)
    gen.generate(300, tmp_path / "b", 3, layout)
    gen.generate(300, tmp_path / "c", 4, layout)
    assert _snapshot(tmp_path / "a") == _snapshot(tmp_path / "b")
    assert _snapshot(tmp_path / "a") != _snapshot(tmp_path / "c")
    assert first["layout"] == layout
    sources = list((tmp_path / "a").rglob("*.ts"))
    assert first["sourceFiles"] == len(sources)
    assert 290 <= len(sources) <= 310


def _resolve(importer: Path, spec: str) -> Path | None:
    target = Path(os.path.normpath(importer.parent / spec))
    for candidate in (target.with_name(target.name + ".ts"), target / "index.ts"):
        if candidate.is_file():
            return candidate
    return None


def _all_specifiers_resolve(root: Path) -> list[tuple[Path, str]]:
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_typescript.language_typescript()))
    edges = []
    for path in sorted(root.rglob("*.ts")):
        assert not parser.parse(path.read_bytes()).root_node.has_error, path
        for spec in _import_specifiers(path):
            assert spec.startswith("."), (path, spec)
            assert _resolve(path, spec) is not None, (path, spec)
            edges.append((path, spec))
    return edges


def test_barrels_chain_fan_in_and_deep_imports(tmp_path: Path) -> None:
    root = tmp_path / "barrels"
    manifest = gen.generate(400, root, 5, "barrels")
    edges = _all_specifiers_resolve(root)
    barrels = sorted(root.rglob("index.ts"))
    assert len(barrels) == manifest["barrels"] >= 100
    star_targets: dict[Path, list[Path]] = {}
    for path, spec in edges:
        target = _resolve(path, spec)
        assert target is not None
        if path.name == "index.ts" and target.name == "index.ts":
            star_targets.setdefault(path, []).append(target)
    # Chains: a barrel re-exports a barrel that re-exports a barrel … at least five deep.
    longest = 0
    for start in star_targets:
        depth, node = 0, start
        while star_targets.get(node):
            node = min(t for t in star_targets[node] if t != node)
            depth += 1
        longest = max(longest, depth)
    assert longest >= 5
    # Fan-in: some barrel is re-exported by several barrels.
    counts: dict[Path, int] = {}
    for targets in star_targets.values():
        for t in targets:
            counts[t] = counts.get(t, 0) + 1
    assert max(counts.values()) >= 3
    # Deep imports reach past another folder's barrel into one of its files.
    deep = [
        (p, s)
        for p, s in edges
        if p.name != "index.ts"
        and (t := _resolve(p, s)) is not None
        and t.name != "index.ts"
        and t.parent != p.parent
    ]
    assert len(deep) == manifest["deepImports"] > 20
    assert any(s.startswith("../../") for _, s in deep)


def test_deep_empty_folders_mostly_hold_no_file(tmp_path: Path) -> None:
    root = tmp_path / "deep"
    manifest = gen.generate(300, root, 5, "deep-empty")
    _all_specifiers_resolve(root)
    folders = [p for p in (root / "src").rglob("*") if p.is_dir()]
    empty = [d for d in folders if not any(c.is_file() for c in d.iterdir())]
    assert manifest["folders"] == len(folders) + 1  # src/ itself counts, and holds no file
    assert manifest["emptyFolders"] == len(empty) + 1
    assert len(empty) > 3 * (len(folders) - len(empty))
    depths = {len(p.relative_to(root).parts) - 1 for p in root.rglob("*.ts")}
    assert depths == {gen.DEEP_LEVELS + 1}  # src/ and twelve folders below it
