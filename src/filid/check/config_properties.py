"""The object properties a build tool's config spells, read with tree-sitter.

Vite, rollup and webpack configs are JavaScript or TypeScript modules; the undeclared claims
that ask what such a config says (a rollup bundle's ``output.file``, an alias's
``find: /…/``) look at its ``key: value`` properties wherever they stand, since a config may
nest them in arrays, calls and spreads. What a property's value means is the caller's.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from filid.check.syntax_nodes import nodes_of_type

__all__ = ["config_properties"]


def config_properties(root: Node) -> Iterator[tuple[bytes, Node]]:
    """(the key as written, quotes included; the value node) of every ``pair`` below
    ``root``, in no particular order."""
    for node in nodes_of_type(root, "pair"):
        key = node.child_by_field_name("key")
        value = node.child_by_field_name("value")
        if key is not None and value is not None:
            yield key.text or b"", value
