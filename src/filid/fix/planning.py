"""The planning context every fix kind works with: the project, cached file contents, the
project's import style, a resolver over a planned file universe, and the checks a fix kind
shares (nothing framework- or tool-significant is touched, no spelled path is left behind).
What a plan produces is in :mod:`filid.fix.candidate`; the import rewrites of moves and their
verification in :mod:`filid.fix.move_rewrites`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import groupby
from operator import attrgetter

from filid.fix.actions import Edit
from filid.fix.bindings import BindingIndex, Reach
from filid.fix.candidate import Candidate, NotFixable, ProjectView, basename
from filid.fix.protected import Protection
from filid.fix.specifiers import TS_EXTENSIONS, SpecifierStyle, is_relative, split_ext, style_of
from filid.graph.exports import ExportIndex
from filid.graph.jsonc import read_jsonc_file
from filid.graph.resolve import ResolutionKind, Resolver
from filid.graph.tsconfig import TsconfigIndex
from filid.graph.workspaces import WorkspaceIndex
from filid.model.errors import FilidError
from filid.model.escape import ts_string_literal
from filid.model.facts import ImportFact
from filid.model.graph import ImportEdge
from filid.model.violations import SyncActionKind, Violation
from filid.store.files import UnsafePathError, read_regular_file

__all__ = ["RESOLUTION_FILES", "FixKind", "PlanningContext"]

# Moving these would change how every import below them resolves.
RESOLUTION_FILES = ("tsconfig.json", "jsconfig.json", "package.json")
# Files whose text may spell a folder name that a rename must keep pointing right (not
# Markdown: prose that names a folder breaks nothing).
_SPELLING_SUFFIXES = (
    ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json", ".yaml", ".yml",
    ".toml", ".html", ".vue", ".svelte", ".astro",
)  # fmt: skip

# A source file the planner reads whole (a fix on a larger one is not offered).
_MAX_SOURCE_BYTES = 64 * 1024 * 1024


_PATH_EDGES = (b"'", b'"', b"`", b"/")
_SOURCE = attrgetter("source")


class PlanningContext:
    """Computes candidates for one project; caches file contents and derived indexes."""

    def __init__(self, project: ProjectView) -> None:
        self.project = project
        self.root = project.root
        root_text = str(project.root)
        self._prefix = root_text if root_text.endswith("/") else root_text + "/"
        self.tree = project.tree
        self.files = frozenset(project.tree.files)
        self._contents: dict[str, bytes] = {}
        self._read_paths: set[str] = set()
        self._needles: set[str] = set()
        self._style: SpecifierStyle | None = None
        self._quote: str | None = None
        self._indexes: tuple[TsconfigIndex, WorkspaceIndex] | None = None
        self._exports: ExportIndex | None = None
        self._bindings: BindingIndex | None = None
        self._protection: Protection | None = None
        self._edges_by_target: dict[str, list[ImportEdge]] | None = None
        # The graph's edges are sorted by source: each run of one source is grouped at C
        # speed (a source met again, were they not, extends its list: same result).
        self.edges_by_source: dict[str, list[ImportEdge]] = {}
        for source, run in groupby(project.file_graph.edges, _SOURCE):
            found = self.edges_by_source.get(source)
            if found is None:
                self.edges_by_source[source] = list(run)
            else:
                found.extend(run)

    @property
    def edges_by_target(self) -> dict[str, list[ImportEdge]]:
        """The file graph's edges by target file (built on first use)."""
        if self._edges_by_target is None:
            self._edges_by_target = {}
            for edge in self.project.file_graph.edges:
                self._edges_by_target.setdefault(edge.target, []).append(edge)
        return self._edges_by_target

    # -- shared facts ----------------------------------------------------------------------

    @property
    def reads(self) -> frozenset[str]:
        """Every file whose content decided whether a fix can be planned: read with
        ``decides=True`` or found spelling a searched folder name. (Other reads take a digest,
        the quote style or text at spans the file's facts locate; whether those succeed
        follows from the facts and from the file being readable.)"""
        return frozenset(self._read_paths)

    @property
    def needles(self) -> frozenset[str]:
        """The folder names :meth:`refuse_spelled_elsewhere` searched file texts for."""
        return frozenset(self._needles)

    def read(self, path: str, *, decides: bool = False) -> bytes:
        """The file's bytes (read once); ``decides``: the caller decides on their text."""
        if decides:
            self._read_paths.add(path)
        return self._content(path)

    def _content(self, path: str) -> bytes:
        content = self._contents.get(path)
        if content is None:
            try:
                # the text of ``self.root / path`` without a Path object per file read
                content = read_regular_file(self._prefix + path, _MAX_SOURCE_BYTES)
            except UnsafePathError as error:
                raise NotFixable(f"cannot read {path}: {error}") from error
            except OSError as error:
                raise NotFixable(f"cannot read {path}: {error.strerror}") from error
            self._contents[path] = content
        return content

    def refuse_protected(
        self, paths: Iterable[str], moves: Mapping[str, str] | None = None
    ) -> None:
        """Refuse a fix that would move or create a framework- or tool-significant path, or
        move a file in or out of its tsconfig's ``include``."""
        if self._protection is None:
            self._protection = Protection(self.root, self.files, self.project.resolver)
        reason = self._protection.reason(paths)
        for source, target in sorted((moves or {}).items()):
            if reason is None and source in self.files:
                reason = self._protection.include_change(source, target)
        if reason is not None:
            raise NotFixable(reason)

    def exists(self, path: str) -> bool:
        return path in self.files or path in self.tree.nodes or os.path.lexists(self.root / path)

    def has_typescript(self) -> bool:
        return any(
            split_ext(basename(f))[1] in TS_EXTENSIONS
            and not basename(f).endswith((".d.ts", ".d.mts", ".d.cts"))
            for f in self.files
        )

    def style(self) -> SpecifierStyle:
        """How the project spells relative imports: the majority, tsconfig as tie-break."""
        if self._style is None:
            counts = dict.fromkeys(SpecifierStyle, 0)
            for path, facts in self.project.facts.items():
                if path in self.project.test_files:
                    continue
                for fact in facts.imports:
                    if fact.specifier is not None and is_relative(fact.specifier):
                        found = style_of(fact.specifier)
                        if found is not None:
                            counts[found] += 1
            best = max(counts.values())
            leaders = [s for s, n in counts.items() if n == best]
            if len(leaders) == 1 and best > 0:
                self._style = leaders[0]
            else:
                self._style = (
                    SpecifierStyle.RUNTIME if self._is_node_next() else SpecifierStyle.EXTENSIONLESS
                )
        return self._style

    def style_for(self, directory: str) -> SpecifierStyle:
        """The style of a new relative import in ``directory``: with node16/nodenext module
        resolution in effect there, the compiler demands the ``.js`` spelling; otherwise the
        project's majority (:meth:`style`)."""
        if self._indexes is None:
            self._indexes = (
                TsconfigIndex(self.root, self.files),
                WorkspaceIndex(self.root, self.files),
            )
        options = self._indexes[0].for_directory(directory)
        if options is not None and options.needs_extensions:
            return SpecifierStyle.RUNTIME
        return self.style()

    def _is_node_next(self) -> bool:
        if "tsconfig.json" not in self.files:
            return False
        try:
            data = read_jsonc_file(self.root, "tsconfig.json")
        except FilidError:
            return False
        options = data.get("compilerOptions") if isinstance(data, dict) else None
        if not isinstance(options, dict):
            return False
        values = {str(options.get(key, "")).lower() for key in ("moduleResolution", "module")}
        return bool(values & {"node16", "nodenext"})

    def quote(self) -> str:
        """The quote character most relative imports use (single by default)."""
        if self._quote is None:
            single = double = 0
            looked = 0
            for path in sorted(self.project.facts):
                facts = self.project.facts[path]
                spans = [f.specifier_span for f in facts.imports if f.specifier_span is not None]
                if not spans:
                    continue
                try:
                    content = self.read(path)
                except NotFixable:
                    continue
                for span in spans:
                    before = content[span.start_byte - 1 : span.start_byte]
                    single += before == b"'"
                    double += before == b'"'
                looked += 1
                if looked >= 50:
                    break
            self._quote = '"' if double > single else "'"
        return self._quote

    def resolver_over(self, universe: frozenset[str]) -> Resolver:
        """A resolver over a planned universe, with the project's tsconfigs and workspaces."""
        if self._indexes is None:
            self._indexes = (
                TsconfigIndex(self.root, self.files),
                WorkspaceIndex(self.root, self.files),
            )
        return Resolver(universe, *self._indexes)

    def find_import(self, file: str, line: int, column: int) -> ImportFact:
        facts = self.project.facts.get(file)
        if facts is None:
            raise NotFixable(f"{file} was not parsed")
        for fact in facts.imports:
            spans = [fact.span] + ([fact.specifier_span] if fact.specifier_span else [])
            if any(s.line == line and s.column == column for s in spans):
                return fact
        raise NotFixable(f"no import at {file}:{line}:{column}")

    def specifier_edit(self, file: str, fact: ImportFact, new_specifier: str) -> Edit:
        span = fact.specifier_span
        if span is None or fact.specifier is None:
            raise NotFixable(f"the import at {file}:{fact.line} has no literal specifier")
        content = self.read(file)
        written = content[span.start_byte : span.end_byte]
        if written != fact.specifier.encode("utf-8"):
            if b"\\" in written:
                # the parse decodes escapes (`'./\u0061uth'` names `./auth`): the literal as
                # written is not the specifier, and filid does not re-escape someone's literal
                raise NotFixable(
                    f"the import at {file}:{fact.line} writes its specifier with escape "
                    "sequences; filid leaves it as written"
                )
            raise NotFixable(f"{file} changed since it was parsed")
        # The literal keeps its quotes; what goes between them is escaped for that quote.
        quote = content[span.start_byte - 1 : span.start_byte].decode("ascii", "replace")
        literal = ts_string_literal(new_specifier, quote if quote in ("'", '"') else "'")
        return Edit(span.start_byte, span.end_byte, literal[1:-1])

    def exported_names(self, file: str) -> set[str] | None:
        """Names ``file`` exports, following ``export *`` it can resolve; None if unknowable."""

        if self._exports is None:
            resolver = self.project.resolver

            def target_of(importer: str, specifier: str) -> str | None:
                resolution = resolver.resolve(importer, specifier)
                return resolution.target if resolution.kind is ResolutionKind.FILE else None

            self._exports = ExportIndex(self.project.facts, target_of)
        return self._exports.exported_names(file)

    def reach(self, file: str, name: str) -> Reach | None:
        """The binding ``file`` exports as ``name``, followed down the re-export chain to its
        declaration (see :mod:`filid.fix.bindings`); None when unknowable."""
        return self._binding_index().reach(file, name)

    def import_types(self, file: str, fact: ImportFact) -> dict[str, bool]:
        """Each name the import ``fact`` of ``file`` takes, with whether it is type-only."""
        module = self._binding_index().module(file)
        found = None if module is None else module.statements.get(fact.span.start_byte)
        if found is None:
            raise NotFixable(f"{file} changed since it was parsed")
        return found

    def _binding_index(self) -> BindingIndex:
        if self._bindings is None:
            resolver = self.project.resolver

            def target_of(importer: str, specifier: str) -> str | None:
                resolution = resolver.resolve(importer, specifier)
                return resolution.target if resolution.kind is ResolutionKind.FILE else None

            def read(path: str) -> bytes | None:
                try:
                    return self.read(path, decides=True)
                except NotFixable:
                    return None

            self._bindings = BindingIndex(self.project.facts, target_of, read)
        return self._bindings

    def refuse_spelled_elsewhere(self, name: str, moving: set[str]) -> None:
        """Refuse a rename whose old folder name a file spells as a path outside an import
        specifier (``path.resolve(dir, 'appRouter-heyapi')``, a fixture list, a JSON file):
        between quotes or slashes. The rename rewrites import specifiers only, so that
        spelling would point at nothing. (A component named like its folder is no path.)"""
        needle = name.encode("utf-8")
        # A file without the name cannot refuse the rename, whatever else it says: only the
        # name is recorded, not the file (a result snapshot then re-checks a changed file
        # for the name instead of recomputing).
        self._needles.add(name)
        for file in sorted(self.files):
            if file in moving or not file.endswith(_SPELLING_SUFFIXES):
                continue
            try:
                content = self._content(file)
            except NotFixable:
                continue
            if needle not in content:
                continue
            self._read_paths.add(file)
            facts = self.project.facts.get(file)
            specifiers = [
                (f.specifier_span.start_byte, f.specifier_span.end_byte)
                for f in (facts.imports if facts is not None else ())
                if f.specifier_span is not None
            ]
            at = content.find(needle)
            while at >= 0:
                end = at + len(needle)
                # spelled as (part of) a path: a quote or slash on each side
                bounded = content[at - 1 : at] in _PATH_EDGES and content[end : end + 1] in (
                    *_PATH_EDGES,
                    b".",
                )
                if bounded and not any(start <= at and end <= stop for start, stop in specifiers):
                    line = content.count(b"\n", 0, at) + 1
                    raise NotFixable(
                        f"'{name}' is spelled in {file} (line {line}) outside an import, "
                        "which a rename does not rewrite"
                    )
                at = content.find(needle, at + 1)


@dataclass(frozen=True, slots=True)
class FixKind:
    """One kind of fix (a module of ``filid.fix.kinds``): the action it carries out, the rule
    it is limited to (if any), and the function that plans it into a candidate."""

    action: SyncActionKind
    plan: Callable[[PlanningContext, Candidate], None]
    rule_id: str | None = None

    def handles(self, violation: Violation) -> bool:
        """Whether this kind plans ``violation``'s fix."""
        fix = violation.fix
        return (
            fix is not None
            and fix.action is self.action
            and (self.rule_id is None or violation.rule_id == self.rule_id)
        )
