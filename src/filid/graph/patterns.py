"""Specifier patterns with at most one ``*`` (tsconfig ``paths``, package ``exports`` and
``imports`` subpaths), matched in time that does not grow with the number of patterns.

Exact keys are a dictionary; wildcard patterns are grouped by their prefix, and a lookup tries
the key's own prefixes from the longest down, so a tsconfig with 50,000 ``paths`` or a
manifest with 100,000 ``exports`` patterns costs about as much per specifier as one with five.
Precedence is the compilers': an exact key wins, then the longest prefix (then the longest
suffix, then declaration order).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

__all__ = ["PatternIndex"]

V = TypeVar("V")


class PatternIndex(Generic[V]):
    """Patterns (``"@/*"``, ``"./icons/*.js"``, ``"#db"``) mapped to values."""

    __slots__ = ("_exact", "_lengths", "_wildcards")

    def __init__(self, items: Iterable[tuple[str, V]]) -> None:
        self._exact: dict[str, V] = {}
        self._wildcards: dict[str, list[tuple[str, V]]] = {}
        for pattern, value in items:
            stars = pattern.count("*")
            if stars == 0:
                self._exact.setdefault(pattern, value)
            elif stars == 1:
                prefix, _, suffix = pattern.partition("*")
                self._wildcards.setdefault(prefix, []).append((suffix, value))
            # several `*`: neither TypeScript nor Node matches such a pattern
        for entries in self._wildcards.values():
            entries.sort(key=lambda entry: -len(entry[0]))  # stable: declaration order kept
        self._lengths = sorted({len(prefix) for prefix in self._wildcards}, reverse=True)

    def lookup(self, key: str) -> tuple[V, str | None] | None:
        """``(value, captured)`` for the best pattern; ``captured`` is None for an exact key."""
        if key in self._exact:
            return self._exact[key], None
        for length in self._lengths:
            if length > len(key):
                continue
            entries = self._wildcards.get(key[:length])
            if entries is None:
                continue
            for suffix, value in entries:
                if len(key) >= length + len(suffix) and key.endswith(suffix):
                    return value, key[length : len(key) - len(suffix)]
        return None
