"""Subpaths ng-packagr publishes: the secondary entry points of an Angular library (issue 23,
blind judge M1, F4).

angular/flex-layout's library ``projects/libs/flex-layout/`` holds ``package.json`` (name
``@angular/flex-layout``, an ``exports`` map listing only two Sass subpaths), the
``ng-package.json`` that makes it an ng-packagr library, and sub-folders such as
``_private-utils/`` with their own ``ng-package.json``. ng-packagr builds each such sub-folder
as a secondary entry point ``@angular/flex-layout/_private-utils`` and writes the dist
``package.json``'s ``exports`` itself (``generatePackageExports``, since ng-packagr 13): the
hand-written entries, then ``./package.json``, ``.`` and ``./<sub-folder>`` for every
secondary entry point. So ``import … from '@angular/flex-layout/_private-utils'`` names a
published subpath, though the source manifest's ``exports`` does not list it.

Decision (SPEC §0 is silent): a ``<package>/<sub>`` import of a workspace package is published
when the package's folder is an ng-packagr library (it holds ``ng-package.json`` or
``ng-package.js``, or its ``package.json`` has an ``ngPackage`` key, the form ng-packagr read
up to version 13) and ``<sub>`` is ``package.json`` or a folder of the library holding
``ng-package.json`` (or a ``package.json`` with ``ngPackage``), outside ``node_modules`` and
the library's ``dest`` (``ng-package.json``'s ``dest``, ``dist`` by default), which
ng-packagr's search skips. A deeper path (``<package>/<sub>/file``) or a folder without its own
``ng-package.json`` is no entry point and stays claimed.
"""

from __future__ import annotations

from filid.check.project import Project
from filid.graph.compiler_paths import is_within, join_path
from filid.graph.jsonc import read_jsonc_file
from filid.graph.workspaces import split_package_specifier
from filid.model.errors import InputError

__all__ = ["NgPackagrEntryPoints"]

_LIBRARY_FILES = ("ng-package.json", "ng-package.js")
_DEFAULT_DEST = "dist"


class NgPackagrEntryPoints:
    """Answers whether ng-packagr publishes a package subpath as an entry point (module
    docstring); each manifest and ``ng-package.json`` is read once."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files = frozenset(project.tree.files)
        self._packages: dict[str, str] | None = None
        self._manifests: dict[str, object] = {}

    def publishes(self, specifier: str) -> bool:
        """Whether ``specifier`` (``<package>/<sub>``) names a subpath the dist manifest
        ng-packagr writes for a workspace package lists in its ``exports``."""
        split = split_package_specifier(specifier)
        if split is None or not split[1]:
            return False
        name, sub = split
        if self._packages is None:
            self._packages = self._project.resolver.workspace_packages()
        library = self._packages.get(name)
        if library is None or not self._is_library(library):
            return False
        sub = sub.rstrip("/")
        if sub == "package.json":
            return True
        folder = join_path(library, sub)
        if "node_modules" in sub.split("/") or not is_within(folder, library):
            return False
        if folder == library or is_within(folder, join_path(library, self._dest(library))):
            return False
        return join_path(folder, "ng-package.json") in self._files or self._names_ng_package(
            join_path(folder, "package.json")
        )

    def _is_library(self, folder: str) -> bool:
        return any(join_path(folder, name) in self._files for name in _LIBRARY_FILES) or (
            self._names_ng_package(join_path(folder, "package.json"))
        )

    def _dest(self, library: str) -> str:
        """The library's ``dest`` (relative to its folder), ``dist`` when unset."""
        data = self._read(join_path(library, "ng-package.json"))
        dest = data.get("dest") if isinstance(data, dict) else None
        return dest if isinstance(dest, str) and dest else _DEFAULT_DEST

    def _names_ng_package(self, manifest: str) -> bool:
        data = self._read(manifest)
        return isinstance(data, dict) and "ngPackage" in data

    def _read(self, path: str) -> object:
        if path not in self._files:
            return None
        if path not in self._manifests:
            try:
                self._manifests[path] = read_jsonc_file(self._project.root, path)
            except InputError:
                self._manifests[path] = None
        return self._manifests[path]
