"""A compact, plain-data form of FileFacts (nested lists and tuples of str/int/bool/None).

Used for the on-disk parse cache (``marshal``, so a cache file can never execute code,
unlike a pickle) and for sending facts back from worker processes (a chunk's rows marshalled:
plain lists marshal in about half the time ``pickle`` takes, and many times faster than the
dataclasses themselves would pickle). Spans sit inline in their row
(seven ints, not a list each): every object fewer is one fewer to pickle, unpickle and free
for each of the tens of thousands of imports a large repository has.
"""

from __future__ import annotations

from typing import Any

from filid.model.builders import builder
from filid.model.facts import (
    CaseCount,
    Declaration,
    ExportFact,
    ExportKind,
    FileFacts,
    ImportFact,
    ImportKind,
    Span,
    StatementKind,
    TopStatement,
)

# Bump when the encoded shape or the meaning of any extracted fact changes: the cache file
# name carries it, so old caches are ignored.
# 3: non-entry files parsed in lean mode; 4: `export type *` read; 5: test case counts;
# 6: whether a static import's bindings are read as values (import elision);
# 7: whether they are read only in thunks (`forwardRef(() => X)`);
# 8: spans inline (seven ints at the end of their row), names as tuples;
# 9: whether a require()/import() call's failure is handled (`try { require(x) } catch {}`);
# 10: lean facts keep enum and namespace declarations;
# 11: a require() inside a function body is deferred, a silenced static import guarded;
# 12: whether an import's bindings are read at load time (`load_read`);
# 13: the names typed local export clauses export (``type_exports``, last);
# 14: a ``require(…)`` whose ``require`` is a local binding (a bundle's factory parameter) is
# no import, and a binding read only through an `import Y = X.Z` whose `Y` is read only as a
# type is not read as a value
# 15: whether a leading comment says the file is generated, and the imports a linter
# directive silences the cycle rule on (``generated``, ``cycle_silenced``, last)
# 16: a specifier's escape sequences are decoded (``'./\\u00e9'`` is ``./é``)
# 17: whether the file is a webpack bundle (``bundle``, last)
# 18: a mention in another import statement reads nothing; an instance field's initialiser
# runs with each ``new``, not at load (``load_read``)
# 19: a file whose only ERROR nodes are legal TypeScript the grammar does not parse gets
# import elision and load reads like any other (``value_used``, ``load_read``)
FACTS_FORMAT = 19

# Where a row's span starts: imports ``[specifier, kind, names, is_reexport, value_used,
# deferred, guarded, load_read, *span, *specifier_span]`` (the specifier span only when there
# is one),
# declarations ``[kind, name, exported, *span]``, statements ``[kind, names, is_type_only,
# *span]``; exports ``[name, kind, is_type, source, local, line]`` hold no span.
IMPORT_SPAN = 8
SPAN_WIDTH = 7
_SPECIFIER_SPAN = IMPORT_SPAN + SPAN_WIDTH
_IMPORT_ROW = _SPECIFIER_SPAN + SPAN_WIDTH

_IMPORT_KINDS = {kind.value: kind for kind in ImportKind}
_EXPORT_KINDS = {kind.value: kind for kind in ExportKind}
_STATEMENT_KINDS = {kind.value: kind for kind in StatementKind}

# Decoding builds every fact of every file a worker parsed or the cache holds: through the
# fast constructors (``filid.model.builders``), every field given, in declaration order.
_SPAN = builder(Span)
_IMPORT = builder(ImportFact)
_EXPORT = builder(ExportFact)
_DECLARATION = builder(Declaration)
_STATEMENT = builder(TopStatement)
_FILE = builder(FileFacts)


def encode_facts(facts: FileFacts) -> list[Any]:
    """FileFacts → nested lists of plain values (one flat list per import, export,
    declaration and statement: a span is seven ints inline, not a list of its own)."""
    imports: list[Any] = []
    for i in facts.imports:
        span = i.span
        row = [
            i.specifier,
            i.kind._value_,  # the member's own attribute: ``.value`` is a Python property
            i.names,
            i.is_reexport,
            i.value_used,
            i.deferred,
            i.guarded,
            i.load_read,
            span.line,
            span.column,
            span.end_line,
            span.end_column,
            span.start_byte,
            span.end_byte,
            span.utf16_column,
        ]
        spec = i.specifier_span
        if spec is not None:
            row += (
                spec.line,
                spec.column,
                spec.end_line,
                spec.end_column,
                spec.start_byte,
                spec.end_byte,
                spec.utf16_column,
            )
        imports.append(row)
    return [
        facts.path,
        imports,
        [[e.name, e.kind._value_, e.is_type, e.source, e.local, e.line] for e in facts.exports],
        [
            [
                d.kind,
                d.name,
                d.exported,
                d.span.line,
                d.span.column,
                d.span.end_line,
                d.span.end_column,
                d.span.start_byte,
                d.span.end_byte,
                d.span.utf16_column,
            ]
            for d in facts.declarations
        ],
        [
            [
                s.kind._value_,
                s.names,
                s.is_type_only,
                s.span.line,
                s.span.column,
                s.span.end_line,
                s.span.end_column,
                s.span.start_byte,
                s.span.end_byte,
                s.span.utf16_column,
            ]
            for s in facts.statements
        ],
        facts.imported_bindings,
        facts.is_side_effect_free,
        facts.has_syntax_error,
        facts.syntax_error_line,
        None
        if facts.cases is None
        else [facts.cases.count, facts.cases.reasons, facts.cases.contract_ids],
        facts.type_exports,
        facts.generated,
        facts.cycle_silenced,
        facts.bundle,
    ]


def decode_facts(data: Any) -> FileFacts:
    """The inverse of :func:`encode_facts`; raises ValueError/TypeError/KeyError/IndexError
    on bad data (a row of the wrong length, a kind that does not exist)."""
    (
        path,
        imports,
        exports,
        declarations,
        statements,
        bindings,
        free,
        has_error,
        line,
        cases,
        type_exports,
        generated,
        silenced,
        bundle,
    ) = data
    if not isinstance(path, str):
        raise TypeError("path")
    # List comprehensions and local names: this runs for every file a worker parsed and
    # every cached file on every run.
    make_span = _SPAN
    make_import = _IMPORT
    make_export = _EXPORT
    make_declaration = _DECLARATION
    make_statement = _STATEMENT
    import_kinds = _IMPORT_KINDS
    export_kinds = _EXPORT_KINDS
    statement_kinds = _STATEMENT_KINDS
    decoded: list[ImportFact] = []
    append = decoded.append
    for row in imports:
        # Unpacked by name, not sliced (a row of another length raises ValueError).
        if len(row) == _IMPORT_ROW:
            (
                spec,
                kind,
                names,
                again,
                value,
                late,
                guard,
                load,
                a,
                b,
                c,
                d,
                e,
                f,
                g,
                i,
                j,
                k,
                m,
                n,
                o,
                q,
            ) = row
            specifier_span = make_span(i, j, k, m, n, o, q)
        else:
            (spec, kind, names, again, value, late, guard, load, a, b, c, d, e, f, g) = row
            specifier_span = None
        append(
            make_import(
                spec,
                import_kinds[kind],
                make_span(a, b, c, d, e, f, g),
                specifier_span,
                tuple(names),
                again,
                bool(value),
                bool(late),
                bool(guard),
                bool(load),
            )
        )
    return _FILE(
        path,
        tuple(decoded),
        tuple(
            [
                make_export(name, export_kinds[kind], is_type, source, local, eline)
                for name, kind, is_type, source, local, eline in exports
            ]
        ),
        # Lean facts (every file but index.* and main.*) have no declarations, statements
        # or bindings: the empty tuple without building a list first.
        tuple(
            [
                make_declaration(kind, name, exported, make_span(a, b, c, d, e, f, g))
                for kind, name, exported, a, b, c, d, e, f, g in declarations
            ]
        )
        if declarations
        else (),
        tuple(
            [
                make_statement(
                    statement_kinds[kind], make_span(a, b, c, d, e, f, g), tuple(names), only
                )
                for kind, names, only, a, b, c, d, e, f, g in statements
            ]
        )
        if statements
        else (),
        tuple(bindings) if bindings else (),
        bool(free),
        bool(has_error),
        line,
        None if cases is None else CaseCount(int(cases[0]), tuple(cases[1]), tuple(cases[2])),
        tuple(type_exports) if type_exports else (),
        bool(generated),
        tuple(silenced) if silenced else (),
        bool(bundle),
    )
