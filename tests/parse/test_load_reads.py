"""``ImportFact.load_read``: whether an import's bindings are read while its file loads."""

from __future__ import annotations

import pytest

from filid.parse.extract import parse_source

IMPORT = "import { A } from '..';\n"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        # a function or method body runs when called, later
        ("fn.ts", "export function f() { return A; }\n"),
        ("component.tsx", "export const C = () => <A />;\n"),
        ("hook.ts", "export const useX = () => { const a = A; return a; };\n"),
        ("method.ts", "export class C { m() { return A.x; } }\n"),
        # a callback of a call filid does not know runs later (React's memo, forwardRef)
        ("memo.tsx", "export const C = memo((props) => <A {...props} />);\n"),
        # an instance field's initialiser runs with each `new` (VTable's
        # `type: string = AggregationType.SUM`), here never while the file loads
        ("field.ts", "export class C { type: string = A.SUM; }\n"),
        ("field_call.ts", "export class C { private t = A.make(1); }\n"),
        ("field_class.ts", "export const C = class { t = A; };\n"),
        # `export { A }` is a live binding, not a read
        ("barrel.ts", "export { A };\n"),
        # a read only as a type
        ("typed.ts", "export let a: A;\n"),
        # JavaScript too
        ("plain.js", "export function f() { return A; }\n"),
    ],
)
def test_reads_only_inside_functions_are_not_load_reads(path: str, body: str) -> None:
    (fact,) = parse_source(path, (IMPORT + body).encode()).imports
    assert fact.load_read is False


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("top.ts", "export const x = A;\n"),
        ("extends.ts", "export class C extends A {}\n"),
        ("static.ts", "export class C { static x = A; }\n"),
        # a decorator or a computed key of an instance field runs when the class is defined
        ("field_decorator.ts", "export class C { @A() t = 1; }\n"),
        ("field_key.ts", "export class C { [A.key] = 1; }\n"),
        # an instance field of a class the file instantiates while it loads
        ("field_new.ts", "class C { t = A; }\nexport const c = new C();\n"),
        ("default.ts", "export default A;\n"),
        ("argument.ts", "register(A);\n"),
        ("enum.ts", "export enum E { X = A }\n"),
        ("decorator.ts", "@A() export class C {}\n"),
        # functions the file runs while it loads
        ("iife.ts", "export const x = (() => A)();\n"),
        ("map.ts", "export const x = ['a'].map((k) => A[k]);\n"),
        ("promise.ts", "export const p = new Promise((resolve) => resolve(A));\n"),
        ("called.ts", "function make() { return A; }\nexport const x = make();\n"),
        ("arrow_called.ts", "const make = () => A;\nexport const x = make();\n"),
        ("new.ts", "class C { constructor() { this.a = A; } }\nexport const c = new C();\n"),
        ("static_call.ts", "class C { static make() { return A; } }\nexport const c = C.make();\n"),
        ("plain.js", "export const x = A;\n"),
    ],
)
def test_reads_while_the_file_loads_are_load_reads(path: str, body: str) -> None:
    (fact,) = parse_source(path, (IMPORT + body).encode()).imports
    assert fact.load_read is True


def test_side_effect_imports_and_re_exports() -> None:
    facts = parse_source(
        "index.ts", b"import './setup';\nexport { A } from './a';\nexport * from './b';\n"
    )
    side_effect, *re_exports = facts.imports
    # the importer relies on what the target's evaluation does
    assert side_effect.load_read is True
    # re-exports are marked as such; the rule reads `is_reexport` (they read nothing)
    assert all(fact.is_reexport for fact in re_exports)


def test_a_name_another_import_statement_mentions_is_no_read() -> None:
    # weaviate: `BatchReference` is also the imported name of an aliased import from another
    # module; that mention reads nothing, so the first import is read only in a function
    source = (
        "import { BatchReference } from '../index.js';\n"
        "import { BatchReference as BatchReferenceGRPC } from '../../proto/batch.js';\n"
        "export const f = (r: BatchReference) => BatchReferenceGRPC.fromPartial(r);\n"
    )
    first, second = parse_source("serialize.ts", source.encode()).imports
    assert (first.value_used, first.load_read) == (False, False)  # only a type: elided
    assert (second.value_used, second.load_read) == (True, False)


def test_a_name_read_at_load_beside_another_import_statement_is_a_read() -> None:
    source = (
        "import { BatchReference } from '../index.js';\n"
        "import { BatchReference as BatchReferenceGRPC } from '../../proto/batch.js';\n"
        "export const kind = BatchReference.kind;\n"
    )
    first, _ = parse_source("serialize.ts", source.encode()).imports
    assert (first.value_used, first.load_read) == (True, True)
