"""Imports that read only enums (issue 23, SPEC §0: package cycles of an undeclared project).

``import { ReactiveFlags } from '@vue/reactivity'`` names an ``enum``: its members are
constants, and whether the import survives the build depends on the toolchain — TypeScript
inlines a ``const enum`` (unless ``isolatedModules``/``preserveConstEnums``), esbuild
inlines enums across files when it bundles, vue's build replaces every enum with its values
(``scripts/inline-enums.js``), while a per-file transpiler keeps the import. filid cannot
tell which, so such an import does not back a package cycle's runtime loop: the cycle is a
warning, never an error.

A binding counts as an enum when every declaration of that name in the file that declares
it is an ``enum`` (``const`` or not; an enum merged with a namespace is a value), following
``export { X } from`` and ``export *`` re-exports through the project as ``graph.type_only``
does. The lean parse of a non-entry file keeps its enum and namespace declarations
(``parse.top_level``), so the answer comes from the facts alone: the staged check reads the
staged content, and the incremental snapshot sees an enum turned into an object of constants
(its facts change).
"""

from __future__ import annotations

from collections.abc import Callable

from filid.model.facts import ExportKind, ImportKind
from filid.model.graph import ImportEdge
from filid.rules.base import RuleContext

__all__ = ["EnumReads"]

_MAX_HOPS = 64
_NAMED_KINDS = frozenset({ImportKind.STATIC, ImportKind.RE_EXPORT})


class EnumReads:
    """Answers "does this import read only enums?" over one project, memoized."""

    def __init__(self, context: RuleContext) -> None:
        self._context = context
        targets = {(e.source, e.fact.specifier): e.target for e in context.file_graph.edges}
        self._target_of: Callable[[str, str], str | None] = lambda file, specifier: targets.get(
            (file, specifier)
        )
        self._kinds: dict[str, dict[str, set[str]]] = {}
        self._memo: dict[tuple[str, str], bool] = {}

    def reads_only_enums(self, edge: ImportEdge) -> bool:
        """True when ``edge`` names bindings and each is an enum of its target."""
        fact = edge.fact
        if fact.kind not in _NAMED_KINDS or not fact.names or "*" in fact.names:
            return False
        return all(self._is_enum(edge.target, name, set()) for name in fact.names)

    def _is_enum(self, file: str, name: str, seen: set[tuple[str, str]]) -> bool:
        key = (file, name)
        if key in self._memo:
            return self._memo[key]
        if key in seen or len(seen) > _MAX_HOPS:
            return False
        seen.add(key)
        answer = self._compute(file, name, seen)
        self._memo[key] = answer
        return answer

    def _compute(self, file: str, name: str, seen: set[tuple[str, str]]) -> bool:
        facts = self._context.facts.get(file)
        if facts is None or name == "default":
            return False
        named = [e for e in facts.exports if e.kind is not ExportKind.STAR and e.name == name]
        if named:
            for export in named:
                local = export.local or name
                if export.source is None:
                    if self._declared_kinds(file).get(local) != {"enum"}:
                        return False
                    continue
                target = self._target_of(file, export.source)
                if target is None or not self._is_enum(target, local, seen):
                    return False
            return True
        for export in facts.exports:
            if export.kind is ExportKind.STAR and export.source is not None:
                target = self._target_of(file, export.source)
                if target is not None and self._is_enum(target, name, seen):
                    return True
        return False

    def _declared_kinds(self, file: str) -> dict[str, set[str]]:
        """Name → the kinds of its top-level declarations in ``file``."""
        found = self._kinds.get(file)
        if found is not None:
            return found
        declarations = self._context.facts[file].declarations
        found = {}
        for declaration in declarations:
            if declaration.name is not None:
                found.setdefault(declaration.name, set()).add(declaration.kind)
        self._kinds[file] = found
        return found
