"""What a top-level declaration introduces: its kind (function, class, variable…) and names."""

from __future__ import annotations

from tree_sitter import Node

# Top-level declaration node types → the Declaration kind they produce.
DECLARATION_KINDS = {
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
TYPE_DECLARATIONS = frozenset({"interface", "type"})
_PATTERN_LEAVES = frozenset({"identifier", "shorthand_property_identifier_pattern"})


def is_ambient_type(node: Node) -> bool:
    """`export declare type X` / `export declare interface I` export types."""
    return any(
        c.type in ("interface_declaration", "type_alias_declaration") for c in node.named_children
    )


def declared_names(
    node: Node, source: bytes, kind: str | None = None
) -> list[tuple[str, str | None]]:
    """(kind, name) for each entity a declaration node introduces; ``kind`` is the node's
    type when the caller has read it."""
    if kind is None:
        kind = node.type
    if kind == "ambient_declaration":
        for child in node.children:
            if child.type == "global":
                return [("namespace", "global")]
        for child in node.named_children:
            if child.type in DECLARATION_KINDS:
                return declared_names(child, source)
        return []
    declaration_kind = DECLARATION_KINDS.get(kind)
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
