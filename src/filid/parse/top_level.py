"""The walk over a file's top-level statements: imports, exports, declarations, the rest.

Only top-level statements are walked in Python; what each statement contributes (import and
export facts, declarations, the statement's kind, whether it may have side effects) is
collected on the walker for ``extract_facts`` to assemble.
"""

from __future__ import annotations

from tree_sitter import Node, QueryCursor

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
from filid.parse.declarations import (
    DECLARATION_KINDS,
    TYPE_DECLARATIONS,
    declared_names,
    is_ambient_type,
)
from filid.parse.export_statements import read_export_statement
from filid.parse.guards import silenced_after
from filid.parse.side_effects import is_declaration_free
from filid.parse.spans import SpanMaker
from filid.parse.specifiers import specifier_parts
from filid.parse.string_escapes import decode_escapes

_OVERLOADABLE = frozenset({"function_signature", "ambient_declaration"})
_SKIPPED = frozenset({"comment", "empty_statement", "hash_bang_line"})
# Facts built for every import and export of every file: the fast constructors (every field,
# in declaration order).
_IMPORT = builder(ImportFact)
_EXPORT = builder(ExportFact)


# Declarations the lean walk keeps (see ``declaration``): an enum, and a namespace that may
# merge with one.
_LEAN_DECLARATIONS = frozenset({"enum_declaration", "internal_module", "module"})


class TopLevelWalker:
    """Classifies top-level statements and collects their facts."""

    __slots__ = (
        "bindings",
        "call_imports",
        "declarations",
        "effects",
        "elidable",
        "exports",
        "full",
        "imports",
        "in_prologue",
        "overloads",
        "recovered_errors",
        "side_effect_free",
        "source",
        "spans",
        "statements",
        "type_exports",
    )

    def __init__(self, source: bytes, effects: QueryCursor, full: bool = True) -> None:
        self.full = full
        self.source = source
        self.effects = effects
        self.spans = SpanMaker(source)
        self.imports: list[ImportFact] = []
        self.call_imports: list[ImportFact] = []
        self.exports: list[ExportFact] = []
        self.declarations: list[Declaration] = []
        self.statements: list[TopStatement] = []
        self.bindings: list[str] = []
        # names typed specifiers of a local export clause export (`export type { a }`)
        self.type_exports: list[str] = []
        # (index in ``imports``, local names) of each static import TypeScript may elide
        self.elidable: list[tuple[int, tuple[str, ...]]] = []
        self.side_effect_free = True
        self.in_prologue = True
        self.overloads = False
        # ERROR nodes read past (``export type *``): they do not make a syntax error.
        self.recovered_errors: list[int] = []

    def text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def walk(self, children: list[Node]) -> None:
        previous: Node | None = None
        for node in children:
            # the child before, for the import's compiler directive (``silenced_after``)
            before = previous
            previous = node
            kind = node.type
            if kind in _SKIPPED:
                continue
            if kind == "ERROR":
                # What parsed inside a broken region still counts; the region itself may
                # hide anything, so the file is no longer provably free of side effects.
                self.side_effect_free = False
                self.walk(node.named_children)
                continue
            if kind == "import_statement":
                self.in_prologue = False
                self.import_statement(node, before)
            elif kind == "export_statement":
                self.in_prologue = False
                read_export_statement(self, node)
            elif kind in DECLARATION_KINDS or kind == "ambient_declaration":
                self.in_prologue = False
                self.declaration(node, node, exported=False)
            elif kind == "expression_statement":
                inner = node.named_children
                only = inner[0] if len(inner) == 1 else None
                if only is not None and only.type == "string":
                    if self.in_prologue:
                        continue  # 'use strict' / 'use client' directives are not statements
                    # A stray string statement evaluates nothing, but is still not a barrel.
                    if self.full:
                        self.statements.append(
                            TopStatement(StatementKind.OTHER, self.spans.node(node))
                        )
                elif only is not None and only.type == "internal_module":
                    # `namespace N {}` parses as an expression statement.
                    self.declaration(node, only, exported=False)
                else:
                    self.side_effect_free = False
                    if self.full:
                        self.statements.append(
                            TopStatement(StatementKind.OTHER, self.spans.node(node))
                        )
                self.in_prologue = False
            elif node.is_named:
                self.in_prologue = False
                self.side_effect_free = False
                if self.full:
                    self.statements.append(TopStatement(StatementKind.OTHER, self.spans.node(node)))

    # -- imports -----------------------------------------------------------------------

    def import_statement(self, node: Node, before: Node | None = None) -> None:
        """One ``import`` statement; ``before`` is the child of the same parent just before
        it (None when it is the first)."""
        span = self.spans.node(node)
        source_node: Node | None = None
        statement_type = False
        clause: Node | None = None
        clause_kind = ""
        for child in node.children:
            kind = child.type
            if kind == "string":
                source_node = child
            elif kind == "type":
                statement_type = True
            elif kind == "import_clause" or kind == "import_require_clause":
                clause = child
                clause_kind = kind
        names: list[str] = []
        if clause is None:
            import_kind = ImportKind.SIDE_EFFECT
            self.side_effect_free = False
        elif clause_kind == "import_require_clause":
            # `import x = require('y')`: the string sits inside the clause.
            import_kind = ImportKind.TYPE if statement_type else ImportKind.REQUIRE
            names.append("*")
            for child in clause.named_children:
                kind = child.type
                if kind == "identifier":
                    if self.full:
                        self.bindings.append(self.text(child))
                elif kind == "string":
                    source_node = child
        else:
            locals_: list[str] = []
            all_inline_type = self.import_clause(clause, names, locals_)
            import_kind = (
                ImportKind.TYPE if statement_type or all_inline_type else ImportKind.STATIC
            )
            if import_kind is ImportKind.STATIC and locals_:
                self.elidable.append((len(self.imports), tuple(locals_)))
        is_type = import_kind is ImportKind.TYPE
        if self.full:
            self.statements.append(TopStatement(StatementKind.IMPORT, span, (), is_type))
        specifier, specifier_span = self.string_value(source_node)
        if before is not None and not before.is_named:
            before = node.prev_named_sibling
        self.imports.append(
            _IMPORT(
                specifier,
                import_kind,
                span,
                specifier_span,
                tuple(names),
                False,
                True,
                False,
                silenced_after(before, span.line - 1),
                True,
            )
        )

    def import_clause(self, clause: Node, names: list[str], locals_: list[str]) -> bool:
        """Collect imported names and local bindings; True when every specifier is `type`.

        ``locals_`` receives the local names of the bindings that are not ``type`` specifiers.
        """
        specifiers = 0
        typed = 0
        for part in clause.named_children:
            kind = part.type
            if kind == "identifier":
                names.append("default")
                locals_.append(self.text(part))
                if self.full:
                    self.bindings.append(self.text(part))
                specifiers += 1
            elif kind == "namespace_import":
                names.append("*")
                for child in part.named_children:
                    if child.type == "identifier":
                        locals_.append(self.text(child))
                        if self.full:
                            self.bindings.append(self.text(child))
                specifiers += 1
            elif kind == "named_imports":
                for spec in part.named_children:
                    if spec.type != "import_specifier":
                        continue
                    specifiers += 1
                    name, alias, tokens = specifier_parts(spec)
                    imported = None if name is None else self.name_text(name)
                    if imported is not None:
                        names.append(imported)
                    local = imported if alias is None else self.name_text(alias)
                    if local is not None and self.full:
                        self.bindings.append(local)
                    if tokens and tokens[0].type == "type":
                        typed += 1
                    elif local is not None:
                        locals_.append(local)
        return specifiers > 0 and typed == specifiers

    # -- declarations --------------------------------------------------------------------

    def declaration(
        self,
        statement: Node,
        node: Node,
        *,
        exported: bool,
        is_default: bool = False,
        span: Span | None = None,
        line: int = 0,
    ) -> None:
        """Collect a declaration's facts; ``span`` (or, in lean mode, only ``line``) is the
        statement's when it is exported (``export const a = …``)."""
        node_kind = node.type
        if self.side_effect_free and not is_declaration_free(node, self.effects, node_kind):
            self.side_effect_free = False
        if node_kind in _OVERLOADABLE:
            self.overloads = True
        lean_kept = not self.full and node_kind in _LEAN_DECLARATIONS
        if not exported and not self.full and not lean_kept:
            return  # lean mode: only exports matter, and this declares none
        if span is None and self.full:
            span = self.spans.node(statement)
        if span is not None:
            line = span.line
        declared = declared_names(node, self.source, node_kind)
        if exported:
            ambient_type = node_kind == "ambient_declaration" and is_ambient_type(node)
            for kind, name in declared:
                is_type = ambient_type or kind in TYPE_DECLARATIONS
                if is_default:
                    export_kind = ExportKind.TYPE if is_type else ExportKind.DEFAULT
                    self.exports.append(_EXPORT("default", export_kind, is_type, None, name, line))
                elif name is not None:
                    export_kind = ExportKind.TYPE if is_type else ExportKind.NAMED
                    self.exports.append(_EXPORT(name, export_kind, is_type, None, None, line))
        if lean_kept:
            # lean mode keeps enums and namespaces (rare): whether an import reads only enums
            # (``rules.enum_reads``) is answered from the facts of any file
            kept = span or self.spans.node(statement)
            for kind, name in declared:
                self.declarations.append(Declaration(kind, name, exported, kept))
            return
        if not self.full or span is None:
            return  # lean mode: entry files only need declarations and statements
        for kind, name in declared:
            self.declarations.append(Declaration(kind, name, exported, span))
        statement_kind = (
            StatementKind.EXPORTED_DECLARATION if exported else StatementKind.DECLARATION
        )
        if len(declared) == 1:
            name = declared[0][1]
            names: tuple[str, ...] = () if name is None else (name,)
        else:
            names = tuple([name for _, name in declared if name is not None])
        self.statements.append(TopStatement(statement_kind, span, names))

    # -- literals ----------------------------------------------------------------------

    def string_value(self, node: Node | None) -> tuple[str | None, Span | None]:
        """A string literal's value and contents span; (None, None) for anything else."""
        if node is None:
            return None, None
        kind = node.type
        if kind != "string" and (
            kind != "template_string"
            or any(c.type == "template_substitution" for c in node.named_children)
        ):
            return None, None
        start = node.start_byte
        end = node.end_byte
        source = self.source
        if end - start < 2 or source[end - 1] != source[start]:
            return None, None  # a broken literal without its closing quote
        value = source[start + 1 : end - 1].decode("utf-8", "replace")
        one_line = "\n" not in value  # then it ends on its first row, `end - start` bytes on
        if "\\" in value:
            decoded = decode_escapes(node, source)  # `'./\u00e9'` names `./é`
            value = value if decoded is None else decoded
        return value, self.spans.string_contents(node, start, end, one_line)

    def name_text(self, node: Node) -> str:
        """An identifier's text, or a string name's contents (`export { "a-b" as c }`)."""
        start = node.start_byte
        end = node.end_byte
        if node.type == "string":
            start += 1
            end -= 1
        return self.source[start:end].decode("utf-8", "replace")
