"""The planning context every fix kind works with: the project, cached file contents,
the project's import style, a resolver over a planned file universe, and the checks that
every move shares (imports still reach their files, nothing framework- or tool-significant
is touched, no spelled path is left behind).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from filid.config.model import Config
from filid.fix.actions import (
    Edit,
)
from filid.fix.bindings import BindingIndex, Reach
from filid.fix.protected import Protection
from filid.fix.specifiers import (
    TS_EXTENSIONS,
    SpecifierStyle,
    file_matches_segment,
    is_relative,
    relative_specifier,
    split_ext,
    style_of,
)
from filid.graph.exports import ExportIndex
from filid.graph.jsonc import read_jsonc_file
from filid.graph.resolve import ResolutionKind, Resolver
from filid.graph.tsconfig import TsconfigIndex, join_path, parent_dir
from filid.graph.workspaces import WorkspaceIndex
from filid.model.errors import FilidError
from filid.model.escape import ts_string_literal
from filid.model.facts import FileFacts, ImportFact
from filid.model.graph import FileGraph, ImportEdge
from filid.model.nodes import FractalTree
from filid.model.violations import Risk, SyncActionKind, Violation
from filid.scan.universe import EXCLUDED_DIRECTORIES, is_excluded, is_ignored_root
from filid.store.files import UnsafePathError, read_regular_file

__all__ = [
    "RESOLUTION_FILES",
    "AliasRewrite",
    "Candidate",
    "FixKind",
    "NotFixable",
    "PlanningContext",
    "ProjectView",
    "Remap",
    "basename",
    "in_dir",
    "risk_allows",
    "segment_of",
]

_RISK_RANK = {Risk.SAFE: 0, Risk.MODERATE: 1, Risk.RISKY: 2}

# Moving these would change how every import below them resolves.
RESOLUTION_FILES = ("tsconfig.json", "jsconfig.json", "package.json")
# A folder rename carries every file in it; past this many it is refused (a build or
# dependency folder inside, most likely).
_MAX_RENAME_FILES = 2000
# Files whose text may spell a folder name that a rename must keep pointing right (not
# Markdown: prose that names a folder breaks nothing).
_SPELLING_SUFFIXES = (
    ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json", ".yaml", ".yml",
    ".toml", ".html", ".vue", ".svelte", ".astro",
)  # fmt: skip

# A source file the planner reads whole (a fix on a larger one is not offered).
_MAX_SOURCE_BYTES = 64 * 1024 * 1024


_PATH_EDGES = (b"'", b'"', b"`", b"/")


class ProjectView(Protocol):
    """What the planner reads of a loaded project (``filid.check.project.Project`` satisfies it)."""

    @property
    def root(self) -> Path: ...

    @property
    def config(self) -> Config: ...

    @property
    def tree(self) -> FractalTree: ...

    @property
    def facts(self) -> Mapping[str, FileFacts]: ...

    @property
    def file_graph(self) -> FileGraph: ...

    @property
    def resolver(self) -> Resolver: ...

    @property
    def test_files(self) -> frozenset[str]: ...


def risk_allows(risk: Risk, max_risk: Risk) -> bool:
    """Whether a fix of ``risk`` may be applied under ``max_risk`` (risky never is)."""
    return risk is not Risk.RISKY and _RISK_RANK[risk] <= _RISK_RANK[max_risk]


class NotFixable(Exception):
    """A candidate cannot be computed in full; the message says why."""


@dataclass(slots=True)
class Candidate:
    violation: Violation
    action: SyncActionKind
    risk: Risk
    result_path: str
    creates: dict[str, str] = field(default_factory=dict)
    moves: dict[str, str] = field(default_factory=dict)
    edits: dict[str, list[Edit]] = field(default_factory=dict)
    removes: list[str] = field(default_factory=list)
    reads: set[str] = field(default_factory=set)
    renamed_dir: str | None = None


# Maps a root-relative path a specifier points at to where it will be (None: it does not move).
Remap = Callable[[str], str | None]
# Rewrites a non-relative specifier of a moved file (None: it cannot be done safely).
AliasRewrite = Callable[[str, str], str | None]


def in_dir(path: str, directory: str) -> bool:
    return directory == "." or path == directory or path.startswith(directory + "/")


def basename(path: str) -> str:
    return path.rpartition("/")[2]


class PlanningContext:
    """Computes candidates for one project; caches file contents and derived indexes."""

    def __init__(self, project: ProjectView) -> None:
        self.project = project
        self.root = project.root
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
        self.edges_by_target: dict[str, list[ImportEdge]] = {}
        self.edges_by_source: dict[str, list[ImportEdge]] = {}
        for edge in project.file_graph.edges:
            self.edges_by_target.setdefault(edge.target, []).append(edge)
            self.edges_by_source.setdefault(edge.source, []).append(edge)

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
                content = read_regular_file(self.root / path, _MAX_SOURCE_BYTES)
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

    def dropped_paths(self, paths: Iterable[str]) -> dict[str, str]:
        """The new paths that would not be part of the file universe, with the reason.

        A file created or moved under an excluded directory name, or where git ignores it,
        would silently drop out of the project (and out of every import's reach).
        """
        excluded = EXCLUDED_DIRECTORIES | frozenset(
            self.project.config.structure.excluded_directories
        )
        wanted = sorted(set(paths))
        dropped = {
            p: "it would lie in an excluded directory" for p in wanted if is_excluded(p, excluded)
        }
        rest = [p for p in wanted if p not in dropped]
        if rest and not is_ignored_root(self.root):
            try:
                done = subprocess.run(
                    ["git", "check-ignore", "-z", "--stdin"],
                    cwd=self.root,
                    input=b"\0".join(p.encode("utf-8") for p in rest) + b"\0",
                    capture_output=True,
                    check=False,
                    timeout=120,
                )
            except (OSError, subprocess.SubprocessError):
                done = None
            # Exit 0: some paths are ignored; 1: none; anything else: not a git work tree.
            if done is not None and done.returncode == 0:
                for raw in done.stdout.split(b"\0"):
                    if raw:
                        dropped[raw.decode("utf-8")] = "git would ignore it (.gitignore)"
        return dropped

    def folder_contents(self, folder: str) -> list[str]:
        """Every file in ``folder`` on disk, dot files and git-ignored ones included (a rename
        must carry them all). Refused when it holds a symbolic link or anything but regular
        files and folders, which a move could not carry faithfully."""
        found: list[str] = []
        base = self.root / folder
        stack = [base]
        while stack:
            current = stack.pop()
            try:
                entries = list(os.scandir(current))
            except OSError as error:
                raise NotFixable(f"cannot list {folder}: {error.strerror}") from error
            for entry in entries:
                rel = Path(entry.path).relative_to(self.root).as_posix()
                if entry.is_symlink():
                    raise NotFixable(f"{folder} holds a symbolic link ({rel})")
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False):
                    found.append(rel)
                else:
                    raise NotFixable(f"{folder} holds {rel}, which is not a regular file")
                if len(found) > _MAX_RENAME_FILES:
                    raise NotFixable(f"{folder} holds more than {_MAX_RENAME_FILES} files")
        return sorted(found)

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
        if content[span.start_byte : span.end_byte] != fact.specifier.encode("utf-8"):
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

    # -- verification ----------------------------------------------------------------------

    def verify_moves(self, candidate: Candidate, edited: Mapping[tuple[str, int], str]) -> None:
        """Every import that touches a moved file or was rewritten still reaches its file."""
        moves = candidate.moves
        universe = frozenset(
            (self.files - moves.keys()) | set(moves.values()) | candidate.creates.keys()
        )
        resolver = self.resolver_over(universe)
        checked: set[str] = set()
        for edge in self.project.file_graph.edges:
            key = (edge.source, edge.fact.span.start_byte)
            if edge.source not in moves and edge.target not in moves and key not in edited:
                continue
            specifier = edited.get(key, edge.fact.specifier)
            if specifier is None:
                continue
            source = moves.get(edge.source, edge.source)
            expected = moves.get(edge.target, edge.target)
            found = resolver.resolve(source, specifier)
            if found.target != expected:
                raise NotFixable(
                    f"'{edge.fact.specifier}' in {edge.source} (line {edge.fact.line}) "
                    "could not be rewritten to reach its file after the move"
                )
            checked.add(edge.target)
        candidate.reads |= checked

    # -- one planner per action ------------------------------------------------------------

    def rewrite_for_moves(
        self, candidate: Candidate, remap_path: Remap, alias_rewrite: AliasRewrite
    ) -> dict[tuple[str, int], str]:
        """Edits for every import a set of moves affects; returns (file, start) -> specifier."""
        edited: dict[tuple[str, int], str] = {}
        moves = candidate.moves
        for file in sorted(self.project.facts):
            facts = self.project.facts[file]
            new_dir = parent_dir(moves.get(file, file))
            for fact in facts.imports:
                specifier = fact.specifier
                if specifier is None or fact.specifier_span is None:
                    continue
                new_specifier: str | None = None
                if is_relative(specifier):
                    pointed = join_path(parent_dir(file), specifier)
                    if pointed == ".." or pointed.startswith("../"):
                        continue  # outside the root: never resolved, left as written
                    moved_to = remap_path(pointed)
                    if moved_to is None and file not in moves:
                        continue
                    new_specifier = relative_specifier(new_dir, moved_to or pointed)
                else:
                    resolution = self.project.resolver.resolve(file, specifier)
                    if resolution.target is None or resolution.target not in moves:
                        continue
                    new_specifier = alias_rewrite(specifier, resolution.target)
                    if new_specifier is None:
                        raise NotFixable(
                            f"cannot rewrite '{specifier}' in {file} (line {fact.line})"
                        )
                if new_specifier != specifier:
                    candidate.edits.setdefault(file, []).append(
                        self.specifier_edit(file, fact, new_specifier)
                    )
                    edited[(file, fact.span.start_byte)] = new_specifier
        return edited

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


def segment_of(segments: list[str], target: str, depth: int) -> int | None:
    """Index of the specifier segment naming the ancestor directory of ``target`` at ``depth``.

    The specifier is aligned with ``target`` from the right: its last segment names the file
    (``x``, ``x.ts``, ``x.js``) or, for an ``index`` file, the directory holding it. Every
    aligned segment must match; ``None`` when they do not (an alias that renames segments).
    """
    parts = target.split("/")
    if not segments:
        return None
    if file_matches_segment(segments[-1], parts[-1]):
        aligned = parts
    elif split_ext(parts[-1])[0] == "index" and len(parts) >= 2 and segments[-1] == parts[-2]:
        aligned = parts[:-1]
    else:
        return None
    if not 1 <= depth <= len(aligned) or (depth == len(aligned) and aligned is parts):
        return None  # no such directory, or the segment names the file itself
    offset = len(aligned) - depth
    position = len(segments) - 1 - offset
    if position < 0:
        return None
    for i in range(position, len(segments) - 1):
        if segments[i] != aligned[depth - 1 + i - position]:
            return None
    return position


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
