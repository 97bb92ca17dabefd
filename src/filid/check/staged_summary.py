"""What the staged patch path keeps of a computed run beside its result (``GraphSummary``):
the module edge counts, the cycles, the specifier style tallies and the classified tree,
written by a computed ``check --staged`` run and read back by the proof of
``filid.check.staged_patch``.

Imported by the staged state on every staged run: the graph code is imported where used
(any ``filid.graph`` module loads them all), not here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from filid.model.facts import FileFacts
    from filid.model.graph import ModuleGraph
    from filid.model.nodes import FractalNode, FractalTree

__all__ = [
    "PAIR",
    "STYLE",
    "GraphSummary",
    "decode_tree",
    "encode_tree",
    "fix_involved",
    "graph_summary",
    "parent_dir",
    "tally",
]


def parent_dir(path: str) -> str:
    """The folder holding ``path`` (``"."`` at the root): ``graph.compiler_paths``'s."""
    head, sep, _ = path.rpartition("/")
    return head if sep else "."


PAIR = "\0"  # joins a module edge's two owners into one key


@dataclasses.dataclass(frozen=True, slots=True)
class GraphSummary:
    """What the patch path needs of a computed run beyond its result.

    ``side_effect_free`` and ``tests`` hold one character per universe file (``"1"``,
    ``"0"``; ``" "`` for a file without parsed facts); ``pairs`` counts, per module edge
    (``"source\\0target"``), the imports that support it and are not type imports, and per
    relative specifier style (``"\\1style <style>"``) the non-test imports that show it;
    ``components`` are the strongly connected components of two or more owners over those
    edges (the cycles); ``declared`` is the regime; ``tree`` the run's classified tree
    without its documents (:func:`encode_tree`; None: not kept, the proof rebuilds it);
    ``folders`` the folders holding a source file at any depth, NUL-joined (the rule
    context's ``source_directories``; None: not kept, the proof finds them); ``involved``
    the stored result's :func:`fix_involved` paths, NUL-joined (None: not kept).
    """

    declared: bool
    side_effect_free: str
    tests: str
    pairs: dict[str, int]
    components: list[list[str]]
    tree: Any = None
    folders: str | None = None
    involved: str | None = None

    def encode(self) -> dict[str, Any]:
        return {
            "declared": self.declared,
            "sef": self.side_effect_free,
            "tests": self.tests,
            "pairs": self.pairs,
            "components": self.components,
            "tree": self.tree,
            "folders": self.folders,
            "involved": self.involved,
        }

    @staticmethod
    def decode(data: Any, files: int) -> GraphSummary | None:
        """The summary from its stored form, or None when malformed."""
        if not isinstance(data, dict):
            return None
        declared, sef, tests = data.get("declared"), data.get("sef"), data.get("tests")
        pairs, components = data.get("pairs"), data.get("components")
        if not (
            isinstance(declared, bool)
            and isinstance(sef, str)
            and isinstance(tests, str)
            and len(sef) == len(tests) == files
            and isinstance(pairs, dict)
            and set(map(type, pairs)) <= {str}
            and set(map(type, pairs.values())) <= {int}
            and isinstance(components, list)
            and all(isinstance(c, list) and all(isinstance(m, str) for m in c) for c in components)
        ):
            return None
        folders, involved = data.get("folders"), data.get("involved")
        return GraphSummary(
            declared,
            sef,
            tests,
            pairs,
            components,
            data.get("tree"),
            folders if isinstance(folders, str) else None,
            involved if isinstance(involved, str) else None,
        )


def encode_tree(tree: FractalTree) -> tuple[Any, ...]:
    """``tree``'s nodes and owners as plain tuples (marshal keeps them tuples), in the
    order of ``tree.nodes``; its documents and files are left out (the proof reads the
    documents, the files are the state's). :func:`decode_tree` inverts it."""
    return tuple(
        (
            node.path,
            node.category.value,
            node.children,
            node.organs,
            node.files,
            node.intent_doc,
            node.detail_doc,
            node.index_file,
            node.main_file,
            tree.owners[node.path],
        )
        for node in tree.nodes.values()
    )


def decode_tree(
    data: Any, root: Path, files: Sequence[str], documents: Mapping[str, Any]
) -> FractalTree | None:
    """The tree :func:`encode_tree` encoded, with ``root``, ``files`` and ``documents`` as
    ``build_tree`` sets them (``documents`` kept as given: the proof's reads each on first
    use); None when ``data`` is malformed. Every row is checked here; its node is built when
    first looked up (:class:`_Nodes`): the proof looks at the few nodes the edited imports
    reach, not at a 50,000-file project's 26,000 folders."""
    from filid.model.nodes import FractalTree, NodeCategory

    categories = {c.value for c in NodeCategory}
    rows: dict[str, tuple[Any, ...]] = {}
    owners: dict[str, str] = {}
    if not isinstance(data, tuple):
        return None
    try:
        for row in data:
            path, category, kids, organs, names, _, _, _, _, owner = row
            if not (
                type(path) is str
                and type(kids) is tuple
                and type(organs) is tuple
                and type(names) is tuple
                and type(owner) is str
                and category in categories
            ):
                return None
            rows[path] = row
            owners[path] = owner
    except (TypeError, ValueError):
        return None
    if "." not in rows:
        return None
    return FractalTree(
        root=root,
        nodes=_Nodes(rows, root.name),
        files=tuple(sorted(files)),
        documents=documents,
        owners=owners,
    )


class _Nodes(dict[str, "FractalNode"]):
    """A decoded tree's nodes, each built from its row (:func:`encode_tree`) when first
    looked up (``[]``, ``get``, ``in``); any use of the whole (iteration, ``len``, views,
    equality) builds them all, in the encoded order. Nobody changes a tree's nodes."""

    def __init__(self, rows: dict[str, tuple[Any, ...]], root_name: str) -> None:
        super().__init__()
        self._rows = rows
        self._root_name = root_name
        self._complete = False

    def _node(self, path: str) -> FractalNode | None:
        found = dict.get(self, path)
        if found is None and not self._complete:
            row = self._rows.get(path)
            if row is not None:
                found = self._build(row)
                dict.__setitem__(self, path, found)
        return found

    def _build(self, row: tuple[Any, ...]) -> FractalNode:
        from filid.model.nodes import FractalNode, NodeCategory

        path, category, kids, organs, names, intent, detail, index, main, _ = row
        top = path == "."
        head, _, name = path.rpartition("/")
        return FractalNode(
            path=path,
            name=self._root_name if top else name,
            category=NodeCategory(category),
            parent=None if top else (head or "."),
            children=kids,
            organs=organs,
            files=names,
            depth=0 if top else path.count("/") + 1,
            intent_doc=intent,
            detail_doc=detail,
            index_file=index,
            main_file=main,
        )

    def _all(self) -> None:
        if not self._complete:
            built = {path: self._node(path) for path in self._rows}
            dict.clear(self)
            dict.update(self, built)
            self._complete = True

    def __missing__(self, path: str) -> FractalNode:
        found = self._node(path)
        if found is None:
            raise KeyError(path)
        return found

    def get(self, path: str, default: Any = None) -> Any:
        found = self._node(path)
        return default if found is None else found

    def __contains__(self, path: object) -> bool:
        return path in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[str]:
        self._all()
        return dict.__iter__(self)

    def keys(self) -> Any:
        self._all()
        return dict.keys(self)

    def values(self) -> Any:
        self._all()
        return dict.values(self)

    def items(self) -> Any:
        self._all()
        return dict.items(self)

    def __eq__(self, other: object) -> bool:
        self._all()
        if isinstance(other, _Nodes):
            other._all()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        self._all()
        return dict.__repr__(self)


def graph_summary(
    files: Sequence[str],
    facts: Mapping[str, FileFacts],
    test_files: frozenset[str],
    module_graph: ModuleGraph,
    declared: bool,
    tree: FractalTree | None = None,
) -> GraphSummary:
    """The summary of a computed project (see :class:`GraphSummary`); ``tree`` is its
    classified tree (kept when the project is declared: the only regime the proof runs)."""
    from filid.graph.cycles import is_type_import, strongly_connected

    sef = "".join(
        " " if (f := facts.get(name)) is None else "1" if f.is_side_effect_free else "0"
        for name in files
    )
    tests = "".join("1" if name in test_files else "0" for name in files)
    pairs: dict[str, int] = tally(f for n, f in facts.items() if n not in test_files)
    adjacency: dict[str, list[str]] = {}
    for edge in module_graph.edges:
        counted = sum(1 for e in edge.evidence if not is_type_import(e))
        if counted and edge.source != edge.target:
            pairs[edge.source + PAIR + edge.target] = counted
            adjacency.setdefault(edge.source, []).append(edge.target)
    nodes = sorted(set(adjacency) | {t for targets in adjacency.values() for t in targets})
    components = [
        sorted(c) for c in strongly_connected(nodes, {k: sorted(v) for k, v in adjacency.items()})
    ]
    kept = encode_tree(tree) if declared and tree is not None else None
    cycles = [c for c in components if len(c) > 1]
    folders = None
    if declared:
        from filid.check.engine import source_directories

        folders = "\0".join(sorted(source_directories(files)))
    return GraphSummary(declared, sef, tests, pairs, cycles, kept, folders)


STYLE = "\1style "  # a key of ``GraphSummary.pairs`` counting one specifier style


def tally(files: Iterable[FileFacts]) -> dict[str, int]:
    """The relative specifier styles of ``files``' imports, counted under
    ``GraphSummary.pairs`` keys: what the fix planner's majority style counts
    (``PlanningContext.style``)."""
    from filid.fix.specifiers import is_relative, style_of

    known: dict[str, str | None] = {}
    found: dict[str, int] = {}
    for facts in files:
        for fact in facts.imports:
            specifier = fact.specifier
            if specifier is None:
                continue
            key = known.get(specifier, "")
            if key == "":
                style = style_of(specifier) if is_relative(specifier) else None
                key = known[specifier] = None if style is None else STYLE + style.value
            if key is not None:
                found[key] = found.get(key, 0) + 1
    return found


def fix_involved(violations: Iterable[Sequence[Any]]) -> frozenset[str]:
    """Every path of an encoded violation (``result_codec``) with a safe or moderate fix that
    moves, renames or rewrites names (path, location, related locations, fix target): the
    planner reads the imports of, and into, what it moves or rewrites."""
    from filid.model.violations import Risk, SyncActionKind

    applicable = {Risk.SAFE.value, Risk.MODERATE.value}
    # Creating an entry point reads its folder's files' exports (unchanged), splitting a
    # barrel reads the barrel (a fix input): neither reads who imports what.
    unaffected = {
        SyncActionKind.CREATE_INDEX.value,
        SyncActionKind.CREATE_MAIN.value,
        SyncActionKind.SPLIT.value,
    }
    found: set[str] = set()
    for data in violations:
        fix = data[7]
        if fix is None or fix[1] not in applicable or fix[0] in unaffected:
            continue
        found.add(data[3])
        found.add(data[4][0])
        found.update(r[0] for r in data[8])
        if fix[3]:
            found.add(fix[3])
    return frozenset(found)
