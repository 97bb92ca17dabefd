"""The module graph: imports lifted to edges between owner nodes (SPEC §4)."""

from __future__ import annotations

from collections.abc import Callable, Collection

from filid.model.builders import builder
from filid.model.graph import FileGraph, ImportEdge, ModuleEdge, ModuleGraph
from filid.model.nodes import FractalTree, NodeCategory
from filid.scan.classify import entry_stem
from filid.scan.universe import is_source_file

__all__ = [
    "build_module_graph",
    "build_package_graph",
    "edge_sort_key",
    "module_pair",
    "package_of",
]


def edge_sort_key(edge: ImportEdge) -> tuple[str, int, int, str]:
    """The order evidence is kept in: importing file, line, column, target."""
    span = edge.fact.span  # ``ImportFact.line`` and ``.column`` are properties over it
    return (edge.source, span.line, span.column, edge.target)


# One per owner pair of a large project's imports: the fast constructor (every field, in order).
_MODULE_EDGE = builder(ModuleEdge)


def _parent_of(file: str) -> str:
    head, sep, _ = file.rpartition("/")
    return head if sep else "."


def _is_ancestor_reference(tree: FractalTree, file: str, source: str, target: str) -> bool:
    """``file`` serves the importer's subtree: its owner ``target`` is a strict ancestor of the
    importer's owner ``source`` and ``file`` is not that ancestor's entry point.

    SPEC §4: a file in an organ of an ancestor (an owned-organ reference) is where shared code
    is placed, so a descendant reading it closes no loop. Decision (SPEC is silent): the same
    holds for a non-entry file lying directly in the ancestor (``src/version.ts`` read by
    ``src/mcp/server``): it is shared code placed at the LCA, and reading it is the
    boundary rule's opt-in case (c), not a cycle. Importing the ancestor's ``index.*`` or
    ``main.*`` still counts: that barrel may import the importer back.
    """
    if not (target == "." or source.startswith(target + "/")):
        return False
    directory = _parent_of(file)
    if directory != target:
        node = tree.nodes.get(directory)
        return node is not None and node.category is NodeCategory.ORGAN
    return entry_stem(file.rpartition("/")[2]) is None


class _FileOwners(dict[str, "str | None"]):
    """File → the path of its folder's owner node (None: the folder is not a node), filled on
    first ask, each folder's owner looked up once: every import asks it for both ends."""

    __slots__ = ("_folders", "_tree")

    def __init__(self, tree: FractalTree) -> None:
        super().__init__()
        self._tree = tree
        self._folders: dict[str, str | None] = {}

    def __missing__(self, file: str) -> str | None:
        directory = _parent_of(file)
        if directory in self._folders:
            found = self._folders[directory]
        else:
            found = self._folders[directory] = (
                self._tree.owner_of(directory).path if directory in self._tree.nodes else None
            )
        self[file] = found
        return found


def module_pair(tree: FractalTree) -> Callable[[str, str], tuple[str, str] | None]:
    """The module edge ``(owner(source), owner(target))`` an import from file ``source``
    (not a test file) to file ``target`` supports, or None (same owner, an ancestor
    reference, a file outside the tree's nodes): what :func:`build_module_graph` groups by,
    for one edge (the staged patch path asks it for the few edges an edit changes)."""
    owner = _FileOwners(tree).__getitem__

    def pair(source_file: str, target_file: str) -> tuple[str, str] | None:
        source, target = owner(source_file), owner(target_file)
        if source is None or target is None or source == target:
            return None
        if _is_ancestor_reference(tree, target_file, source, target):
            return None
        return source, target

    return pair


def build_module_graph(
    tree: FractalTree, file_graph: FileGraph, test_files: Collection[str]
) -> ModuleGraph:
    """One edge ``owner(f) -> owner(r)`` per owner pair, from every import of a non-test ``f``.

    Self-edges (both files owned by the same node) and ancestor references (a module reading
    an organ or a non-entry file of one of its ancestors, SPEC §4) are dropped; each edge keeps
    every import
    that supports it as ``evidence``, sorted. ``nodes`` are every owner node of the tree (each
    non-organ node, plus the root), sorted. Imports whose files lie outside the tree's nodes
    are skipped (they cannot have an owner).
    """
    tests = test_files if isinstance(test_files, (set, frozenset)) else frozenset(test_files)
    pair = module_pair(tree)
    grouped: dict[tuple[str, str], list[ImportEdge]] = {}
    for edge in file_graph.edges:
        source = edge.source
        if source in tests:
            continue
        found = pair(source, edge.target)
        if found is not None:
            evidence = grouped.get(found)
            if evidence is None:
                grouped[found] = [edge]
            else:
                evidence.append(edge)

    nodes = sorted(
        path
        for path, node in tree.nodes.items()
        if path == "." or node.category is not NodeCategory.ORGAN
    )
    make_edge = _MODULE_EDGE
    edges = tuple(
        [
            make_edge(
                source,
                target,
                tuple(sorted(evidence, key=edge_sort_key) if len(evidence) > 1 else evidence),
            )
            for (source, target), evidence in sorted(grouped.items())
        ]
    )
    return ModuleGraph(nodes=tuple(nodes), edges=edges)


def package_of(file: str, package_dirs: Collection[str]) -> str | None:
    """The innermost package folder of ``package_dirs`` that holds ``file``, or None."""
    directory = _parent_of(file)
    while True:
        if directory in package_dirs:
            return directory
        if directory == ".":
            return None
        directory = _parent_of(directory)


def build_package_graph(
    file_graph: FileGraph, package_dirs: Collection[str], test_files: Collection[str]
) -> ModuleGraph:
    """Edges between workspace packages: one per package pair, from every import of a
    non-test file of one package to a source file of another (SPEC §0: package cycles).
    Files outside every package take no part."""
    dirs = frozenset(package_dirs)
    tests = test_files if isinstance(test_files, (set, frozenset)) else frozenset(test_files)
    memo: dict[str, str | None] = {}

    def package(file: str) -> str | None:
        directory = _parent_of(file)
        if directory not in memo:
            memo[directory] = package_of(file, dirs)
        return memo[directory]

    grouped: dict[tuple[str, str], list[ImportEdge]] = {}
    for edge in file_graph.edges:
        if edge.source in tests or not is_source_file(edge.target):
            continue  # a stylesheet or asset read by path orders no load and no build
        source, target = package(edge.source), package(edge.target)
        if source is None or target is None or source == target:
            continue
        grouped.setdefault((source, target), []).append(edge)
    edges = tuple(
        ModuleEdge(source, target, tuple(sorted(evidence, key=edge_sort_key)))
        for (source, target), evidence in sorted(grouped.items())
    )
    return ModuleGraph(nodes=tuple(sorted(dirs)), edges=edges)
