"""Which declaration a module's exported name stands for, following the re-export chain.

A deep import rewritten to go through an entry point is the same program only when the entry
exports, under each imported name, the very binding the deep module does. Same name is not
enough: ``export * as Output from './output'`` makes ``Output`` a namespace while
``./output`` exports an interface ``Output``; a default, a namespace and a declaration of one
name are different bindings. The chain is followed through ``export { a as b } from``,
``export *`` (a name two stars give differently is ambiguous, as for TypeScript), and local
``export { a }`` of an imported name, down to the file that declares it.

Type-only reach is tracked too: an entry that re-exports a name with ``export type`` gives a
binding a value import cannot use, so such a rewrite is safe only for a type-only import (or
when the deep module's own export was type-only already).

A file's import bindings are read with tree-sitter from its import and re-export statements
only: the parse facts locate each of them (their spans), so everything else in the file is
blanked to spaces (line breaks kept, byte offsets unchanged) before parsing, which costs a
fraction of parsing the whole file. The blanked parse is trusted only when it is free of
errors and gives exactly the located statements as the top-level ones; otherwise (a file with
a syntax error, a file changed since it was parsed) the whole file is parsed, as it always
was. The names typed local export clauses export come from the facts (``type_exports``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tree_sitter import Node

from filid.model.facts import ExportKind, FileFacts, ImportKind
from filid.parse.grammar import toolkit_for

__all__ = ["Binding", "BindingIndex", "ImportedName", "ModuleBindings", "Reach"]

TargetOf = Callable[[str, str], "str | None"]
ReadSource = Callable[[str], "bytes | None"]


@dataclass(frozen=True, slots=True, order=True)
class Binding:
    """One binding: a ``declaration`` named ``name`` in ``file``, or the ``namespace`` object of
    ``file`` (``name`` is ``*``)."""

    kind: str
    file: str
    name: str


@dataclass(frozen=True, slots=True)
class Reach:
    """What an exported name stands for, and whether only through type-only exports."""

    bindings: frozenset[Binding]
    type_only: bool


@dataclass(frozen=True, slots=True)
class ImportedName:
    """One name an import statement binds: the module's specifier, the name as the module
    exports it (``default``, ``*`` for a namespace), and whether it is type-only."""

    specifier: str
    imported: str
    type_only: bool


@dataclass(slots=True)
class ModuleBindings:
    """What the tree-sitter pass reads of a file: its import bindings (local name → what),
    the imported names of each import statement (by start byte), and the local names a
    ``export type { … }`` clause (or an inline ``type``) exports."""

    imports: dict[str, ImportedName] = field(default_factory=dict)
    statements: dict[int, dict[str, bool]] = field(default_factory=dict)
    type_exports: set[str] = field(default_factory=set)


def _text(node: Node, source: bytes) -> str:
    if node.type == "string":
        return source[node.start_byte + 1 : node.end_byte - 1].decode("utf-8", "replace")
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _read_module(path: str, source: bytes) -> ModuleBindings:
    module = ModuleBindings()
    _read_statements(toolkit_for(path).parser.parse(source).root_node.children, source, module)
    return module


# Every byte but line breaks becomes a space: offsets and automatic semicolons stay as they were.
_BLANK = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))
# Import facts whose span is a top-level statement `_read_statements` reads (an `import x =
# require()` is never read; a `require()` or `import()` call is no statement).
_STATEMENT_KINDS = frozenset({ImportKind.STATIC, ImportKind.TYPE, ImportKind.RE_EXPORT})


def _read_located(path: str, facts: FileFacts, source: bytes) -> ModuleBindings | None:
    """What :func:`_read_module` reads, parsing only the statements ``facts`` locate; None
    when that parse cannot be trusted to see what a whole-file parse would."""
    if facts.has_syntax_error:
        return None
    ranges: list[tuple[int, int]] = []
    for fact in facts.imports:
        if fact.kind not in _STATEMENT_KINDS:
            continue
        start = fact.span.start_byte
        end = fact.span.end_byte
        if not fact.is_reexport and source[start + 6 : start + 64].lstrip().startswith(b"("):
            continue  # `import('x')` (a type-position import is a TYPE fact too)
        ranges.append((start, end))
    module = ModuleBindings(type_exports=set(facts.type_exports))
    if not ranges:
        return module
    last = max(end for _, end in ranges)
    if last > len(source):
        return None
    blanked = bytearray(source[:last].translate(_BLANK))
    for start, end in ranges:
        blanked[start:end] = source[start:end]
    root = toolkit_for(path).parser.parse(bytes(blanked)).root_node
    if root.has_error:
        return None
    children = root.children
    if len(children) != len(ranges) or any(
        node.start_byte != start or node.end_byte != end
        for node, (start, end) in zip(children, sorted(ranges), strict=True)
    ):
        return None
    _read_statements(children, source, module)
    return module


def _read_statements(children: list[Node], source: bytes, module: ModuleBindings) -> None:
    for node in children:
        statement_type = any(c.type == "type" for c in node.children)
        if node.type == "import_statement":
            string = node.child_by_field_name("source")
            clause = next((c for c in node.children if c.type == "import_clause"), None)
            if string is None or clause is None:
                continue
            specifier = _text(string, source)
            names: dict[str, bool] = {}
            for part in clause.named_children:
                if part.type == "identifier":
                    module.imports[_text(part, source)] = ImportedName(
                        specifier, "default", statement_type
                    )
                    names["default"] = statement_type
                elif part.type == "namespace_import":
                    for child in part.named_children:
                        if child.type == "identifier":
                            module.imports[_text(child, source)] = ImportedName(
                                specifier, "*", statement_type
                            )
                    names["*"] = statement_type
                elif part.type == "named_imports":
                    for spec in part.named_children:
                        name = spec.child_by_field_name("name")
                        if spec.type != "import_specifier" or name is None:
                            continue
                        alias = spec.child_by_field_name("alias")
                        first = spec.child(0)
                        typed = statement_type or (first is not None and first.type == "type")
                        imported = _text(name, source)
                        local = _text(alias if alias is not None else name, source)
                        module.imports[local] = ImportedName(specifier, imported, typed)
                        names[imported] = names.get(imported, True) and typed
            module.statements[node.start_byte] = names
        elif node.type == "export_statement":
            clause = next((c for c in node.children if c.type == "export_clause"), None)
            if clause is None:
                continue
            sourced = node.child_by_field_name("source") is not None
            taken: dict[str, bool] = {}
            for spec in clause.named_children:
                name = spec.child_by_field_name("name")
                if spec.type != "export_specifier" or name is None:
                    continue
                first = spec.child(0)
                typed = statement_type or (first is not None and first.type == "type")
                taken[_text(name, source)] = taken.get(_text(name, source), True) and typed
                if typed and not sourced:
                    alias = spec.child_by_field_name("alias")
                    module.type_exports.add(_text(alias if alias is not None else name, source))
            if sourced:
                module.statements[node.start_byte] = taken


# How many re-export hops a name is followed through before it counts as unknowable (a chain
# of thousands of `export *` files must end in an answer, not a RecursionError).
MAX_CHAIN = 64


class _TooDeep(Exception):
    """The re-export chain being followed is longer than ``MAX_CHAIN``."""


class BindingIndex:
    """Memoized binding look-ups over one project's facts."""

    def __init__(
        self, facts: Mapping[str, FileFacts], target_of: TargetOf, read: ReadSource
    ) -> None:
        """``target_of(file, specifier)`` resolves a specifier to a project file (or None);
        ``read(file)`` gives a file's bytes (or None when unreadable)."""
        self._facts = facts
        self._target_of = target_of
        self._read = read
        self._modules: dict[str, ModuleBindings | None] = {}
        self._memo: dict[tuple[str, str], Reach | None] = {}
        self._active: set[tuple[str, str]] = set()

    def module(self, file: str) -> ModuleBindings | None:
        """The import bindings and type-only clause exports of ``file`` (None: unreadable)."""
        if file not in self._modules:
            source = self._read(file)
            module = None
            if source is not None:
                facts = self._facts.get(file)
                if facts is not None:
                    module = _read_located(file, facts, source)
                if module is None:
                    module = _read_module(file, source)
            self._modules[file] = module
        return self._modules[file]

    def reach(self, file: str, name: str) -> Reach | None:
        """What ``file`` exports as ``name``; None when unknowable (a file on the way was not
        parsed or does not resolve, a re-export cycle, a name two ``export *`` give
        differently, or a name the file does not export)."""
        key = (file, name)
        if key in self._memo:
            return self._memo[key]
        if key in self._active:
            return None  # a cycle gives nothing
        if len(self._active) >= MAX_CHAIN:
            raise _TooDeep
        outermost = not self._active
        self._active.add(key)
        try:
            found = self._reach(file, name)
        except _TooDeep:
            if not outermost:
                raise
            return None  # unknowable, and not remembered: a shorter start may still know
        finally:
            self._active.discard(key)
        self._memo[key] = found
        return found

    def _reach(self, file: str, name: str) -> Reach | None:
        facts = self._facts.get(file)
        if facts is None:
            return None
        own = [e for e in facts.exports if e.kind is not ExportKind.STAR and e.name == name]
        if own:
            reaches: list[Reach] = []
            for export in own:
                if export.kind is ExportKind.STAR_AS:
                    one = self._namespace(file, export.source)
                else:
                    one = self._export_reach(file, export.name, export.local, export.source)
                if one is None:
                    return None
                if export.source is not None and export.is_type:
                    one = Reach(one.bindings, True)
                reaches.append(one)
            return Reach(
                frozenset(b for r in reaches for b in r.bindings),
                all(r.type_only for r in reaches),
            )
        if name == "default":
            return None  # `export *` never gives a default
        found: Reach | None = None
        for export in facts.exports:
            if export.kind is not ExportKind.STAR or export.source is None:
                continue
            target = self._target_of(file, export.source)
            if target is None:
                return None  # an unknown module could give the name
            one = self.reach(target, name)
            if one is None:
                continue
            if export.is_type:
                one = Reach(one.bindings, True)
            if found is not None and found.bindings != one.bindings:
                return None  # ambiguous: TypeScript exports neither
            found = one if found is None else Reach(one.bindings, found.type_only and one.type_only)
        return found

    def _export_reach(
        self, file: str, name: str, local: str | None, source: str | None
    ) -> Reach | None:
        if source is not None:
            target = self._target_of(file, source)
            if target is None:
                return None
            return self.reach(target, local if local is not None else name)
        own = local if local is not None else name
        module = self.module(file)
        if module is None:
            return None
        type_only = name in module.type_exports
        imported = module.imports.get(own)
        if imported is None:
            return Reach(frozenset({Binding("declaration", file, own)}), type_only)
        target = self._target_of(file, imported.specifier)
        if target is None:
            return None
        type_only = type_only or imported.type_only
        if imported.imported == "*":
            return Reach(frozenset({Binding("namespace", target, "*")}), type_only)
        through = self.reach(target, imported.imported)
        if through is None:
            return None
        return Reach(through.bindings, type_only or through.type_only)

    def _namespace(self, file: str, source: str | None) -> Reach | None:
        target = self._target_of(file, source) if source is not None else None
        if target is None:
            return None
        return Reach(frozenset({Binding("namespace", target, "*")}), False)
