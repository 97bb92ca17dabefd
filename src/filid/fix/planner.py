"""Plan fixes: turn violations into concrete file operations before anything is written.

Each fixable violation becomes a candidate — the files it creates, moves and edits, computed
against the project as it is now. A candidate that cannot be computed in full (an import it
cannot rewrite, a target that exists, a name the entry point does not export) is skipped with
the reason. Candidates whose moved and rewritten imports would not resolve to the same files
afterwards (checked with the project's own resolver over the planned file universe) are
skipped too. Accepted candidates must not conflict: two fixes may not move or create the same
path, edit overlapping bytes, or rely on a file another fix moves; the later one is skipped
(a later pass of :func:`filid.fix.run.run_fix` picks it up once the first is applied).
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
    CreateFile,
    Edit,
    EditFile,
    FixPlan,
    MoveFile,
    PlannedFix,
    RemoveDirIfEmpty,
    SkippedFix,
    SyncAction,
    digest,
)
from filid.fix.barrel import index_content, split_index
from filid.fix.merge_imports import merge_equal_specifiers
from filid.fix.protected import Protection
from filid.fix.specifiers import (
    JS_EXTENSIONS,
    SOURCE_EXTENSIONS,
    TS_EXTENSIONS,
    SpecifierStyle,
    file_matches_segment,
    is_relative,
    relative_specifier,
    specifier_extension,
    specifier_for_file,
    split_ext,
    style_of,
)
from filid.graph.exports import ExportIndex
from filid.graph.jsonc import read_jsonc_file
from filid.graph.resolve import ResolutionKind, Resolver
from filid.graph.tsconfig import TsconfigIndex, join_path, parent_dir
from filid.graph.workspaces import WorkspaceIndex
from filid.model.errors import FilidError
from filid.model.facts import FileFacts, ImportFact, ImportKind
from filid.model.graph import FileGraph, ImportEdge
from filid.model.nodes import FractalTree, NodeCategory
from filid.model.violations import Risk, SyncActionKind, Violation
from filid.rules.index_barrel_pattern import split_target
from filid.scan.classify import ORGAN_NAMES, is_infra_name
from filid.scan.universe import EXCLUDED_DIRECTORIES, is_excluded
from filid.store.files import replace_refusal

__all__ = ["ProjectView", "plan_fixes", "risk_allows"]

_RISK_RANK = {Risk.SAFE: 0, Risk.MODERATE: 1, Risk.RISKY: 2}

# Apply order of the candidates (see filid.drift for the same order of the SyncPlan).
_PHASE = {
    SyncActionKind.RENAME: 0,
    SyncActionKind.CREATE_INDEX: 1,
    SyncActionKind.SPLIT: 2,
    SyncActionKind.MOVE: 3,
    SyncActionKind.REWRITE_IMPORT: 4,
}

# Moving these would change how every import below them resolves.
_RESOLUTION_FILES = ("tsconfig.json", "jsconfig.json", "package.json")
# A folder rename carries every file in it; past this many it is refused (a build or
# dependency folder inside, most likely).
_MAX_RENAME_FILES = 2000
# Files whose text may spell a folder name that a rename must keep pointing right (not
# Markdown: prose that names a folder breaks nothing).
_SPELLING_SUFFIXES = (
    ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json", ".yaml", ".yml",
    ".toml", ".html", ".vue", ".svelte", ".astro",
)  # fmt: skip


_PATH_EDGES = (b"'", b'"', b"`", b"/")


class ProjectView(Protocol):
    """What the planner reads of a loaded project (``filid.engine.Project`` satisfies it)."""

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


class _NotFixable(Exception):
    """A candidate cannot be computed in full; the message says why."""


@dataclass(slots=True)
class _Candidate:
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
_Remap = Callable[[str], str | None]
# Rewrites a non-relative specifier of a moved file (None: it cannot be done safely).
_AliasRewrite = Callable[[str, str], str | None]


def _in_dir(path: str, directory: str) -> bool:
    return directory == "." or path == directory or path.startswith(directory + "/")


def _basename(path: str) -> str:
    return path.rpartition("/")[2]


class _Planner:
    """Computes candidates for one project; caches file contents and derived indexes."""

    def __init__(self, project: ProjectView) -> None:
        self.project = project
        self.root = project.root
        self.tree = project.tree
        self.files = frozenset(project.tree.files)
        self._contents: dict[str, bytes] = {}
        self._style: SpecifierStyle | None = None
        self._quote: str | None = None
        self._indexes: tuple[TsconfigIndex, WorkspaceIndex] | None = None
        self._exports: ExportIndex | None = None
        self._protection: Protection | None = None
        self.edges_by_target: dict[str, list[ImportEdge]] = {}
        self.edges_by_source: dict[str, list[ImportEdge]] = {}
        for edge in project.file_graph.edges:
            self.edges_by_target.setdefault(edge.target, []).append(edge)
            self.edges_by_source.setdefault(edge.source, []).append(edge)

    # -- shared facts ----------------------------------------------------------------------

    def read(self, path: str) -> bytes:
        content = self._contents.get(path)
        if content is None:
            try:
                content = (self.root / path).read_bytes()
            except OSError as error:
                raise _NotFixable(f"cannot read {path}: {error.strerror}") from error
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
            raise _NotFixable(reason)

    def exists(self, path: str) -> bool:
        return path in self.files or path in self.tree.nodes or os.path.lexists(self.root / path)

    def dropped_paths(self, paths: Iterable[str]) -> dict[str, str]:
        """The new paths that would not be part of the file universe, with the reason.

        A file created or moved under an excluded directory name, or where git ignores it,
        would silently drop out of the project (and out of every import's reach).
        """
        excluded = EXCLUDED_DIRECTORIES | frozenset(
            self.project.config.structure.additional_excluded_directories
        )
        wanted = sorted(set(paths))
        dropped = {
            p: "it would lie in an excluded directory" for p in wanted if is_excluded(p, excluded)
        }
        rest = [p for p in wanted if p not in dropped]
        if rest:
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
                raise _NotFixable(f"cannot list {folder}: {error.strerror}") from error
            for entry in entries:
                rel = Path(entry.path).relative_to(self.root).as_posix()
                if entry.is_symlink():
                    raise _NotFixable(f"{folder} holds a symbolic link ({rel})")
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False):
                    found.append(rel)
                else:
                    raise _NotFixable(f"{folder} holds {rel}, which is not a regular file")
                if len(found) > _MAX_RENAME_FILES:
                    raise _NotFixable(f"{folder} holds more than {_MAX_RENAME_FILES} files")
        return sorted(found)

    def has_typescript(self) -> bool:
        return any(
            split_ext(_basename(f))[1] in TS_EXTENSIONS
            and not _basename(f).endswith((".d.ts", ".d.mts", ".d.cts"))
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
                except _NotFixable:
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
            raise _NotFixable(f"{file} was not parsed")
        for fact in facts.imports:
            spans = [fact.span] + ([fact.specifier_span] if fact.specifier_span else [])
            if any(s.line == line and s.column == column for s in spans):
                return fact
        raise _NotFixable(f"no import at {file}:{line}:{column}")

    def specifier_edit(self, file: str, fact: ImportFact, new_specifier: str) -> Edit:
        span = fact.specifier_span
        if span is None or fact.specifier is None:
            raise _NotFixable(f"the import at {file}:{fact.line} has no literal specifier")
        content = self.read(file)
        if content[span.start_byte : span.end_byte] != fact.specifier.encode("utf-8"):
            raise _NotFixable(f"{file} changed since it was parsed")
        return Edit(span.start_byte, span.end_byte, new_specifier)

    def exported_names(self, file: str) -> set[str] | None:
        """Names ``file`` exports, following ``export *`` it can resolve; None if unknowable."""

        if self._exports is None:
            resolver = self.project.resolver

            def target_of(importer: str, specifier: str) -> str | None:
                resolution = resolver.resolve(importer, specifier)
                return resolution.target if resolution.kind is ResolutionKind.FILE else None

            self._exports = ExportIndex(self.project.facts, target_of)
        return self._exports.exported_names(file)

    # -- verification ----------------------------------------------------------------------

    def verify_moves(self, candidate: _Candidate, edited: Mapping[tuple[str, int], str]) -> None:
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
                raise _NotFixable(
                    f"'{edge.fact.specifier}' in {edge.source} (line {edge.fact.line}) "
                    "could not be rewritten to reach its file after the move"
                )
            checked.add(edge.target)
        candidate.reads |= checked

    # -- one planner per action ------------------------------------------------------------

    def plan(self, violation: Violation) -> _Candidate:
        fix = violation.fix
        assert fix is not None
        candidate = _Candidate(violation, fix.action, fix.risk, fix.target_path)
        if fix.action is SyncActionKind.CREATE_INDEX:
            self.plan_create_index(candidate)
        elif fix.action is SyncActionKind.REWRITE_IMPORT:
            self.plan_rewrite_import(candidate)
        elif fix.action is SyncActionKind.RENAME:
            self.plan_rename(candidate)
        elif fix.action is SyncActionKind.SPLIT:
            self.plan_split(candidate)
        elif fix.action is SyncActionKind.MOVE and violation.rule_id == "zero-peer-file":
            self.plan_move_file(candidate)
        else:
            raise _NotFixable(f"{fix.action.value} is a plan-only action")
        return candidate

    def plan_create_index(self, candidate: _Candidate) -> None:
        directory = parent_dir(candidate.result_path)
        node = self.tree.nodes.get(directory)
        if node is None:
            raise _NotFixable(f"{directory} is not a directory of the project")
        if node.index_file is not None or node.main_file is not None:
            raise _NotFixable(f"{directory} already has an entry point")
        name = "index.ts" if self.has_typescript() else "index.js"
        target = node.file_path(name)
        if self.exists(target):
            raise _NotFixable(f"{target} already exists")
        self.refuse_protected([target])
        members: dict[str, FileFacts] = {}
        for file_name in node.files:
            path = node.file_path(file_name)
            facts = self.project.facts.get(path)
            if facts is None or path in self.project.test_files:
                continue
            if split_ext(file_name)[0] in ("index", "main"):
                continue
            if facts.has_syntax_error:
                raise _NotFixable(f"{path} has syntax errors; its exports are not known")
            members[file_name] = facts
        content, _notes = index_content(members, self.style_for(directory), self.quote())
        candidate.result_path = target
        candidate.creates[target] = content
        candidate.reads |= {node.file_path(n) for n in members}

    def plan_rewrite_import(self, candidate: _Candidate) -> None:
        violation = candidate.violation
        importer = violation.location.file
        entry = candidate.result_path
        fact = self.find_import(importer, violation.location.line, violation.location.column)
        specifier = fact.specifier
        if specifier is None:
            raise _NotFixable("the import has no literal specifier")
        if fact.kind not in (ImportKind.STATIC, ImportKind.TYPE, ImportKind.RE_EXPORT):
            raise _NotFixable(f"a {fact.kind.value} import cannot be redirected to an entry point")
        if not fact.names or "*" in fact.names:
            raise _NotFixable("a namespace or side-effect import cannot be redirected safely")
        module = parent_dir(entry)
        if _in_dir(importer, module):
            raise _NotFixable(f"{importer} is inside {module}; it would import its own barrel")
        available = self.exported_names(entry)
        missing = sorted(set(fact.names) - (available or set()))
        if available is None or missing:
            raise _NotFixable(
                f"{entry} does not export {', '.join(missing) or 'every imported name'}"
            )
        current = self.project.resolver.resolve(importer, specifier)
        if current.target is None:
            raise _NotFixable(f"'{specifier}' does not resolve")
        new_specifier = self._entry_specifier(importer, specifier, current.target, entry)
        if self.project.resolver.resolve(importer, new_specifier).target != entry:
            raise _NotFixable(f"'{new_specifier}' would not resolve to {entry}")
        candidate.edits[importer] = [self.specifier_edit(importer, fact, new_specifier)]
        candidate.reads |= {entry, current.target}

    def _entry_specifier(self, importer: str, specifier: str, target: str, entry: str) -> str:
        module = parent_dir(entry)
        entry_name = _basename(entry)
        stem = split_ext(entry_name)[0]
        ext = specifier_extension(specifier)
        style = (
            SpecifierStyle.EXTENSIONLESS
            if not ext
            else (SpecifierStyle.RUNTIME if ext in JS_EXTENSIONS else SpecifierStyle.SOURCE)
        )
        if is_relative(specifier):
            base = relative_specifier(parent_dir(importer), module)
            if style is SpecifierStyle.EXTENSIONLESS and stem == "index":
                return base
            return specifier_for_file(f"{base.rstrip('/')}/{stem}", entry_name, style)
        segments = specifier.split("/")
        position = _segment_of(segments, target, module.count("/") + 1 if module != "." else 0)
        if position is None or position < 0:
            raise _NotFixable(f"cannot tell which part of '{specifier}' names {module}")
        base_segments = segments[: position + 1]
        if style is SpecifierStyle.EXTENSIONLESS and stem == "index":
            return "/".join(base_segments)
        return specifier_for_file("/".join([*base_segments, stem]), entry_name, style)

    def _rewrite_for_moves(
        self, candidate: _Candidate, remap_path: _Remap, alias_rewrite: _AliasRewrite
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
                        raise _NotFixable(
                            f"cannot rewrite '{specifier}' in {file} (line {fact.line})"
                        )
                if new_specifier != specifier:
                    candidate.edits.setdefault(file, []).append(
                        self.specifier_edit(file, fact, new_specifier)
                    )
                    edited[(file, fact.span.start_byte)] = new_specifier
        return edited

    def plan_rename(self, candidate: _Candidate) -> None:
        old = candidate.violation.path
        new = candidate.result_path
        if old == "." or old not in self.tree.nodes:
            raise _NotFixable(f"{old} is not a directory that can be renamed")
        if parent_dir(new) != parent_dir(old) or "/" in _basename(new) or not _basename(new):
            raise _NotFixable(f"{new} is not a sibling name for {old}")
        if self.exists(new):
            raise _NotFixable(f"{new} already exists")
        members = self.folder_contents(old)
        for member in members:
            if _basename(member) in _RESOLUTION_FILES:
                raise _NotFixable(f"{old} holds {member}; moving it would change import resolution")
        self.refuse_protected([old, new, *members], {m: new + m[len(old) :] for m in members})
        candidate.moves = {f: new + f[len(old) :] for f in members}
        for member in members:
            candidate.reads.add(member)
            self.read(member)  # the move's digest; fails early if unreadable
        candidate.removes = sorted(
            (p for p in self.tree.nodes if _in_dir(p, old) and p != "."),
            key=lambda p: (-p.count("/"), p),
        )
        candidate.renamed_dir = old
        new_name = _basename(new)
        depth = old.count("/") + 1

        def remap(path: str) -> str | None:
            return new + path[len(old) :] if path == old or path.startswith(old + "/") else None

        def alias(specifier: str, target: str) -> str | None:
            segments = specifier.split("/")
            position = _segment_of(segments, target, depth)
            if position is None or position < 0 or segments[position] != _basename(old):
                return None
            segments[position] = new_name
            return "/".join(segments)

        edited = self._rewrite_for_moves(candidate, remap, alias)
        self.verify_moves(candidate, edited)
        self.refuse_spelled_elsewhere(_basename(old), set(members))

    def refuse_spelled_elsewhere(self, name: str, moving: set[str]) -> None:
        """Refuse a rename whose old folder name a file spells as a path outside an import
        specifier (``path.resolve(dir, 'appRouter-heyapi')``, a fixture list, a JSON file):
        between quotes or slashes. The rename rewrites import specifiers only, so that
        spelling would point at nothing. (A component named like its folder is no path.)"""
        needle = name.encode("utf-8")
        for file in sorted(self.files):
            if file in moving or not file.endswith(_SPELLING_SUFFIXES):
                continue
            try:
                content = self.read(file)
            except _NotFixable:
                continue
            if needle not in content:
                continue
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
                    raise _NotFixable(
                        f"'{name}' is spelled in {file} (line {line}) outside an import, "
                        "which a rename does not rewrite"
                    )
                at = content.find(needle, at + 1)

    def plan_move_file(self, candidate: _Candidate) -> None:
        source = candidate.violation.path
        target = candidate.result_path
        if source not in self.files:
            raise _NotFixable(f"{source} is not a project file")
        if _basename(source) in _RESOLUTION_FILES:
            raise _NotFixable(f"moving {source} would change import resolution")
        target_dir = parent_dir(target)
        if parent_dir(target_dir) != parent_dir(source):
            raise _NotFixable(f"{target} is not in a sub-folder beside {source}")
        if self.exists(target):
            raise _NotFixable(f"{target} already exists")
        self.refuse_protected([source, target], {source: target})
        beside = sorted(
            edge.target
            for edge in self.edges_by_source.get(source, [])
            if parent_dir(edge.target) == parent_dir(source) and edge.target != source
        )
        if beside:
            # Moved down, the file would become a sub-module importing its parent module's
            # files (external-import-boundary, often a cycle): a new violation, not a fix.
            raise _NotFixable(
                f"{source} imports {beside[0]} beside it; in a sub-folder it would import "
                "its parent module's files"
            )
        self._refuse_new_pure_function(source, _basename(target_dir))
        self.read(source)
        candidate.moves = {source: target}
        candidate.reads.add(source)
        folder = _basename(target_dir)

        def remap(path: str) -> str | None:
            # A specifier names the file as `x`, `x.ts` or `x.js` in the file's directory.
            if parent_dir(path) == parent_dir(source) and file_matches_segment(
                _basename(path), _basename(source)
            ):
                return f"{target_dir}/{_basename(path)}"
            return None

        def alias(specifier: str, resolved: str) -> str | None:
            segments = specifier.split("/")
            if len(segments) < 2 or not file_matches_segment(segments[-1], _basename(resolved)):
                return None
            return "/".join([*segments[:-1], folder, segments[-1]])

        edited = self._rewrite_for_moves(candidate, remap, alias)
        self.verify_moves(candidate, edited)

    def _refuse_new_pure_function(self, source: str, folder: str) -> None:
        """Refuse a peer move that would make a pure-function folder importing modules.

        Alone in a new folder, a side-effect free file makes that folder a pure-function node
        that owns itself (SPEC §2 step 7): its imports of module files (its old parent's organs
        included) would then be pure-function-isolation violations and new cycles.
        """
        facts = self.project.facts.get(source)
        if facts is None or not facts.is_side_effect_free or source in self.project.test_files:
            return
        organs = ORGAN_NAMES | frozenset(self.project.config.structure.additional_organ_names)
        if folder in organs or is_infra_name(folder):
            return
        tree = self.project.tree
        modules = sorted(
            edge.target
            for edge in self.edges_by_source.get(source, [])
            if tree.owner_of(edge.target).category in (NodeCategory.FRACTAL, NodeCategory.HYBRID)
        )
        if modules:
            raise _NotFixable(
                f"{source} is side-effect free: alone in {folder}/ it would be a pure-function "
                f"folder importing module file {modules[0]}"
            )

    def plan_split(self, candidate: _Candidate) -> None:
        node = self.tree.nodes.get(candidate.violation.path)
        if node is None or node.index_file is None:
            raise _NotFixable(f"{candidate.violation.path} has no index file")
        index = node.file_path(node.index_file)
        facts = self.project.facts.get(index)
        if facts is None:
            raise _NotFixable(f"{index} was not parsed")
        target = candidate.result_path
        if parent_dir(target) != node.path or self.exists(target):
            extension = "." + node.index_file.rsplit(".", 1)[1]
            target = split_target(node.path, node.name, node.files, extension)
            if self.exists(target):
                raise _NotFixable(f"{target} already exists")
        self.refuse_protected([index, target])
        content = self.read(index)
        target_name = _basename(target)
        specifier = specifier_for_file(
            f"./{split_ext(target_name)[0]}", target_name, self.style_for(node.path)
        )
        result = split_index(index, content, facts, specifier, self.quote())
        if result is None:
            raise _NotFixable(f"{index} holds statements that cannot be moved safely")
        candidate.result_path = target
        candidate.creates[target] = result.implementation
        candidate.edits[index] = [Edit(0, len(content), result.index)]
        candidate.reads.add(index)


def _segment_of(segments: list[str], target: str, depth: int) -> int | None:
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


def _plan_order(violation: Violation) -> tuple[int, int, str, int, int]:
    fix = violation.fix
    assert fix is not None
    depth = violation.path.count("/") + 1
    deeper_first = -depth if fix.action is SyncActionKind.RENAME else 0
    return (
        _PHASE.get(fix.action, 9),
        deeper_first,
        violation.path,
        violation.location.line,
        violation.location.column,
    )


@dataclass(slots=True)
class _Accepted:
    """The union of accepted candidates, in original coordinates."""

    creates: dict[str, str] = field(default_factory=dict)
    moves: dict[str, str] = field(default_factory=dict)
    edits: dict[str, list[Edit]] = field(default_factory=dict)
    removes: set[str] = field(default_factory=set)
    reads: set[str] = field(default_factory=set)
    renamed: set[str] = field(default_factory=set)

    def conflict(self, candidate: _Candidate) -> str | None:
        occupied = set(self.creates) | set(self.moves.values())
        new_paths = set(candidate.creates) | set(candidate.moves.values())
        for path in sorted(new_paths):
            if path in occupied:
                return f"another fix already writes {path}"
            if any(_in_dir(path, d) for d in self.renamed):
                return f"another fix renames the directory of {path}"
        if candidate.renamed_dir is not None:
            inside = sorted(p for p in occupied | self.reads if _in_dir(p, candidate.renamed_dir))
            if inside:
                return f"another fix works on {inside[0]} inside {candidate.renamed_dir}"
        for source in sorted(candidate.moves):
            if source in self.moves:
                return f"another fix already moves {source}"
            if source in self.reads:
                return f"another fix relies on {source} where it is"
        for path in sorted(candidate.reads):
            if path in self.moves:
                return f"another fix moves {path}"
        for path, edits in candidate.edits.items():
            for edit in edits:
                for other in self.edits.get(path, ()):
                    if edit != other and edit.overlaps(other):
                        return f"another fix edits the same part of {path}"
        return None

    def add(self, candidate: _Candidate) -> None:
        self.creates.update(candidate.creates)
        self.moves.update(candidate.moves)
        for path, edits in candidate.edits.items():
            existing = self.edits.setdefault(path, [])
            existing.extend(e for e in edits if e not in existing)
        self.removes.update(candidate.removes)
        self.reads |= candidate.reads | set(candidate.edits)
        if candidate.renamed_dir is not None:
            self.renamed.add(candidate.renamed_dir)


def _unsafe_target(root: Path, candidate: _Candidate) -> str | None:
    """Why a file this candidate rewrites or moves must be left alone (read-only, hard
    link…); only this fix is skipped, the independent ones still apply."""
    for path in sorted({*candidate.edits, *candidate.moves}):
        reason = replace_refusal(root / path)
        if reason is not None:
            return f"refusing to rewrite {path}: {reason}"
    return None


def _operations(
    candidate_like: _Accepted | _Candidate, read: Callable[[str], bytes], *, merge: bool = False
) -> tuple[SyncAction, ...]:
    """Operations in apply order: creations, moves, edits at post-move paths, removals.

    ``merge`` (the whole plan): imports whose specifiers the edits made equal become one.
    """
    operations: list[SyncAction] = []
    for path in sorted(candidate_like.creates):
        operations.append(CreateFile(path, candidate_like.creates[path]))
    for source in sorted(candidate_like.moves):
        operations.append(MoveFile(source, candidate_like.moves[source], digest(read(source))))
    for path in sorted(candidate_like.edits):
        edits = tuple(sorted(candidate_like.edits[path], key=lambda e: (e.start_byte, e.end_byte)))
        if merge and len(edits) > 0 and split_ext(_basename(path))[1] in SOURCE_EXTENSIONS:
            edits = tuple(merge_equal_specifiers(path, read(path), edits))
        if edits:
            final = candidate_like.moves.get(path, path)
            operations.append(EditFile(final, digest(read(path)), edits))
    for directory in sorted(candidate_like.removes, key=lambda d: (-d.count("/"), d)):
        operations.append(RemoveDirIfEmpty(directory))
    return tuple(operations)


def plan_fixes(
    project: ProjectView, violations: Iterable[Violation], *, max_risk: Risk = Risk.SAFE
) -> FixPlan:
    """Plan every fix of ``violations`` whose risk is at most ``max_risk`` (risky never).

    Violations without a fix are ignored; the others become a :class:`PlannedFix` or a
    :class:`SkippedFix` with the reason. Reads files (for digests and text), writes nothing.
    """
    planner = _Planner(project)
    fixable = sorted((v for v in violations if v.fix is not None), key=_plan_order)
    accepted = _Accepted()
    planned: list[PlannedFix] = []
    skipped: list[SkippedFix] = []
    candidates: list[_Candidate] = []
    for violation in fixable:
        fix = violation.fix
        assert fix is not None
        if not risk_allows(fix.risk, max_risk):
            reason = (
                "risky: plan only"
                if fix.risk is Risk.RISKY
                else f"{fix.risk.value}: needs --unsafe-fixes"
            )
            skipped.append(SkippedFix(violation, reason))
            continue
        try:
            candidates.append(planner.plan(violation))
        except (_NotFixable, FilidError) as error:
            skipped.append(SkippedFix(violation, str(error)))

    # One git call for every path the candidates would create.
    # Files outside the universe (dot files, git-ignored ones) that a rename carries along
    # were never part of the project; only project files must stay in it.
    def kept(candidate: _Candidate) -> list[str]:
        moved = (dst for src, dst in candidate.moves.items() if src in planner.files)
        return [*candidate.creates, *moved]

    dropped = planner.dropped_paths(path for c in candidates for path in kept(c))
    for candidate in candidates:
        lost = sorted(p for p in kept(candidate) if p in dropped)
        problem = (
            f"{lost[0]} would drop out of the project: {dropped[lost[0]]}"
            if lost
            else _unsafe_target(project.root, candidate) or accepted.conflict(candidate)
        )
        if problem is not None:
            skipped.append(SkippedFix(candidate.violation, problem))
            continue
        accepted.add(candidate)
        planned.append(
            PlannedFix(
                violation=candidate.violation,
                action=candidate.action,
                risk=candidate.risk,
                result_path=candidate.result_path,
                operations=_operations(candidate, planner.read),
            )
        )
    return FixPlan(
        root=project.root,
        fixes=tuple(planned),
        skipped=tuple(skipped),
        operations=_operations(accepted, planner.read, merge=True),
    )
