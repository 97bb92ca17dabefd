"""A node's ancestors, found in one descent from the root.

py-tree-sitter 0.25+ keeps no parent pointers: ``Node.parent`` walks down from the root to
find the parent (``ts_node_parent``: ``ts_node_child_with_descendant`` from the root until the
next step is the node), so climbing a node's ancestors one ``.parent`` at a time costs the
square of its depth, and every question that climbs (is this a type position, does it run at
load, is it a thunk) climbs again. The same descent, done once, yields every ancestor: the
questions then read the list.
"""

from __future__ import annotations

from tree_sitter import Node

__all__ = ["Ancestors", "ancestors"]


class Ancestors:
    """The ancestors of one node, root first: ``nodes[-1]`` is its parent, ``types[i]`` the
    type of ``nodes[i]`` (each read once)."""

    __slots__ = ("nodes", "types")

    def __init__(self, nodes: list[Node], types: list[str]) -> None:
        self.nodes = nodes
        self.types = types

    def at(self, index: int) -> Node | None:
        """The ancestor at ``index`` (root first); None above the root (a negative index)."""
        return self.nodes[index] if index >= 0 else None

    def type_at(self, index: int) -> str | None:
        """The type of the ancestor at ``index``; None above the root."""
        return self.types[index] if index >= 0 else None


def ancestors(root: Node, node: Node) -> Ancestors:
    """The ancestors of ``node`` (a node of ``root``'s tree), root first: the nodes
    ``node.parent`` would visit, in the order ``ts_node_parent`` finds them."""
    nodes: list[Node] = []
    types: list[str] = []
    keep = nodes.append
    note = types.append
    step = Node.child_with_descendant
    target = node.id
    current: Node | None = root
    while current is not None and current.id != target:
        keep(current)
        note(current.type)
        current = step(current, node)
    return Ancestors(nodes, types)
