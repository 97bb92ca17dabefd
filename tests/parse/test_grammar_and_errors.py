"""Grammar choice by extension, syntax errors, and robustness on arbitrary text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from filid.model.facts import ImportKind
from filid.parse import parse_source

_JSX = b"import React from 'react';\nexport const App = () => <div className=\"a\">{1}</div>;\n"
_CAST = b"import { x } from './x';\nexport const y = <number>x;\n"


@pytest.mark.parametrize("extension", ["tsx", "jsx", "js", "mjs", "cjs"])
def test_jsx_parses_with_the_tsx_grammar(extension: str) -> None:
    facts = parse_source(f"src/app.{extension}", _JSX)
    assert not facts.has_syntax_error
    assert [e.name for e in facts.exports] == ["App"]


@pytest.mark.parametrize("extension", ["ts", "mts", "cts"])
def test_angle_bracket_casts_parse_with_the_typescript_grammar(extension: str) -> None:
    facts = parse_source(f"src/cast.{extension}", _CAST)
    assert not facts.has_syntax_error
    assert [e.name for e in facts.exports] == ["y"]


def test_jsx_in_a_ts_file_and_casts_in_a_tsx_file_are_errors() -> None:
    assert parse_source("src/app.ts", _JSX).has_syntax_error
    assert parse_source("src/cast.tsx", _CAST).has_syntax_error


def test_syntax_error_keeps_what_parsed_and_reports_the_line() -> None:
    source = b"""import { a } from './a';
export const ok = 1;
export const broken = ;
export function later() { return import('./lazy'); }
"""
    facts = parse_source("src/x.ts", source)
    assert facts.has_syntax_error
    assert facts.syntax_error_line == 3
    assert [i.specifier for i in facts.imports] == ["./a", "./lazy"]
    assert "ok" in [e.name for e in facts.exports]
    assert "later" in [e.name for e in facts.exports]


def test_unclosed_import_string_does_not_crash() -> None:
    facts = parse_source("src/x.ts", b"import { a } from './a")
    assert facts.has_syntax_error
    assert facts.syntax_error_line == 1


def test_clean_file_has_no_error_line() -> None:
    facts = parse_source("src/x.ts", b"export const a = 1;\n")
    assert not facts.has_syntax_error
    assert facts.syntax_error_line is None


def test_a_shebang_line_is_ignored() -> None:
    facts = parse_source("bin/cli.js", b"#!/usr/bin/env node\nrequire('./main');\n")
    assert not facts.has_syntax_error
    assert [(i.specifier, i.kind) for i in facts.imports] == [("./main", ImportKind.REQUIRE)]


_FRAGMENTS = st.sampled_from(
    [
        "import ", "export ", "from ", "'./x'", '"y"', "`t${", "}", "{", "(", ")", "<", ">",
        "type ", "default ", "* as ", "require(", "import(", "const ", "=", ";", "\n", "é", "😀",
        "class ", "static ", "declare ", "namespace ", "/*", "*/", "//", "\\", "as ", ",",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    text=st.one_of(st.text(max_size=300), st.lists(_FRAGMENTS, max_size=60).map("".join)),
    extension=st.sampled_from(["ts", "tsx", "js"]),
)
def test_parse_source_never_raises(text: str, extension: str) -> None:
    source = text.encode("utf-8", "surrogatepass")
    facts = parse_source(f"src/f.{extension}", source)
    for fact in facts.imports:
        assert 0 <= fact.span.start_byte <= fact.span.end_byte <= len(source)
        assert fact.span.line >= 1 and fact.span.column >= 1
        if fact.specifier_span is not None:
            span = fact.specifier_span
            assert span.start_byte <= span.end_byte
            assert source[span.start_byte : span.end_byte].decode("utf-8", "replace") == (
                fact.specifier
            )


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_parse_source_never_raises_on_arbitrary_bytes(source: bytes) -> None:
    parse_source("src/f.ts", source)
