"""Workspace packages: a ``package.json`` with a ``name`` inside the project (SPEC §4).

Membership is real: when the project declares workspaces (``pnpm-workspace.yaml``
``packages:``, read with a YAML library; ``package.json`` ``workspaces``), only the packages
a declaration includes and does not exclude with a ``!`` glob are linked by name (excluded
example folders are not: importing one is *unresolved* with that reason); a project that
declares none links every named package (a lenient default for repositories that link
packages some other way). A declaration filid cannot read is a note, and links every named
package below its folder.

The nearest manifest above the importer that declares the dependency decides what its name
installs (``graph.dependency_links``: ``workspace:``, ``npm:``, ``file:``/``link:``/``portal:``,
``catalog:``, ``patch:``, remote specifiers); see the README, "Formats and protocols filid
reads".

An import of ``name`` or ``name/sub`` from anywhere in the project goes to that package's
files instead of ``node_modules``. The entry of ``name`` is looked for, first hit wins, in:
``exports["."]`` (a string, an array of fallbacks, or a conditions object — conditions
``types``, ``import``, ``default``, ``require`` preferred in that order, then any other
condition in document order, nested objects followed), ``types``, ``typings``, ``module``,
``main``, the package directory's ``index.*``, and finally ``src/index.*`` (monorepo packages
whose ``main`` points into an unbuilt ``dist/``, which is never part of the file universe).
``name/sub`` looks in ``exports["./sub"]`` (``*`` subpath patterns included), then the path
``sub`` under the package directory.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from filid.graph.compiler_paths import join_path, parent_dir
from filid.graph.dependency_links import DependencyLink, declared_dependencies, dependency_link
from filid.graph.jsonc import read_jsonc_file
from filid.graph.package_manifest import (
    ENTRY_FIELDS,
    ROUTE_DIRECTORIES,
    WorkspacePackage,
    declared_targets,
    expand_target,
    index_of,
    subpath_map,
    uses_file_routing,
)
from filid.graph.unread_configs import breaks_on_placeholder
from filid.graph.workspace_declarations import WorkspaceDeclarations, is_member
from filid.model.errors import InputError
from filid.scan.classify import broken_config_excuse

__all__ = [
    "PackageLookup",
    "WorkspaceIndex",
    "split_package_specifier",
]


def split_package_specifier(specifier: str) -> tuple[str, str] | None:
    """Split a bare specifier into ``(package name, subpath)``; ``None`` if it has no name."""
    if specifier.startswith("@"):
        scope, sep, rest = specifier.partition("/")
        if not sep or len(scope) < 2:
            return None
        name, _, sub = rest.partition("/")
        return (f"{scope}/{name}", sub) if name else None
    name, _, sub = specifier.partition("/")
    return (name, sub) if name else None


def _shared_depth(a: str, b: str) -> int:
    """How many leading folders two root-relative paths share."""
    depth = 0
    for left, right in zip(a.split("/"), b.split("/"), strict=False):
        if left != right or left == ".":
            break
        depth += 1
    return depth


@dataclass(frozen=True, slots=True)
class PackageLookup:
    """Where a bare specifier that names a package of the repository may lead.

    ``candidates`` as :meth:`WorkspaceIndex.candidates` gives them; ``package`` names the
    package for messages; ``refusal`` says why the import does not reach the repository's
    package at all (a non-member, an ``npm:`` alias…), in which case there are no candidates.
    """

    candidates: tuple[tuple[str, bool, str], ...]
    package: str
    subpath: str
    has_exports: bool = False
    refusal: str | None = None


# Why a manifest that breaks on a template placeholder is left out (``graph.unread_configs``).
TEMPLATE_MANIFEST = (
    "its JSON breaks on a template placeholder: a generator's template, not a package of this "
    "project"
)

# The lockfiles of npm, Yarn, pnpm and Bun: a folder holding one is installed on its own.
LOCKFILES = (
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lockb",
    "bun.lock",
)


class WorkspaceIndex:
    """Named packages of the universe by name (the shallowest manifest wins a duplicate name)."""

    def __init__(self, root: Path, files: Collection[str]) -> None:
        manifests = sorted(
            (f for f in files if f == "package.json" or f.endswith("/package.json")),
            key=lambda f: (f.count("/"), f),
        )
        parsed: dict[str, object] = {}
        broken: list[str] = []
        for manifest in manifests:
            try:
                parsed[manifest] = read_jsonc_file(root, manifest)
            except InputError as error:
                excuse = broken_config_excuse(manifest)
                if excuse is None and breaks_on_placeholder(error):
                    excuse = TEMPLATE_MANIFEST  # nestjs/schematics' `files/ts/package.json`
                if excuse is None:
                    raise
                # pnpm's `__fixtures__/invalid-package-json/`: broken on purpose
                parsed[manifest] = None
                broken.append(f"{error}; left out ({excuse})")
        declarations = WorkspaceDeclarations(root, files, parsed)
        self._declarations = declarations
        self.notes: tuple[str, ...] = (*declarations.notes, *broken)
        self._packages: dict[str, WorkspacePackage] = {}
        self._entry_targets: dict[str, tuple[str, ...]] = {}
        self._route_directories: set[str] = set()
        self._imports: dict[str, dict[str, object]] = {}
        # Every package of a name: nested workspaces (templates, examples) reuse names.
        self._namesakes: dict[str, list[WorkspacePackage]] = {}
        # Named packages no workspace declaration includes, and every manifest by folder.
        self._outsiders: dict[str, WorkspacePackage] = {}
        self._by_directory: dict[str, WorkspacePackage] = {}
        self._dependencies: dict[str, dict[str, str]] = {}
        self._manifests: dict[str, str] = {}
        # Projects no workspace declaration includes that lock their own install.
        self._separate_installs: set[str] = set()
        self._versions: dict[str, str] = {}  # a manifest's `version`, by folder
        for manifest in manifests:
            data = parsed[manifest]
            if not isinstance(data, dict):
                continue
            directory = parent_dir(manifest)
            self._entry_targets[directory] = declared_targets(directory, data)
            imports = data.get("imports")
            self._imports[directory] = imports if isinstance(imports, dict) else {}
            self._dependencies[directory] = declared_dependencies(data)
            self._manifests[directory] = manifest
            version = data.get("version")
            if isinstance(version, str):
                self._versions[directory] = version.strip()
            if uses_file_routing(data):
                self._route_directories.update(join_path(directory, r) for r in ROUTE_DIRECTORIES)
            name = data.get("name")
            fields = tuple(
                v for f in ENTRY_FIELDS if isinstance(v := data.get(f), str) and v.strip()
            )
            package = WorkspacePackage(
                name=name if isinstance(name, str) else "",
                directory=directory,
                manifest=manifest,
                exports=subpath_map(data.get("exports")),
                entry_fields=fields,
            )
            self._by_directory[directory] = package
            if not isinstance(name, str) or not name:
                continue
            if declarations.globs and not is_member(directory, declarations.globs):
                if directory != "." and any(
                    os.path.isfile(root / directory / lockfile) for lockfile in LOCKFILES
                ):
                    self._separate_installs.add(directory)
                self._outsiders.setdefault(name, package)
                continue  # not included by any workspace declaration (or excluded with `!`)
            self._packages.setdefault(name, package)
            self._namesakes.setdefault(name, []).append(package)
        # ``context_of``: with no name shared by two packages, a folder's nearest manifest
        self._contexts: dict[str, str] | None = (
            {} if all(len(p) == 1 for p in self._namesakes.values()) else None
        )

    def context_of(self, directory: str) -> str:
        """A key for what the files of ``directory`` get from :meth:`lookup`,
        :meth:`declared_link` and :meth:`import_candidates`: folders with the same key get
        the same answers to every question.

        Each of them reads the manifests from the nearest one at or above ``directory`` up,
        and nothing else of the folder, unless a name belongs to several packages (the one
        nearest the importer wins): so the key is the folder of that nearest manifest (``""``
        without one), or, when some name is shared, ``directory`` itself.
        """
        contexts = self._contexts
        if contexts is None:
            return directory
        found = contexts.get(directory)
        if found is not None:
            return found
        walked: list[str] = []
        current = directory
        while True:
            found = contexts.get(current)
            if found is not None:
                break
            walked.append(current)
            if current in self._imports:
                found = current
                break
            if current == ".":
                found = ""
                break
            current = parent_dir(current)
        for folder in walked:
            contexts[folder] = found
        return found

    def import_candidates(
        self, specifier: str, importer_dir: str, conditions: tuple[str, ...] = ()
    ) -> tuple[list[str], str] | None:
        """Targets of a ``#x`` package import (the nearest package.json's ``imports``, with
        conditions and ``*`` patterns) and that package's folder; None without a package."""
        current = importer_dir
        while current not in self._imports:
            if current == ".":
                return None
            current = parent_dir(current)
        found = index_of(self._imports[current]).lookup(specifier)
        if found is None:
            return [], current
        return expand_target(current, found[0], found[1], 0, conditions), current

    @property
    def route_directories(self) -> frozenset[str]:
        """Folders that may hold file-system routes: ``pages``, ``app``, ``routes`` (and under
        ``src/``) of every package that depends on a file-routing framework."""
        return frozenset(self._route_directories)

    @property
    def entry_targets(self) -> dict[str, tuple[str, ...]]:
        """Every package root's declared entry targets (root-relative, possibly unbuilt)."""
        return self._entry_targets

    @property
    def packages(self) -> dict[str, WorkspacePackage]:
        """Every named package, by name."""
        return self._packages

    def name_of(self, directory: str) -> str | None:
        """The ``name`` of the package whose manifest is in ``directory``, if any."""
        package = self._by_directory.get(directory)
        return package.name or None if package is not None else None

    def package_at(self, directory: str) -> WorkspacePackage | None:
        """The named package whose folder is ``directory`` (namesakes included), or None."""
        for packages in self._namesakes.values():
            for package in packages:
                if package.directory == directory:
                    return package
        return None

    def member_directories(self) -> frozenset[str]:
        """The folder of every named package a workspace declaration includes: none when the
        repository declares no workspace (its named packages are then linked by name for
        resolution, but no install builds them in place as members)."""
        if not self._declarations.globs:
            return frozenset()
        return self.package_directories()

    def package_directories(self) -> frozenset[str]:
        """The folder of every named workspace package (namesakes included)."""
        return frozenset(p.directory for ps in self._namesakes.values() for p in ps)

    def declared_link(self, name: str, importer_dir: str) -> DependencyLink | None:
        """What the nearest manifest above ``importer_dir`` that declares dependency ``name``
        installs under that name; None when no manifest declares it."""
        current = importer_dir
        while True:
            spec = self._dependencies.get(current, {}).get(name)
            if spec is not None:
                if current in self._separate_installs and self._other_release(name, spec):
                    # A stand-alone project (no workspace member, its own lockfile) installs
                    # from the registry a release the workspace's manifest does not describe
                    # (angular/components' StackBlitz template: `^22.1.0`, while the
                    # workspace's `@angular/material` is `0.0.0-PLACEHOLDER`).
                    return DependencyLink(
                        refusal=f"declared as `{spec}` in {self._manifests[current]}, a "
                        "project with its own lockfile: the registry's package is installed"
                    )
                return dependency_link(name, spec, self._manifests[current], self._declarations)
            if current == ".":
                return None
            current = parent_dir(current)

    def _other_release(self, name: str, spec: str) -> bool:
        """Whether the version range ``spec`` leaves out the version of every workspace
        package ``name``: then what a separate install gets is another release, whose
        manifest filid does not have. Only plain ranges are read (``^22.1.0``, ``~3.1``,
        ``5.x``, alternatives with ``||``), by their major version; a tag (``latest``,
        ``next``), ``*`` or a compound range may be the workspace's own release."""
        majors = set()
        for alternative in spec.split("||"):
            head = alternative.strip().lstrip("^~=v").strip()
            major = head.split(".", 1)[0]
            if not major.isdigit() or not head or any(c in head for c in " <>*"):
                return False
            majors.add(int(major))
        versions = [self._versions.get(p.directory) for p in self._namesakes.get(name, ())]
        if not versions:
            return False
        for version in versions:
            major = version.lstrip("v").split(".", 1)[0] if version else ""
            if not major.isdigit() or int(major) in majors:
                return False
        return True

    def lookup(
        self, specifier: str, importer_dir: str = ".", conditions: tuple[str, ...] = ()
    ) -> PackageLookup | None:
        """Where ``specifier`` leads when it names a package of the repository (a workspace
        member, a named package no declaration includes, or a folder a ``file:``/``link:``
        dependency links); None when it names none (an ordinary external package).

        The nearest manifest that declares the dependency decides (see
        :func:`dependency_link`); an undeclared name links the workspace package. When several
        packages share the name (nested workspaces: each template of a repository with its
        own ``@workspace/ui``), the one closest to the importer wins: the longest common
        folder prefix, then the shallowest.
        """
        split = split_package_specifier(specifier)
        if split is None:
            return None
        name, sub = split
        link = self.declared_link(name, importer_dir)
        package: WorkspacePackage | None = None
        if link is not None and link.directory is not None:
            package = self._by_directory.get(link.directory) or WorkspacePackage(
                name, link.directory, join_path(link.directory, "package.json"), {}, ()
            )
        elif link is not None and link.refusal is not None:
            if name not in self._namesakes and name not in self._outsiders:
                return None
            return PackageLookup((), name, sub, refusal=link.refusal)
        else:
            target = link.name if link is not None and link.name is not None else name
            namesakes = self._namesakes.get(target)
            if not namesakes:
                outsider = self._outsiders.get(target)
                if outsider is None:
                    return None
                return PackageLookup(
                    (),
                    target,
                    sub,
                    refusal=f"package {target} ({outsider.directory}) is not a member of the "
                    "declared workspaces",
                )
            package = namesakes[0]
            if len(namesakes) > 1:
                package = max(namesakes, key=lambda p: _shared_depth(p.directory, importer_dir))
        directory = package.directory
        label = f"{package.name or name} ({directory})"
        if not sub:
            found = tuple((c, True, directory) for c in package.entry_candidates(conditions))
            return PackageLookup(found, label, sub, bool(package.exports))
        subpath = package.subpath_candidates(sub, conditions)
        found = (*((c, True, directory) for c in subpath[:-1]), (subpath[-1], False, directory))
        return PackageLookup(found, label, sub, bool(package.exports))

    def candidates(
        self, specifier: str, importer_dir: str = "."
    ) -> list[tuple[str, bool, str]] | None:
        """``(candidate path, through the manifest, package directory)`` in preference order
        if ``specifier`` names a package of the repository it reaches, else ``None``.

        Every candidate is "through the manifest" (an entry point the package publishes)
        except the plain ``<package>/<sub>`` path that a subpath falls back on.
        """
        found = self.lookup(specifier, importer_dir)
        return list(found.candidates) if found is not None else None
