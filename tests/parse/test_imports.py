"""Every import form SPEC §3 names, with kinds, names, bindings and specifier spans."""

from __future__ import annotations

import pytest

from filid.model.facts import FileFacts, ImportFact, ImportKind
from filid.parse import parse_source


def _parse(text: str, path: str = "src/a.ts") -> FileFacts:
    return parse_source(path, text.encode("utf-8"))


def _only_import(text: str, path: str = "src/a.ts") -> ImportFact:
    facts = _parse(text, path)
    assert len(facts.imports) == 1, facts.imports
    return facts.imports[0]


@pytest.mark.parametrize(
    ("text", "kind", "names"),
    [
        ("import a from './x';", ImportKind.STATIC, ("default",)),
        ("import { b, c as d } from './x';", ImportKind.STATIC, ("b", "c")),
        ("import a, { b } from './x';", ImportKind.STATIC, ("default", "b")),
        ("import * as ns from './x';", ImportKind.STATIC, ("*",)),
        ("import a, * as ns from './x';", ImportKind.STATIC, ("default", "*")),
        ("import { default as a } from './x';", ImportKind.STATIC, ("default",)),
        ("import type { T } from './x';", ImportKind.TYPE, ("T",)),
        ("import type D from './x';", ImportKind.TYPE, ("default",)),
        ("import { type T, type U as V } from './x';", ImportKind.TYPE, ("T", "U")),
        ("import { type T, v } from './x';", ImportKind.STATIC, ("T", "v")),
        ("import {} from './x';", ImportKind.STATIC, ()),
        ("import './x';", ImportKind.SIDE_EFFECT, ()),
        ("import f = require('./x');", ImportKind.REQUIRE, ("*",)),
        ("import type f = require('./x');", ImportKind.TYPE, ("*",)),
    ],
)
def test_static_import_forms(text: str, kind: ImportKind, names: tuple[str, ...]) -> None:
    fact = _only_import(text)
    assert fact.specifier == "./x"
    assert fact.kind is kind
    assert fact.names == names
    assert not fact.is_reexport


@pytest.mark.parametrize(
    ("text", "kind", "names"),
    [
        ("export { a, b as c } from './x';", ImportKind.RE_EXPORT, ("a", "b")),
        ("export * from './x';", ImportKind.RE_EXPORT, ("*",)),
        ("export * as ns from './x';", ImportKind.RE_EXPORT, ("*",)),
        ("export type { T } from './x';", ImportKind.TYPE, ("T",)),
        ("export { type T } from './x';", ImportKind.TYPE, ("T",)),
        ("export { type T, v } from './x';", ImportKind.RE_EXPORT, ("T", "v")),
    ],
)
def test_reexport_forms(text: str, kind: ImportKind, names: tuple[str, ...]) -> None:
    fact = _only_import(text)
    assert fact.specifier == "./x"
    assert fact.kind is kind
    assert fact.names == names
    assert fact.is_reexport


def test_dynamic_and_require_calls_are_found_anywhere() -> None:
    facts = _parse(
        """import { a } from './a';
export async function load() {
  if (a) {
    const m = await import('./lazy');
    return m;
  }
  return require('./legacy');
}
class C { method() { return import(`./tpl`); } }
"""
    )
    found = [(i.specifier, i.kind, i.line) for i in facts.imports]
    assert found == [
        ("./a", ImportKind.STATIC, 1),
        ("./lazy", ImportKind.DYNAMIC, 4),
        ("./legacy", ImportKind.REQUIRE, 7),
        ("./tpl", ImportKind.DYNAMIC, 9),
    ]


def test_non_literal_dynamic_import_has_no_specifier() -> None:
    facts = _parse("const name = './x';\nexport const load = () => import(name);\n")
    (fact,) = facts.imports
    assert fact.kind is ImportKind.DYNAMIC
    assert fact.specifier is None
    assert fact.specifier_span is None
    assert (fact.line, fact.column) == (2, 27)


def test_template_with_substitution_is_not_a_literal() -> None:
    (fact,) = _parse("const m = import(`./x/${lang}`);").imports
    assert fact.specifier is None


def test_lookalikes_are_not_imports() -> None:
    facts = _parse(
        """// import('./comment') and require('./comment')
const s = "import('./string') require('./string')";
const important = requireAuth('./x');
obj.require('./member');
x.import;
require(computed);
const meta = import.meta.url;
"""
    )
    assert facts.imports == ()


def test_import_in_a_type_position_is_a_type_import() -> None:
    facts = _parse("type T = typeof import('./t');\nlet u: import('./u').U;\n")
    assert [(i.specifier, i.kind) for i in facts.imports] == [
        ("./t", ImportKind.TYPE),
        ("./u", ImportKind.TYPE),
    ]


def test_imported_bindings_cover_every_local_name() -> None:
    facts = _parse(
        """import a, { b, c as d, type T } from './x';
import * as ns from './y';
import eq = require('./z');
import './side';
export { e } from './w';
"""
    )
    assert facts.imported_bindings == ("a", "b", "d", "T", "ns", "eq")


def test_string_names_in_specifiers() -> None:
    facts = _parse("import { 'a-b' as ab } from './x';\nexport { 'c-d' as cd } from './y';\n")
    assert facts.imports[0].names == ("a-b",)
    assert facts.imported_bindings == ("ab",)
    assert facts.imports[1].names == ("c-d",)
    assert facts.exports[0].name == "cd"


@pytest.mark.parametrize(
    "text",
    [
        "import { a } from './some/path.js';",
        'import "./some/path.js";',
        "export * from './some/path.js';",
        "const m = import('./some/path.js');",
        'const m = require("./some/path.js");',
        "import m = require('./some/path.js');",
    ],
)
def test_specifier_span_slices_exactly_the_specifier(text: str) -> None:
    source = ("// héllo wörld ✓\n" + text + "\n").encode("utf-8")
    (fact,) = parse_source("src/a.ts", source).imports
    span = fact.specifier_span
    assert span is not None
    assert source[span.start_byte : span.end_byte] == b"./some/path.js"
    rewritten = source[: span.start_byte] + b"../other" + source[span.end_byte :]
    (again,) = parse_source("src/a.ts", rewritten).imports
    assert again.specifier == "../other"
    assert again.kind is fact.kind


def test_statement_span_covers_the_whole_import() -> None:
    source = b"  import { a } from './a';\n"
    (fact,) = parse_source("src/a.ts", source).imports
    assert source[fact.span.start_byte : fact.span.end_byte] == b"import { a } from './a';"
    assert (fact.span.line, fact.span.column, fact.span.end_column) == (1, 3, 27)


def test_columns_count_characters_and_utf16_units() -> None:
    # 'é' is 2 bytes / 1 char / 1 UTF-16 unit; '😀' is 4 bytes / 1 char / 2 UTF-16 units.
    source = "const s = 'é😀'; import('./x');\n".encode()
    (fact,) = parse_source("src/a.ts", source).imports
    text = source.decode("utf-8")
    expected_column = text.index("import(") + 1
    assert fact.span.column == expected_column == 17
    assert fact.span.utf16_column == expected_column + 1
    assert fact.span.start_byte == source.index(b"import(")
    assert fact.specifier_span is not None
    assert fact.specifier_span.column == text.index("./x") + 1
    assert fact.specifier_span.end_column == text.index("./x") + 4


def test_ascii_columns_equal_byte_columns() -> None:
    (fact,) = _parse("const x = 1;\n    import('./y');\n").imports
    assert (fact.span.line, fact.span.column, fact.span.utf16_column) == (2, 5, 5)


def test_typeof_import_in_a_misparsed_generic_call_is_a_type_import() -> None:
    # tree-sitter-typescript reads `f<typeof import('x')>()` as a comparison; the import()
    # under `typeof` must still count as a type query, not a runtime dynamic import.
    source = (
        b"vi.mock('@x/common', async (importOriginal) => {\n"
        b"  const m = await importOriginal<typeof import('@x/common')>();\n"
        b"  const { helper } = await import('./helpers');\n"
        b"  return { ...m, helper };\n"
        b"});\n"
    )
    facts = parse_source("setup.ts", source)
    kinds = {(i.specifier, i.kind) for i in facts.imports}
    assert ("@x/common", ImportKind.TYPE) in kinds
    assert ("./helpers", ImportKind.DYNAMIC) in kinds


# -- import elision: is any binding read as a value? ---------------------------------------


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("import { A } from './x';\nlet a: A;", "src/a.ts"),
        ("import { A } from './x';\nexport const f = (a: A): A[] => [a];", "src/a.ts"),
        ("import { A } from './x';\ntype T = typeof A;", "src/a.ts"),
        ("import * as ns from './x';\nlet a: ns.T;", "src/a.ts"),
        ("import A from './x';\nclass K implements A {}", "src/a.ts"),
        ("import { A } from './x';\ninterface I extends A {}", "src/a.ts"),
        ("import { A } from './x';\nconst o = {} satisfies A;", "src/a.ts"),
        ("import { A } from './x';\nexport type { A };", "src/a.ts"),
        ("import { A } from './x';\nexport { type A as B };", "src/a.ts"),
        ("import { A } from './x';\n// A in a comment\nconst s = 'A';", "src/a.ts"),
        ("import { A } from './x';\nconst o = { A: 1 }; o.A;", "src/a.ts"),
        ("import { A, type B } from './x';\nlet a: A;", "src/a.ts"),
        # never mentioned: elided even where decorators may emit type metadata
        ("import { A } from './x';\n@D() class K { constructor(b: B) {} }", "src/a.ts"),
    ],
)
def test_bindings_read_only_as_types_make_the_import_elidable(text: str, path: str) -> None:
    assert _only_import(text, path).value_used is False


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("import { A } from './x';\nnew A();", "src/a.ts"),
        ("import { A } from './x';\nlet a: A = A.create();", "src/a.ts"),
        ("import { A } from './x';\nexport { A };", "src/a.ts"),
        ("import A from './x';\nexport default A;", "src/a.ts"),
        ("import { A } from './x';\nconst o = { A };", "src/a.ts"),
        ("import { A } from './x';\nexport const el = <A />;", "src/a.tsx"),
        ("import * as ns from './x';\nexport const el = <ns.A />;", "src/a.tsx"),
        ("import { A } from './x';\nclass K extends A {}", "src/a.ts"),
        ("import { A } from './x';\nif (typeof A === 'function') {}", "src/a.ts"),
        ("import { A, B } from './x';\nlet a: A = B;", "src/a.ts"),
        # JavaScript is not elided; a decorator may emit type metadata; a broken file hides uses
        ("import { A } from './x';\nlet a;", "src/a.js"),
        (
            "import { A } from './x';\n@D() class K { constructor(a: A) {} }",
            "src/a.ts",
        ),
        ("import { A } from './x';\nlet a: A = (;", "src/a.ts"),
    ],
)
def test_a_binding_read_as_a_value_keeps_the_import(text: str, path: str) -> None:
    assert _only_import(text, path).value_used is True


# LogicFlow's `history/index.ts`: `LogicFlow` is read only through an alias of an interface
# of its namespace, and the alias only in types; tsc elides the alias and the import.
_ALIAS = "import LogicFlow from '..';\nimport GraphData = LogicFlow.GraphData;\n"


def test_a_binding_read_only_through_a_type_alias_is_elidable() -> None:
    text = _ALIAS + "export class History { undos: GraphData[] = []; }\n"
    assert _only_import(text).value_used is False


@pytest.mark.parametrize(
    "text",
    [
        _ALIAS + "export const data = new GraphData();\n",
        "import LogicFlow from '..';\nexport import GraphData = LogicFlow.GraphData;\n",
        "import LogicFlow from '..';\nimport Graph = LogicFlow.Model.Graph;\nGraph.create();\n",
    ],
)
def test_an_alias_read_as_a_value_keeps_the_import(text: str) -> None:
    assert _only_import(text).value_used is True


@pytest.mark.parametrize(
    "text",
    [
        "[function(require, module, exports) { require('./constants'); }];",
        "export const load = (require: (id: string) => unknown) => require('./x');",
        "define(require => require('./x'));",
        "function require(id: string) { return id; }\nrequire('./x');",
    ],
)
def test_a_require_bound_locally_is_no_import(text: str) -> None:
    assert _parse(text).imports == ()


def test_a_require_made_by_create_require_is_an_import() -> None:
    text = (
        "import { createRequire } from 'node:module';\n"
        "const require = createRequire(import.meta.url);\nrequire('./config.json');\n"
    )
    assert [f.specifier for f in _parse(text).imports] == ["node:module", "./config.json"]
