"""Top-level ``export`` statements → export facts, re-export imports and statement kinds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from filid.model.builders import builder
from filid.model.facts import (
    Declaration,
    ExportFact,
    ExportKind,
    ImportFact,
    ImportKind,
    Span,
    StatementKind,
    TopStatement,
)
from filid.parse.declarations import DECLARATION_KINDS
from filid.parse.side_effects import is_expression_free
from filid.parse.specifiers import specifier_parts
from filid.parse.syntax_errors import is_type_keyword_error

if TYPE_CHECKING:
    from filid.parse.top_level import TopLevelWalker

# Facts built for every export of every file: the fast constructors (every field, in
# declaration order).
_IMPORT = builder(ImportFact)
_EXPORT = builder(ExportFact)


def read_export_statement(walker: TopLevelWalker, node: Node) -> None:
    """Collect the facts of one top-level ``export`` statement on ``walker``."""
    # Lean mode (``walker.full`` false) needs the statement's span only for a re-export.
    span = walker.spans.node(node) if walker.full else None
    line = node.start_point[0] + 1
    source_node: Node | None = None
    declaration: Node | None = None
    value: Node | None = None
    is_default = False
    statement_type = False
    clause: Node | None = None
    namespace_export: Node | None = None
    star = False
    umd = False
    # One pass over the children instead of several field look-ups: the statement's
    # shape follows from which tokens and node types are present.
    for child in node.children:
        kind = child.type
        if kind == "export":
            continue
        if kind in DECLARATION_KINDS or kind == "ambient_declaration":
            declaration = child  # no branch below takes these types
        elif kind == "default":
            is_default = True
        elif kind == "type":
            statement_type = True
        elif kind == "ERROR" and is_type_keyword_error(child):
            # `export type * from './x'` (TypeScript 5.0): tree-sitter-typescript 0.23 (the
            # newest on PyPI) wraps the `type` keyword in an ERROR node and parses the rest.
            statement_type = True
            walker.recovered_errors.append(child.id)
        elif kind == "export_clause":
            clause = child
        elif kind == "namespace_export":
            namespace_export = child
        elif kind == "*":
            star = True
        elif kind == "namespace":
            umd = True  # `export as namespace X`: a UMD global name, exports nothing
        elif kind == "string" and value is None and declaration is None:
            source_node = child
        elif kind == "comment" or (kind == "identifier" and umd) or not child.is_named:
            continue
        elif value is None:
            value = child  # `export default <expression>` or `export = <expression>`

    if umd:
        if span is not None:
            walker.statements.append(TopStatement(StatementKind.DECLARATION, span))
        return
    if source_node is not None and (clause is not None or namespace_export or star):
        if span is None:
            span = walker.spans.node(node)
        _reexport(walker, span, source_node, clause, namespace_export, star, statement_type)
        return
    if clause is not None:
        _export_clause(walker, span, line, clause, statement_type)
        return
    if declaration is not None:
        walker.declaration(
            node, declaration, exported=True, is_default=is_default, span=span, line=line
        )
        return
    if value is None:
        value = source_node  # `export default 'literal'`
    if value is not None:
        if value.type == "identifier":
            name = walker.text(value)
            walker.exports.append(ExportFact("default", ExportKind.DEFAULT, local=name, line=line))
            if span is not None:
                walker.statements.append(
                    TopStatement(StatementKind.EXPORT_DEFAULT_NAME, span, (name,))
                )
            return
        if walker.side_effect_free and not is_expression_free(value, walker.effects):
            walker.side_effect_free = False
        walker.exports.append(ExportFact("default", ExportKind.DEFAULT, line=line))
        if span is not None:
            walker.declarations.append(Declaration("default-expression", None, True, span))
            walker.statements.append(TopStatement(StatementKind.EXPORT_DEFAULT_EXPRESSION, span))
        return
    if span is not None:
        walker.statements.append(TopStatement(StatementKind.OTHER, span))


def _reexport(
    walker: TopLevelWalker,
    span: Span,
    source_node: Node,
    clause: Node | None,
    namespace_export: Node | None,
    star: bool,
    statement_type: bool,
) -> None:
    specifier, specifier_span = walker.string_value(source_node)
    line = span.line
    names: list[str] = []
    all_inline_type = False
    if namespace_export is not None:
        names.append("*")
        for child in namespace_export.named_children:
            if child.type in ("identifier", "string"):
                walker.exports.append(
                    _EXPORT(
                        walker.name_text(child),
                        ExportKind.STAR_AS,
                        statement_type,
                        specifier,
                        None,
                        line,
                    )
                )
    elif clause is not None:
        all_inline_type = _export_specifiers(walker, clause, statement_type, specifier, line, names)
    elif star:
        names.append("*")
        walker.exports.append(_EXPORT("*", ExportKind.STAR, statement_type, specifier, None, line))
    is_type = statement_type or all_inline_type
    kind = ImportKind.TYPE if is_type else ImportKind.RE_EXPORT
    walker.imports.append(
        _IMPORT(specifier, kind, span, specifier_span, tuple(names), True, True, False, False, True)
    )
    if walker.full:
        walker.statements.append(TopStatement(StatementKind.RE_EXPORT, span, (), is_type))


def _export_clause(
    walker: TopLevelWalker, span: Span | None, line: int, clause: Node, statement_type: bool
) -> None:
    """``export { a, b as c }``; ``span`` is None in lean mode."""
    locals_: list[str] = []
    all_inline_type = _export_specifiers(walker, clause, statement_type, None, line, locals_)
    if not locals_:
        if span is not None:
            walker.statements.append(TopStatement(StatementKind.EXPORT_EMPTY, span))
        return
    if span is not None:
        walker.statements.append(
            TopStatement(
                StatementKind.EXPORT_NAMES,
                span,
                tuple(locals_),
                statement_type or all_inline_type,
            )
        )


def _export_specifiers(
    walker: TopLevelWalker,
    clause: Node,
    statement_type: bool,
    source: str | None,
    line: int,
    names: list[str],
) -> bool:
    """Add one ExportFact per specifier and its original name to ``names``.

    Returns True when every specifier is marked inline `type`.
    """
    count = 0
    typed = 0
    for spec in clause.named_children:
        if spec.type != "export_specifier":
            continue
        count += 1
        name_node, alias_node, tokens = specifier_parts(spec)
        if name_node is None:
            continue
        name = walker.name_text(name_node)
        exported = walker.name_text(alias_node) if alias_node is not None else name
        inline_type = bool(tokens) and tokens[0].type == "type"
        typed += inline_type
        is_type = statement_type or inline_type
        if is_type:
            kind = ExportKind.TYPE
        elif exported == "default":
            kind = ExportKind.DEFAULT
        else:
            kind = ExportKind.NAMED
        local = name if alias_node is not None else None
        if is_type and source is None:
            walker.type_exports.append(exported)
        walker.exports.append(_EXPORT(exported, kind, is_type, source, local, line))
        names.append(name)
    return count > 0 and typed == count
