"""The parts of one import or export specifier (``a``, ``a as b``, ``type a as b``)."""

from __future__ import annotations

from tree_sitter import Node

__all__ = ["specifier_parts"]


def specifier_parts(spec: Node) -> tuple[Node | None, Node | None, list[Node]]:
    """(name, alias, tokens) of an ``import_specifier`` or ``export_specifier``.

    ``{ a }`` has one child, the required name, with no ``type`` and no alias: taken without
    the field look-ups (most specifiers, on the extraction's hot path).
    """
    tokens = spec.children
    if len(tokens) == 1:
        return tokens[0], None, tokens
    return spec.child_by_field_name("name"), spec.child_by_field_name("alias"), tokens
