"""The import rewrites a set of moves needs, and the check that every import still reaches
its file afterwards: a move always carries the rewrites it needs, or it is not safe."""

from __future__ import annotations

from collections.abc import Mapping

from filid.fix.candidate import AliasRewrite, Candidate, NotFixable, Remap
from filid.fix.planning import PlanningContext
from filid.fix.specifiers import is_relative, relative_specifier
from filid.graph.tsconfig import join_path, parent_dir

__all__ = ["rewrite_for_moves", "verify_moves"]


def verify_moves(
    ctx: PlanningContext, candidate: Candidate, edited: Mapping[tuple[str, int], str]
) -> None:
    """Every import that touches a moved file or was rewritten still reaches its file."""
    moves = candidate.moves
    universe = frozenset(
        (ctx.files - moves.keys()) | set(moves.values()) | candidate.creates.keys()
    )
    resolver = ctx.resolver_over(universe)
    checked: set[str] = set()
    for edge in ctx.project.file_graph.edges:
        key = (edge.source, edge.fact.span.start_byte)
        if edge.source not in moves and edge.target not in moves and key not in edited:
            continue
        specifier = edited.get(key, edge.fact.specifier)
        if specifier is None:
            continue
        source = moves.get(edge.source, edge.source)
        expected = moves.get(edge.target, edge.target)
        found = resolver.resolve(source, specifier)
        if found.target != expected:
            raise NotFixable(
                f"'{edge.fact.specifier}' in {edge.source} (line {edge.fact.line}) "
                "could not be rewritten to reach its file after the move"
            )
        checked.add(edge.target)
    candidate.reads |= checked


def rewrite_for_moves(
    ctx: PlanningContext, candidate: Candidate, remap_path: Remap, alias_rewrite: AliasRewrite
) -> dict[tuple[str, int], str]:
    """Edits for every import a set of moves affects; returns (file, start) -> specifier."""
    edited: dict[tuple[str, int], str] = {}
    moves = candidate.moves
    for file in sorted(ctx.project.facts):
        facts = ctx.project.facts[file]
        new_dir = parent_dir(moves.get(file, file))
        for fact in facts.imports:
            specifier = fact.specifier
            if specifier is None or fact.specifier_span is None:
                continue
            new_specifier: str | None = None
            if is_relative(specifier):
                pointed = join_path(parent_dir(file), specifier)
                if pointed == ".." or pointed.startswith("../"):
                    continue  # outside the root: never resolved, left as written
                moved_to = remap_path(pointed)
                if moved_to is None and file not in moves:
                    continue
                new_specifier = relative_specifier(new_dir, moved_to or pointed)
            else:
                resolution = ctx.project.resolver.resolve(file, specifier)
                if resolution.target is None or resolution.target not in moves:
                    continue
                new_specifier = alias_rewrite(specifier, resolution.target)
                if new_specifier is None:
                    raise NotFixable(f"cannot rewrite '{specifier}' in {file} (line {fact.line})")
            if new_specifier != specifier:
                candidate.edits.setdefault(file, []).append(
                    ctx.specifier_edit(file, fact, new_specifier)
                )
                edited[(file, fact.span.start_byte)] = new_specifier
    return edited
