"""Barrel text for fixes: a new ``index.*`` (create-index) and an impure index split in two.

Both build on the parse facts; the split also walks the index's syntax tree (tree-sitter, the
same grammar the parser uses) to keep each statement's leading comments and to find which
imports the moved declarations still reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tree_sitter import Node

from filid.fix.specifiers import SpecifierStyle, specifier_for_file, split_ext
from filid.model.escape import ts_string_literal
from filid.model.facts import ExportKind, FileFacts, StatementKind
from filid.parse.grammar import toolkit_for
from filid.rules.index_barrel_pattern import MOVABLE_STATEMENTS

__all__ = ["SplitResult", "export_lines", "index_content", "split_index"]

# Statements a split moves out of the index: the ones index-barrel-pattern calls movable.
_MOVABLE = MOVABLE_STATEMENTS

# Identifier-like node types whose text may name an imported binding.
_REFERENCE_TYPES = frozenset(
    {
        "identifier",
        "type_identifier",
        "shorthand_property_identifier",
        "shorthand_property_identifier_pattern",
        "property_identifier",
    }
)


def _quote(specifier: str, quote: str) -> str:
    """The specifier as a string literal: a file name never ends the literal (it cannot
    become a statement that runs on import)."""
    return ts_string_literal(specifier, quote)


def export_lines(
    values: Iterable[str], types: Iterable[str], specifier: str, quote: str
) -> list[str]:
    """``export { … } from '…';`` and ``export type { … } from '…';`` lines (names sorted).

    A name exported both as a value and as a type is re-exported once, as a value (that
    carries both meanings).
    """
    value_names = sorted(set(values))
    type_names = sorted(set(types) - set(value_names))
    lines: list[str] = []
    if value_names:
        lines.append(f"export {{ {', '.join(value_names)} }} from {_quote(specifier, quote)};")
    if type_names:
        lines.append(f"export type {{ {', '.join(type_names)} }} from {_quote(specifier, quote)};")
    return lines


def index_content(
    files: Mapping[str, FileFacts], style: SpecifierStyle, quote: str
) -> tuple[str, tuple[str, ...]]:
    """The text of a new barrel re-exporting the named and type exports of ``files``.

    ``files`` maps each file name in the directory to its facts. A name exported by more than
    one file is taken from the first file (sorted) and listed in the returned notes, because
    re-exporting it twice would not compile.
    """
    taken: set[str] = set()
    lines: list[str] = []
    notes: list[str] = []
    for name in sorted(files):
        facts = files[name]
        values: set[str] = set()
        types: set[str] = set()
        for export in facts.exports:
            if export.kind in (ExportKind.DEFAULT, ExportKind.STAR) or export.name in (
                "default",
                "*",
            ):
                continue
            if export.is_type or export.kind is ExportKind.TYPE:
                types.add(export.name)
            else:
                values.add(export.name)
        types -= values
        for duplicate in sorted((values | types) & taken):
            notes.append(f"'{duplicate}' is exported by more than one file; kept the first")
        values -= taken
        types -= taken
        taken |= values | types
        stem = split_ext(name)[0]
        specifier = specifier_for_file(f"./{stem}", name, style)
        lines.extend(export_lines(values, types, specifier, quote))
    if not lines:
        lines.append("export {};")
    return "\n".join(lines) + "\n", tuple(notes)


@dataclass(frozen=True, slots=True)
class SplitResult:
    """The new index text and the new implementation file text."""

    index: str
    implementation: str


def _bindings(statement: Node, source: bytes) -> set[str]:
    """Local names an import statement introduces."""
    names: set[str] = set()
    stack = [c for c in statement.children if c.type in ("import_clause", "import_require_clause")]
    while stack:
        node = stack.pop()
        if node.type == "import_specifier":
            local = node.child_by_field_name("alias") or node.child_by_field_name("name")
            if local is not None:
                names.add(source[local.start_byte : local.end_byte].decode("utf-8"))
            continue
        if node.type == "identifier":
            names.add(source[node.start_byte : node.end_byte].decode("utf-8"))
            continue
        stack.extend(node.children)
    return names


def _text(node: Node, source: bytes) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8")


def _local_name(part: Node, source: bytes) -> str | None:
    """The local binding of an import clause part (default, ``* as x``, or ``{ a as b }``)."""
    if part.type == "identifier":
        return _text(part, source)
    if part.type == "namespace_import":
        names = [c for c in part.children if c.type == "identifier"]
        return _text(names[-1], source) if names else None
    local = part.child_by_field_name("alias") or part.child_by_field_name("name")
    return _text(local, source) if local is not None else None


def _import_keeping(statement: Node, source: bytes, wanted: set[str]) -> str | None:
    """``statement`` (an import) keeping only the bindings in ``wanted``.

    The whole statement when it keeps every binding (or has none: a side-effect import);
    ``None`` when it keeps none; else the statement rebuilt from its own parts' text, so no
    import is left unused (``noUnusedLocals``).
    """
    whole = _text(statement, source)
    clause = next((c for c in statement.children if c.type == "import_clause"), None)
    source_node = statement.child_by_field_name("source")
    if clause is None or source_node is None:
        return whole
    default: str | None = None
    namespace: str | None = None
    named: list[str] = []
    total = 0
    for part in clause.children:
        if part.type == "named_imports":
            for spec in part.children:
                if spec.type == "import_specifier":
                    total += 1
                    if _local_name(spec, source) in wanted:
                        named.append(_text(spec, source))
        elif part.type in ("identifier", "namespace_import"):
            total += 1
            if _local_name(part, source) in wanted:
                if part.type == "identifier":
                    default = _text(part, source)
                else:
                    namespace = _text(part, source)
    kept = len(named) + (default is not None) + (namespace is not None)
    if kept == total:
        return whole
    if kept == 0:
        return None
    type_only = any(c.type == "type" for c in statement.children)
    parts = [p for p in (default, namespace) if p is not None]
    if named:
        parts.append("{ " + ", ".join(named) + " }")
    if namespace is not None and named:  # `* as x` cannot be combined with `{ … }`
        return whole
    prefix = "import type " if type_only else "import "
    return f"{prefix}{', '.join(parts)} from {_text(source_node, source)};"


def _follows_blank_line(source: bytes, start: int) -> bool:
    before = source[:start]
    whitespace = before[len(before.rstrip()) :]
    return whitespace.count(b"\n") >= 2


def _references(nodes: Iterable[Node], source: bytes) -> set[str]:
    found: set[str] = set()
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if node.type in _REFERENCE_TYPES:
            found.add(source[node.start_byte : node.end_byte].decode("utf-8"))
        stack.extend(node.children)
    return found


def split_index(
    index_path: str,
    source: bytes,
    facts: FileFacts,
    implementation_specifier: str,
    quote: str,
) -> SplitResult | None:
    """Split an impure barrel: its declarations go to a new file, the index re-exports them.

    The moved statements keep their leading comments and their order; the imports they
    reference are copied along (imports of the same directory stay valid, since the new file
    sits beside the index). Returns ``None`` when the index cannot be split safely (a side
    effect, a syntax error, or a statement the parse facts do not describe).
    """
    if facts.has_syntax_error:
        return None
    by_start = {s.span.start_byte: s for s in facts.statements}
    imported = set(facts.imported_bindings)
    tree = toolkit_for(index_path).parser.parse(source)
    # Each top-level statement with the comments directly above it.
    groups: list[tuple[int, Node, StatementKind]] = []
    pending_start: int | None = None
    for child in tree.root_node.children:
        if child.type == "comment":
            if pending_start is None:
                pending_start = child.start_byte
            continue
        if not child.is_named:
            continue
        statement = by_start.get(child.start_byte)
        if statement is None:
            return None
        if statement.kind is StatementKind.OTHER:
            return None
        start = pending_start if pending_start is not None else child.start_byte
        pending_start = None
        kind: StatementKind = statement.kind
        if kind in (StatementKind.EXPORT_NAMES, StatementKind.EXPORT_DEFAULT_NAME) and all(
            name in imported for name in statement.names
        ):
            # An export of imported names is fine where it is: it stays, like a re-export.
            groups.append((start, child, StatementKind.RE_EXPORT))
            continue
        groups.append((start, child, kind))

    moved = [(start, node) for start, node, kind in groups if kind in _MOVABLE]
    if not moved:
        return None
    kept = [(start, node, kind) for start, node, kind in groups if kind not in _MOVABLE]
    moved_refs = _references((node for _, node in moved), source)
    kept_refs = _references(
        (node for _, node, kind in kept if kind is not StatementKind.IMPORT), source
    )

    new_index = ""
    carried_imports: list[str] = []
    for start, node, _kind in kept:
        text = source[start : node.end_byte].decode("utf-8")
        if node.type == "import_statement":
            bindings = _bindings(node, source)
            if bindings & moved_refs:
                # The new file takes the bindings the moved code uses, the index keeps the
                # ones its remaining code uses: neither is left with an unused import.
                carried = _import_keeping(node, source, moved_refs)
                if carried is not None:
                    carried_imports.append(carried)
                remaining = _import_keeping(node, source, kept_refs)
                if remaining is None:
                    continue  # only the moved code used it
                if remaining != _text(node, source):
                    text = source[start : node.start_byte].decode("utf-8") + remaining
        if new_index:
            # Keep the author's grouping: a blank line stays a blank line.
            new_index += "\n\n" if _follows_blank_line(source, start) else "\n"
        new_index += text

    moved_lines: set[int] = set()
    for _, node in moved:
        moved_lines.update(range(node.start_point[0] + 1, node.end_point[0] + 2))
    values: set[str] = set()
    types: set[str] = set()
    has_default = False
    for export in facts.exports:
        if export.source is not None or export.line not in moved_lines:
            continue
        if export.kind is ExportKind.DEFAULT:
            has_default = True
        elif export.kind in (ExportKind.STAR, ExportKind.STAR_AS):
            continue
        elif export.is_type or export.kind is ExportKind.TYPE:
            types.add(export.name)
        else:
            values.add(export.name)
    if has_default:
        values.add("default")
    reexports = export_lines(values, types, implementation_specifier, quote)
    if not reexports:
        # Nothing exported: the moved code only runs for its declarations' sake; still load it.
        reexports = [f"import {_quote(implementation_specifier, quote)};"]

    # Contiguous moved statements keep the text between them (blank lines, inner comments).
    runs: list[str] = []
    run_start: int | None = None
    run_end = 0
    moved_starts = {start for start, _ in moved}
    for start, node, group_kind in groups:
        if start in moved_starts and group_kind in _MOVABLE:
            if run_start is None:
                run_start = start
            run_end = node.end_byte
        elif run_start is not None:
            runs.append(source[run_start:run_end].decode("utf-8"))
            run_start = None
    if run_start is not None:
        runs.append(source[run_start:run_end].decode("utf-8"))

    implementation = "\n".join(carried_imports)
    implementation = (implementation + "\n\n" if implementation else "") + "\n\n".join(runs) + "\n"
    index = (new_index + "\n\n" if new_index else "") + "\n".join(reexports) + "\n"
    return SplitResult(index=index, implementation=implementation)
