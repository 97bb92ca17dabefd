"""Imports that name only types, ``import type`` or not (SPEC §0, §5 circular-dependency).

``import { Props } from './button'`` without ``type`` runs nothing when ``Props`` is an
interface: TypeScript elides it (``isolatedModules`` and ``verbatimModuleSyntax`` aside, which
only change whether the import statement stays, never whether a value is read). Such an edge
closes no runtime cycle. A binding counts as a type when the target's export of that name is
an ``interface``, a ``type`` alias, an ambient type or an ``export type``, following
``export { X } from`` and ``export * from`` re-exports through the project. Anything unknown
(a local ``export { X }`` of a declaration the lean parse did not keep, a namespace or
side-effect import, an external re-export) counts as a value: the edge stays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from filid.model.facts import ExportKind, FileFacts, ImportFact, ImportKind

__all__ = ["TypeOnlyIndex"]

TargetOf = Callable[[str, str], "str | None"]

# Re-export chains longer than this are not followed (the binding counts as a value): the
# walk recurses, and a hostile chain of thousands of files must not exhaust the stack.
_MAX_HOPS = 64

# Import kinds whose bindings can all be types; the others always run the target.
_NAMED_KINDS = frozenset({ImportKind.STATIC, ImportKind.RE_EXPORT})


class TypeOnlyIndex:
    """Answers "does this import name only types?" over one project's facts, memoized."""

    def __init__(self, facts: Mapping[str, FileFacts], target_of: TargetOf) -> None:
        """``target_of(file, specifier)`` is the project file a re-export's source resolves to."""
        self._facts = facts
        self._target_of = target_of
        self._memo: dict[tuple[str, str], bool] = {}

    def is_type_only(self, target: str, fact: ImportFact) -> bool:
        """True when ``fact`` (resolved to ``target``) names bindings and each is a type."""
        names = fact.names
        if fact.kind not in _NAMED_KINDS or not names or "*" in names:
            return False
        memo = self._memo
        for name in names:
            # the memo read here: most answers are known (a target is imported many times)
            answer = memo.get((target, name))
            if answer is None:
                answer = self._resolve(target, name, set())
            if not answer:
                return False
        return True

    def is_type(self, file: str, name: str) -> bool:
        """True when ``file`` exports ``name`` only as a type (see the module docstring)."""
        return self._resolve(file, name, set())

    def _resolve(self, file: str, name: str, seen: set[tuple[str, str]]) -> bool:
        key = (file, name)
        if key in self._memo:
            return self._memo[key]
        if key in seen or len(seen) > _MAX_HOPS:
            return False  # a re-export loop (or a chain too long to follow) proves nothing
        seen.add(key)
        answer = self._compute(file, name, seen)
        self._memo[key] = answer
        return answer

    def _compute(self, file: str, name: str, seen: set[tuple[str, str]]) -> bool:
        facts = self._facts.get(file)
        if facts is None:
            return False
        named = [e for e in facts.exports if e.kind is not ExportKind.STAR and e.name == name]
        if named:
            for export in named:
                if export.is_type:
                    continue
                if export.source is None:
                    return False  # a value, or a local name the lean parse cannot see into
                target = self._target_of(file, export.source)
                if target is None or not self._resolve(target, export.local or name, seen):
                    return False
            return True
        if name == "default":
            return False
        for export in facts.exports:
            if export.kind is not ExportKind.STAR or export.source is None:
                continue
            target = self._target_of(file, export.source)
            if target is None:
                return False  # an external `export *` may hold a value of that name
            if self._exports_name(target, name, set()):
                return self._resolve(target, name, seen)
        return False

    def _exports_name(self, file: str, name: str, seen: set[str]) -> bool:
        """Does ``file`` export ``name`` at all (directly or through ``export *``)?"""
        if file in seen or len(seen) > _MAX_HOPS:
            return False
        seen.add(file)
        facts = self._facts.get(file)
        if facts is None:
            return False
        for export in facts.exports:
            if export.kind is not ExportKind.STAR and export.name == name:
                return True
        for export in facts.exports:
            if export.kind is ExportKind.STAR and export.source is not None:
                target = self._target_of(file, export.source)
                if target is not None and self._exports_name(target, name, seen):
                    return True
        return False
