"""TypeScript's import elision: which static imports are read only as types (or never)."""

from __future__ import annotations

import dataclasses

from tree_sitter import Node

from filid.model.facts import ImportFact
from filid.parse.module_calls import TYPE_CONTEXTS

_TYPESCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
# Ancestors that make an `identifier` a type position (`typeof X`, `X.Y` as a type, and the
# node types of `TYPE_CONTEXTS`): TypeScript reads nothing there at run time.
_TYPE_POSITIONS = TYPE_CONTEXTS | {"nested_type_identifier", "type_predicate"}
# Leaves that read a binding as a value (a JSX element name is an `identifier` too).
_VALUE_LEAVES = frozenset({"identifier", "shorthand_property_identifier"})
_DECORATED_LEAVES = _VALUE_LEAVES | {"type_identifier"}


def is_typescript(path: str) -> bool:
    """Whether ``path`` is TypeScript source (``.tsx`` too), where imports may be elided."""
    return path.endswith(_TYPESCRIPT_SUFFIXES)


def _is_identifier_byte(byte: int) -> bool:
    return byte >= 0x80 or chr(byte).isalnum() or byte in (0x24, 0x5F)  # `$`, `_`


def mark_value_use(
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
    for index, names in elidable:
        fact = imports[index]
        skip = (fact.span.start_byte, fact.span.end_byte)
        if not any(
            _used_as_value(root, source, name.encode(), skip, decorated=decorated) for name in names
        ):
            imports[index] = dataclasses.replace(fact, value_used=False)


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
