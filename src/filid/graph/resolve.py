"""Specifier resolution: which project file an import points at (SPEC §4).

Order, first hit wins:

1. relative (``./``, ``../``, ``.``, ``..``) and root-absolute (``/x``, from the project
   root) specifiers — a miss is *unresolved*;
2. ``compilerOptions.paths`` of the tsconfig/jsconfig governing the importer (the nearest
   one whose program takes it in: ``TsconfigIndex.for_file``) — a miss on a matching alias is
   *unresolved* (except the catch-all ``*``, which also matches ordinary packages);
3. ``baseUrl`` of that config (TypeScript resolves bare specifiers against it) — a miss falls
   through;
4. workspace packages (a named ``package.json`` inside the project) — a miss is external;
5. anything else bare (``react``, ``node:fs``, ``virtual:x``) is *external*: no edge.

A candidate path resolves by: the exact file; a ``.js/.jsx/.mjs/.cjs`` extension swapped for
its TypeScript twin; each source extension appended; ``<path>/index`` plus each extension.
Existence is checked against the file universe (a set), never the filesystem, so the same
universe gives the same graph and a 50k-file project resolves in a fraction of a second.
Results are memoised per (importer directory, specifier); an importer its folder's config
leaves out and a config above takes in is resolved under that config, memoised per
(directory, governing config, specifier), so one import's outcome never depends on which
file of the folder asked first. Below those memos, what a specifier's outcome truly depends
on is memoised too, so that the tens of thousands of folders of a large project do not each
resolve it again: a relative or root path by the root-relative path it joins to; a bare
specifier by (governing config, the importer's workspace context
(``WorkspaceIndex.context_of``), specifier).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from pathlib import Path
from posixpath import normpath

from filid.graph.build_output import build_output_sources
from filid.graph.candidates import SOURCE_EXTENSIONS, probe_candidate, strip_query
from filid.graph.compiler_paths import CompilerPaths, join_path, parent_dir
from filid.graph.tsconfig import TsconfigIndex
from filid.graph.workspaces import WorkspaceIndex, split_package_specifier
from filid.model.builders import builder

__all__ = [
    "Resolution",
    "ResolutionKind",
    "Resolver",
    "build_resolver",
]


class ResolutionKind(StrEnum):
    """What a specifier turned out to be."""

    FILE = "file"
    EXTERNAL = "external"
    UNRESOLVED = "unresolved"


@dataclass(frozen=True, slots=True)
class Resolution:
    """The outcome of resolving one specifier; ``target`` is set for ``kind == FILE``;
    ``reason`` says why an ``UNRESOLVED`` one found no file (not part of equality)."""

    kind: ResolutionKind
    target: str | None = None
    via_manifest: bool = False
    reason: str | None = field(default=None, compare=False)


_KIND_CODES = {kind: code for code, kind in enumerate(ResolutionKind)}
# Every resolved import builds one (or takes it from the memo): the fast constructor
# (``filid.model.builders``: every field, in declaration order).
_RESOLUTION = builder(Resolution)
_EXTERNAL = Resolution(ResolutionKind.EXTERNAL)
_NO_FILE = Resolution(ResolutionKind.UNRESOLVED, reason="no such file")


def _unresolved(reason: str) -> Resolution:
    return Resolution(ResolutionKind.UNRESOLVED, reason=reason)


def _conditions(options: CompilerPaths | None) -> tuple[str, ...]:
    """The ``customConditions`` of a governing tsconfig's ``options`` (none without one)."""
    return options.custom_conditions if options is not None else ()


_RELATIVE = ("./", "../")


def _is_path_specifier(specifier: str) -> bool:
    return specifier.startswith(("./", "../", "/")) or specifier in (".", "..")


class Resolver:
    """Resolves specifiers against one file universe, its tsconfigs and workspace packages."""

    def __init__(
        self,
        files: frozenset[str],
        tsconfigs: TsconfigIndex,
        workspaces: WorkspaceIndex,
    ) -> None:
        self._files = files
        self._tsconfigs = tsconfigs
        self._workspaces = workspaces
        # Per importer directory: specifier → resolution (``resolve_from``), and the function
        # that answers from it (``_folder_resolver``).
        self._memo: dict[str, dict[str, Resolution]] = {}
        self._folders: dict[str, Callable[[str], Resolution]] = {}
        # The same, of the folders whose source files their folder's config governs.
        self._governed: dict[str, Callable[[str], Resolution]] = {}
        # Importers governed by a config other than their folder's (``TsconfigIndex.for_file``)
        self._moved_memo: dict[tuple[str, str, str], Resolution] = {}
        self._candidate_memo: dict[str, str | None] = {}
        # What an outcome depends on (module docstring): the path a relative or root
        # specifier joins to; (governing config, workspace context) → specifier for a bare one.
        self._path_memo: dict[str, Resolution] = {}
        self._bare_memo: dict[tuple[str, str], dict[str, Resolution]] = {}

    def memo_data(self) -> list[list[str | int | None]]:
        """Every resolution made so far as plain data ``[directory, specifier, kind, target,
        via_manifest, reason]`` (sorted), for :meth:`seed` in a later run over the same inputs."""
        kinds = _KIND_CODES
        return [
            [directory, specifier, kinds[r.kind], r.target, int(r.via_manifest), r.reason]
            for directory, specifier, r in sorted(
                (directory, specifier, r)
                for directory, memo in self._memo.items()
                for specifier, r in memo.items()
            )
        ]

    def seed(self, data: object) -> bool:
        """Take the resolutions of :meth:`memo_data` from a run over the same universe,
        tsconfigs and manifests (the caller's promise): specifiers already resolved there are
        not resolved again. Malformed data seeds nothing and returns False."""
        if not isinstance(data, list):
            return False
        kinds = tuple(ResolutionKind)
        memo: list[tuple[str, str, Resolution]] = []
        try:
            for directory, specifier, kind, target, via, reason in data:
                if not (
                    isinstance(directory, str)
                    and isinstance(specifier, str)
                    and (target is None or isinstance(target, str))
                    and (reason is None or isinstance(reason, str))
                ):
                    return False
                resolution = _RESOLUTION(kinds[kind], target, bool(via), reason)
                if resolution.kind is ResolutionKind.FILE and target not in self._files:
                    return False
                memo.append((directory, specifier, resolution))
        except (TypeError, ValueError, IndexError):
            return False
        for directory, specifier, resolution in memo:
            self._memo.setdefault(directory, {})[specifier] = resolution
        return True

    def resolve(self, importer: str, specifier: str) -> Resolution:
        """Resolve ``specifier`` as written in the root-relative file ``importer``, under the
        tsconfig governing it (``TsconfigIndex.for_file``)."""
        return self.resolver_for(importer)(specifier)

    def resolver_for(self, importer: str) -> Callable[[str], Resolution]:
        """:meth:`resolve` for every specifier of the file ``importer`` (its governing config
        looked up once)."""
        directory = parent_dir(importer)
        if importer.endswith(SOURCE_EXTENSIONS):
            found = self._governed.get(directory)
            if found is not None:
                return found
            if self._tsconfigs.governs_sources_in(directory):  # `for_file` is `for_directory`
                found = self._governed[directory] = self._folder_resolver(directory)
                return found
        options = self._tsconfigs.for_file(importer)
        if options is None or options is self._tsconfigs.for_directory(directory):
            return self._folder_resolver(directory)
        return partial(self._resolve_moved, directory, options)

    def _folder_resolver(self, directory: str) -> Callable[[str], Resolution]:
        """:meth:`resolve_from` for the files of ``directory`` (made once per directory)."""
        found = self._folders.get(directory)
        if found is not None:
            return found
        memo = self._memo.setdefault(directory, {})
        options = self._tsconfigs.for_directory(directory)
        bare = self._bare_memo_of(directory, options)
        resolve_new = self._resolve_new

        def resolve(specifier: str) -> Resolution:
            hit = memo.get(specifier)
            if hit is None:
                hit = memo[specifier] = resolve_new(directory, specifier, options, bare)
            return hit

        self._folders[directory] = resolve
        return resolve

    def _resolve_moved(self, directory: str, options: CompilerPaths, specifier: str) -> Resolution:
        """``specifier`` from a file of ``directory`` that a config above governs.

        What that config cannot resolve, the folder's own config may: its program still
        compiles a file it excludes when one of its files imports it (Next.js compiles every
        file it bundles with the app's tsconfig). Databuddy's ``apps/dashboard/tsconfig.json``
        excludes ``components/ui`` and maps ``@/*`` to ``./*``; the root config includes
        ``apps/**`` with a ``@/*`` of its own, from the root (judge N2). An import the folder's
        config resolves is no unresolved import."""
        key = (directory, options.config, specifier)
        found = self._moved_memo.get(key)
        if found is None:
            found = self._resolve_new(
                directory, specifier, options, self._bare_memo_of(directory, options)
            )
            if found.kind is ResolutionKind.UNRESOLVED:
                own = self._folder_resolver(directory)(specifier)
                if own.kind is ResolutionKind.FILE:
                    found = own
            self._moved_memo[key] = found
        return found

    def _bare_memo_of(self, directory: str, options: CompilerPaths | None) -> dict[str, Resolution]:
        """The memo of bare specifiers asked from ``directory`` under ``options``: shared by
        every folder with the same governing config and workspace context (module
        docstring)."""
        key = (
            options.config if options is not None else "",
            self._workspaces.context_of(directory),
        )
        found = self._bare_memo.get(key)
        if found is None:
            found = self._bare_memo[key] = {}
        return found

    def keeps_value_imports(self, importer: str) -> bool:
        """Whether the tsconfig governing the file ``importer`` keeps imports read only as
        types (``verbatimModuleSyntax`` and the options it replaced): no import elision."""
        options = self._tsconfigs.for_file(importer)
        return options is not None and options.keeps_value_imports

    def honours_exports(self, importer: str) -> bool | None:
        """Whether TypeScript's resolution for the file ``importer`` reads ``exports`` maps
        (``CompilerPaths.honours_exports``; no tsconfig: TypeScript's defaults, which do not).
        None when the governing config extends a base filid cannot read."""
        options = self._tsconfigs.for_file(importer)
        return False if options is None else options.honours_exports

    @property
    def tsconfigs(self) -> TsconfigIndex:
        """The project's tsconfigs: which program compiles or leaves out a file."""
        return self._tsconfigs

    def resolve_from(self, directory: str, specifier: str) -> Resolution:
        """Resolve ``specifier`` as written in a file of the root-relative ``directory`` that
        the folder's config governs (``TsconfigIndex.for_directory``; :meth:`resolve` asks
        for the file's own config)."""
        return self._folder_resolver(directory)(specifier)

    def manifest_entry_files(self) -> frozenset[str]:
        """The source files every package root's manifest declares as entries (SPEC §1).

        A target in unbuilt build output maps to its source (``dist/x.js`` → ``src/x.ts``).
        """
        found: set[str] = set()
        for directory, targets in self._workspaces.entry_targets.items():
            for target in targets:
                file = self.resolve_candidate(target) or self._first(
                    self._sources_of(directory, target)
                )
                if file is not None:
                    found.add(file)
        return frozenset(found)

    @property
    def notes(self) -> tuple[str, ...]:
        """One line per manifest or workspace declaration filid could not read (the file
        named), and what it did instead; a broken tsconfig of a test fixture is one too."""
        return self._workspaces.notes + self._tsconfigs.notes

    def is_judged_unresolved(self, importer: str, specifier: str) -> bool:
        """Whether an unresolved ``specifier`` of the file ``importer`` is a claim filid can
        make: a relative or root path, or a tsconfig ``paths`` alias, that finds no file even
        without a bundler query (``?inline``), under a tsconfig without ``rootDirs``. A bare
        workspace name (its package may publish build output, or keep private sources behind
        a link), a ``#x`` package import, and a namesake of an npm package are not judged."""
        directory = parent_dir(importer)
        options = self._tsconfigs.for_file(importer)
        if _is_path_specifier(specifier):
            if options is not None and self._tsconfigs.maps_root_dirs(options):
                return False
        elif options is None or (matched := options.match_alias(specifier)) is None:
            return False
        elif matched[0].is_catch_all:
            return False  # `"*": [...]` only adds a place to look before node_modules
        elif (named := split_package_specifier(specifier)) is not None and (
            self._workspaces.declared_link(named[0], directory) is not None
        ):
            # An alias that finds no file falls back to node_modules in TypeScript: a declared
            # dependency of that name resolves it (a `convex/*` alias and the `convex` package).
            return False
        for mark in ("?", "#"):
            head = specifier.split(mark, 1)[0]
            found = head != specifier and bool(head)
            if found and self.resolve(importer, head).kind is ResolutionKind.FILE:
                return False
        return True

    def candidate_paths(self, importer: str, specifier: str) -> list[str]:
        """The root-relative paths ``specifier``, written in the file ``importer``, could
        stand for (before extensions are tried): its relative or root path, its tsconfig
        alias targets, its workspace package candidates. Used to ask whether a missing target
        is a generated file."""
        directory = parent_dir(importer)
        if _is_path_specifier(specifier):
            base = "." if specifier.startswith("/") else directory
            paths = strip_query(join_path(base, specifier.lstrip("/")))
            if specifier.startswith("/"):
                # A bundler's root is a folder above the importer (Vite: `/index.html?raw`),
                # and Vite and Next serve `/vite.svg` from its `public/` folder
                current = directory
                while True:
                    paths.extend(strip_query(join_path(current, specifier.lstrip("/"))))
                    paths.extend(strip_query(join_path(current, "public" + specifier)))
                    if current == ".":
                        break
                    current = parent_dir(current)
            return paths
        found: list[str] = []
        options = self._tsconfigs.for_file(importer)
        if options is not None:
            matched = options.match_alias(specifier)
            if matched is not None:
                # `~/uno.css?url` names `app/uno.css` (a bundler query, as for relative paths)
                found.extend(path for target in matched[1] for path in strip_query(target))
        workspace = self._workspaces.candidates(specifier, directory)
        if workspace is not None:
            found.extend(c for c, _, _ in workspace)
        return found

    def unpublished_package(self, importer: str, specifier: str) -> str | None:
        """The folder of the workspace package whose manifest ``exports`` does not publish
        ``specifier`` (a ``<package>/<sub>`` path reached only as a plain file), else None.

        Node refuses such an import (``ERR_PACKAGE_PATH_NOT_EXPORTED``). A package without
        ``exports`` publishes every path; a tsconfig ``paths`` alias that finds the file is
        the project's own mapping (its bundler follows it), not a package import.
        """
        resolution = self.resolve(importer, specifier)
        if resolution.kind is not ResolutionKind.FILE or resolution.via_manifest:
            return None
        split = split_package_specifier(specifier)
        if split is None or not split[1]:
            return None
        directory = parent_dir(importer)
        options = self._tsconfigs.for_file(importer)
        if options is not None:
            matched = options.match_alias(specifier)
            if matched is not None and self._first(matched[1]) is not None:
                return None
        candidates = self._workspaces.candidates(specifier, directory)
        if not candidates or any(via_manifest for _, via_manifest, _ in candidates[:-1]):
            # the exports map lists the subpath (its unbuilt target mapped to no source:
            # qwik's `@qwik.dev/core/build` → `./dist/build/…`): published
            return None
        package_dir = candidates[-1][2]
        package = self._workspaces.package_at(package_dir)
        if package is None or not package.exports:
            return None
        return package_dir

    def package_directories(self) -> frozenset[str]:
        """The folder of every named workspace package (the units of package cycles)."""
        return self._workspaces.package_directories()

    def workspace_members(self) -> frozenset[str]:
        """The folder of every named package a workspace declaration includes (none without
        a declaration)."""
        return self._workspaces.member_directories()

    def workspace_packages(self) -> dict[str, str]:
        """Every named workspace package (name → folder) that resolution links by name."""
        return {name: p.directory for name, p in self._workspaces.packages.items()}

    def route_directories(self) -> frozenset[str]:
        """Route folders of the packages that use a file-routing framework (Next.js…)."""
        return self._workspaces.route_directories

    def manifest_targets(self) -> dict[str, tuple[str, ...]]:
        """Every ``package.json`` folder → the files its manifest declares by name (``exports``
        targets without ``*``, ``main``, ``module``, ``types``, ``bin``…), root-relative and
        as written: paths of the published package, built or not."""
        return self._workspaces.entry_targets

    def resolve_candidate(self, path: str) -> str | None:
        """The universe file a root-relative candidate path stands for, or ``None``."""
        if path in self._candidate_memo:
            return self._candidate_memo[path]
        found = probe_candidate(self._files, path)
        self._candidate_memo[path] = found
        return found

    def _resolve_new(
        self,
        directory: str,
        specifier: str,
        options: CompilerPaths | None,
        bare: dict[str, Resolution],
    ) -> Resolution:
        """``specifier`` from a file of ``directory`` under ``options``, from what its outcome
        depends on (module docstring): resolved only when that was never asked. ``bare`` is
        :meth:`_bare_memo_of` the folder."""
        if specifier.startswith(_RELATIVE) or specifier in (".", ".."):
            path = normpath(specifier if directory == "." else f"{directory}/{specifier}")
        elif specifier.startswith("/"):
            path = join_path(".", specifier.lstrip("/"))
        elif not specifier:
            return _unresolved("empty specifier")
        else:
            found = bare.get(specifier)
            if found is None:
                found = bare[specifier] = self._resolve_bare(directory, specifier, options)
            return found
        found = self._path_memo.get(path)
        if found is None:
            target = self.resolve_candidate(path)
            if target is None and ("?" in path or "#" in path):
                target = self._first(strip_query(path)[1:])  # the path less a bundler suffix
            found = self._path_memo[path] = self._file_or(target, _NO_FILE)
        return found

    def _resolve_bare(
        self, directory: str, specifier: str, options: CompilerPaths | None
    ) -> Resolution:
        """A non-empty specifier that is no relative or root path, resolved (steps 2-5)."""
        if options is not None:
            matched = options.match_alias(specifier)
            if matched is not None:
                alias, candidates = matched
                target = self._first(candidates)
                if target is not None:
                    return Resolution(
                        ResolutionKind.FILE, target, self._publishes(specifier, directory)
                    )
                if not alias.is_catch_all:
                    return self._workspace(specifier, directory, options) or _unresolved(
                        "the tsconfig `paths` alias matches no file"
                    )
        if specifier.startswith("#"):
            return self._package_import(specifier, directory, options)  # after `paths` (tsc)
        if options is not None and options.base_url is not None:
            target = self.resolve_candidate(join_path(options.base_url, specifier))
            if target is not None:
                return Resolution(ResolutionKind.FILE, target)
        return self._workspace(specifier, directory, options) or _EXTERNAL

    def _sources_of(self, package_dir: str, candidate: str) -> list[str]:
        """Source candidates for a build-output path of a package: the package tsconfig's
        ``outDir`` → ``rootDir`` first, then the conventional ``dist|build|lib|out`` → ``src``."""
        found: list[str] = []
        options = self._tsconfigs.for_directory(package_dir)
        if options is not None and options.out_dir is not None:
            out = options.out_dir
            if candidate.startswith(out + "/"):
                rest = candidate[len(out) + 1 :]
                for suffix in (".d.ts", ".d.mts", ".d.cts"):
                    if rest.endswith(suffix):
                        rest = rest[: -len(suffix)]
                        break
                base = options.root_dir if options.root_dir is not None else package_dir
                found.append(join_path(base, rest))
        name = self._workspaces.name_of(package_dir)
        return found + build_output_sources(package_dir, candidate, name)

    def _publishes(self, specifier: str, directory: str) -> bool:
        """A `paths` alias that spells a workspace package's name (`@trpc/server/adapters/ws`
        mapped to its source by the monorepo's tsconfig) still goes through what the package
        publishes when its manifest exports that subpath."""
        found = self._workspaces.lookup(specifier, directory)
        return found is not None and any(via for _, via, _ in found.candidates)

    def _package_import(
        self, specifier: str, directory: str, options: CompilerPaths | None
    ) -> Resolution:
        """``#x``: the nearest package.json's ``imports`` (a target may also be a bare name)."""
        found = self._workspaces.import_candidates(specifier, directory, _conditions(options))
        if found is None:
            return _unresolved("no package.json above the importer declares `imports`")
        targets, package_dir = found
        for target in targets:
            relative = target[len(package_dir) + 1 :] if package_dir != "." else target
            if not target.startswith(package_dir) or relative.startswith(("../", "/")):
                continue
            file = self.resolve_candidate(target) or self._first(
                self._sources_of(package_dir, target)
            )
            if file is not None:
                return Resolution(ResolutionKind.FILE, file)
        manifest = join_path(package_dir, "package.json")
        if not targets:
            return _unresolved(f"`imports` of {manifest} has no such entry")
        return _unresolved(f"`imports` of {manifest} names no file inside its package")

    def _workspace(
        self, specifier: str, directory: str, options: CompilerPaths | None
    ) -> Resolution | None:
        """A workspace package's file for ``specifier``; None when it names no package.

        A package that exists but has no such file is *unresolved* (never external). A file
        reached through the manifest (``exports``, ``types``, ``module``, ``main``, the
        package's ``index``) is ``via_manifest``: an entry point the package publishes. Build
        output that does not exist maps to its source (SPEC §4): ``dist|build|lib/x`` →
        ``src/x``, then ``x``.
        """
        lookup = self._workspaces.lookup(specifier, directory, _conditions(options))
        if lookup is None:
            return None
        if lookup.refusal is not None:
            return _unresolved(lookup.refusal)
        for candidate, via_manifest, package_dir in lookup.candidates:
            # Build output a deep import or the manifest names maps to its source.
            target = self.resolve_candidate(candidate) or self._first(
                self._sources_of(package_dir, candidate)
            )
            if target is not None:
                return Resolution(ResolutionKind.FILE, target, via_manifest)
        if not lookup.subpath:
            return _unresolved(f"package {lookup.package}: its entry point names no file")
        return _unresolved(
            f"package {lookup.package}: no file for subpath ./{lookup.subpath}"
            + (
                " (`exports` does not name it)"
                if lookup.has_exports and len(lookup.candidates) == 1
                else ""
            )
        )

    def _first(self, candidates: Collection[str]) -> str | None:
        for candidate in candidates:
            target = self.resolve_candidate(candidate)
            if target is not None:
                return target
        return None

    @staticmethod
    def _file_or(target: str | None, otherwise: Resolution) -> Resolution:
        if target is None:
            return otherwise
        return _RESOLUTION(ResolutionKind.FILE, target, False, None)


def build_resolver(root: Path, files: Collection[str]) -> Resolver:
    """A resolver over the whole file universe ``files`` (root-relative POSIX paths).

    Reads every tsconfig.json/jsconfig.json (and the bases they extend) and every
    package.json of the universe once. Raises ``InputError`` naming the file when one is not
    valid JSON-with-comments.
    """
    universe = frozenset(files)
    return Resolver(universe, TsconfigIndex(root, universe), WorkspaceIndex(root, universe))
