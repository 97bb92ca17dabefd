"""Gitignore-style globs over root-relative POSIX paths (``exempt``, allowed-peer ``paths``).

Syntax, matched segment by segment (a segment never contains ``/``):

- ``*`` any run of characters inside one segment, ``?`` one character, ``[abc]`` / ``[a-z]``
  a character class (``[!abc]`` or ``[^abc]`` negates it), ``\\x`` the literal ``x``;
- ``**`` as a whole segment: zero or more segments (``a/**/b`` matches ``a/b`` and
  ``a/x/y/b``; a ``**`` inside a segment, as in ``a**b``, behaves like ``*``);
- an unclosed ``[`` is a literal ``[`` (a bad pattern never raises, it just matches literally).

Patterns are anchored at the project root (``src/legacy`` does not match
``lib/src/legacy``; write ``**/legacy`` for "anywhere"). A leading ``./`` or ``/`` and a
trailing ``/`` are ignored. As in ``.gitignore``, a pattern that matches a directory matches
everything below it, so ``src/legacy``, ``src/legacy/**`` and ``src/*`` all match
``src/legacy/a/b.ts``; ``src/legacy/**`` also matches ``src/legacy`` itself, so exempting a
folder's contents exempts the folder node too. The root itself is ``.`` (or ``""``) and is
matched only by patterns that can match zero segments, such as ``**``.

Patterns compile to one regular expression each, cached per process.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

__all__ = ["matches_any_glob", "matches_glob"]

_Matcher = Callable[[str], "re.Match[str] | None"]


def matches_glob(path: str, pattern: str) -> bool:
    """True when root-relative POSIX ``path`` or one of its parent folders matches ``pattern``."""
    return _compile(pattern)(_subject(path)) is not None


def matches_any_glob(path: str, patterns: Iterable[str]) -> bool:
    """True when ``path`` matches at least one of ``patterns`` (see :func:`matches_glob`)."""
    subject = _subject(path)
    return any(_compile(pattern)(subject) is not None for pattern in patterns)


def _subject(path: str) -> str:
    """The string the compiled pattern runs on: the path with one trailing ``/`` per segment.

    Every compiled segment ends in ``/``, so a prefix match always ends on a segment boundary,
    which is exactly "the path or one of its parents".
    """
    if path.startswith("./"):
        path = path[2:]
    path = path.strip("/")
    if path in ("", "."):
        return ""
    return path + "/"


@lru_cache(maxsize=4096)
def _compile(pattern: str) -> _Matcher:
    segments = [segment for segment in pattern.split("/") if segment not in ("", ".")]
    if not segments:
        # An empty pattern (or ".") names nothing a user could mean; it must not exempt everything.
        return _never
    parts: list[str] = []
    for segment in segments:
        if segment == "**":
            if not parts or parts[-1] != _ANY_SEGMENTS:
                parts.append(_ANY_SEGMENTS)
        else:
            parts.append(_translate_segment(segment) + "/")
    try:
        return re.compile("".join(parts)).match
    except re.error:
        # Only a reversed class range ("[z-a]") gets here; match the pattern literally instead.
        literal = "".join(
            _ANY_SEGMENTS if segment == "**" else re.escape(segment) + "/" for segment in segments
        )
        return re.compile(literal).match


_ANY_SEGMENTS = "(?:[^/]+/)*"


def _never(_subject: str) -> None:
    return None


def _translate_segment(segment: str) -> str:
    """One pattern segment (no ``/``, not ``**``) as a regular expression."""
    out: list[str] = []
    i = 0
    n = len(segment)
    while i < n:
        char = segment[i]
        if char == "*":
            # Runs of stars inside a segment ("a**b") collapse to one "*".
            while i + 1 < n and segment[i + 1] == "*":
                i += 1
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end, cls = _translate_class(segment, i)
            if cls is None:
                out.append(re.escape(char))
            else:
                out.append(cls)
                i = end
        elif char == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(segment[i]))
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def _translate_class(segment: str, start: int) -> tuple[int, str | None]:
    """The class opening at ``segment[start]``: (index of its ``]``, regex), or (start, None)."""
    i = start + 1
    negate = i < len(segment) and segment[i] in "!^"
    if negate:
        i += 1
    body_start = i
    # A "]" right after the opening (or after the negation) is a member, as in fnmatch.
    if i < len(segment) and segment[i] == "]":
        i += 1
    while i < len(segment) and segment[i] != "]":
        i += 1
    if i >= len(segment):
        return start, None
    body = segment[body_start:i]
    # "-" keeps its range meaning; anything regex-special inside a class is escaped.
    members = "".join("\\" + c if c in "\\^[]" else c for c in body)
    if negate:
        return i, f"[^/{members}]"
    return i, f"[{members}]"
