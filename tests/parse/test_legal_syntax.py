"""A syntax note only where ``tsc`` also reports a syntax error.

tree-sitter-typescript 0.23.2 (the newest on PyPI) rejects some legal TypeScript; filid
recognises each such gap by its shape in the tree. Every construct here is checked twice: filid
reports no syntax error, and ``tsc --noEmit`` (tests/node installs typescript) reports no
syntax error (no TS1xxx diagnostic) on the same file — so the test fails if a construct is not
in fact legal. Broken code stays a note for both.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from filid.parse import parse_source

NODE_TOOLS = Path(__file__).resolve().parents[1] / "node"
TSC = NODE_TOOLS / "node_modules" / "typescript" / "bin" / "tsc"

# Legal constructs the grammar does not parse: name → source (checked as .ts and .tsx).
LEGAL = {
    "tagged template, array type argument": (
        "declare function sql<T>(s: TemplateStringsArray, ...v: unknown[]): T;\n"
        "type Row = { id: number };\n"
        "export const rows = sql<Row[]>`select * from t where id = ${1}`;\n"
        "export const piped = sql<Row[]> `select 1`.valueOf();\n"
    ),
    "tagged template, object type argument": (
        "declare const styled: { div<P>(s: TemplateStringsArray, ...a: unknown[]): P };\n"
        "export const Div = styled.div<{ on: boolean }>`color: ${1};`;\n"
    ),
    "tagged template, type argument in a call": (
        "declare function sql<T>(s: TemplateStringsArray): T;\n"
        "declare function run(x: unknown): void;\n"
        "run(sql<string[]>`select 1`);\n"
        "export async function f() { return await sql<number[]>`select 2`; }\n"
    ),
    "variance modifiers": (
        "export interface Box<in out T> { v: T }\n"
        "export type Sink<in T extends object = {}> = (x: T) => void;\n"
        "export class Source<out T> { constructor(readonly v: T) {} }\n"
    ),
    # Effect-TS/effect `Brand.ts`, `Filter.ts`
    "variance modifiers with a constraint or a default": (
        "export interface Brand<in out K extends string> { readonly k: K }\n"
        "export interface Filter<in I, out P = I, out F = I> { (input: I): P | F }\n"
    ),
    # Effect-TS/effect `Array.ts` (no semicolons between the signatures of an overload set)
    "generic call signature after a function type returning a generic type": (
        "export const makeBy: {\n"
        "  <A>(f: (i: number) => A): (n: number) => Array<A>\n"
        "  <A>(n: number, f: (i: number) => A): Array<A>\n"
        "} = null as any\n"
        "export const useValue: {\n"
        "  <A>(atom: Array<A>): A\n"
        "  <A, B>(atom: Array<A>, f: (_: A) => B): B\n"
        "} = null as any\n"
        "export const match: {\n"
        "  <A>(a: A): (self: Array<A>) => A | B\n"
        "  <A, B>(a: A, b: B): B\n"
        "} = null as any\n"
        "type B = 1\n"
    ),
    "static accessor": (
        "export class A { accessor x = 1; static accessor y = 2; static accessor #z = 3; }\n"
    ),
    "export type star": "export type * from './b';\nexport type * as ns from './b';\n",
    "function type with a parameter named like a type": (
        "export interface P { onChange?: (string) => void; ready: (boolean) => boolean }\n"
        "export declare class A { public ready: (string) => boolean; }\n"
        "export const h = (value: string, onChange: (string) => void) => {\n"
        "  onChange(value);\n"
        "};\n"
    ),
    "invalid escape in a tagged template": "export const s = String.raw`Acme\\u00 Corp`;\n",
    # Dokploy's `packages/server/src/utils/vault/index.ts`: a raw NUL separates two names.
    "raw NUL character in a template and a string": (
        "export const key = (a: string, b: string) => `${a}\x00${b}`;\n"
        "export const sep = 'x\x00y';\n"
    ),
    "generic call with a typeof import type argument": (
        "declare function original<T>(): Promise<T>;\n"
        "export async function mock() {\n"
        "  const actual = await original<typeof import('./b')>();\n"
        "  const again = await original<typeof import('./b')>(\n"
        "    './b.ts',\n"
        "  );\n"
        "  return { ...(await original<typeof import('./b')>()), actual, again };\n"
        "}\n"
    ),
    # continuedev/continue `useChat.helpers.ts`, linkwarden `IconSymbol.tsx`
    "import type with an array or indexed access": (
        "export function f(p: import('./b').B[]): import('./b').B[] { return p; }\n"
        "export type K = Partial<Record<import('./b').B['name'], string>>;\n"
        "export type L = { k: import('./b').B['name'] };\n"
        "export type N = Array<import('./b').B['name'][]>;\n"
    ),
    # AFFiNE `electron-api/src/index.ts`
    "mapped type key named like a keyword": (
        "type M = { a: { x: 1 } };\n"
        "export type C = { [namespace in keyof M]: { [method in keyof M[namespace]]: 1 } };\n"
        "export type D = { [module in keyof M]: number };\n"
        "export type E = { [type in keyof M]?: string };\n"
    ),
}
# Legal in .tsx only (JSX).
LEGAL_TSX = {
    "ampersand in JSX text and attributes": (
        "export const a = <p>Plans & Billing</p>;\n"
        "export const c = (\n  <div>\n    <h3>Compliance & Legal</h3>\n  </div>\n);\n"
        'export const b = <a href="https://x.com/?a=1&b=2">x</a>;\n'
    ),
}
BROKEN = {
    "missing initializer": "export const broken = ;\n",
    "unknown type parameter modifier": "export type G<foo T> = T;\n",
    "unknown field modifier": "export class A { static foo y = 2; }\n",
    "arrow without a body": "export const f = (string) => ;\n",
    "invalid escape in a plain template": "export const s = `Acme\\u00 Corp`;\n",
    "mapped key followed by junk": "export type Z = { [k in keyof M N]: 1 };\n",
    "generic after a function type on one line": (
        "export type G = { (a: 1): () => Array<1> <A>(b: A): A };\n"
    ),
    "call result indexed in a type argument": "export type Q = Array<f('./b').B[]>;\n",
}


@pytest.mark.parametrize("extension", ["ts", "tsx"])
@pytest.mark.parametrize("source", LEGAL.values(), ids=LEGAL.keys())
def test_legal_constructs_are_not_syntax_errors(source: str, extension: str) -> None:
    facts = parse_source(f"src/a.{extension}", source.encode())
    assert not facts.has_syntax_error, facts.syntax_error_line


@pytest.mark.parametrize("source", LEGAL_TSX.values(), ids=LEGAL_TSX.keys())
def test_legal_jsx_is_not_a_syntax_error(source: str) -> None:
    facts = parse_source("src/a.tsx", source.encode())
    assert not facts.has_syntax_error, facts.syntax_error_line


@pytest.mark.parametrize("source", BROKEN.values(), ids=BROKEN.keys())
def test_broken_code_is_still_a_syntax_error(source: str) -> None:
    assert parse_source("src/a.ts", source.encode()).has_syntax_error


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.skipif(not TSC.is_file(), reason="run `npm install --prefix tests/node` first")
def test_tsc_agrees_on_every_construct(tmp_path: Path) -> None:
    files: dict[str, str] = {"b.ts": "export type A = 1;\n"}
    for index, source in enumerate(LEGAL.values()):
        files[f"legal{index}.ts"] = source
        files[f"legal{index}.tsx"] = source
    for index, source in enumerate(LEGAL_TSX.values()):
        files[f"jsx{index}.tsx"] = source
    for index, source in enumerate(BROKEN.values()):
        files[f"broken{index}.ts"] = source
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    options = {"target": "ESNext", "module": "ESNext", "moduleResolution": "Bundler"}
    options |= {"jsx": "preserve", "noEmit": True, "skipLibCheck": True, "types": []}
    config = {"compilerOptions": options, "include": ["*.ts", "*.tsx"]}
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    done = subprocess.run(
        ["node", str(TSC), "--noEmit", "-p", ".", "--pretty", "false"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    syntax = {
        m.group(1) for m in re.finditer(r"^(\S+)\(\d+,\d+\): error TS1\d{3}", done.stdout, re.M)
    }
    assert syntax == {f"broken{index}.ts" for index in range(len(BROKEN))}, done.stdout
