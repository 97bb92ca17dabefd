"""The file-level import graph: every import of every parsed file, resolved (SPEC §4)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from filid.graph.compiler_paths import parent_dir
from filid.graph.resolve import ResolutionKind, Resolver
from filid.graph.type_only import TypeOnlyIndex
from filid.model.facts import FileFacts, ImportKind
from filid.model.graph import FileGraph, ImportEdge, UnresolvedImport

__all__ = ["DYNAMIC_SPECIFIER", "build_file_graph"]

DYNAMIC_SPECIFIER = "<dynamic>"
DYNAMIC_REASON = "the argument is not a string literal"


def build_file_graph(facts: Mapping[str, FileFacts], resolver: Resolver) -> FileGraph:
    """Resolve every import in ``facts`` (keyed by root-relative path) into a ``FileGraph``.

    Edges go to project files only and are sorted by (source, line, column, target).
    ``unresolved`` lists relative, root and aliased specifiers that found no file, bare ones
    that name a package of the repository but do not reach it (not a workspace member, an
    ``npm:`` alias, a subpath with no file), plus dynamic imports whose argument is not a
    string literal (shown as ``<dynamic>``), each with its reason, sorted by (file, line,
    specifier). External packages produce neither. An edge whose every binding is a type in
    its target is marked ``type_only`` (``graph.type_only``).
    """
    edges: list[ImportEdge] = []
    unresolved: list[UnresolvedImport] = []
    file_kind = ResolutionKind.FILE
    unresolved_kind = ResolutionKind.UNRESOLVED
    for path in sorted(facts):
        directory = parent_dir(path)
        file_edges: list[ImportEdge] = []
        for fact in facts[path].imports:
            if fact.specifier is None:
                unresolved.append(
                    UnresolvedImport(path, fact.line, DYNAMIC_SPECIFIER, DYNAMIC_REASON)
                )
                continue
            resolution = resolver.resolve_from(directory, fact.specifier)
            if resolution.kind is file_kind and resolution.target is not None:
                file_edges.append(
                    ImportEdge(path, resolution.target, fact, resolution.via_manifest)
                )
            elif resolution.kind is unresolved_kind:
                unresolved.append(
                    UnresolvedImport(path, fact.line, fact.specifier, resolution.reason or "")
                )
        # Files come in sorted order, so sorting each file's edges sorts them all.
        file_edges.sort(key=lambda e: (e.fact.line, e.fact.column, e.target))
        edges.extend(file_edges)
    unresolved.sort(key=lambda u: (u.file, u.line, u.specifier))
    return FileGraph(edges=_mark_type_only(edges, facts, resolver), unresolved=tuple(unresolved))


def _mark_type_only(
    edges: list[ImportEdge], facts: Mapping[str, FileFacts], resolver: Resolver
) -> tuple[ImportEdge, ...]:
    """``edges`` with ``type_only`` set on the value-kind imports that run nothing: those that
    name only types, and those TypeScript elides because the importer reads none of their
    bindings as a value (unless the importer's tsconfig keeps such imports)."""
    targets = {(e.source, e.fact.specifier): e.target for e in edges}
    index = TypeOnlyIndex(facts, lambda file, specifier: targets.get((file, specifier)))
    kinds = (ImportKind.STATIC, ImportKind.RE_EXPORT)
    return tuple(
        dataclasses.replace(e, type_only=True)
        if e.fact.kind in kinds
        and (
            index.is_type_only(e.target, e.fact)
            or (
                e.fact.kind is ImportKind.STATIC
                and not e.fact.value_used
                and not resolver.keeps_value_imports(parent_dir(e.source))
            )
        )
        else e
        for e in edges
    )
