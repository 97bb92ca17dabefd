"""An import specifier is the literal's value: its JavaScript escape sequences decoded (the
loader resolves `'./\\u00e9'` as `./é`), whatever the import form."""

from __future__ import annotations

import pytest

from filid.parse import parse_source


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        (r"'./\u00e9'", "./é"),
        (r"'@app/components/\u0017code-tabs'", "@app/components/\x17code-tabs"),
        (r"'./\x41b'", "./Ab"),
        (r"'./\u{1F600}'", "./😀"),
        (r"'./\ud83d\ude00'", "./😀"),  # a surrogate pair is one character
        (r"'./it\'s'", "./it's"),
        (r'"./a\\b"', "./a\\b"),
        (r"'./\a\-b'", "./a-b"),  # any other escaped character stands for itself
        ("'./a\\\nb'", "./ab"),  # a line continuation adds nothing
        (r"'./plain'", "./plain"),
        (r"'./é'", "./é"),
    ],
)
def test_the_specifier_is_the_decoded_value(literal: str, value: str) -> None:
    for text in (
        f"import {{ x }} from {literal};\nexport const y = x;\n",
        f"export {{ x }} from {literal};\n",
        f"export const y = () => import({literal});\n",
        f"const y = require({literal});\n",
    ):
        facts = parse_source("src/a.ts", text.encode("utf-8"))
        assert [fact.specifier for fact in facts.imports] == [value], text


def test_a_template_literal_without_substitutions_is_decoded() -> None:
    facts = parse_source("src/a.js", b"const y = require(`./t\\u0041`);\n")
    assert [fact.specifier for fact in facts.imports] == ["./tA"]


def test_a_lone_surrogate_keeps_the_literal_as_written() -> None:
    facts = parse_source("src/a.ts", b"import { x } from './\\ud800';\n")
    assert [fact.specifier for fact in facts.imports] == ["./\\ud800"]


def test_the_specifier_span_still_covers_the_source_text() -> None:
    source = b"import { x } from './\\u00e9';\n"
    (fact,) = parse_source("src/a.ts", source).imports
    assert fact.specifier_span is not None
    span = fact.specifier_span
    assert source[span.start_byte : span.end_byte] == b"./\\u00e9"
