"""Imports of a component kept as a folder of parts that a site assembles into one
single-file component (issue 23, judge round K2, vuejs/docs).

vuejs/docs keeps each example component as a folder: ``src/examples/src/cells/App/`` holds
``composition.js``, ``options.js``, ``template.html`` and ``style.css``. The site's
``src/examples/utils.ts`` turns each such folder into ``App.vue`` of a Vue REPL file set,
beside the example's plain files (``cells/store.js``); so ``App/composition.js``'s
``import Cell from './Cell.vue'`` means the ``Cell/`` folder beside ``App/``, and
``'./store.js'`` means ``cells/store.js``. The tutorial's ``step-11/_hint/App/`` omits the
parts that do not change and takes them from ``step-11/`` (``ChildComp/``).

Decision (SPEC §0 is silent): an unresolved ``./X`` of a file in a folder ``F`` that holds a
``template.html`` (the folder is the parts of a component, not a module tree) is no claim
when, in the folder above ``F`` or the one above that, ``./X.vue`` (``.svelte``) names a
parts folder ``X/`` holding a ``template.html``, or ``./X`` names an existing file (as
written, or with a source extension). As with a loader's prefixed siblings, the check is per
file: every unresolved relative import of the file must map this way, or none is exempt (one
import that maps nowhere shows the file is not written for such an assembly). A folder with
no ``template.html`` is never read this way. Not taken as signals: the names
``composition.js``/``options.js`` (this repository's), and the assembling script (bespoke).
"""

from __future__ import annotations

import os

from filid.check.project import Project
from filid.graph import DYNAMIC_SPECIFIER, SOURCE_EXTENSIONS
from filid.graph.compiler_paths import join_path, parent_dir

__all__ = ["ComponentParts"]

_TEMPLATE = "template.html"
_COMPONENTS = (".vue", ".svelte")
# How many folders above the parts folder the assembled file set may lie (the parts folder's
# own parent; one more for an overlay such as `_hint/` that omits unchanged parts).
_LEVELS = 2


class ComponentParts:
    """Answers whether an unresolved import names a part of the assembled file set."""

    def __init__(self, project: Project) -> None:
        self._root = project.root
        self._specifiers: dict[str, set[str]] = {}
        for item in project.file_graph.unresolved:
            if item.specifier != DYNAMIC_SPECIFIER and item.specifier.startswith("."):
                self._specifiers.setdefault(item.file, set()).add(item.specifier)
        self._answers: dict[str, bool] = {}

    def holds(self, file: str, specifier: str) -> bool:
        """Whether ``file`` is a part of a component folder and every unresolved relative
        import of it names a part of the assembled file set (module docstring)."""
        if specifier not in self._specifiers.get(file, ()):
            return False
        known = self._answers.get(file)
        if known is None:
            known = self._answers[file] = self._all_assembled(file)
        return known

    def _all_assembled(self, file: str) -> bool:
        folder = parent_dir(file)
        if folder == "." or not self._is_file(join_path(folder, _TEMPLATE)):
            return False
        sets: list[str] = []
        above = folder
        for _ in range(_LEVELS):
            if above == ".":
                break
            above = parent_dir(above)
            sets.append(above)
        return all(
            any(self._names_part(base, specifier) for base in sets)
            for specifier in self._specifiers[file]
        )

    def _names_part(self, base: str, specifier: str) -> bool:
        part = specifier[2:] if specifier.startswith("./") else ""
        if not part or "/" in part or "?" in part or "#" in part:
            return False
        path = join_path(base, part)
        if path.startswith("../"):
            return False
        if path.endswith(_COMPONENTS):
            stem = path.rpartition(".")[0]
            return self._is_file(join_path(stem, _TEMPLATE))
        return any(self._is_file(path + e) for e in ("", *SOURCE_EXTENSIONS))

    def _is_file(self, path: str) -> bool:
        return os.path.isfile(self._root / path)
