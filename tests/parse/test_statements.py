"""Top-level statement classification (for index-barrel-pattern and the split fix)."""

from __future__ import annotations

from filid.model.facts import FileFacts, StatementKind
from filid.parse import parse_source

K = StatementKind


def _parse(text: str, path: str = "src/index.ts") -> FileFacts:
    return parse_source(path, text.encode("utf-8"))


def test_a_valid_barrel_holds_only_barrel_statements() -> None:
    facts = _parse(
        """'use client';
import { a } from './a';
import b from './b';
import type { T } from './t';
export { c } from './c';
export * from './d';
export * as e from './e';
export type { U } from './u';
export { a };
export type { T };
export default b;
export {};
"""
    )
    kinds = [s.kind for s in facts.statements]
    assert kinds == [
        K.IMPORT, K.IMPORT, K.IMPORT,
        K.RE_EXPORT, K.RE_EXPORT, K.RE_EXPORT, K.RE_EXPORT,
        K.EXPORT_NAMES, K.EXPORT_NAMES, K.EXPORT_DEFAULT_NAME, K.EXPORT_EMPTY,
    ]  # fmt: skip
    barrel_kinds = {K.IMPORT, K.RE_EXPORT, K.EXPORT_EMPTY}
    for statement in facts.statements:
        if statement.kind in (K.EXPORT_NAMES, K.EXPORT_DEFAULT_NAME):
            assert set(statement.names) <= set(facts.imported_bindings)
        else:
            assert statement.kind in barrel_kinds
    assert [s.is_type_only for s in facts.statements][2:8] == [
        True, False, False, False, True, False,
    ]  # fmt: skip
    assert facts.declarations == ()


def test_statements_that_break_a_barrel() -> None:
    text = """import { a } from './a';
export const local = 1;
function helper() {}
export { local as renamed };
export default function main() {}
export default 40 + 2;
console.log(a);
if (a) { a(); }
"""
    facts = _parse(text)
    got = [(s.kind, s.names) for s in facts.statements]
    assert got == [
        (K.IMPORT, ()),
        (K.EXPORTED_DECLARATION, ("local",)),
        (K.DECLARATION, ("helper",)),
        (K.EXPORT_NAMES, ("local",)),
        (K.EXPORTED_DECLARATION, ("main",)),
        (K.EXPORT_DEFAULT_EXPRESSION, ()),
        (K.OTHER, ()),
        (K.OTHER, ()),
    ]
    assert "local" not in facts.imported_bindings


def test_statement_spans_cover_the_export_keyword_for_a_split() -> None:
    text = (
        "import { a } from './a';\n/** doc */\nexport const b = a + 1;\n"
        "export function c() {\n  return b;\n}\n"
    )
    source = text.encode()
    facts = parse_source("src/index.ts", source)
    moved = [
        source[s.span.start_byte : s.span.end_byte]
        for s in facts.statements
        if s.kind is K.EXPORTED_DECLARATION
    ]
    assert moved == [b"export const b = a + 1;", b"export function c() {\n  return b;\n}"]
    last = facts.statements[-1].span
    assert (last.line, last.end_line) == (4, 6)


def test_comments_empty_statements_and_directives_are_not_statements() -> None:
    facts = _parse("'use strict';\n// note\n;\n/* block */\nexport {};\n")
    assert [s.kind for s in facts.statements] == [K.EXPORT_EMPTY]


def test_a_string_statement_after_the_prologue_is_other() -> None:
    facts = _parse("export {};\n'late';\n")
    assert [s.kind for s in facts.statements] == [K.EXPORT_EMPTY, K.OTHER]
    assert facts.is_side_effect_free


def test_namespace_and_ambient_declarations_are_declarations() -> None:
    facts = _parse("namespace N { export const x = 1; }\ndeclare const g: number;\n")
    assert [(s.kind, s.names) for s in facts.statements] == [
        (K.DECLARATION, ("N",)),
        (K.DECLARATION, ("g",)),
    ]
