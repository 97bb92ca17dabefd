"""Imports whose specifiers a fix made equal become one import statement.

Two deep imports of one module (``'../auth/login'``, ``'../auth/session'``) both rewritten
to its entry point (``'../auth'``) would otherwise leave two statements importing the same
specifier (eslint ``import/no-duplicates``). After the specifier edits of a file are known,
the named-only imports of one kind (value or ``import type``) that end up with the same
specifier, at least one of them edited, are merged into the first of them: its names in
order, then the others' names not already there. Imports with a default or namespace
binding and side-effect imports are left as they are. Named re-exports (``export { a } from``)
merge the same way, among themselves; ``export *`` never does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tree_sitter import Node

from filid.fix.actions import Edit
from filid.parse.grammar import toolkit_for

__all__ = ["merge_equal_specifiers"]


@dataclass(frozen=True, slots=True)
class _Import:
    node: Node
    keyword: str  # "import" or "export"
    type_only: bool
    specifier: str  # after the edits
    quote: str
    names: tuple[str, ...]  # each import specifier's own text (``a``, ``b as c``, ``type T``)
    edited: bool
    semicolon: bool


def merge_equal_specifiers(path: str, source: bytes, edits: Sequence[Edit]) -> list[Edit]:
    """``edits`` of ``path`` (whose current content is ``source``) with equal imports merged."""
    spans = {(e.start_byte, e.end_byte): e for e in edits}
    groups: dict[tuple[str, str, bool], list[_Import]] = {}
    for node in toolkit_for(path).parser.parse(source).root_node.children:
        found = _named_import(node, source, spans)
        if found is not None:
            groups.setdefault((found.keyword, found.specifier, found.type_only), []).append(found)
    result = list(edits)
    for members in groups.values():
        if len(members) < 2 or not any(m.edited for m in members):
            continue
        first, rest = members[0], members[1:]
        covered = [first.node, *(m.node for m in rest)]
        if any(_inside_other(e, covered) for e in result):
            continue  # another fix edits these statements: leave them apart
        result = [e for e in result if not _within(e, covered)]
        names = list(dict.fromkeys(n for m in members for n in m.names))
        keyword = f"{first.keyword} type" if first.type_only else first.keyword
        merged = (
            f"{keyword} {{ {', '.join(names)} }} from "
            f"{first.quote}{first.specifier}{first.quote}{';' if first.semicolon else ''}"
        )
        result.append(Edit(first.node.start_byte, first.node.end_byte, merged))
        for member in rest:
            end = member.node.end_byte
            if source[end : end + 1] == b"\n":
                end += 1
            result.append(Edit(member.node.start_byte, end, ""))
    return sorted(result, key=lambda e: (e.start_byte, e.end_byte))


def _named_import(node: Node, source: bytes, spans: dict[tuple[int, int], Edit]) -> _Import | None:
    if node.type == "import_statement":
        keyword, spec_type = "import", "import_specifier"
        clause = next((c for c in node.children if c.type == "import_clause"), None)
        if clause is None or [c.type for c in clause.children] != ["named_imports"]:
            return None  # a side-effect import, or a default or namespace binding
        named = clause.children[0]
    elif node.type == "export_statement":
        keyword, spec_type = "export", "export_specifier"
        exported = next((c for c in node.children if c.type == "export_clause"), None)
        if exported is None:
            return None  # export *, or a declaration
        named = exported
    else:
        return None
    string = node.child_by_field_name("source")
    if string is None:
        return None
    parts = [c for c in string.children if c.type not in ("'", '"')]
    if len(parts) != 1 or parts[0].type != "string_fragment":
        return None  # empty, or with escape sequences: left as written
    fragment = parts[0]
    edit = spans.get((fragment.start_byte, fragment.end_byte))
    specifier = (
        edit.replacement
        if edit is not None
        else source[fragment.start_byte : fragment.end_byte].decode("utf-8")
    )
    names = tuple(
        source[s.start_byte : s.end_byte].decode("utf-8")
        for s in named.children
        if s.type == spec_type
    )
    if not names:
        return None
    return _Import(
        node=node,
        keyword=keyword,
        type_only=any(c.type == "type" for c in node.children),
        specifier=specifier,
        quote=source[string.start_byte : string.start_byte + 1].decode("utf-8"),
        names=names,
        edited=edit is not None,
        semicolon=source[node.end_byte - 1 : node.end_byte] == b";",
    )


def _within(edit: Edit, nodes: Sequence[Node]) -> bool:
    return any(n.start_byte <= edit.start_byte and edit.end_byte <= n.end_byte for n in nodes)


def _inside_other(edit: Edit, nodes: Sequence[Node]) -> bool:
    """An edit overlapping these statements that is not a specifier edit inside one."""
    return any(
        edit.start_byte < node.end_byte
        and node.start_byte < edit.end_byte
        and not (node.start_byte <= edit.start_byte and edit.end_byte <= node.end_byte)
        for node in nodes
    )
