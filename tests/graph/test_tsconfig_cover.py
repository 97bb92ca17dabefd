"""The per-folder shortcut of tsconfig governance never disagrees with the pattern match.

``TsconfigIndex`` asks, for each folder, which of its source files the folder's own program
leaves out. ``covers_folder`` answers "none" without matching a pattern when an ``include``
names a literal folder at or above it and no ``exclude`` can reach inside; whenever it says
so, ``folder_compiles`` must take every file in (else a file a config above governs would be
resolved with the wrong ``paths``).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from filid.graph.tsconfig import _RawOptions

INCLUDES = [
    "pkg/src",
    "pkg/src/**",
    "pkg/src/**/*",
    "pkg/**",
    "pkg/src/a",
    "pkg/*/src",
    "pkg/src/*.ts",
    "**/*",
    "pkg/s",
    "pkg/src/a/x.ts",
    "other",
    "pkg\\src",
    "pkg/[ab]",
]
EXCLUDES = [
    "pkg/dist",
    "pkg/src/a",
    "pkg/src/a/x.ts",
    "**/*.test.ts",
    "pkg/src/*.spec.ts",
    "pkg/sr",
    "other/**",
    "pkg/src/a/b",
]
FOLDERS = ["pkg", "pkg/src", "pkg/src/a", "pkg/src/a/b", "pkg/s", "pkg/srcx", "other/src"]
NAMES = ["x.ts", "y.tsx", "z.test.ts", "w.spec.ts", "v.js", "u.mjs", "index.d.ts"]


@settings(max_examples=400, deadline=None)
@given(
    includes=st.none() | st.lists(st.sampled_from(INCLUDES), max_size=3).map(tuple),
    excludes=st.none() | st.lists(st.sampled_from(EXCLUDES), max_size=3).map(tuple),
    files=st.none() | st.lists(st.sampled_from(["pkg/src/a/x.ts"]), max_size=1).map(tuple),
    allow_js=st.sampled_from([None, True, False]),
    folder=st.sampled_from(FOLDERS),
    names=st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True),
    config_dir=st.sampled_from([".", "pkg", "pkg/src"]),
)
def test_a_covered_folder_is_one_whose_every_file_is_compiled(
    includes: tuple[str, ...] | None,
    excludes: tuple[str, ...] | None,
    files: tuple[str, ...] | None,
    allow_js: bool | None,
    folder: str,
    names: list[str],
    config_dir: str,
) -> None:
    raw = _RawOptions(
        base_url=None,
        paths=None,
        paths_dir=config_dir,
        files=files,
        includes=includes,
        excludes=excludes,
        allow_js=allow_js,
    )
    sources = [f"{folder}/{name}" for name in names]
    if raw.covers_folder(config_dir, folder, sources):
        compiles = raw.folder_compiles(config_dir, folder)
        assert all(compiles(file) for file in sources)


def test_a_literal_include_covers_the_folders_below_it() -> None:
    raw = _RawOptions(base_url=None, paths=None, paths_dir="pkg", includes=("pkg/src",))
    assert raw.covers_folder("pkg", "pkg/src/a", ["pkg/src/a/x.ts"])
    # a JavaScript file without allowJs, a wildcard exclude, a sibling folder: ask the patterns
    assert not raw.covers_folder("pkg", "pkg/src/a", ["pkg/src/a/x.js"])
    assert not raw.covers_folder("pkg", "pkg/srcx", ["pkg/srcx/x.ts"])
    excluding = _RawOptions(
        base_url=None, paths=None, paths_dir="pkg", includes=("pkg/src",), excludes=("**/*.d.ts",)
    )
    assert not excluding.covers_folder("pkg", "pkg/src/a", ["pkg/src/a/x.ts"])
