"""What the parse stage extracts from one source file (SPEC §3)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ImportKind(StrEnum):
    """How a file refers to another module."""

    STATIC = "static"
    TYPE = "type"
    SIDE_EFFECT = "side-effect"
    DYNAMIC = "dynamic"
    REQUIRE = "require"
    RE_EXPORT = "re-export"


class ExportKind(StrEnum):
    """The shape of one export."""

    NAMED = "named"
    DEFAULT = "default"
    TYPE = "type"
    STAR = "star"
    STAR_AS = "star-as"


class StatementKind(StrEnum):
    """Classification of one top-level statement, enough for barrel checks and splits."""

    IMPORT = "import"
    RE_EXPORT = "re-export"
    EXPORT_NAMES = "export-names"  # export { a, b }  (local names, no source)
    EXPORT_DEFAULT_NAME = "export-default-name"  # export default a  (an identifier)
    EXPORT_EMPTY = "export-empty"  # export {}
    DECLARATION = "declaration"  # function/class/const/enum/interface/type/namespace
    EXPORTED_DECLARATION = "exported-declaration"  # export const a = …
    EXPORT_DEFAULT_EXPRESSION = "export-default-expression"
    OTHER = "other"  # expression statements, if, loops… (side effects)


@dataclass(frozen=True, slots=True)
class Span:
    """A source range: 1-based lines, 1-based character (code point) columns, byte offsets.

    ``utf16_column`` is the 1-based start column in UTF-16 code units (SARIF wants those).
    """

    line: int
    column: int
    end_line: int
    end_column: int
    start_byte: int
    end_byte: int
    utf16_column: int


@dataclass(frozen=True, slots=True)
class ImportFact:
    """One import-like reference.

    ``specifier`` is ``None`` for a dynamic import whose argument is not a string literal.
    ``names`` are the imported names as the exporter spells them (``"default"`` for a default
    import, ``"*"`` for a namespace import or ``export *``); empty for side-effect imports.
    ``specifier_span`` covers the string literal's contents (without quotes) so a fix can
    rewrite it; ``span`` covers the whole statement or call.
    ``value_used`` is False only for a static import in a TypeScript file none of whose local
    bindings is read as a value there (only in type positions, or never): TypeScript elides
    such an import at emit unless the tsconfig keeps value imports (``verbatimModuleSyntax``).
    ``deferred`` is True for a static import in a TypeScript file whose bindings are read as
    values only in thunks (``forwardRef(() => X)``, ``() => table.id``; see
    ``filid.parse.thunks``): loading the file reads none of them; and for a ``require()``
    evaluated inside a function body (``filid.parse.guards.in_function_body``): loading the
    file loads nothing, the call does (pg-pool's ``require('pg')`` in its constructor).
    ``guarded`` is True for a ``require()`` or dynamic ``import()`` whose failure the file
    handles where it makes the call — inside a ``try`` block whose ``catch`` does not simply
    rethrow, an awaited ``import()`` there, or ``import('x').catch(…)`` (see
    ``filid.parse.guards``): the optional-dependency idiom, whose target may be missing; and
    for an import (static, ``require()`` or ``import()``) the author silenced the compiler on
    (``// @ts-expect-error`` or ``// @ts-ignore`` on the line before).
    ``load_read`` is False for a static import with bindings none of which is read as a value
    while the file loads: every value read lies in a function body that loading the file does
    not run (``filid.parse.load_reads``), or in ``export { X }``, a live binding. True
    otherwise, and whenever unsure: a side-effect import (the importer relies on what the
    target's evaluation does), ``require()``, a file that is not TypeScript or JavaScript
    source filid walked. A re-export (``is_reexport``) reads nothing either way.
    """

    specifier: str | None
    kind: ImportKind
    span: Span
    specifier_span: Span | None
    names: tuple[str, ...] = ()
    is_reexport: bool = False
    value_used: bool = True
    deferred: bool = False
    guarded: bool = False
    load_read: bool = True

    @property
    def line(self) -> int:
        """1-based line of the import."""
        return self.span.line

    @property
    def column(self) -> int:
        """1-based character column of the import."""
        return self.span.column


@dataclass(frozen=True, slots=True)
class ExportFact:
    """One exported name. ``source`` is the specifier for re-exports, else ``None``.

    ``name`` is the exported name (``"default"`` for default exports, ``"*"`` for ``export *``,
    the namespace name for ``export * as ns``); ``local`` the local name where it differs.
    """

    name: str
    kind: ExportKind
    is_type: bool = False
    source: str | None = None
    local: str | None = None
    line: int = 1


@dataclass(frozen=True, slots=True)
class Declaration:
    """One top-level declaration (``kind`` is e.g. ``function``, ``class``, ``variable``)."""

    kind: str
    name: str | None
    exported: bool
    span: Span


@dataclass(frozen=True, slots=True)
class TopStatement:
    """One top-level statement, classified (used by index-barrel-pattern and the split fix).

    ``names`` are the local names it refers to (for ``export { a }`` / ``export default a``) or
    declares (for declarations); ``imported`` the local bindings an import introduces.
    """

    kind: StatementKind
    span: Span
    names: tuple[str, ...] = ()
    is_type_only: bool = False


@dataclass(frozen=True, slots=True)
class CaseCount:
    """The test cases a ``*.spec.*`` / ``*.test.*`` file declares (upstream filid's count).

    ``count`` is the known lower bound of ``it``/``test``/``specify`` calls, each ``.each``
    table row counting once and ``describe.each`` multiplying the cases inside it; it is exact
    when ``reasons`` is empty, else ``reasons`` say what could not be counted (a dynamic
    table, an alias of a case function). ``contract_ids`` are the acceptance-group ids the file
    links to with ``filid:contract <id>`` comments, in first-seen order.
    """

    count: int
    reasons: tuple[str, ...] = ()
    contract_ids: tuple[str, ...] = ()

    @property
    def is_exact(self) -> bool:
        """True when every case was counted."""
        return not self.reasons


@dataclass(frozen=True, slots=True)
class FileFacts:
    """Everything filid knows about one parsed source file (root-relative ``path``).

    ``parse_files`` keeps ``declarations``, ``statements`` and ``imported_bindings`` only for
    entry files (``index.*``, ``main.*``); ``parse_source`` always fills them. ``cases`` is
    set for files whose stem ends in ``.spec`` or ``.test`` (verification candidates).
    ``type_exports`` are the names a local ``export type { a }`` clause (or an inline
    ``export { type a }``) exports, in every mode: the fix planner's binding reach needs them
    (``filid.fix.bindings``) and no other fact tells them from ``export interface a``.
    ``generated``: a leading comment says a tool wrote the file; ``cycle_silenced``: the
    indices of the ``imports`` on which a linter directive silences the import cycle rule
    (``filid.parse.directives``); ``bundle``: the file is a webpack bundle, whose inner
    modules' relative requires name the original sources' neighbours (``filid.parse.bundles``).
    """

    path: str
    imports: tuple[ImportFact, ...]
    exports: tuple[ExportFact, ...]
    declarations: tuple[Declaration, ...]
    statements: tuple[TopStatement, ...]
    imported_bindings: tuple[str, ...]
    is_side_effect_free: bool
    has_syntax_error: bool = False
    syntax_error_line: int | None = None
    cases: CaseCount | None = None
    type_exports: tuple[str, ...] = ()
    generated: bool = False
    cycle_silenced: tuple[int, ...] = ()
    bundle: bool = False


@dataclass(frozen=True, slots=True)
class BoundaryExemption:
    """One entry of a DETAIL.md ``## Boundary Exemptions`` section (upstream filid's format).

    ``target`` is root-relative (the heading's path joined to the document's folder);
    ``consumers`` are globs over root-relative importing files. It grants an import only when
    ``direct_import`` is true and ``reason`` is not empty.
    """

    target: str
    consumers: tuple[str, ...]
    direct_import: bool
    reason: str
    line: int


@dataclass(frozen=True, slots=True)
class DocumentFacts:
    """What filid reads of a boundary document: its line count, headings and text.

    ``headings`` are (1-based line, heading text without the leading ``#`` marks) pairs;
    ``exemptions`` the boundary exemptions a detail document declares; ``lines`` the text's
    lines (the document rules read sections, acceptance groups and path tokens from them).
    """

    path: str
    line_count: int
    headings: tuple[tuple[int, str], ...]
    exemptions: tuple[BoundaryExemption, ...] = ()
    lines: tuple[str, ...] = ()
