"""Whether top-level statements run code when their module is evaluated (SPEC §3).

A module is side-effect free when loading it only defines things: imports with a clause,
exports, function / class / interface / type / enum / ambient declarations, and variables
whose initializers evaluate no call, ``new``, assignment, ``await``, ``yield``, update or
tagged template outside function bodies. A class with a ``static`` block or a static field
initializer that does any of those is not free. Anything else is a side effect.
"""

from __future__ import annotations

from tree_sitter import Node, QueryCursor

# Initializers that evaluate nothing (function values only run when called).
_INERT_VALUES = frozenset(
    {
        "identifier",
        "number",
        "string",
        "true",
        "false",
        "null",
        "undefined",
        "this",
        "regex",
        "arrow_function",
        "function_expression",
        "generator_function",
    }
)

# The node types the side-effect query (``filid.parse.grammar``) captures as ``@effect``.
_EFFECTS = frozenset(
    {
        "call_expression",
        "new_expression",
        "assignment_expression",
        "augmented_assignment_expression",
        "await_expression",
        "yield_expression",
        "update_expression",
        "class_static_block",
    }
)

# Declarations that define something without evaluating user code.
_INERT_DECLARATIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_signature",
        "interface_declaration",
        "type_alias_declaration",
        "enum_declaration",
        "ambient_declaration",
        "import_alias",
    }
)

_CLASSES = frozenset({"class_declaration", "abstract_class_declaration", "class"})
_VARIABLES = frozenset({"lexical_declaration", "variable_declaration"})
_NAMESPACES = frozenset({"internal_module", "module"})
# Statement-like nodes that carry no code at all.
_SILENT = frozenset({"comment", "empty_statement", "hash_bang_line"})


def is_statement_free(node: Node, effects: QueryCursor) -> bool:
    """Whether top-level statement ``node`` is side-effect free."""
    kind = node.type
    if kind == "import_statement":
        # `import './x'` is the one import form that exists only for its side effects.
        return any(c.type in ("import_clause", "import_require_clause") for c in node.children)
    if kind == "export_statement":
        return _is_export_free(node, effects)
    if kind == "expression_statement":
        inner = node.named_children
        if len(inner) == 1:
            only = inner[0]
            if only.type == "internal_module":
                return is_declaration_free(only, effects)
            # A bare string (a directive such as 'use client') evaluates nothing.
            if only.type == "string":
                return True
        return False
    if kind in _SILENT:
        return True
    return is_declaration_free(node, effects)


def _is_export_free(node: Node, effects: QueryCursor) -> bool:
    declaration = node.child_by_field_name("declaration")
    if declaration is not None:
        return is_declaration_free(declaration, effects)
    value = node.child_by_field_name("value")
    if value is not None:
        return is_expression_free(value, effects)
    children = node.children
    for index, child in enumerate(children):
        if child.type == "=":  # `export = expression`
            rest = [c for c in children[index + 1 :] if c.is_named and c.type != "comment"]
            return not rest or is_expression_free(rest[0], effects)
    return True


def is_declaration_free(node: Node, effects: QueryCursor, kind: str | None = None) -> bool:
    """Whether a declaration node (``const``, ``class``, ``namespace``…) is side-effect free;
    ``kind`` is the node's type when the caller has read it."""
    if kind is None:
        kind = node.type
    if kind in _INERT_DECLARATIONS:
        return True
    if kind in _VARIABLES:
        for declarator in node.named_children:
            if declarator.type != "variable_declarator":
                continue
            value = declarator.child_by_field_name("value")
            if value is not None and not is_expression_free(value, effects):
                return False
        return True
    if kind in _CLASSES:
        return is_class_free(node, effects)
    if kind in _NAMESPACES:
        # A non-ambient namespace body runs when the module loads: judge its statements.
        body = node.child_by_field_name("body")
        if body is None:
            return True
        return all(is_statement_free(child, effects) for child in body.named_children)
    return False


def is_class_free(node: Node, effects: QueryCursor) -> bool:
    """A class is free unless a static block or a static field initializer runs code."""
    body = node.child_by_field_name("body")
    if body is None:
        return True
    for member in body.named_children:
        if member.type == "class_static_block":
            return False
        if member.type == "public_field_definition":
            value = member.child_by_field_name("value")
            if (
                value is not None
                and any(c.type == "static" for c in member.children)
                and not is_expression_free(value, effects)
            ):
                return False
    return True


def is_expression_free(value: Node, effects: QueryCursor) -> bool:
    """Whether evaluating ``value`` runs code outside function bodies (one query, run in C)."""
    kind = value.type
    if kind in _INERT_VALUES:
        return True
    if kind in _EFFECTS:
        return False  # the query would capture ``value`` itself, which nothing holds
    captures = effects.captures(value)
    found = captures.get("effect")
    if not found:
        return True
    # Code inside functions and instance field initializers runs later, not at load time.
    deferred = [(n.start_byte, n.end_byte) for n in captures.get("deferred", ())]
    for field in captures.get("field", ()):
        if not any(c.type == "static" for c in field.children):
            deferred.append((field.start_byte, field.end_byte))
    for effect in found:
        start, end = effect.start_byte, effect.end_byte
        if not any(low <= start and end <= high for low, high in deferred):
            return False
    return True
