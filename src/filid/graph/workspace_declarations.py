"""Workspace declarations (``pnpm-workspace.yaml`` ``packages:``, ``package.json``
``workspaces``, Rush's ``rush.json`` ``projects``) and pnpm/bun catalogs: which named packages
are members of the workspace."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from filid.config.globs import matches_glob_exactly
from filid.graph.compiler_paths import parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.graph.yamlfile import read_yaml_file
from filid.model.errors import InputError


def _workspace_globs(value: object) -> list[str] | None:
    """The package globs of a ``workspaces`` field: a list, or ``{"packages": [...]}`` (yarn
    and bun; ``{}`` or a missing list declares none); ``None`` for any other shape."""
    if isinstance(value, dict):
        value = value.get("packages", [])
    if not isinstance(value, list) or not all(isinstance(g, str) for g in value):
        return None
    return [g.strip() for g in value if g.strip()]


class WorkspaceDeclarations:
    """Every workspace declaration of the universe, read with the parser its format deserves.

    ``globs``: (declaring folder, globs with ``!``). ``notes``: one line per declaration filid
    cannot read (the file named); such a declaration links every named package below its
    folder, never none. ``catalogs``: pnpm's and bun's catalog entries by (folder, catalog
    name, package name). ``no_link``: folders of pnpm workspaces (their root package.json and
    pnpm-workspace.yaml).
    """

    def __init__(self, root: Path, files: Collection[str], manifests: dict[str, object]) -> None:
        self.globs: list[tuple[str, list[str]]] = []
        self.notes: list[str] = []
        self.catalogs: dict[tuple[str, str, str], str] = {}
        declaring = ("pnpm-workspace.yaml", "rush.json", "package.json")
        # Sorted after the filter: sorting 50,000 paths to read a hundred costs more.
        for file in sorted(f for f in files if f.rpartition("/")[2] in declaring):
            name = file.rpartition("/")[2]
            if name == "pnpm-workspace.yaml":
                self._read_pnpm(root, file)
            elif name == "rush.json":
                self._read_rush(root, file)
            elif name == "package.json":
                data = manifests.get(file)
                if isinstance(data, dict) and "workspaces" in data:
                    globs = _workspace_globs(data["workspaces"])
                    if globs is None:
                        self._unreadable(
                            file,
                            "`workspaces` is neither a list of globs nor "
                            "an object with a `packages` list",
                        )
                    else:
                        self.globs.append((parent_dir(file), globs))
                if isinstance(data, dict):
                    self._read_catalogs(parent_dir(file), data)
                    workspaces = data.get("workspaces")
                    if isinstance(workspaces, dict):
                        self._read_catalogs(parent_dir(file), workspaces)

    def _unreadable(self, file: str, reason: str) -> None:
        self.notes.append(
            f"{file}: {reason}; every named package below its folder is linked as a workspace"
        )
        self.globs.append((parent_dir(file), ["**"]))

    def _read_pnpm(self, root: Path, file: str) -> None:
        data, problem = read_yaml_file(root, file)
        if problem is not None:
            self._unreadable(file, problem[len(file) + 2 :])
            return
        if data is None:
            data = {}  # an empty file: the root package alone
        if not isinstance(data, dict):
            self._unreadable(file, "the top level is not a mapping")
            return
        packages = data.get("packages", [])
        if packages is None:
            packages = []
        if not isinstance(packages, list) or not all(isinstance(g, str) for g in packages):
            self._unreadable(file, "`packages` is not a list of glob strings")
            return
        self.globs.append((parent_dir(file), [g.strip() for g in packages if g.strip()]))
        self._read_catalogs(parent_dir(file), data)

    def _read_rush(self, root: Path, file: str) -> None:
        """Rush links exactly the ``projects[].projectFolder`` folders of ``rush.json`` (each
        relative to its folder); a stale copy of a package that Rush does not list is no
        member, however its manifest names itself."""
        try:
            data = read_jsonc_file(root, file)
        except InputError as error:
            self._unreadable(file, str(error)[len(file) + 2 :])
            return
        projects = data.get("projects") if isinstance(data, dict) else None
        if not isinstance(projects, list):
            self._unreadable(file, "`projects` is not a list")
            return
        folders = [
            str(project["projectFolder"]).strip().strip("/")
            for project in projects
            if isinstance(project, dict) and isinstance(project.get("projectFolder"), str)
        ]
        self.globs.append((parent_dir(file), [f for f in folders if f]))

    def _read_catalogs(self, directory: str, data: dict[object, object]) -> None:
        """``catalog`` (the default catalog) and ``catalogs.<name>`` of a manifest."""
        tables: list[tuple[str, object]] = [("default", data.get("catalog"))]
        named = data.get("catalogs")
        if isinstance(named, dict):
            tables += [(str(k), v) for k, v in named.items()]
        for catalog, table in tables:
            if isinstance(table, dict):
                for package, spec in table.items():
                    if isinstance(package, str) and isinstance(spec, str):
                        self.catalogs[(directory, catalog, package)] = spec.strip()

    def catalog_entry(self, importer_dir: str, catalog: str, package: str) -> str | None:
        """The specifier catalog ``catalog`` gives ``package``, from the nearest declaring
        folder above ``importer_dir``."""
        current = importer_dir
        while True:
            found = self.catalogs.get((current, catalog, package))
            if found is not None:
                return found
            if current == ".":
                return None
            current = parent_dir(current)


def is_member(directory: str, declarations: list[tuple[str, list[str]]]) -> bool:
    """Is the package folder ``directory`` included by a declaration and not excluded?"""
    for base, globs in declarations:
        if directory == base:
            return True  # the declaring package itself
        prefix = "" if base == "." else base + "/"
        if not directory.startswith(prefix):
            continue
        relative = directory[len(prefix) :]
        included = any(matches_glob_exactly(relative, g) for g in globs if not g.startswith("!"))
        excluded = any(matches_glob_exactly(relative, g[1:]) for g in globs if g.startswith("!"))
        if included and not excluded:
            return True
    return False
