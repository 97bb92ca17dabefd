"""Imports whose specifiers a fix made equal become one import statement, laid out as the
project's formatter would.

Two deep imports of one module (``'../auth/login'``, ``'../auth/session'``) both rewritten
to its entry point (``'../auth'``) would otherwise leave two statements importing the same
specifier (eslint ``import/no-duplicates``). After the specifier edits of a file are known,
the named-only imports of one kind (value or ``import type``) that end up with the same
specifier, at least one of them edited, are merged into the first of them: its names in
order, then the others' names not already there. Imports with a default or namespace
binding and side-effect imports are left as they are. Named re-exports (``export { a } from``)
merge the same way, among themselves; ``export *`` never does.

The merged statement keeps what surrounded its parts and the file's own style:

- a comment inside the braces moves with the name it precedes (``/** @deprecated */``
  before ``isStepCount as stepCountIs``), a comment on a name's line after it stays behind
  that name, and a blank line before a name is kept;
- quotes and the semicolon are the first statement's, the spacing inside the braces too;
- the statement stays on one line when it fits the project's print width (see
  :mod:`filid.fix.formatting`) and holds no comment; otherwise it takes one name per line,
  indented and with a trailing comma as the file's other multi-line lists are (else as the
  formatter is configured; else two spaces and a trailing comma, Prettier's defaults).

A statement stays apart (only its specifier changes) when merging it would orphan or lose
a comment: one attached to it outside its braces (on the line just above it, or after it on
its line) unless it is the first of its group, which stays in place; or one after the last
name of its list. Nothing is merged when the formatter's settings cannot be known (a
configuration written as a program).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tree_sitter import Node

from filid.fix.actions import Edit
from filid.fix.formatting import Formatting
from filid.parse.grammar import toolkit_for

__all__ = ["merge_equal_specifiers"]

_DEFAULT_INDENT = "  "


@dataclass(frozen=True, slots=True)
class _Item:
    """One name of a list with what belongs to it."""

    text: str  # the specifier's own text (``a``, ``b as c``, ``type T``)
    leading: tuple[str, ...]  # comments before it (inside the braces)
    trailing: str | None  # a comment after it on its line
    blank_before: bool  # a blank line separated it from the previous name


@dataclass(frozen=True, slots=True)
class _Import:
    node: Node
    keyword: str  # "import" or "export"
    type_only: bool
    specifier: str  # after the edits
    quote: str
    items: tuple[_Item, ...]
    edited: bool
    semicolon: bool
    spaced: bool  # a space (or line break) after ``{``
    mergeable: bool  # its comments can all move with its names
    attached: bool = False  # a comment outside it belongs to it (it cannot be removed)


def merge_equal_specifiers(
    path: str,
    source: bytes,
    edits: Sequence[Edit],
    formatting: Formatting | None = Formatting(),  # noqa: B008 (frozen, immutable)
) -> list[Edit]:
    """``edits`` of ``path`` (whose current content is ``source``) with equal imports merged
    (laid out with ``formatting``; None: unknown, nothing is merged)."""
    if formatting is None:
        return sorted(edits, key=lambda e: (e.start_byte, e.end_byte))
    spans = {(e.start_byte, e.end_byte): e for e in edits}
    groups: dict[tuple[str, str, bool], list[_Import]] = {}
    statements = list(toolkit_for(path).parser.parse(source).root_node.children)
    layout = _Layout.of(statements, source, formatting)
    for index, node in enumerate(statements):
        found = _named_import(node, source, spans)
        if found is None:
            continue
        if _has_attached_comment(statements, index):
            found = replace(found, attached=True)
        groups.setdefault((found.keyword, found.specifier, found.type_only), []).append(found)
    result = list(edits)
    for group in groups.values():
        # The first statement stays where it is (a comment attached to it stays with it);
        # the others go, so one with a comment of its own outside the braces stays apart.
        mergeable = [m for m in group if m.mergeable]
        members = mergeable[:1] + [m for m in mergeable[1:] if not m.attached]
        if len(members) < 2 or not any(m.edited for m in members):
            continue
        first, rest = members[0], members[1:]
        covered = [first.node, *(m.node for m in rest)]
        if any(_inside_other(e, covered) for e in result):
            continue  # another fix edits these statements: leave them apart
        result = [e for e in result if not _within(e, covered)]
        items: dict[str, _Item] = {}
        for member in members:
            for item in member.items:
                items.setdefault(item.text, item)
        merged = layout.render(first, list(items.values()), source)
        result.append(Edit(first.node.start_byte, first.node.end_byte, merged))
        for member in rest:
            end = member.node.end_byte
            if source[end : end + 1] == b"\n":
                end += 1
            result.append(Edit(member.node.start_byte, end, ""))
    return sorted(result, key=lambda e: (e.start_byte, e.end_byte))


@dataclass(frozen=True, slots=True)
class _Layout:
    """How this file lays out a list broken over lines."""

    width: int
    indent: str
    trailing_comma: bool

    @staticmethod
    def of(statements: list[Node], source: bytes, formatting: Formatting) -> _Layout:
        indent = formatting.indent
        comma = formatting.trailing_comma
        for node in statements:
            clause = _clause(node)
            if clause is None or clause.start_point[0] == clause.end_point[0]:
                continue
            names = [c for c in clause.children if c.type.endswith("_specifier")]
            if not names:
                continue
            line_start = source.rfind(b"\n", 0, names[0].start_byte) + 1
            found = source[line_start : names[0].start_byte].decode("utf-8", "replace")
            if found.strip() == "" and found:
                indent = found
            after = names[-1].next_sibling
            comma = after is not None and after.type == ","
            break
        return _Layout(
            formatting.print_width,
            indent if indent is not None else _DEFAULT_INDENT,
            True if comma is None else comma,
        )

    def render(self, first: _Import, items: list[_Item], source: bytes) -> str:
        keyword = f"{first.keyword} type" if first.type_only else first.keyword
        tail = f" from {first.quote}{first.specifier}{first.quote}{';' if first.semicolon else ''}"
        space = " " if first.spaced else ""
        one_line = f"{keyword} {{{space}{', '.join(i.text for i in items)}{space}}}{tail}"
        commented = any(i.leading or i.trailing for i in items)
        column = first.node.start_point[1]
        if not commented and (len(items) == 1 or column + len(one_line) <= self.width):
            return one_line
        lines = [f"{keyword} {{"]
        for position, item in enumerate(items):
            if item.blank_before and position > 0:
                lines.append("")
            for comment in item.leading:
                lines.extend(self._comment(comment))
            last = position == len(items) - 1
            comma = "," if not last or self.trailing_comma else ""
            trailing = f" {item.trailing}" if item.trailing else ""
            lines.append(f"{self.indent}{item.text}{comma}{trailing}")
        lines.append(f"}}{tail}")
        return "\n".join(lines)

    def _comment(self, text: str) -> list[str]:
        first, *rest = text.split("\n")
        out = [f"{self.indent}{first.strip()}"]
        for line in rest:
            stripped = line.strip()
            out.append(f"{self.indent} {stripped}" if stripped.startswith("*") else line.rstrip())
        return out


def _clause(node: Node) -> Node | None:
    if node.type == "import_statement":
        clause = next((c for c in node.children if c.type == "import_clause"), None)
        if clause is None:
            return None
        return next((c for c in clause.children if c.type == "named_imports"), None)
    if node.type == "export_statement":
        return next((c for c in node.children if c.type == "export_clause"), None)
    return None


def _has_attached_comment(statements: list[Node], index: int) -> bool:
    """A comment on the line just above the statement (or on its first line before it), or
    after it on its last line: it belongs to the statement."""
    node = statements[index]
    before = statements[index - 1] if index > 0 else None
    if (
        before is not None
        and before.type == "comment"
        and before.end_point[0] >= node.start_point[0] - 1
    ):
        return True
    after = statements[index + 1] if index + 1 < len(statements) else None
    return (
        after is not None
        and after.type == "comment"
        and (after.start_point[0] == node.end_point[0])
    )


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
    items, complete = _items(named, spec_type, source)
    if not items:
        return None
    opening = named.children[0] if named.children else None
    spaced = opening is not None and source[opening.end_byte : opening.end_byte + 1] in (
        b" ",
        b"\n",
        b"\r",
    )
    # A comment elsewhere in the statement (between `import` and `{`…) cannot be placed.
    stray = any(c.type == "comment" for c in node.children)
    return _Import(
        node=node,
        keyword=keyword,
        type_only=any(c.type == "type" for c in node.children),
        specifier=specifier,
        quote=source[string.start_byte : string.start_byte + 1].decode("utf-8"),
        items=tuple(items),
        edited=edit is not None,
        semicolon=source[node.end_byte - 1 : node.end_byte] == b";",
        spaced=spaced,
        mergeable=complete and not stray,
    )


def _items(named: Node, spec_type: str, source: bytes) -> tuple[list[_Item], bool]:
    """The names of a ``{ … }`` list with their comments; False when a comment has no name
    to go with (one after the last name)."""
    items: list[_Item] = []
    pending: list[str] = []
    blank = False
    previous_end = named.start_byte + 1
    previous_row = -1
    for child in named.children:
        if child.type == "comment":
            text = source[child.start_byte : child.end_byte].decode("utf-8", "replace")
            if items and child.start_point[0] == previous_row and not pending:
                last = items[-1]
                if last.trailing is not None:
                    return items, False
                items[-1] = _Item(last.text, last.leading, text, last.blank_before)
                previous_end = child.end_byte
                continue
            if not pending:
                blank = source[previous_end : child.start_byte].count(b"\n") >= 2
            pending.append(text)
            previous_end = child.end_byte
        elif child.type == spec_type:
            if not pending:
                blank = source[previous_end : child.start_byte].count(b"\n") >= 2
            text = source[child.start_byte : child.end_byte].decode("utf-8")
            items.append(_Item(text, tuple(pending), None, blank and bool(items)))
            pending = []
            blank = False
            previous_end = child.end_byte
            previous_row = child.end_point[0]
        elif child.type == ",":
            previous_end = child.end_byte
    return items, not pending


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
