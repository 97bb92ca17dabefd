"""One source file's bytes → FileFacts (SPEC §3), with tree-sitter only.

Only top-level statements are walked in Python. Dynamic ``import()`` and ``require()`` calls
anywhere in the file are found without walking the tree: each occurrence of the word in the
bytes is looked up in the tree by offset (in C) and kept only when the tree says it is such a
call. Side-effect checks of initializers run one compiled query (in C). That keeps extraction
cheap next to the parse itself.
"""

from __future__ import annotations

import dataclasses

from tree_sitter import Node, QueryCursor

from filid.model.facts import (
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
from filid.parse.cases import count_cases, is_verification_candidate
from filid.parse.grammar import Toolkit, toolkit_for
from filid.parse.side_effects import is_declaration_free, is_expression_free
from filid.parse.spans import SpanMaker
from filid.parse.thunks import lazy_callees, read_only_in_thunks

# Top-level declaration node types → the Declaration kind they produce.
_DECLARATION_KINDS = {
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "function_signature": "function",
    "class_declaration": "class",
    "abstract_class_declaration": "class",
    "lexical_declaration": "variable",
    "variable_declaration": "variable",
    "enum_declaration": "enum",
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "internal_module": "namespace",
    "module": "namespace",
    "import_alias": "variable",
}
_TYPE_DECLARATIONS = frozenset({"interface", "type"})
# Nodes whose subtree is a type, not an expression: an `import('x')` inside only names a type.
_TYPE_CONTEXTS = frozenset(
    {
        "type_annotation",
        "type_query",
        "type_arguments",
        "type_alias_declaration",
        "interface_declaration",
        "generic_type",
        "lookup_type",
        "index_type_query",
        "opting_type_annotation",
        "omitting_type_annotation",
        "asserts_annotation",
        "constraint",
        "default_type",
        "implements_clause",
        "extends_type_clause",
    }
)
# Where the search for a type context can stop.
_SCOPE_BOUNDARIES = frozenset({"program", "statement_block", "class_body", "expression_statement"})
_OVERLOADABLE = frozenset({"function_signature", "ambient_declaration"})
_SKIPPED = frozenset({"comment", "empty_statement", "hash_bang_line"})
_PATTERN_LEAVES = frozenset({"identifier", "shorthand_property_identifier_pattern"})


def parse_source(path: str, source: bytes, *, full: bool = True) -> FileFacts:
    """Parse one file's bytes into facts; never raises on bad syntax.

    ``path`` is root-relative POSIX; its extension picks the grammar (``.ts .mts .cts`` →
    TypeScript, everything else → TSX). A file with syntax errors yields what parsed, with
    ``has_syntax_error`` set and the first error's line in ``syntax_error_line``. With
    ``full=False`` the per-statement facts (``declarations``, ``statements``,
    ``imported_bindings``) are left empty and never computed: only entry files need them.
    """
    toolkit = toolkit_for(path)
    tree = toolkit.parser.parse(source)
    return extract_facts(path, source, tree.root_node, toolkit, full=full)


def extract_facts(
    path: str, source: bytes, root: Node, toolkit: Toolkit, *, full: bool = True
) -> FileFacts:
    """Facts from an already parsed tree (``root``) with ``toolkit``'s grammar."""
    walker = _Walker(source, toolkit.effects, full)
    walker.walk(root.children)
    _collect_module_calls(root, source, walker)

    imports = walker.imports
    if walker.elidable and _is_typescript(path):
        _mark_value_use(imports, walker.elidable, root, source)
    if walker.call_imports:
        imports = sorted(imports + walker.call_imports, key=_start_byte)
    recovered: set[int] = set()
    if root.has_error:
        recovered = set(walker.recovered_errors) | _grammar_gaps(root, source)
    has_error = root.has_error and _has_unrecovered_error(root, recovered)
    return FileFacts(
        path=path,
        imports=tuple(imports),
        # Only overload signatures repeat an export; hashing every fact would cost more.
        exports=tuple(_first_of_each(walker.exports) if walker.overloads else walker.exports),
        declarations=tuple(walker.declarations),
        statements=tuple(walker.statements),
        imported_bindings=tuple(dict.fromkeys(walker.bindings)),
        is_side_effect_free=walker.side_effect_free,
        has_syntax_error=has_error,
        syntax_error_line=_first_error_line(root, recovered) if has_error else None,
        cases=count_cases(root, source) if is_verification_candidate(path) else None,
    )


def _first_of_each(exports: list[ExportFact]) -> list[ExportFact]:
    """Drop repeats of an exported name (overload signatures each export it)."""
    seen: set[tuple[str, str | None]] = set()
    kept: list[ExportFact] = []
    for fact in exports:
        key = (fact.name, fact.source)
        if key not in seen:
            seen.add(key)
            kept.append(fact)
    return kept


def _start_byte(fact: ImportFact) -> int:
    return fact.span.start_byte


class _Walker:
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
        for node in children:
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
                self.import_statement(node)
            elif kind == "export_statement":
                self.in_prologue = False
                self.export_statement(node)
            elif kind in _DECLARATION_KINDS or kind == "ambient_declaration":
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

    def import_statement(self, node: Node) -> None:
        span = self.spans.node(node)
        source_node: Node | None = None
        statement_type = False
        clause: Node | None = None
        for child in node.children:
            kind = child.type
            if kind == "string":
                source_node = child
            elif kind == "type":
                statement_type = True
            elif kind == "import_clause" or kind == "import_require_clause":
                clause = child
        names: list[str] = []
        if clause is None:
            import_kind = ImportKind.SIDE_EFFECT
            self.side_effect_free = False
        elif clause.type == "import_require_clause":
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
        self.imports.append(ImportFact(specifier, import_kind, span, specifier_span, tuple(names)))

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
                    name = spec.child_by_field_name("name")
                    alias = spec.child_by_field_name("alias")
                    if name is not None:
                        names.append(self.name_text(name))
                    local = alias if alias is not None else name
                    if local is not None and self.full:
                        self.bindings.append(self.name_text(local))
                    first = spec.child(0)
                    if first is not None and first.type == "type":
                        typed += 1
                    elif local is not None:
                        locals_.append(self.name_text(local))
        return specifiers > 0 and typed == specifiers

    # -- exports -----------------------------------------------------------------------

    def export_statement(self, node: Node) -> None:
        span = self.spans.node(node)
        line = span.line
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
            if kind == "default":
                is_default = True
            elif kind == "type":
                statement_type = True
            elif kind == "ERROR" and _is_type_keyword_error(child):
                # `export type * from './x'` (TypeScript 5.0): tree-sitter-typescript 0.23 (the
                # newest on PyPI) wraps the `type` keyword in an ERROR node and parses the rest.
                statement_type = True
                self.recovered_errors.append(child.id)
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
            elif kind in _DECLARATION_KINDS or kind == "ambient_declaration":
                declaration = child
            elif value is None:
                value = child  # `export default <expression>` or `export = <expression>`

        if umd:
            if self.full:
                self.statements.append(TopStatement(StatementKind.DECLARATION, span))
            return
        if source_node is not None and (clause is not None or namespace_export or star):
            self.reexport(span, source_node, clause, namespace_export, star, statement_type)
            return
        if clause is not None:
            self.export_clause(span, clause, statement_type)
            return
        if declaration is not None:
            self.declaration(node, declaration, exported=True, is_default=is_default, span=span)
            return
        if value is None:
            value = source_node  # `export default 'literal'`
        if value is not None:
            if value.type == "identifier":
                name = self.text(value)
                self.exports.append(
                    ExportFact("default", ExportKind.DEFAULT, local=name, line=line)
                )
                if self.full:
                    self.statements.append(
                        TopStatement(StatementKind.EXPORT_DEFAULT_NAME, span, (name,))
                    )
                return
            if self.side_effect_free and not is_expression_free(value, self.effects):
                self.side_effect_free = False
            self.exports.append(ExportFact("default", ExportKind.DEFAULT, line=line))
            if self.full:
                self.declarations.append(Declaration("default-expression", None, True, span))
            if self.full:
                self.statements.append(TopStatement(StatementKind.EXPORT_DEFAULT_EXPRESSION, span))
            return
        if self.full:
            self.statements.append(TopStatement(StatementKind.OTHER, span))

    def reexport(
        self,
        span: Span,
        source_node: Node,
        clause: Node | None,
        namespace_export: Node | None,
        star: bool,
        statement_type: bool,
    ) -> None:
        specifier, specifier_span = self.string_value(source_node)
        line = span.line
        names: list[str] = []
        all_inline_type = False
        if namespace_export is not None:
            names.append("*")
            for child in namespace_export.named_children:
                if child.type in ("identifier", "string"):
                    self.exports.append(
                        ExportFact(
                            self.name_text(child),
                            ExportKind.STAR_AS,
                            statement_type,
                            specifier,
                            None,
                            line,
                        )
                    )
        elif clause is not None:
            all_inline_type = self.export_specifiers(clause, statement_type, specifier, line, names)
        elif star:
            names.append("*")
            self.exports.append(
                ExportFact("*", ExportKind.STAR, statement_type, specifier, None, line)
            )
        is_type = statement_type or all_inline_type
        kind = ImportKind.TYPE if is_type else ImportKind.RE_EXPORT
        self.imports.append(ImportFact(specifier, kind, span, specifier_span, tuple(names), True))
        if self.full:
            self.statements.append(TopStatement(StatementKind.RE_EXPORT, span, (), is_type))

    def export_clause(self, span: Span, clause: Node, statement_type: bool) -> None:
        locals_: list[str] = []
        all_inline_type = self.export_specifiers(clause, statement_type, None, span.line, locals_)
        if not locals_:
            if self.full:
                self.statements.append(TopStatement(StatementKind.EXPORT_EMPTY, span))
            return
        if self.full:
            self.statements.append(
                TopStatement(
                    StatementKind.EXPORT_NAMES,
                    span,
                    tuple(locals_),
                    statement_type or all_inline_type,
                )
            )

    def export_specifiers(
        self,
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
            name_node = spec.child_by_field_name("name")
            if name_node is None:
                continue
            alias_node = spec.child_by_field_name("alias")
            name = self.name_text(name_node)
            exported = self.name_text(alias_node) if alias_node is not None else name
            first = spec.child(0)
            inline_type = first is not None and first.type == "type"
            typed += inline_type
            is_type = statement_type or inline_type
            if is_type:
                kind = ExportKind.TYPE
            elif exported == "default":
                kind = ExportKind.DEFAULT
            else:
                kind = ExportKind.NAMED
            local = name if alias_node is not None else None
            self.exports.append(ExportFact(exported, kind, is_type, source, local, line))
            names.append(name)
        return count > 0 and typed == count

    # -- declarations --------------------------------------------------------------------

    def declaration(
        self,
        statement: Node,
        node: Node,
        *,
        exported: bool,
        is_default: bool = False,
        span: Span | None = None,
    ) -> None:
        if span is not None:
            line = span.line
        elif self.full:
            span = self.spans.node(statement)
            line = span.line
        else:
            line = statement.start_point[0] + 1
        if self.side_effect_free and not is_declaration_free(node, self.effects):
            self.side_effect_free = False
        declared = _declared_names(node, self.source)
        if node.type in _OVERLOADABLE:
            self.overloads = True
        if exported:
            ambient_type = node.type == "ambient_declaration" and _is_ambient_type(node)
            for kind, name in declared:
                is_type = ambient_type or kind in _TYPE_DECLARATIONS
                if is_default:
                    export_kind = ExportKind.TYPE if is_type else ExportKind.DEFAULT
                    self.exports.append(
                        ExportFact("default", export_kind, is_type, None, name, line)
                    )
                elif name is not None:
                    export_kind = ExportKind.TYPE if is_type else ExportKind.NAMED
                    self.exports.append(ExportFact(name, export_kind, is_type, None, None, line))
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
        return value, self.spans.string_contents(node)

    def name_text(self, node: Node) -> str:
        """An identifier's text, or a string name's contents (`export { "a-b" as c }`)."""
        if node.type == "string":
            return self.source[node.start_byte + 1 : node.end_byte - 1].decode("utf-8", "replace")
        return self.text(node)


def _is_ambient_type(node: Node) -> bool:
    """`export declare type X` / `export declare interface I` export types."""
    return any(
        c.type in ("interface_declaration", "type_alias_declaration") for c in node.named_children
    )


def _declared_names(node: Node, source: bytes) -> list[tuple[str, str | None]]:
    """(kind, name) for each entity a declaration node introduces."""
    kind = node.type
    if kind == "ambient_declaration":
        for child in node.children:
            if child.type == "global":
                return [("namespace", "global")]
        for child in node.named_children:
            if child.type in _DECLARATION_KINDS:
                return _declared_names(child, source)
        return []
    declaration_kind = _DECLARATION_KINDS.get(kind)
    if declaration_kind is None:
        return []
    if declaration_kind == "variable" and kind != "import_alias":
        found: list[tuple[str, str | None]] = []
        for declarator in node.named_children:
            if declarator.type == "variable_declarator":
                pattern = declarator.child_by_field_name("name")
                if pattern is not None:
                    found.extend(("variable", name) for name in _pattern_names(pattern, source))
        return found
    if kind == "import_alias":
        name_node = next((c for c in node.named_children if c.type == "identifier"), None)
    else:
        name_node = node.child_by_field_name("name")
    if name_node is None:
        return [(declaration_kind, None)]
    start, end = name_node.start_byte, name_node.end_byte
    if name_node.type == "string":
        start, end = start + 1, end - 1
    return [(declaration_kind, source[start:end].decode("utf-8", "replace"))]


def _pattern_names(pattern: Node, source: bytes) -> list[str]:
    """Identifiers bound by a declarator's name (plain, or object / array destructuring)."""
    if pattern.type in _PATTERN_LEAVES:
        return [source[pattern.start_byte : pattern.end_byte].decode("utf-8", "replace")]
    names: list[str] = []
    stack = [pattern]
    while stack:
        current = stack.pop()
        kind = current.type
        if kind in _PATTERN_LEAVES:
            names.append(source[current.start_byte : current.end_byte].decode("utf-8", "replace"))
        elif kind == "pair_pattern":
            value = current.child_by_field_name("value")
            if value is not None:
                stack.append(value)
        elif kind in ("object_assignment_pattern", "assignment_pattern"):
            left = current.child_by_field_name("left")
            if left is not None:
                stack.append(left)
        elif kind in ("object_pattern", "array_pattern", "rest_pattern"):
            stack.extend(reversed(current.named_children))
    return names


def _collect_module_calls(root: Node, source: bytes, walker: _Walker) -> None:
    """Dynamic ``import()`` and ``require('x')`` calls anywhere in the file.

    Every such call spells the keyword ``import`` or the identifier ``require`` in the
    source bytes (keywords cannot contain escapes, and an escaped ``require`` is not the
    name we look for), so instead of walking the whole tree, each occurrence outside the
    top-level import statements is looked up in the tree (in C, by byte offset) and kept
    when the syntax tree says it is such a call; occurrences in strings, comments or longer
    identifiers fall away there.
    """
    keywords = {fact.span.start_byte for fact in walker.imports}
    position = source.find(b"import")
    while position >= 0:
        if position not in keywords:
            token = root.descendant_for_byte_range(position, position + 6)
            keyword = token.parent if token is not None and token.type == "import" else None
            if keyword is not None and keyword.type == "import":
                call = keyword.parent
                if call is not None and call.type == "call_expression":
                    kind = ImportKind.TYPE if _is_in_type(call) else ImportKind.DYNAMIC
                    _add_call(walker, call, kind)
        position = source.find(b"import", position + 6)
    position = source.find(b"require")
    while position >= 0:
        token = root.descendant_for_byte_range(position, position + 7)
        if (
            token is not None
            and token.type == "identifier"
            and token.start_byte == position
            and token.end_byte == position + 7
        ):
            call = token.parent
            if call is not None and call.type == "call_expression":
                function = call.child_by_field_name("function")
                if function is not None and function.start_byte == position:
                    _add_call(walker, call, ImportKind.REQUIRE)
        position = source.find(b"require", position + 7)


def _is_in_type(node: Node) -> bool:
    """Whether ``node`` sits in a type position (`let x: import('./y').T`, `typeof import()`).

    ``typeof import('x')`` read as an *expression* is also a type query: tree-sitter-typescript
    0.23 misparses a generic call such as ``f<typeof import('x')>()`` as a comparison whose
    operand is ``typeof import('x')``, and nobody writes ``typeof`` of a dynamic import at run
    time.
    """
    parent = node.parent
    if parent is not None and parent.type == "unary_expression":
        operator = parent.child_by_field_name("operator")
        if operator is not None and operator.type == "typeof":
            return True
    while parent is not None:
        kind = parent.type
        if kind in _TYPE_CONTEXTS:
            return True
        if kind in _SCOPE_BOUNDARIES:
            return False
        parent = parent.parent
    return False


def _add_call(walker: _Walker, call: Node, kind: ImportKind) -> None:
    args = call.child_by_field_name("arguments")
    first = None
    if args is not None:
        first = next((c for c in args.named_children if c.type != "comment"), None)
    specifier, specifier_span = walker.string_value(first)
    if specifier is None and kind is not ImportKind.DYNAMIC:
        return  # `require(x)` with a computed name is not a module reference we can follow
    walker.call_imports.append(
        ImportFact(specifier, kind, walker.spans.node(call), specifier_span, ("*",))
    )


_TYPESCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
# Ancestors that make an `identifier` a type position (`typeof X`, `X.Y` as a type, and the
# node types of `_TYPE_CONTEXTS`): TypeScript reads nothing there at run time.
_TYPE_POSITIONS = _TYPE_CONTEXTS | {"nested_type_identifier", "type_predicate"}
# Leaves that read a binding as a value (a JSX element name is an `identifier` too).
_VALUE_LEAVES = frozenset({"identifier", "shorthand_property_identifier"})
_DECORATED_LEAVES = _VALUE_LEAVES | {"type_identifier"}


def _is_typescript(path: str) -> bool:
    return path.endswith(_TYPESCRIPT_SUFFIXES)


def _is_identifier_byte(byte: int) -> bool:
    return byte >= 0x80 or chr(byte).isalnum() or byte in (0x24, 0x5F)  # `$`, `_`


def _mark_value_use(
    imports: list[ImportFact],
    elidable: list[tuple[int, tuple[str, ...]]],
    root: Node,
    source: bytes,
) -> None:
    """Set ``value_used=False`` on each static import none of whose bindings is read as a value.

    TypeScript's import elision: a binding read only in type positions (or never) does not
    make the import stay at emit. Each occurrence of a local name in the bytes is looked up in
    the tree by offset. When unsure the binding counts as a value: a file with a syntax error
    (an ERROR node may hide a use), an ``export { X }`` of the binding that is not type-only, a
    shadowing local of the same name (counted as a use). In a file with a decorator every
    mention counts, type positions too (``emitDecoratorMetadata`` turns annotations of
    decorated members into run-time references); only an import it never mentions is elided.
    """
    if root.has_error:
        return
    decorated = _has_decorator(root, source)
    lazy = lazy_callees(imports)
    for index, names in elidable:
        fact = imports[index]
        skip = (fact.span.start_byte, fact.span.end_byte)
        if not any(
            _used_as_value(root, source, name.encode(), skip, decorated=decorated) for name in names
        ):
            imports[index] = dataclasses.replace(fact, value_used=False)
        elif read_only_in_thunks(root, source, names, skip, _is_type_position, lazy):
            imports[index] = dataclasses.replace(fact, deferred=True)


def _is_type_position(node: Node) -> bool:
    return not _is_value_position(node)


def _has_decorator(root: Node, source: bytes) -> bool:
    at = source.find(b"@")
    while at != -1:
        node = root.named_descendant_for_byte_range(at, at + 1)
        if node is not None and node.type == "decorator":
            return True
        at = source.find(b"@", at + 1)
    return False


def _used_as_value(
    root: Node, source: bytes, name: bytes, skip: tuple[int, int], *, decorated: bool
) -> bool:
    """Is ``name`` read as a value anywhere outside the byte range ``skip`` (its import)?
    With ``decorated``, a mention in a type position counts too."""
    size = len(source)
    at = source.find(name)
    while at != -1:
        end = at + len(name)
        found = at
        at = source.find(name, at + 1)
        if skip[0] <= found < skip[1]:
            continue
        if (found > 0 and _is_identifier_byte(source[found - 1])) or (
            end < size and _is_identifier_byte(source[end])
        ):
            continue
        node = root.named_descendant_for_byte_range(found, end)
        if node is None or node.start_byte != found or node.end_byte != end:
            continue
        if decorated and node.type in _DECORATED_LEAVES:
            return True
        if node.type in _VALUE_LEAVES and _is_value_position(node):
            return True
    return False


def _is_value_position(node: Node) -> bool:
    parent = node.parent
    if parent is not None and parent.type == "export_specifier":
        statement = parent.parent.parent if parent.parent is not None else None
        typed = any(c.type == "type" for c in parent.children) or (
            statement is not None and any(c.type == "type" for c in statement.children)
        )
        return not typed
    current = parent
    while current is not None:
        if current.type in _TYPE_POSITIONS:
            return False
        current = current.parent
    return True


def _is_type_keyword_error(node: Node) -> bool:
    """An ERROR node that holds exactly the ``type`` keyword (``export type * …``)."""
    return node.child_count == 1 and node.children[0].type == "type"


# Modifiers TypeScript accepts that tree-sitter-typescript 0.23.2 does not know: variance
# annotations on type parameters (`<in out T>`, TS 4.7) and `static accessor` fields (TS 4.9).
_VARIANCE_MODIFIERS = frozenset({b"in", b"out"})


def _grammar_gaps(root: Node, source: bytes) -> set[int]:
    """ERROR and MISSING nodes that mark legal TypeScript the grammar does not parse, each
    recognised by its shape in the tree (tsc --noEmit accepts every one; see the tests):

    - a tagged template with type arguments whose type is not a plain name
      (``sql<Row[]>`…` ``, ``styled.div<{ on: boolean }>`…` ``): the grammar either invents a
      missing ``!`` after ``f<…>`` (the template then reads as the call's arguments) or wraps
      ``f<…>`` in an ERROR just before the template;
    - ``in``/``out`` variance modifiers of a type parameter;
    - the ``accessor`` keyword after another modifier (``static accessor x = 1``).
    """
    gaps: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.children:
            if child.is_missing:
                if _is_tagged_template_bang(child, node) or _is_function_type_paren(child, source):
                    gaps.add(child.id)
            elif child.is_error:
                if _is_gap_error(child, node, source):
                    gaps.add(child.id)
                else:
                    stack.append(child)
            elif child.has_error:
                stack.append(child)
    return gaps


def _is_tagged_template_bang(missing: Node, parent: Node) -> bool:
    """The ``!`` the grammar inserts in ``f<T[]>`…` ``: ``(f<T[]>)!`…` ``."""
    if parent.type != "non_null_expression" or missing.type != "!":
        return False
    inner = parent.named_children
    call = parent.parent
    return (
        bool(inner)
        and inner[0].type == "instantiation_expression"
        and call is not None
        and call.type == "call_expression"
        and (arguments := call.child_by_field_name("arguments")) is not None
        and arguments.type == "template_string"
    )


def _text(node: Node | None, source: bytes) -> bytes:
    return source[node.start_byte : node.end_byte] if node is not None else b""


def _is_gap_error(error: Node, parent: Node, source: bytes) -> bool:
    named = error.named_children
    if parent.type in ("type_parameters", "type_parameter"):
        # `<in out T>`: the grammar takes the first modifier for the parameter's name and
        # wraps what follows (more modifiers, then the real name) in an ERROR.
        modifier = (
            parent.child_by_field_name("name")
            if parent.type == "type_parameter"
            else error.prev_named_sibling
        )
        if modifier is None or _text(modifier, source) not in _VARIANCE_MODIFIERS:
            return False
        return (
            bool(named)
            and all(n.type == "identifier" for n in named)
            and all(_text(n, source) in _VARIANCE_MODIFIERS for n in named[:-1])
        )
    if parent.type == "public_field_definition":
        # `static accessor x`: the grammar takes `accessor` for the field's name.
        previous = error.prev_sibling
        return (
            len(named) == 1
            and named[0].type
            in ("property_identifier", "identifier", "private_property_identifier")
            and previous is not None
            and previous.type == "property_identifier"
            and _text(previous, source) == b"accessor"
        )
    text = _text(error, source)
    if (
        text.startswith(b"\x00")
        and parent.type in ("template_string", "string")
        and not any(c in text for c in b"\"'`\n")
    ):
        # a raw NUL character inside a template or string literal (legal: Dokploy's
        # `${provider}\0${ref}` key); the grammar cannot take it
        return True
    if text.startswith(b"&") and _in_jsx_text(parent):
        # `Plans & Billing`, `href="?a=1&b=2"`: an ampersand that starts no entity is text
        return not any(c in text for c in b"<>{}\"'")
    if text.startswith(b"=>") or (not text and error.prev_sibling is not None):
        # `(string) => void`: a function type whose one parameter is named like a type
        previous = error.prev_named_sibling
        rest = text[2:].strip().rstrip(b")").strip()
        return (
            previous is not None
            and _ends_in_parenthesized_type(previous)
            and not any(c in rest for c in b"{};=")
            and (bool(rest) or not text)
        )
    if text.startswith(b">") and named and named[0].type in ("formal_parameters", "arguments"):
        # `await importOriginal<typeof import('x')>()` (vitest mocks): the grammar reads
        # `f < typeof import('x')` as a comparison and the `>(…)` that follows as an ERROR
        return _ends_in_typeof_import_comparison(error.prev_named_sibling)
    if text == b"," and parent.type == "parenthesized_expression":
        # `vi.importActual<typeof import('x')>('./x.ts',)`: read as `(… < …) > ('./x.ts',)`,
        # where the trailing comma of the call's arguments is an error
        comparison = parent.parent
        if comparison is not None and comparison.type == "binary_expression":
            operator = comparison.child_by_field_name("operator")
            left = comparison.child_by_field_name("left")
            return (
                operator is not None
                and operator.type == ">"
                and _ends_in_typeof_import_comparison(left)
            )
        return False
    if parent.type == "template_string":
        # an invalid escape is legal in a tagged template (``String.raw`\u00` ``)
        call = parent.parent
        return (
            call is not None
            and call.type == "call_expression"
            and call.child_by_field_name("arguments") == parent
            and b"\\" in _text(parent, source)
        )
    if len(named) == 1 and named[0].type == "instantiation_expression":
        following = error.next_sibling
        while following is not None and following.type != "template_string":
            following = following.children[0] if following.children else None
        # only whitespace may separate `f<T[]>` from its template
        return following is not None and not source[error.end_byte : following.start_byte].strip()
    return False


def _is_function_type_paren(missing: Node, source: bytes) -> bool:
    """The ``)`` the grammar inserts in ``(x, f: (string) => void) => …``, before it reads
    ``=> void)`` as an ERROR."""
    parent = missing.parent
    previous = missing.prev_named_sibling
    following = parent.next_sibling if parent is not None else None
    return (
        missing.type == ")"
        and parent is not None
        and parent.type == "formal_parameters"
        and previous is not None
        and _ends_in_parenthesized_type(previous)
        and following is not None
        and following.is_error
        and _text(following, source).startswith(b"=>")
    )


def _ends_in_typeof_import_comparison(node: Node | None) -> bool:
    """Does ``node`` end with ``x < typeof import('…')`` (the start of a generic call)?"""
    current = node
    while current is not None:
        if current.type == "binary_expression":
            operator = current.child_by_field_name("operator")
            right = current.child_by_field_name("right")
            if (
                operator is not None
                and operator.type == "<"
                and right is not None
                and right.type == "unary_expression"
                and (argument := right.child_by_field_name("argument")) is not None
                and argument.type == "call_expression"
                and (function := argument.child_by_field_name("function")) is not None
                and function.type == "import"
            ):
                return True
        children = [c for c in current.named_children if not c.is_error]
        current = children[-1] if children else None
    return False


def _in_jsx_text(parent: Node) -> bool:
    """Is ``parent`` JSX children or a JSX attribute's string?"""
    if parent.type in ("jsx_element", "jsx_fragment"):
        return True
    grand = parent.parent
    return parent.type == "string" and grand is not None and grand.type == "jsx_attribute"


def _ends_in_parenthesized_type(node: Node) -> bool:
    """Does ``node`` end with a parenthesized type of one name (``onChange: (string)``)?"""
    current: Node | None = node
    while current is not None:
        if current.type == "parenthesized_type":
            inner = current.named_children
            return len(inner) == 1 and inner[0].type in ("predefined_type", "type_identifier")
        children = [c for c in current.named_children if not c.is_error]
        current = children[-1] if children else None
    return False


def _has_unrecovered_error(root: Node, recovered: set[int]) -> bool:
    """True when the tree holds an ERROR or MISSING node the walker did not read past."""
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.children:
            if (child.is_missing or child.is_error) and child.id not in recovered:
                return True
            if child.has_error and not (child.is_error and child.id in recovered):
                stack.append(child)
    return False


def _first_error_line(root: Node, recovered: set[int]) -> int:
    """1-based line of the first ERROR or MISSING node that the walker did not read past."""
    stack = [root]
    first: int | None = None
    while stack:
        node = stack.pop()
        for child in node.children:
            if (child.is_missing or child.is_error) and child.id not in recovered:
                line = child.start_point[0] + 1
                first = line if first is None else min(first, line)
            elif child.has_error and not (child.is_error and child.id in recovered):
                stack.append(child)
    return first if first is not None else root.start_point[0] + 1
