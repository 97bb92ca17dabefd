"""wmr's resolver: a relative ``x.js`` finds ``x.ts``… or the folder's ``x/index.*``.

Decision (issue 23, after blind judge J2): wmr (preactjs/wmr) registers its
``resolveExtensionsPlugin({ extensions: ['.ts', '.tsx', '.js', '.cjs'], index: true })`` in
every build and dev server: an id that finds no file loses a ``.js``/``.mjs``/``.cjs`` ending
and is tried with each extension, then as a folder with ``/index`` and each extension. wmr's
own demo (`examples/demo`, whose manifest depends on ``wmr`` and which has a
``wmr.config.ts``) imports ``'./pages/home.js'`` where only ``pages/home/index.js`` exists.
In a package that declares ``wmr`` among its dependencies, or whose folder holds a
``wmr.config.*``, a relative import that wmr's rule finds in an existing file is no claim;
neither Node nor tsc resolves it, so the same import anywhere else is still judged, as is one
wmr's rule finds nothing for.
"""

from __future__ import annotations

from collections.abc import Iterable

from filid.check.manifest_dependencies import declared_dependencies
from filid.check.project import Project
from filid.graph.compiler_paths import join_path, parent_dir

__all__ = ["WmrResolved"]

_EXTENSIONS = (".ts", ".tsx", ".js", ".cjs")
_SUFFIXES = (*_EXTENSIONS, *(f"/index{e}" for e in _EXTENSIONS))
_CONFIGS = tuple(f"wmr.config{e}" for e in (".ts", ".js", ".mjs", ".cjs"))


class WmrResolved:
    """Answers whether wmr's resolver finds a file for a relative import (module docstring)."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files = frozenset(project.tree.files)
        self._packages: dict[str, bool] = {}

    def resolves(self, file: str, specifier: str, bases: Iterable[str]) -> bool:
        """Whether ``file``'s relative ``specifier`` (candidate paths ``bases``) finds a file
        by wmr's rule, and ``file`` is in a wmr package."""
        if not specifier.startswith("."):
            return False
        found = False
        for base in bases:
            stem = base
            for ending in (".js", ".mjs", ".cjs"):
                if base.endswith(ending):
                    stem = base[: -len(ending)]
                    break
            if any(stem + suffix in self._files for suffix in _SUFFIXES):
                found = True
                break
        return found and self._built_by_wmr(parent_dir(file))

    def _built_by_wmr(self, directory: str) -> bool:
        """Whether ``directory``'s package (the nearest ``package.json`` at or above it)
        depends on ``wmr`` or has a ``wmr.config.*`` beside it."""
        known = self._packages.get(directory)
        if known is not None:
            return known
        manifest = join_path(directory, "package.json")
        if manifest in self._files:
            answer = any(join_path(directory, c) in self._files for c in _CONFIGS) or any(
                name == "wmr" for name, _ in declared_dependencies(self._project.root, manifest)
            )
        elif directory == ".":
            answer = False
        else:
            answer = self._built_by_wmr(parent_dir(directory))
        self._packages[directory] = answer
        return answer
