"""Hand-built inputs for the graph stage: project files on disk, facts, and fractal trees."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from filid.model.facts import FileFacts, ImportFact, ImportKind, Span
from filid.model.nodes import FractalNode, FractalTree, NodeCategory


def write_project(root: Path, files: Mapping[str, str]) -> list[str]:
    """Write ``files`` (root-relative path -> text) under ``root``; return the sorted universe."""
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return sorted(files)


def make_import(
    specifier: str | None,
    kind: ImportKind = ImportKind.STATIC,
    line: int = 1,
    column: int = 1,
) -> ImportFact:
    """An import fact at ``line``/``column`` (spans are nominal; the graph reads line/column)."""
    span = Span(line, column, line, column + 10, 0, 10, column)
    return ImportFact(specifier=specifier, kind=kind, span=span, specifier_span=None)


def make_facts(path: str, *imports: ImportFact) -> FileFacts:
    """Facts for ``path`` holding only ``imports``."""
    return FileFacts(
        path=path,
        imports=imports,
        exports=(),
        declarations=(),
        statements=(),
        imported_bindings=(),
        is_side_effect_free=True,
    )


def _parent(path: str) -> str:
    head, sep, _ = path.rpartition("/")
    return head if sep else "."


def make_tree(
    files: Iterable[str],
    categories: Mapping[str, NodeCategory] | None = None,
    default: NodeCategory = NodeCategory.FRACTAL,
    root: Path = Path("/project"),
) -> FractalTree:
    """A tree with one node per directory of ``files`` (plus the root).

    Every node is ``default`` unless ``categories`` names it; ``organs`` lists organ children.
    """
    categories = dict(categories or {})
    file_list = sorted(files)
    dirs = {"."}
    for file in file_list:
        d = _parent(file)
        while d not in dirs:
            dirs.add(d)
            d = _parent(d)
    children: dict[str, list[str]] = {d: [] for d in dirs}
    for d in dirs:
        if d != ".":
            children[_parent(d)].append(d)
    names: dict[str, list[str]] = {d: [] for d in dirs}
    for file in file_list:
        names[_parent(file)].append(file.rpartition("/")[2])
    nodes: dict[str, FractalNode] = {}
    for d in sorted(dirs):
        category = categories.get(d, default)
        kids = tuple(sorted(children[d]))
        nodes[d] = FractalNode(
            path=d,
            name=d.rpartition("/")[2] if d != "." else root.name,
            category=category,
            parent=None if d == "." else _parent(d),
            children=kids,
            organs=tuple(k for k in kids if categories.get(k, default) is NodeCategory.ORGAN),
            files=tuple(sorted(names[d])),
            depth=0 if d == "." else d.count("/") + 1,
        )
    return FractalTree(root=root, nodes=nodes, files=tuple(file_list))
