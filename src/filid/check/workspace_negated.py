"""Packages a workspace declaration explicitly leaves out with a ``!`` glob (issue 23, K1 P8).

VoltAgent's `pnpm-workspace.yaml` lists ``"!archive/**"`` before ``"packages/*"``: the
packages moved to `archive/deprecated-providers/` are still in the repository (their README
says they get no updates), but the workspace neither installs nor builds them, and their
`tsup.config.ts` still imports `../shared/tsup-plugins/mark-as-external` from where the
packages used to live.

Decision (SPEC §0 is silent): a file whose own package (the nearest folder with a
``package.json`` below the declaring folder) lies at or below a folder a negated glob of a
``pnpm-workspace.yaml`` ``packages`` list or a ``package.json`` ``workspaces`` list matches is
treated like a file no build reaches: its unresolved imports are no claim, unless a file
outside that package imports it. A negation that matches only a folder inside a package
(``"!**/test/**"``, which keeps test fixtures out of the workspace) says nothing about the
package's own files: the package's folder must be excluded, not one of its sub-folders.
"""

from __future__ import annotations

from filid.check.project import Project
from filid.config.globs import matches_glob_exactly
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.graph.yamlfile import read_yaml_file
from filid.model.errors import InputError

__all__ = ["NegatedWorkspacePackages"]


class NegatedWorkspacePackages:
    """Which files belong to a package a workspace declaration negates (asked per file)."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._file_set: frozenset[str] | None = None
        self._negations: dict[str, tuple[str, ...]] = {}
        self._excluded: dict[str, str | None] = {}
        self._importers: dict[str, list[str]] | None = None

    def holds(self, file: str) -> bool:
        """Whether ``file``'s package is negated by a workspace declaration above it and no
        file outside that package imports ``file``."""
        package = self._package_of(file)
        if package is None:
            return False
        excluded = self._excluded.get(package, "")
        if excluded == "":
            excluded = self._excluded[package] = self._excluding_folder(package)
        if excluded is None:
            return False
        if self._importers is None:
            importers: dict[str, list[str]] = {}
            for edge in self._project.file_graph.edges:
                importers.setdefault(edge.target, []).append(edge.source)
            self._importers = importers
        return all(is_within(source, package) for source in self._importers.get(file, ()))

    @property
    def _files(self) -> frozenset[str]:
        """The universe's files, as a set (built on the first question)."""
        if self._file_set is None:
            self._file_set = frozenset(self._project.tree.files)
        return self._file_set

    def _package_of(self, file: str) -> str | None:
        """The nearest folder above ``file`` with a ``package.json`` (None: the root or none)."""
        folder = parent_dir(file)
        while folder not in (".", ""):
            if join_path(folder, "package.json") in self._files:
                return folder
            folder = parent_dir(folder)
        return None

    def _excluding_folder(self, package: str) -> str | None:
        """The declaring folder whose negated glob matches ``package`` or a folder above it
        (below the declaring folder); None when no declaration negates it."""
        base = parent_dir(package)
        while True:
            negations = self._negations_at(base)
            if negations:
                prefix = "" if base == "." else base + "/"
                relative = package[len(prefix) :]
                folders = [relative]
                while "/" in folders[-1]:
                    folders.append(folders[-1].rpartition("/")[0])
                if any(matches_glob_exactly(f, g) for f in folders for g in negations):
                    return base
            if base in (".", ""):
                return None
            base = parent_dir(base)

    def _negations_at(self, folder: str) -> tuple[str, ...]:
        """The negated globs (without ``!``) of the workspace declarations in ``folder``."""
        found = self._negations.get(folder)
        if found is not None:
            return found
        globs: list[object] = []
        root = self._project.root
        pnpm = join_path(folder, "pnpm-workspace.yaml")
        if pnpm in self._files:
            data, problem = read_yaml_file(root, pnpm)
            if problem is None and isinstance(data, dict):
                packages = data.get("packages")
                if isinstance(packages, list):
                    globs += packages
        manifest = join_path(folder, "package.json")
        if manifest in self._files:
            try:
                data = read_jsonc_file(root, manifest)
            except InputError:
                data = None
            workspaces = data.get("workspaces") if isinstance(data, dict) else None
            if isinstance(workspaces, dict):
                workspaces = workspaces.get("packages")
            if isinstance(workspaces, list):
                globs += workspaces
        found = tuple(
            g.strip()[1:].strip().removeprefix("./").rstrip("/")
            for g in globs
            if isinstance(g, str) and g.strip().startswith("!") and g.strip()[1:].strip()
        )
        self._negations[folder] = found
        return found
