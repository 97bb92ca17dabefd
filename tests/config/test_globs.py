"""matches_glob: gitignore-style globs over root-relative POSIX paths."""

from __future__ import annotations

from fnmatch import fnmatchcase

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from filid.config.globs import (
    _ReversedRange,
    _translate_segment,
    folder_matcher,
    matches_any_glob,
    matches_glob,
    matches_glob_exactly,
)


@pytest.mark.parametrize(
    ("path", "pattern", "expected"),
    [
        # A pattern matches the path or any parent folder.
        ("src/legacy/a/b.ts", "src/legacy/**", True),
        ("src/legacy/a/b.ts", "src/legacy", True),
        ("src/legacy/a/b.ts", "src/legacy/", True),
        ("src/legacy/a/b.ts", "./src/legacy", True),
        ("src/legacy", "src/legacy/**", True),
        ("src/legacyx/a.ts", "src/legacy", False),
        ("src/legacyx/a.ts", "src/legacy/**", False),
        # Anchored at the root.
        ("lib/src/legacy/a.ts", "src/legacy/**", False),
        ("lib/src/legacy/a.ts", "**/legacy", True),
        ("legacy/a.ts", "**/legacy", True),
        # * and ? stay inside one segment.
        ("apps/web/vite.config.ts", "apps/*", True),
        ("apps", "apps/*", False),
        ("a.ts", "*.ts", True),
        ("src/a.ts", "*.ts", False),
        ("src/a.ts", "**/*.ts", True),
        ("packages/ab", "packages/??", True),
        ("packages/abc", "packages/??", False),
        ("a/xyz/b", "a/x**z/b", True),
        # ** spans zero or more segments.
        ("a/b", "a/**/b", True),
        ("a/x/y/b", "a/**/b", True),
        ("a/xb", "a/**/b", False),
        ("packages/foo/src/legacy/a.ts", "packages/**/legacy/**", True),
        # Classes.
        ("x.ts", "[xy].ts", True),
        ("z.ts", "[xy].ts", False),
        ("z.ts", "[!xy].ts", True),
        ("z.ts", "[^xy].ts", True),
        ("x.ts", "[!xy].ts", False),
        ("m.ts", "[a-z].ts", True),
        ("M.ts", "[a-z].ts", False),
        # Literal characters: dots, escapes, unclosed or reversed classes never raise.
        ("src/index.test.ts", "src/index.test.ts", True),
        ("src/indexXtestXts", "src/index.test.ts", False),
        ("a*b", r"a\*b", True),
        ("axb", r"a\*b", False),
        ("[invalid glob", "[invalid glob", True),
        ("x", "[invalid glob", False),
        ("a/[z-a]", "a/[z-a]", True),
        # The root and empty patterns.
        (".", "**", True),
        ("", "**", True),
        (".", "src", False),
        ("src/a.ts", "", False),
        ("src/a.ts", ".", False),
        # Case-sensitive, like the paths on disk.
        ("Src/a.ts", "src/**", False),
    ],
)
def test_cases(path: str, pattern: str, expected: bool) -> None:
    assert matches_glob(path, pattern) is expected


def test_matches_any() -> None:
    assert matches_any_glob("src/legacy/a.ts", ["lib/**", "src/legacy"])
    assert not matches_any_glob("src/new/a.ts", ["lib/**", "src/legacy"])
    assert not matches_any_glob("src/new/a.ts", [])


# ---- property: agrees with a straightforward recursive definition ------------------------------


def reference_match(path: str, pattern: str) -> bool:
    """Segment-wise recursion with fnmatch per segment; the spec written the slow, obvious way."""
    segments = [s for s in pattern.split("/") if s not in ("", ".")]
    if not segments:
        return False
    names = [] if path in ("", ".") else path.split("/")

    def prefix_matches(i: int, j: int) -> bool:
        # Does segments[i:] match some prefix of names[j:] (a parent or the path itself)?
        if i == len(segments):
            return True
        if segments[i] == "**":
            return any(prefix_matches(i + 1, k) for k in range(j, len(names) + 1))
        if j == len(names):
            return False
        return fnmatchcase(names[j], segments[i]) and prefix_matches(i + 1, j + 1)

    return prefix_matches(0, 0)


# Root-relative paths never hold "." or ".." segments (the root itself is ".").
names = st.text(alphabet="ab.", min_size=1, max_size=3).filter(lambda s: s not in (".", ".."))
paths = st.lists(names, min_size=0, max_size=5).map("/".join)
pattern_segments = st.one_of(
    names,
    st.just("**"),
    st.text(alphabet="ab.*?", min_size=1, max_size=3).filter(lambda s: s != "**"),
)
patterns = st.lists(pattern_segments, min_size=1, max_size=4).map("/".join)


@given(paths, patterns)
def test_agrees_with_reference(path: str, pattern: str) -> None:
    assert matches_glob(path, pattern) == reference_match(path, pattern)


@given(st.lists(names, min_size=1, max_size=5))
def test_every_parent_and_its_subtree_glob_match(segments: list[str]) -> None:
    path = "/".join(segments)
    for depth in range(1, len(segments) + 1):
        parent = "/".join(segments[:depth])
        assert matches_glob(path, parent)
        assert matches_glob(path, parent + "/**")
    assert matches_glob(path, "**")
    assert not matches_glob(path, "zzz/**")


# ---- property: character classes, against fnmatch (the linear matcher has no regex) -----------

class_segments = st.text(alphabet="ab[]!-*?", min_size=1, max_size=6).filter(
    lambda s: s != "**" and "/" not in s
)


def _has_reversed_range(segment: str) -> bool:
    """Whether a class of ``segment`` holds a reversed range (``[z-a]``): by the decision the
    literal cases above test, filid then matches the whole pattern literally, where fnmatch
    drops the range (and reads a class left as ``[!]`` as any character)."""
    try:
        _translate_segment(segment)
    except _ReversedRange:
        return True
    return False


@given(names, class_segments)
def test_classes_agree_with_fnmatch(name: str, segment: str) -> None:
    assume(not _has_reversed_range(segment))
    assert matches_glob(name, segment) == fnmatchcase(name, segment)


def test_a_catastrophic_pattern_is_answered() -> None:
    # The backtracking regex this replaced took about forever here; the answer matters too.
    assert not matches_glob("src/" + "a" * 200, "src/" + "a*" * 25 + "b")
    assert matches_glob("src/" + "a" * 200 + "b", "src/" + "a*" * 25 + "b")


@given(st.lists(names, min_size=0, max_size=4).map("/".join), names, st.lists(patterns, max_size=3))
def test_a_folder_matcher_agrees_with_matching_each_path(
    folder: str, name: str, many: list[str]
) -> None:
    path = f"{folder}/{name}" if folder else name
    assert folder_matcher(folder or ".", many)(name) == matches_any_glob(path, many)


@pytest.mark.parametrize("segment", ["x.ts", "*", "*.ts", "x*", "a?b", "*.d.*", "[ab]*"])
def test_segment_shapes_agree_with_fnmatch(segment: str) -> None:
    for name in ("x.ts", "x.d.ts", "a.tsx", "aab", "x", "ts", "axb"):
        expected = fnmatchcase(name, segment)
        assert matches_glob_exactly(f"src/{name}", f"src/{segment}") == expected, name
