"""Walks over a tree-sitter tree that the check modules reading build scripts and configs share.

A script or config is read for what it spells anywhere (a property nested in arrays and
spreads, a ``copySync`` call inside a function): these walk every named node below a root,
depth first, the last child first (the order is no promise; callers sort what they keep).
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

__all__ = ["callee_name", "named_calls", "nodes_of_type"]


def nodes_of_type(root: Node, node_type: str) -> Iterator[Node]:
    """Every named node of ``node_type`` at or below ``root``."""
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type == node_type:
            yield node


def callee_name(call: Node) -> bytes | None:
    """The name a call calls: ``copySync`` of ``copySync(…)`` and of ``fs.copySync(…)``;
    None for any other callee (a call's result, an index, a parenthesised expression)."""
    callee = call.child_by_field_name("function")
    if callee is not None and callee.type == "member_expression":
        callee = callee.child_by_field_name("property")
    if callee is None or callee.type not in ("identifier", "property_identifier"):
        return None
    return callee.text


def named_calls(root: Node) -> Iterator[tuple[bytes, Node, list[Node]]]:
    """(callee name, call node, its arguments without comments) of every call at or below
    ``root`` that calls a name (:func:`callee_name`) with an argument list."""
    for node in nodes_of_type(root, "call_expression"):
        name = callee_name(node)
        arguments = node.child_by_field_name("arguments")
        if name is None or arguments is None:
            continue
        yield name, node, [c for c in arguments.named_children if c.type != "comment"]
