"""Dynamic ``import()`` and ``require()`` calls anywhere in a file, found without a tree walk."""

from __future__ import annotations

from tree_sitter import Node

from filid.model.facts import ImportFact, ImportKind
from filid.parse.guards import in_function_body, is_guarded
from filid.parse.local_require import is_local_require
from filid.parse.rare_words import occurrences
from filid.parse.top_level import TopLevelWalker

# Nodes whose subtree is a type, not an expression: an `import('x')` inside only names a type.
TYPE_CONTEXTS = frozenset(
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


def collect_module_calls(root: Node, source: bytes, walker: TopLevelWalker) -> None:
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
    for position in occurrences(source, b"require", 2):  # by its `q`
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
                if (
                    function is not None
                    and function.start_byte == position
                    and not is_local_require(token)
                ):
                    _add_call(walker, call, ImportKind.REQUIRE)


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
        if kind in TYPE_CONTEXTS:
            return True
        if kind in _SCOPE_BOUNDARIES:
            return False
        parent = parent.parent
    return False


def _add_call(walker: TopLevelWalker, call: Node, kind: ImportKind) -> None:
    args = call.child_by_field_name("arguments")
    first = None
    if args is not None:
        first = next((c for c in args.named_children if c.type != "comment"), None)
    specifier, specifier_span = walker.string_value(first)
    if specifier is None and kind is not ImportKind.DYNAMIC:
        return  # `require(x)` with a computed name is not a module reference we can follow
    guarded = kind is not ImportKind.TYPE and is_guarded(call, dynamic=kind is ImportKind.DYNAMIC)
    # a require() in a function body loads its module when called, not with the file
    deferred = kind is ImportKind.REQUIRE and in_function_body(call)
    walker.call_imports.append(
        ImportFact(
            specifier,
            kind,
            walker.spans.node(call),
            specifier_span,
            ("*",),
            deferred=deferred,
            guarded=guarded,
        )
    )
