"""TypeScript's import elision: which static imports are read only as types (or never)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from filid.model.builders import builder
from filid.model.facts import ImportFact
from filid.parse.ancestors import Ancestors, ancestors
from filid.parse.load_reads import LoadReads
from filid.parse.module_calls import TYPE_CONTEXTS
from filid.parse.thunks import is_thunk_read, lazy_callees

_TYPESCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
# Ancestors that make an `identifier` a type position (`typeof X`, `X.Y` as a type, and the
# node types of `TYPE_CONTEXTS`): TypeScript reads nothing there at run time.
_TYPE_POSITIONS = TYPE_CONTEXTS | {"nested_type_identifier", "type_predicate"}
# Leaves that read a binding as a value (a JSX element name is an `identifier` too).
_VALUE_LEAVES = frozenset({"identifier", "shorthand_property_identifier"})
_DECORATED_LEAVES = _VALUE_LEAVES | {"type_identifier"}
_IMPORT = builder(ImportFact)  # the fast constructor: every field, in declaration order
_IMPORT_STATEMENT = "import_statement"


def is_typescript(path: str) -> bool:
    """Whether ``path`` is TypeScript source (``.tsx`` too), where imports may be elided."""
    return path.endswith(_TYPESCRIPT_SUFFIXES)


# Bytes that continue an identifier (any non-ASCII byte may belong to one): a mention of a
# name needs a byte outside this set on each side.
_IDENTIFIER_BYTES = frozenset(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789$_" + bytes(range(0x80, 0x100))
)


def mark_value_use(
    imports: list[ImportFact],
    elidable: list[tuple[int, tuple[str, ...]]],
    root: Node,
    source: bytes,
    *,
    typescript: bool = True,
) -> None:
    """Set ``value_used=False`` on each static import none of whose bindings is read as a value,
    and ``load_read=False`` on each none of whose value reads runs while the file loads.

    TypeScript's import elision: a binding read only in type positions (or never) does not
    make the import stay at emit. Each occurrence of a local name in the bytes is looked up in
    the tree by offset. When unsure the binding counts as a value: a file with a syntax error
    (an ERROR node may hide a use), an ``export { X }`` of the binding that is not type-only, a
    shadowing local of the same name (counted as a use). In a file with a decorator every
    mention counts, type positions too (``emitDecoratorMetadata`` turns annotations of
    decorated members into run-time references); only an import it never mentions is elided.
    An import read as a value only in thunks (``filid.parse.thunks``) is marked ``deferred``.
    Load-time reads: ``filid.parse.load_reads``. For JavaScript (``typescript=False``) only
    ``load_read`` is set: nothing is elided there.

    Each mention is looked up and classified once, for every question. The caller leaves
    out a file with a real syntax error (an ERROR node may hide a use); the ERROR and MISSING
    nodes of legal TypeScript the grammar does not parse (``syntax_errors.grammar_gaps``)
    hide none, and a mention inside one counts as a value read at load.
    """
    decorated = typescript and _has_decorator(root, source)
    lazy = lazy_callees(imports)
    loads = LoadReads(
        lambda name: _mentions(root, source, name, (0, 0)),
        lambda node: ancestors(root, node),
    )
    for index, names in elidable:
        fact = imports[index]
        skip = (fact.span.start_byte, fact.span.end_byte)
        used = False
        in_thunk = False
        at_load = False
        for name in names:
            for node in _mentions(root, source, name.encode(), skip):
                kind = node.type
                if kind not in _VALUE_LEAVES:
                    if decorated and kind in _DECORATED_LEAVES:
                        used = True
                    continue
                # one descent for every question about where the read sits
                above = ancestors(root, node)
                value = _is_value_position(above)
                if value:
                    alias = _aliased_by(above)
                    if alias is not None:
                        value = _alias_read_as_value(root, source, alias)
                if value or decorated:
                    used = True
                if value:
                    if is_thunk_read(node, above, lazy):
                        in_thunk = True
                    elif loads.runs_at_load(above):
                        at_load = True
                        break
            if at_load:
                break
        if at_load:
            continue
        # Built directly: ``dataclasses.replace`` costs several times the constructor.
        unused = not used and typescript
        imports[index] = _IMPORT(
            fact.specifier,
            fact.kind,
            fact.span,
            fact.specifier_span,
            fact.names,
            fact.is_reexport,
            False if unused else fact.value_used,
            True if (not unused and in_thunk and typescript) else fact.deferred,
            fact.guarded,
            False,
        )


def _aliased_by(above: Ancestors) -> Node | None:
    """The ``import Y = X.Z`` (an ``import_alias``) whose qualified name (``X.Z``) the mention
    ``X`` (with ancestors ``above``) opens, unless it is exported; else None."""
    types = above.types
    index = len(types) - 1
    if index < 0 or types[index] != "nested_identifier":
        return None
    while index > 0 and types[index - 1] == "nested_identifier":
        index -= 1
    index -= 1
    if index < 0 or types[index] != "import_alias":
        return None
    if above.type_at(index - 1) == "export_statement":
        return None
    return above.nodes[index]


def _alias_read_as_value(root: Node, source: bytes, alias: Node) -> bool:
    """Whether the name ``import Y = X.Z`` declares is read as a value in the file.

    tsc elides such an alias when ``Y`` is read only in type positions (LogicFlow's
    ``import GraphData = LogicFlow.GraphData``, an interface of ``namespace LogicFlow``), and
    with it the only read of ``X``: the import of ``X`` is elided too."""
    name = alias.named_children[0] if alias.named_children else None
    if name is None or name.type != "identifier" or name.text is None:
        return True
    skip = (alias.start_byte, alias.end_byte)
    return any(
        mention.type in _VALUE_LEAVES and _is_value_position(ancestors(root, mention))
        for mention in _mentions(root, source, name.text, skip)
    )


def _has_decorator(root: Node, source: bytes) -> bool:
    at = source.find(b"@")
    while at != -1:
        node = root.named_descendant_for_byte_range(at, at + 1)
        if node is not None and node.type == "decorator":
            return True
        at = source.find(b"@", at + 1)
    return False


def _mentions(root: Node, source: bytes, name: bytes, skip: tuple[int, int]) -> Iterator[Node]:
    """The named nodes that are exactly ``name``, in source order, outside the byte range
    ``skip`` (the import itself)."""
    size = len(source)
    width = len(name)
    identifier = _IDENTIFIER_BYTES
    at = source.find(name)
    while at != -1:
        found = at
        end = at + width
        at = source.find(name, at + 1)
        if skip[0] <= found < skip[1]:
            continue
        if (found > 0 and source[found - 1] in identifier) or (
            end < size and source[end] in identifier
        ):
            continue
        node = root.named_descendant_for_byte_range(found, end)
        if node is None or node.start_byte != found or node.end_byte != end:
            continue
        yield node


def _is_value_position(above: Ancestors) -> bool:
    """Whether a mention with ancestors ``above`` reads its binding as a value. A mention in
    an import statement reads nothing: it names what another module exports (weaviate's
    ``import { BatchReference as BatchReferenceGRPC } from '../proto'`` beside an import of
    its own ``BatchReference``, judge M1)."""
    types = above.types
    if _IMPORT_STATEMENT in types:
        return False
    if types and types[-1] == "export_specifier":
        parent = above.nodes[-1]
        statement = above.at(len(types) - 3)
        typed = any(c.type == "type" for c in parent.children) or (
            statement is not None and any(c.type == "type" for c in statement.children)
        )
        return not typed
    return _TYPE_POSITIONS.isdisjoint(types)
