"""What a module file exports, following ``export *`` re-exports through the project."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from filid.graph.cycles import strongly_connected
from filid.model.facts import ExportKind, FileFacts

TargetOf = Callable[[str, str], "str | None"]


class ExportIndex:
    """Memoized ``export *`` closures over one project's facts.

    Every file's re-exported names (what ``export * from`` it gives: its named exports but
    ``default``, and those of everything it re-exports in turn) are computed once per
    strongly connected component of the ``export *`` graph, so asking for every barrel of a
    project costs the size of that graph, not its size per barrel.
    """

    def __init__(self, facts: Mapping[str, FileFacts], target_of: TargetOf) -> None:
        """Index ``facts``; ``target_of(file, specifier)`` resolves an ``export *`` source."""
        self._facts = facts
        self._target_of = target_of
        # file → the names ``export * from file`` yields, or None when unknowable.
        self._closure: dict[str, frozenset[str] | None] = {}

    def _stars(self, file: str) -> list[str | None]:
        facts = self._facts.get(file)
        if facts is None:
            return [None]
        return [
            self._target_of(file, export.source) if export.source is not None else None
            for export in facts.exports
            if export.kind is ExportKind.STAR
        ]

    def _own(self, file: str) -> frozenset[str] | None:
        facts = self._facts.get(file)
        if facts is None:
            return None
        return frozenset(
            e.name for e in facts.exports if e.kind is not ExportKind.STAR and e.name != "default"
        )

    def _compute(self, start: str) -> None:
        """Fill ``_closure`` for every file reachable from ``start``, one strongly connected
        component at a time (components come after those they reach)."""
        successors: dict[str, list[str | None]] = {}
        pending = [start]
        while pending:
            file = pending.pop()
            if file in successors or file in self._closure:
                continue
            successors[file] = self._stars(file)
            pending.extend(t for t in successors[file] if t is not None)
        adjacency = {
            file: [t for t in targets if t is not None and t not in self._closure]
            for file, targets in successors.items()
        }
        # One file reaching nothing new (a leaf, the common case) is its own component.
        components = (
            [[start]] if len(adjacency) == 1 else strongly_connected(sorted(adjacency), adjacency)
        )
        for component in components:
            members = set(component)
            names: set[str] | None = set()
            for member in component:
                own = self._own(member)
                if own is None or names is None:
                    names = None
                    break
                names |= own
                for target in successors[member]:
                    if target is None:
                        names = None
                        break
                    if target in members:
                        continue
                    closure = self._closure[target]
                    if closure is None:
                        names = None
                        break
                    names |= closure
            frozen = frozenset(names) if names is not None else None
            for member in component:
                self._closure[member] = frozen

    def reexported(self, file: str) -> frozenset[str] | None:
        """The names ``export * from file`` yields; None when unknowable."""
        if file not in self._closure:
            self._compute(file)
        return self._closure[file]

    def exported_names(self, file: str) -> set[str] | None:
        """Names ``file`` exports (see the module function ``exported_names``)."""
        facts = self._facts.get(file)
        if facts is None:
            return None
        names: set[str] = set()
        for export in facts.exports:
            if export.kind is not ExportKind.STAR:
                names.add(export.name)
                continue
            target = self._target_of(file, export.source) if export.source is not None else None
            if target is None:
                return None
            closure = self.reexported(target)
            if closure is None:
                return None
            names |= closure
        return names


def exported_names(
    file: str,
    facts: Mapping[str, FileFacts],
    target_of: TargetOf,
    index: ExportIndex | None = None,
) -> set[str] | None:
    """Names ``file`` exports; ``export *`` is followed through ``target_of(file, specifier)``.

    Returns None when the answer is unknowable: a file on the way was not parsed, or an
    ``export *`` points at something that does not resolve to a project file (an external
    package). A re-export cycle contributes nothing more. ``export *`` never re-exports
    ``default``. The walk is iterative, so a chain of thousands of ``export *`` files cannot
    exhaust Python's recursion limit; pass one ``index`` (built on the same ``facts`` and
    ``target_of``) to many calls so each re-export closure is computed once.
    """
    if index is None:
        index = ExportIndex(facts, target_of)
    return index.exported_names(file)
