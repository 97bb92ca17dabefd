"""A folder import that finds the folder's ``index.json`` (issue 23, after blind judge H2).

primereact's docs site (Next.js 12, plain JavaScript and a ``jsconfig.json``) writes
``import APIDoc from './apidoc'`` in ``components/doc/common/docapisection.js``, beside a
committed ``apidoc/index.json``. Every tool that loads that file resolves it:

- Node's CommonJS ``require`` tries ``X``, ``X.js``, ``X.json``, ``X.node``, then the folder's
  ``package.json`` ``main`` and ``X/index.js``, ``X/index.json``, ``X/index.node``;
- webpack's default ``resolve.extensions`` (``.js``, ``.json``, ``.wasm``; Next.js adds its
  own before ``.json``) with ``resolve.mainFiles: ['index']``; Vite's default
  ``resolve.extensions`` ends in ``.json`` and it tries a folder's ``index`` with each;
  esbuild's ``resolveExtensions`` and ``@rollup/plugin-node-resolve``'s defaults list
  ``.json``; Metro's ``sourceExts`` hold ``json``.

TypeScript does not: it appends ``.json`` to no extensionless specifier, ``resolveJsonModule``
or not (it resolves ``./apidoc/index.json`` spelled out), and reports TS2307 for the import in
a TypeScript file and in a JavaScript file it type-checks (``checkJs``); checked with tsc 5
(``tests/test_undeclared_claims_i.py``). So the decision: in a JavaScript file no tsconfig
program type-checks, a folder import whose folder holds ``index.json`` (and no source index,
else the resolver had found it) resolves, and is no claim. In a TypeScript file, or a
JavaScript file under ``checkJs``, it stays a claim: ``tsc`` fails on it, even where the
bundler builds it. Only a committed ``index.json`` counts.
"""

from __future__ import annotations

from collections.abc import Iterable

from filid.check.project import Project
from filid.graph.compiler_paths import join_path
from filid.graph.tsconfig import JS_SUFFIXES

__all__ = ["JsonIndexImports"]


class JsonIndexImports:
    """Answers whether an unresolved import finds a folder's ``index.json`` (module
    docstring)."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files = frozenset(project.tree.files)

    def resolves(self, file: str, bases: Iterable[str]) -> bool:
        """Whether the JavaScript ``file`` imports a folder (one of ``bases``, the candidate
        paths of the specifier) whose ``index.json`` Node and the bundlers load, and tsc does
        not type-check ``file``."""
        if not file.endswith(JS_SUFFIXES):
            return False
        if not any(
            join_path(base, "index.json") in self._files
            for base in bases
            if base not in ("", ".") and not base.startswith("../")
        ):
            return False
        return not self._project.resolver.tsconfigs.checks_js(file)
