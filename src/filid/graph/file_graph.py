"""The file-level import graph: every import of every parsed file, resolved (SPEC §4)."""

from __future__ import annotations

from collections.abc import Mapping

from filid.graph.resolve import ResolutionKind, Resolver
from filid.graph.type_only import TypeOnlyIndex
from filid.model.builders import builder
from filid.model.facts import FileFacts, ImportKind
from filid.model.graph import FileGraph, ImportEdge, UnresolvedImport

__all__ = ["DYNAMIC_SPECIFIER", "FileImports", "build_file_graph", "file_imports", "runs_nothing"]

DYNAMIC_SPECIFIER = "<dynamic>"
DYNAMIC_REASON = "the argument is not a string literal"
# One edge per resolved import of every file: the fast constructor (every field, in order).
_EDGE = builder(ImportEdge)


def build_file_graph(
    facts: Mapping[str, FileFacts],
    resolver: Resolver,
    known: Mapping[str, FileImports] | None = None,
) -> FileGraph:
    """Resolve every import in ``facts`` (keyed by root-relative path) into a ``FileGraph``.

    Edges go to project files only and are sorted by (source, line, column, target).
    ``unresolved`` lists relative, root and aliased specifiers that found no file, bare ones
    that name a package of the repository but do not reach it (not a workspace member, an
    ``npm:`` alias, a subpath with no file), plus dynamic imports whose argument is not a
    string literal (shown as ``<dynamic>``), each with its reason, sorted by (file, line,
    specifier). External packages produce neither. An edge whose every binding is a type in
    its target is marked ``type_only`` (``graph.type_only``). ``known`` holds
    :func:`file_imports` of some files, computed earlier with the same ``resolver`` (while the
    other files were still being parsed).
    """
    edges: list[ImportEdge] = []
    unresolved: list[UnresolvedImport] = []
    for path in sorted(facts):
        found = known.get(path) if known is not None else None
        file_edges, file_unresolved = (
            found if found is not None else file_imports(path, facts[path], resolver)
        )
        # Files come in sorted order, and each file's edges are sorted: so are they all.
        edges.extend(file_edges)
        unresolved.extend(file_unresolved)
    unresolved.sort(key=lambda u: (u.file, u.line, u.specifier))
    return FileGraph(edges=_mark_type_only(edges, facts, resolver), unresolved=tuple(unresolved))


# One file's edges (sorted by line, column, target) and unresolved imports.
FileImports = tuple[list[ImportEdge], list[UnresolvedImport]]


def file_imports(path: str, facts: FileFacts, resolver: Resolver) -> FileImports:
    """The edges (before type-only marking) and unresolved imports of the file ``path``."""
    resolve = resolver.resolver_for(path)
    file_kind = ResolutionKind.FILE
    unresolved_kind = ResolutionKind.UNRESOLVED
    make_edge = _EDGE
    file_edges: list[ImportEdge] = []
    unresolved: list[UnresolvedImport] = []
    for fact in facts.imports:
        if fact.specifier is None:
            unresolved.append(UnresolvedImport(path, fact.line, DYNAMIC_SPECIFIER, DYNAMIC_REASON))
            continue
        resolution = resolve(fact.specifier)
        if resolution.kind is file_kind and resolution.target is not None:
            file_edges.append(
                make_edge(path, resolution.target, fact, resolution.via_manifest, False)
            )
        elif resolution.kind is unresolved_kind:
            unresolved.append(
                UnresolvedImport(path, fact.line, fact.specifier, resolution.reason or "")
            )
    file_edges.sort(key=_edge_order)
    return file_edges, unresolved


def _edge_order(edge: ImportEdge) -> tuple[int, int, str]:
    """(line, column, target): the span's fields read directly (``ImportFact.line`` and
    ``.column`` are properties)."""
    span = edge.fact.span
    return span.line, span.column, edge.target


def _mark_type_only(
    edges: list[ImportEdge], facts: Mapping[str, FileFacts], resolver: Resolver
) -> tuple[ImportEdge, ...]:
    """``edges`` with ``type_only`` set on the value-kind imports that run nothing: those that
    name only types, and those TypeScript elides because the importer reads none of their
    bindings as a value (unless the importer's tsconfig keeps such imports)."""
    # The index follows re-exports only (``export … from`` sources, each recorded as an
    # import with ``is_reexport``): the other imports' targets are never asked.
    targets = {(e.source, e.fact.specifier): e.target for e in edges if e.fact.is_reexport}
    index = TypeOnlyIndex(facts, lambda file, specifier: targets.get((file, specifier)))
    make_edge = _EDGE
    is_type_only = index.is_type_only
    static = ImportKind.STATIC
    # `runs_nothing`, its cheap half first (an elided import needs no look at the target's
    # exports), each importer's tsconfig asked once (every edge of a file shares it)
    keeps: dict[str, bool] = {}
    marked: list[ImportEdge] = []
    for e in edges:
        fact = e.fact
        kind = fact.kind
        if kind in _NAMED_KINDS and (
            (
                kind is static
                and not fact.value_used
                and not (
                    keeps[e.source]
                    if e.source in keeps
                    else keeps.setdefault(e.source, resolver.keeps_value_imports(e.source))
                )
            )
            or is_type_only(e.target, fact)
        ):
            e = make_edge(e.source, e.target, fact, e.via_manifest, True)
        marked.append(e)
    return tuple(marked)


_NAMED_KINDS = (ImportKind.STATIC, ImportKind.RE_EXPORT)


def runs_nothing(edge: ImportEdge, index: TypeOnlyIndex, resolver: Resolver) -> bool:
    """Whether the value-kind import ``edge`` runs nothing (it is marked ``type_only``): it
    names only types, or TypeScript elides it because the importer reads none of its
    bindings as a value and the importer's tsconfig does not keep such imports."""
    fact = edge.fact
    return fact.kind in _NAMED_KINDS and (
        index.is_type_only(edge.target, fact)
        or (
            fact.kind is ImportKind.STATIC
            and not fact.value_used
            and not resolver.keeps_value_imports(edge.source)
        )
    )
