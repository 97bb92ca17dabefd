"""A ``paths`` alias that finds nothing falls back to a hoisted package (judge F1 P7).

When every substitution of a matched tsconfig ``paths`` pattern misses, TypeScript goes on to
look the specifier up in ``node_modules`` folders, from the importer's folder up (``tsc
--traceResolution``: "Loading module '@prisma/client' from 'node_modules' folder"; esbuild and
tsup do the same). ``Resolver.is_judged_unresolved`` already leaves alone a name the
importer's own manifests declare. npm, Yarn and Bun workspaces also hoist every member's
dependencies into the repository root's ``node_modules``, which every folder of the
repository sees: blinko's ``prisma/seed.ts`` imports ``@prisma/client`` through a
``"@prisma/*": ["./prisma/*"]`` pattern that matches no file, and the package, declared by its
``server`` member, sits in the root's ``node_modules``. pnpm links each member's dependencies
into that member alone (unless ``.npmrc`` hoists: ``node-linker=hoisted`` or
``shamefully-hoist=true``), so a pnpm workspace keeps the claim. A workspace package's
name is no such package: its link is the member's own folder, where the file is missing too.
"""

from __future__ import annotations

import json

from filid.check.lockfile_packages import lockfile_packages
from filid.check.project import Project
from filid.graph.dependency_links import declared_dependencies
from filid.graph.workspaces import split_package_specifier
from filid.model.errors import InputError
from filid.store.files import read_regular_file

__all__ = ["HoistedPackages"]

_HOISTING = (b"node-linker=hoisted", b"shamefully-hoist=true")


class HoistedPackages:
    """Answers "does the root ``node_modules`` hold the package this specifier names?"."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._hoists: bool | None = None
        self._names: frozenset[str] | None = None

    def holds(self, specifier: str) -> bool:
        """Whether a bare ``specifier`` names a dependency some manifest of the repository
        declares, or a package the root lockfile of a flat install lists
        (``check.lockfile_packages``: a transitive dependency), in a repository whose package
        manager hoists dependencies to the root."""
        if specifier.startswith((".", "/", "#")):
            return False
        split = split_package_specifier(specifier)
        if split is None or not self._hoisting():
            return False
        if split[0] in self._project.resolver.workspace_packages():
            # the link is the workspace's own folder: the lookup finds the same missing file
            return False
        return split[0] in self._declared()

    def _declared(self) -> frozenset[str]:
        if self._names is None:
            self._names = self._manifest_names() | lockfile_packages(self._project)
        return self._names

    def _manifest_names(self) -> frozenset[str]:
        """The dependencies the root's and the workspace packages' manifests declare."""
        names: set[str] = set()
        for directory in sorted({".", *self._project.resolver.package_directories()}):
            manifest = "package.json" if directory == "." else f"{directory}/package.json"
            try:
                data = json.loads(read_regular_file(self._project.root / manifest, 1 << 22))
            except (OSError, InputError, ValueError):
                continue
            if isinstance(data, dict):
                names.update(declared_dependencies(data))
        return frozenset(names)

    def _hoisting(self) -> bool:
        if self._hoists is None:
            files = self._project.tree.files
            if "pnpm-workspace.yaml" not in files:
                self._hoists = "package.json" in files
            else:
                try:
                    npmrc = read_regular_file(self._project.root / ".npmrc", 1 << 16)
                except (OSError, InputError):
                    npmrc = b""
                text = b"".join(npmrc.split(b" "))
                self._hoists = any(mark in text for mark in _HOISTING)
        return self._hoists
