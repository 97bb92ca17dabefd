"""Exports and top-level declarations (SPEC §3)."""

from __future__ import annotations

import pytest

from filid.model.facts import ExportKind, FileFacts
from filid.parse import parse_source


def _parse(text: str, path: str = "src/a.ts") -> FileFacts:
    return parse_source(path, text.encode("utf-8"))


def _exports(text: str) -> list[tuple[str, ExportKind, bool, str | None, str | None]]:
    return [(e.name, e.kind, e.is_type, e.source, e.local) for e in _parse(text).exports]


N, D, T = ExportKind.NAMED, ExportKind.DEFAULT, ExportKind.TYPE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("export const a = 1, b = 2;", [("a", N, False, None, None), ("b", N, False, None, None)]),
        (
            "export let { x, y: [z] } = o;",
            [("x", N, False, None, None), ("z", N, False, None, None)],
        ),
        ("export function f() {}", [("f", N, False, None, None)]),
        ("export async function* g() {}", [("g", N, False, None, None)]),
        ("export class C {}", [("C", N, False, None, None)]),
        ("export abstract class A {}", [("A", N, False, None, None)]),
        ("export enum E { A }", [("E", N, False, None, None)]),
        ("export const enum F { A }", [("F", N, False, None, None)]),
        ("export namespace NS { }", [("NS", N, False, None, None)]),
        ("export declare const d: number;", [("d", N, False, None, None)]),
        ("export interface I {}", [("I", T, True, None, None)]),
        ("export type U = string;", [("U", T, True, None, None)]),
        ("export declare type V = 1;", [("V", T, True, None, None)]),
        ("export default function f() {}", [("default", D, False, None, "f")]),
        ("export default class {}", [("default", D, False, None, None)]),
        ("export default () => 1;", [("default", D, False, None, None)]),
        ("const a = 1;\nexport default a;", [("default", D, False, None, "a")]),
        ("export default interface P {}", [("default", T, True, None, "P")]),
        ("const a = 1;\nexport = a;", [("default", D, False, None, "a")]),
        (
            "const a = 1, b = 2;\nexport { a, b as c };",
            [("a", N, False, None, None), ("c", N, False, None, "b")],
        ),
        ("const a = 1;\nexport { a as default };", [("default", D, False, None, "a")]),
        ("type A = 1;\nexport type { A };", [("A", T, True, None, None)]),
        (
            "type A = 1; const b = 2;\nexport { type A, b };",
            [("A", T, True, None, None), ("b", N, False, None, None)],
        ),
        ("export * from './x';", [("*", ExportKind.STAR, False, "./x", None)]),
        ("export * as ns from './x';", [("ns", ExportKind.STAR_AS, False, "./x", None)]),
        (
            "export { a, b as c, default as d } from './x';",
            [
                ("a", N, False, "./x", None),
                ("c", N, False, "./x", "b"),
                ("d", N, False, "./x", "default"),
            ],
        ),
        ("export { a as default } from './x';", [("default", D, False, "./x", "a")]),
        ("export type { T } from './x';", [("T", T, True, "./x", None)]),
        ("export {};", []),
    ],
)
def test_export_forms(
    text: str, expected: list[tuple[str, ExportKind, bool, str | None, str | None]]
) -> None:
    assert _exports(text) == expected


def test_overloads_export_one_name() -> None:
    facts = _parse(
        "export function f(a: string): string;\n"
        "export function f(a: number): number;\n"
        "export function f(a: unknown) { return a; }\n"
    )
    assert [e.name for e in facts.exports] == ["f"]


def test_export_lines() -> None:
    facts = _parse("const a = 1;\n\nexport { a };\nexport const b = 2;\n")
    assert [(e.name, e.line) for e in facts.exports] == [("a", 3), ("b", 4)]


def test_declarations_with_kinds_names_and_exported_flags() -> None:
    text = """import { z } from './z';
function f() {}
export class C {}
const a = 1, { b } = z;
export enum E { A }
interface I {}
export type T = string;
namespace N {}
declare module 'ambient' {}
declare global { interface Window { x: number } }
export default 42;
"""
    facts = _parse(text)
    assert [(d.kind, d.name, d.exported) for d in facts.declarations] == [
        ("function", "f", False),
        ("class", "C", True),
        ("variable", "a", False),
        ("variable", "b", False),
        ("enum", "E", True),
        ("interface", "I", False),
        ("type", "T", True),
        ("namespace", "N", False),
        ("namespace", "ambient", False),
        ("namespace", "global", False),
        ("default-expression", None, True),
    ]
    source = text.encode()
    spans = {d.name: source[d.span.start_byte : d.span.end_byte] for d in facts.declarations}
    assert spans["C"] == b"export class C {}"
    assert spans["b"] == b"const a = 1, { b } = z;"
    assert spans[None] == b"export default 42;"


def test_export_type_star_is_read_from_the_tree_despite_the_grammar() -> None:
    # TypeScript 5.0 syntax that tree-sitter-typescript 0.23 parses with the `type` keyword in
    # an ERROR node: the source string is still read from the tree, and it is no syntax error.
    from filid.parse.extract import parse_source

    facts = parse_source(
        "src/index.ts",
        b"export type * from './types';\nexport type * as ns from './ns';\n"
        b"export * from './values';\n",
    )
    assert [(i.specifier, i.kind.value) for i in facts.imports] == [
        ("./types", "type"),
        ("./ns", "type"),
        ("./values", "re-export"),
    ]
    assert [(e.name, e.source, e.is_type) for e in facts.exports] == [
        ("*", "./types", True),
        ("ns", "./ns", True),
        ("*", "./values", False),
    ]
    assert not facts.has_syntax_error
    assert facts.is_side_effect_free
    # A real syntax error elsewhere is still reported.
    broken = parse_source("src/b.ts", b"export type * from './types';\nconst = ;\n")
    assert broken.has_syntax_error and broken.syntax_error_line == 2


@pytest.mark.parametrize("full", [True, False])
def test_names_typed_local_export_clauses_export_are_kept_in_both_modes(full: bool) -> None:
    # `export type { A }` and `export { type B as C }` export types; `export interface D` and
    # `export type { E } from` are not local clauses: only the first two are type_exports
    # (the fix planner cannot tell them apart from the exports alone).
    source = (
        b"interface A {}\ninterface B {}\nconst v = 1;\n"
        b"export type { A };\nexport { type B as C, v };\n"
        b"export interface D {}\nexport type { E } from './e';\n"
    )
    facts = parse_source("src/a.ts", source, full=full)
    assert facts.type_exports == ("A", "C")
