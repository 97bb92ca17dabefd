"""An import that finds an Ember template-tag file (``.gts``/``.gjs``) is no unresolved claim
(issue 23, after blind judge K1, P1).

hashicorp/design-system's ``packages/components/src/template-registry.ts`` writes
``import type HdsAdvancedTableComponent from './components/hds/advanced-table'`` (the folder
holds ``index.gts``), ``'./components/hds/advanced-table/th'`` (``th.gts``) and
``'./components/hds/rich-tooltip/toggle.ts'`` (only ``toggle.gts`` exists);
universal-ember/ember-primitives' ``docs-app/app/routes/application.ts`` imports ``'./api-docs'``
beside ``api-docs.gts``. Every tool of such a project resolves them:

- Glint (``@glint/ember-tsc``, the package's type check) presents ``x.gts`` to TypeScript as
  ``x.ts`` and ``x.gjs`` as ``x.js``, so TypeScript's own probing finds them for ``./x``,
  ``./x/index`` (a folder), ``./x.ts`` (``allowImportingTsExtensions``) and ``./x.js``;
- Embroider's rollup and vite builds list ``.gts``/``.gjs`` in their resolve extensions
  (``@embroider/vite``'s ``extensions``, the addon's ``rollup.config.mjs``).

filid does not read template-tag files (tree-sitter's TypeScript grammar cannot parse
``<template>``), so they are not files of the parsed graph, as ``.vue``/``.svelte`` are not:
an extensionless import of a ``.vue`` file is likewise answered by an existing twin
(``check.generated_code._bundler_twins``), not by an edge. Decision: the import resolves in
the project's real toolchain, so it is no claim; only a template-tag file that exists counts,
and nothing is said about its own imports. The extensions are Ember's alone, so the file's
existence is the signal; no Glint dependency is required.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["TEMPLATE_TAG_EXTENSIONS", "finds_template_tag_file", "template_tag_candidates"]

TEMPLATE_TAG_EXTENSIONS = (".gts", ".gjs")

# What a written extension stands for under Glint: `.ts` is how it presents `.gts`, `.js`
# how it presents `.gjs` (and `.gts`, through TypeScript's `.js` → `.ts` rule).
_WRITTEN = {".ts": (".gts",), ".js": (".gts", ".gjs")}


def template_tag_candidates(base: str) -> tuple[str, ...]:
    """The template-tag files Glint and Embroider find for the candidate path ``base``:
    ``x.gts``/``x.gjs`` and ``x/index.gts``/``x/index.gjs``, or for ``x.ts``/``x.js`` the
    file of the same stem."""
    stem, dot, extension = base.rpartition(".")
    if dot and "/" not in extension and f".{extension}" in _WRITTEN:
        return tuple(stem + e for e in _WRITTEN[f".{extension}"])
    return (
        *(base + e for e in TEMPLATE_TAG_EXTENSIONS),
        *(base + "/index" + e for e in TEMPLATE_TAG_EXTENSIONS),
    )


def finds_template_tag_file(root: Path, bases: Iterable[str]) -> bool:
    """Whether one of the candidate paths ``bases`` (root-relative, inside the project) finds
    an existing ``.gts``/``.gjs`` file (module docstring)."""
    return any(
        os.path.isfile(root / candidate)
        for base in bases
        for candidate in template_tag_candidates(base)
    )
