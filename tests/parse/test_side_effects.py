"""Side-effect freedom of a whole file (SPEC §3), which decides pure-function folders."""

from __future__ import annotations

import pytest

from filid.parse import parse_source


def _free(text: str, path: str = "src/lib/a.ts") -> bool:
    return parse_source(path, text.encode("utf-8")).is_side_effect_free


@pytest.mark.parametrize(
    "text",
    [
        "",
        "import { a } from './a';\nimport * as b from './b';\nimport c = require('./c');",
        "export { x } from './x';\nexport * from './y';",
        "export function f() { console.log('runs only when called'); }",
        "export const f = () => fetch('/later');",
        "export const g = function () { return new Date(); };",
        "export const o = { a: 1, b: [1, 2], c: 'x', d: `t${1}`, e: () => go(), f() { go(); } };",
        "export const n = -1 + 2 * 3, s = 'x' + 'y', t = typeof window, u = !true;",
        "const x = { ...base, nested: { deep: [a, b] } } as const;",
        "export class C { method() { this.x = call(); } field = make(); static K = 1; }",
        "export class D { static f = () => call(); static g = function () { return new X(); }; }",
        "export interface I { a: string }\nexport type T = () => void;",
        "export enum E { A = 1, B }",
        "declare const g: number;\ndeclare function h(): void;",
        "declare module 'm' { const x: number; }\ndeclare global { interface W {} }",
        "namespace N { export const a = 1; export function f() { go(); } }",
        "export default function () { return go(); }",
        "const a = 1;\nexport default a;",
        "export default { a: 1, run: () => go() };",
        "'use strict';\nexport const a = 1;",
        "let later;\nvar v;",
        "export const re = /a+/g, big = 10n, t = `plain`;",
    ],
)
def test_side_effect_free(text: str) -> None:
    assert _free(text)


@pytest.mark.parametrize(
    "text",
    [
        "import './polyfill';",
        "console.log('hi');",
        "export const a = compute();",
        "export const d = new Date();",
        "export const t = tag`x`;",
        "let i = 0;\nexport const j = i++;",
        "let x;\nexport const y = (x = 2);",
        "let x = 1;\nexport const y = (x += 2);",
        "export const v = await load();",
        "export const w = await p;",
        "export const o = { a: make() };",
        "export const iife = (() => 1)();",
        "export class C { static { init(); } }",
        "export class D { static x = make(); }",
        "export class E { static y = new Map(); }",
        "export const K = class { static z = make(); };",
        "if (window) { }",
        "for (const x of []) {}",
        "export default setup();",
        "namespace N { go(); }",
        "const a = 1;\nexport = make(a);",
        "import { a } from './a';\nexport const x = 1;\na.b = 2;",
    ],
)
def test_has_side_effects(text: str) -> None:
    assert not _free(text)


def test_a_call_in_a_nested_function_inside_a_static_initializer_is_deferred() -> None:
    assert _free("export class C { static handler = () => { go(); }; }")


def test_a_syntax_error_region_is_not_provably_free() -> None:
    assert not _free("export const a = 1;\n@@@ )))\n")
