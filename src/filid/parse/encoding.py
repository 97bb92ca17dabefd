"""A compact, plain-data form of FileFacts (nested lists of str/int/bool/None).

Used for the on-disk parse cache (JSON, so a cache file can never execute code, unlike a
pickle) and for sending facts back from worker processes (pickling plain lists is many times
faster than pickling the dataclasses themselves).
"""

from __future__ import annotations

from typing import Any

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
# 8: whether a require()/import() call's failure is handled (`try { require(x) } catch {}`)
FACTS_FORMAT = 8

_IMPORT_KINDS = {kind.value: kind for kind in ImportKind}
_EXPORT_KINDS = {kind.value: kind for kind in ExportKind}
_STATEMENT_KINDS = {kind.value: kind for kind in StatementKind}


def _span(span: Span) -> list[int]:
    return [
        span.line,
        span.column,
        span.end_line,
        span.end_column,
        span.start_byte,
        span.end_byte,
        span.utf16_column,
    ]


def encode_facts(facts: FileFacts) -> list[Any]:
    """FileFacts → nested lists of plain values."""
    return [
        facts.path,
        [
            [
                i.specifier,
                i.kind.value,
                _span(i.span),
                None if i.specifier_span is None else _span(i.specifier_span),
                list(i.names),
                i.is_reexport,
                i.value_used,
                i.deferred,
                i.guarded,
            ]
            for i in facts.imports
        ],
        [[e.name, e.kind.value, e.is_type, e.source, e.local, e.line] for e in facts.exports],
        [[d.kind, d.name, d.exported, _span(d.span)] for d in facts.declarations],
        [[s.kind.value, _span(s.span), list(s.names), s.is_type_only] for s in facts.statements],
        list(facts.imported_bindings),
        facts.is_side_effect_free,
        facts.has_syntax_error,
        facts.syntax_error_line,
        None
        if facts.cases is None
        else [facts.cases.count, list(facts.cases.reasons), list(facts.cases.contract_ids)],
    ]


def decode_facts(data: Any) -> FileFacts:
    """The inverse of :func:`encode_facts`; raises ValueError/TypeError/KeyError on bad data."""
    (path, imports, exports, declarations, statements, bindings, free, has_error, line, cases) = (
        data
    )
    if not isinstance(path, str):
        raise TypeError("path")
    # List comprehensions and local names: this runs for every cached file on every run.
    make_span = Span
    import_kinds = _IMPORT_KINDS
    export_kinds = _EXPORT_KINDS
    statement_kinds = _STATEMENT_KINDS
    return FileFacts(
        path,
        tuple(
            [
                ImportFact(
                    spec,
                    import_kinds[kind],
                    make_span(*span),
                    None if spec_span is None else make_span(*spec_span),
                    tuple(names),
                    reexport,
                    bool(value_used),
                    bool(deferred),
                    bool(guarded),
                )
                for (
                    spec,
                    kind,
                    span,
                    spec_span,
                    names,
                    reexport,
                    value_used,
                    deferred,
                    guarded,
                ) in imports
            ]
        ),
        tuple(
            [
                ExportFact(name, export_kinds[kind], is_type, source, local, eline)
                for name, kind, is_type, source, local, eline in exports
            ]
        ),
        tuple(
            [
                Declaration(kind, name, exported, make_span(*span))
                for kind, name, exported, span in declarations
            ]
        ),
        tuple(
            [
                TopStatement(statement_kinds[kind], make_span(*span), tuple(names), type_only)
                for kind, span, names, type_only in statements
            ]
        ),
        tuple(bindings),
        bool(free),
        bool(has_error),
        line,
        None if cases is None else CaseCount(int(cases[0]), tuple(cases[1]), tuple(cases[2])),
    )
