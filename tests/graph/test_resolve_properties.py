"""Property tests: resolution is total over arbitrary specifier strings."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from filid.graph import ResolutionKind, Resolver, build_resolver
from tests.graph.conftest import write_project

PROJECT = {
    "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./src/*"],'
    ' "*": ["./types/*"], "exact": ["./src/a.ts"]}}}',
    "package.json": '{"name": "root-pkg", "exports": {"./*": "./src/*.ts", ".": null}}',
    "packages/p/package.json": '{"name": "@s/p", "exports": {".": [{"x": "./i.ts"}, "./j"]}}',
    "packages/p/i.ts": "",
    "src/a.ts": "",
    "src/index.ts": "",
    "src/d/index.tsx": "",
    "types/t.ts": "",
}

# Specifiers built from the pieces resolution cares about, plus arbitrary text.
pieces = st.sampled_from(
    [
        "./",
        "../",
        "/",
        ".",
        "..",
        "@",
        "@/",
        "*",
        "?",
        "#",
        ":",
        "\\",
        "\x00",
        "src",
        "d",
        "a",
        "index",
        ".js",
        ".ts",
        ".d.ts",
        "@s/p",
        "root-pkg",
        "exact",
        "//",
        "é",
    ]
)
specifiers = st.one_of(st.text(), st.lists(pieces, max_size=8).map("".join))
importers = st.sampled_from(["src/a.ts", "src/d/index.tsx", "x.ts", "deep/er/file.js"])


@pytest.fixture(scope="module")
def resolver(tmp_path_factory: pytest.TempPathFactory) -> Resolver:
    root: Path = tmp_path_factory.mktemp("props")
    return build_resolver(root, write_project(root, PROJECT))


@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(importer=importers, specifier=specifiers)
def test_resolve_never_raises(resolver: Resolver, importer: str, specifier: str) -> None:
    result = resolver.resolve(importer, specifier)
    if result.kind is ResolutionKind.FILE:
        assert result.target in PROJECT
    else:
        assert result.target is None
    # Memoised answers are the same answers.
    assert resolver.resolve(importer, specifier) == result
