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

Matching takes time linear in the path (times the pattern's size), whatever the pattern: a
pattern compiles to a list of segment matchers and a path is matched by simulating the
automaton over its segments (a set of pattern positions, never backtracking), and a segment
is matched by the classic wildcard algorithm that resumes only from the last ``*`` — no
regular expression, so ``a*a*a*a*a*b`` against a long name (the catastrophic case of a
backtracking engine) costs as little as any other pattern. Compiled patterns are cached per
process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["folder_matcher", "matches_any_glob", "matches_glob", "matches_glob_exactly"]


def matches_glob(path: str, pattern: str) -> bool:
    """True when root-relative POSIX ``path`` or one of its parent folders matches ``pattern``."""
    return _compile(pattern).match(_segments(path), prefix=True)


def matches_glob_exactly(path: str, pattern: str) -> bool:
    """True when ``path`` itself (not only a parent folder) matches ``pattern``."""
    return _compile(pattern).match(_segments(path), prefix=False)


def matches_any_glob(path: str, patterns: Iterable[str]) -> bool:
    """True when ``path`` matches at least one of ``patterns`` (see :func:`matches_glob`)."""
    segments = _segments(path)
    return any(_compile(pattern).match(segments, prefix=True) for pattern in patterns)


def folder_matcher(folder: str, patterns: Iterable[str]) -> Callable[[str], bool]:
    """A test of a file ``name`` directly inside the root-relative ``folder`` that answers as
    ``matches_any_glob(f"{folder}/{name}", patterns)``, the folder's segments matched once
    per pattern (for asking about every file of a folder)."""
    folder_segments = _segments(folder)
    pending: list[tuple[_Glob, frozenset[int]]] = []
    for pattern in patterns:
        glob = _compile(pattern)
        states = glob.consume(folder_segments)
        if states is None:
            return _always  # the folder, or one above it, matches: so does all below
        if states:
            pending.append((glob, states))

    def matches(name: str) -> bool:
        return any(glob.finish(states, name) for glob, states in pending)

    return matches


def _always(name: str) -> bool:
    return True


def _segments(path: str) -> tuple[str, ...]:
    if path.startswith("./"):
        path = path[2:]
    path = path.strip("/")
    if path in ("", "."):
        return ()
    return tuple(path.split("/"))


# A segment pattern is a tuple of tokens: STAR, ANY (``?``), a one-character string (a
# literal), or a class ``(negated, members, ranges)``.
_STAR = 0
_ANY = 1
_Class = tuple[bool, frozenset[str], tuple[tuple[str, str], ...]]
_Token = int | str | _Class
_ANY_SEGMENTS = None  # ``**`` as a whole segment


@dataclass(frozen=True, slots=True)
class _Glob:
    """A compiled pattern: one entry per segment (``None`` for ``**``)."""

    segments: tuple[tuple[_Token, ...] | None, ...]

    def _closure(self, states: set[int]) -> set[int]:
        # ``**`` may match zero segments: a state on it also stands on the next one.
        for state in sorted(states):
            while state < len(self.segments) and self.segments[state] is None:
                state += 1
                states.add(state)
        return states

    def consume(self, path: tuple[str, ...]) -> frozenset[int] | None:
        """The states after matching the folders ``path`` as :meth:`match` with ``prefix``
        does; None when a prefix of it already matches, empty when nothing below can."""
        end = len(self.segments)
        if end == 0:
            return frozenset()
        states = self._closure({0})
        for segment in path:
            if end in states:
                return None
            states = self._step(states, segment)
            if not states:
                return frozenset()
        return None if end in states else frozenset(states)

    def finish(self, states: frozenset[int], name: str) -> bool:
        """Whether the last segment ``name`` after :meth:`consume`'s ``states`` matches."""
        return len(self.segments) in self._step(set(states), name)

    def _step(self, states: set[int], segment: str) -> set[int]:
        """The states after matching one more ``segment`` from ``states``."""
        end = len(self.segments)
        following: set[int] = set()
        for state in states:
            if state == end:
                continue
            tokens = self.segments[state]
            if tokens is None:
                following.add(state)
            elif _match_segment(tokens, segment):
                following.add(state + 1)
        return self._closure(following) if following else following

    def match(self, path: tuple[str, ...], *, prefix: bool) -> bool:
        end = len(self.segments)
        if end == 0:
            return False  # an empty pattern (or ".") names nothing a user could mean
        states = self._closure({0})
        for segment in path:
            if prefix and end in states:
                return True
            states = self._step(states, segment)
            if not states:
                return False
        return end in states


def _one(token: _Token, char: str) -> bool:
    if token == _ANY:
        return True
    if isinstance(token, str):
        return token == char
    assert isinstance(token, tuple)
    negated, members, ranges = token
    inside = char in members or any(low <= char <= high for low, high in ranges)
    return inside != negated


def _match_segment(tokens: tuple[_Token, ...], text: str) -> bool:
    """Wildcard match of one segment: O(len(text) * len(tokens)), never exponential (after a
    mismatch only the most recent ``*`` takes one more character). The usual shapes — a
    literal name, ``*``, ``*.ext``, ``name*`` — are string comparisons."""
    shape = _SHAPES.get(tokens)
    if shape is None:
        shape = _SHAPES[tokens] = _shape(tokens)
    kind, literal = shape
    if kind == _EXACT:
        return text == literal
    if kind == _SUFFIX:
        return text.endswith(literal)
    if kind == _PREFIX:
        return text.startswith(literal)
    return _match_tokens(tokens, text)


# A segment's shape: an exact name, ``*<suffix>``, ``<prefix>*``, or anything else.
_EXACT, _SUFFIX, _PREFIX, _OTHER = range(4)
_SHAPES: dict[tuple[_Token, ...], tuple[int, str]] = {}


def _shape(tokens: tuple[_Token, ...]) -> tuple[int, str]:
    """The shape of one segment's tokens, with its literal part (see ``_match_segment``)."""
    if all(isinstance(t, str) for t in tokens):
        return _EXACT, "".join(str(t) for t in tokens)
    rest = tokens[1:] if tokens[:1] == (_STAR,) else None
    if rest is not None and all(isinstance(t, str) for t in rest):
        return _SUFFIX, "".join(str(t) for t in rest)
    head = tokens[:-1] if tokens[-1:] == (_STAR,) else None
    if head is not None and all(isinstance(t, str) for t in head):
        return _PREFIX, "".join(str(t) for t in head)
    return _OTHER, ""


def _match_tokens(tokens: tuple[_Token, ...], text: str) -> bool:
    """The general wildcard match of ``_match_segment``."""
    t = p = 0
    star = -1
    mark = 0
    while t < len(text):
        if p < len(tokens) and tokens[p] != _STAR and _one(tokens[p], text[t]):
            p += 1
            t += 1
        elif p < len(tokens) and tokens[p] == _STAR:
            star, mark = p, t
            p += 1
        elif star >= 0:
            p = star + 1
            mark += 1
            t = mark
        else:
            return False
    while p < len(tokens) and tokens[p] == _STAR:
        p += 1
    return p == len(tokens)


class _ReversedRange(ValueError):
    pass


@lru_cache(maxsize=4096)
def _compile(pattern: str) -> _Glob:
    parts = [segment for segment in pattern.split("/") if segment not in ("", ".")]
    try:
        return _Glob(_build(parts, literal=False))
    except _ReversedRange:
        # A reversed class range ("[z-a]"): match the pattern literally instead.
        return _Glob(_build(parts, literal=True))


def _build(parts: list[str], *, literal: bool) -> tuple[tuple[_Token, ...] | None, ...]:
    segments: list[tuple[_Token, ...] | None] = []
    for segment in parts:
        if segment == "**":
            if not segments or segments[-1] is not None:
                segments.append(_ANY_SEGMENTS)
        elif literal:
            segments.append(tuple(segment))
        else:
            segments.append(_translate_segment(segment))
    return tuple(segments)


def _translate_segment(segment: str) -> tuple[_Token, ...]:
    """One pattern segment (no ``/``, not ``**``) as tokens."""
    out: list[_Token] = []
    i = 0
    n = len(segment)
    while i < n:
        char = segment[i]
        if char == "*":
            # Runs of stars inside a segment ("a**b") collapse to one "*".
            while i + 1 < n and segment[i + 1] == "*":
                i += 1
            out.append(_STAR)
        elif char == "?":
            out.append(_ANY)
        elif char == "[":
            end, cls = _translate_class(segment, i)
            if cls is None:
                out.append(char)
            else:
                out.append(cls)
                i = end
        elif char == "\\" and i + 1 < n:
            i += 1
            out.append(segment[i])
        else:
            out.append(char)
        i += 1
    return tuple(out)


def _translate_class(segment: str, start: int) -> tuple[int, _Class | None]:
    """The class opening at ``segment[start]``: (index of its ``]``, class), or (start, None)."""
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
    members: set[str] = set()
    ranges: list[tuple[str, str]] = []
    j = 0
    while j < len(body):
        if j + 2 < len(body) and body[j + 1] == "-":
            low, high = body[j], body[j + 2]
            if low > high:
                raise _ReversedRange(body)
            ranges.append((low, high))
            j += 3
        else:
            members.add(body[j])
            j += 1
    if negate:
        members.add("/")
    return i, (negate, frozenset(members), tuple(ranges))
