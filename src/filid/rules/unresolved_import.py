"""unresolved-import: a relative or aliased import that finds no file (SPEC §0).

filid-specific (no upstream id). It holds for any TypeScript project, so it is one of the
claims an undeclared project gets; a declared project gets it when its config enables it.
The resolver follows the TypeScript compiler (SPEC §4). Only relative and root paths and
tsconfig ``paths`` aliases are claimed: a bare workspace package name may reach build output
or sources kept private behind a link, and shares names with npm packages, so it is not
judged; nor is a dynamic ``import(x)`` of a computed value, a path that resolves once its
bundler query (``?inline``) is dropped, or a relative path under a tsconfig with
``rootDirs`` (a virtual merged folder, such as React Router's generated ``./+types/x``).
Test files are not judged (their runner may alias paths filid cannot see), nor an import
whose missing target git ignores (a file the build generates), nor a specifier that names a
code generator's output by convention (``./routeTree.gen``, ``__generated__/``), nor a file
that its governing tsconfig excludes (``exclude``) and no file imports (no compiler reads it:
payload's codemod fixtures ``*.input.ts``/``*.output.ts`` are read as text by their tests).
Nor is an import in a file no build reaches (no tsconfig program, entry, test, config,
script or reached importer: a snippet or a copied template), nor an unresolved root-absolute
``/x`` outside a Vite root (a URL on the serving origin); see ``check.generated_code``.
A specifier that names a project file but for letter case says so: it resolves on macOS and
Windows only (payload's ``../importMap`` beside a committed ``importmap.js``). Nor is a
scaffold below a ``templates`` folder that no workspace member holds (see ``_in_scaffold``),
nor a relative path written for the published package layout, which names a file the
package's manifest publishes (stencil's ``../client/index.js``, ``check.generated_code``),
nor a bundler query (``?inline``) in a file no bundler reads (see ``_unbundled_files``),
nor an import in a file the project reads only as text (``?raw``: a code sample an Astro page
shows, ``check.generated_code``), nor a glob pattern that matches files (``'../intl/*.json'``,
``check.generated_code``), nor a target a ``cp``/``mkdir`` of a CI workflow step or a
``package.json`` script writes (PRQL's ``./prql-lezer``, ``check.copy_steps``). The tsconfig
that answers for a file is the nearest whose program takes it in (``TsconfigIndex.for_file``).
Nor is a ``require()`` or ``import()`` whose failure the file handles (``ImportFact.guarded``:
``try { require('./x.wasi.cjs') } catch {}``, ``import('x').catch(…)``): the optional-dependency
idiom says the target may be missing, and the code carries on without it (the loader NAPI-RS
generates tries a WASI build output that exists only after a wasm build).
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Iterable
from typing import ClassVar

from filid.graph import DYNAMIC_SPECIFIER
from filid.graph.module_graph import package_of
from filid.model.violations import Location, Severity
from filid.rules.base import (
    ALL_CATEGORIES,
    Finding,
    NoOptions,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
    parent_path,
)
from filid.rules.shipped import unshipped_files
from filid.scan.classify import SCAFFOLD_FOLDERS

_JS_EXTENSIONS = frozenset({"js", "jsx", "mjs", "cjs"})
_SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_SUFFIXES = ("", *_SOURCE_SUFFIXES, *(f"/index{s}" for s in _SOURCE_SUFFIXES))


def _names_generated_code(specifier: str) -> bool:
    """The specifier names a code generator's output by the usual conventions: a file whose
    stem ends in ``.gen``/``.generated`` (TanStack Router's ``./routeTree.gen``, Hey API's
    ``types.gen``) or a path through a ``__generated__`` folder (Relay). Such files are
    written by a dev server or a build step and are often not committed."""
    segments = specifier.split("/")
    stem = segments[-1]
    for extension in (*_SOURCE_SUFFIXES, ".d.ts"):
        if stem.endswith(extension):
            stem = stem[: -len(extension)]
            break
    return stem.endswith((".gen", ".generated")) or "__generated__" in segments[:-1]


def _in_scaffold(file: str, packages: frozenset[str], files: Collection[str]) -> bool:
    """``file`` lies in a scaffold: below a ``templates`` (``SCAFFOLD_FOLDERS``) folder, in
    a project that is no workspace member, or that is a workspace root of its own (a
    ``pnpm-workspace.yaml`` below ``templates``). A CLI copies such a project and completes
    it: shadcn's ``templates/next-app`` imports ``@/components/ui/button``, which
    ``shadcn add`` writes. A template the repository's workspace builds (payload's
    ``templates/ecommerce``, listed in its root ``pnpm-workspace.yaml``) is judged like any
    package. Decision (SPEC is silent); ``max-depth`` exempts every folder below a scaffold
    folder, workspace member or not: the copied project's depth is what counts there."""
    segments = file.split("/")[:-1]
    found = [i for i, segment in enumerate(segments) if segment in SCAFFOLD_FOLDERS]
    if not found:
        return False
    start = found[0] + 1
    scaffold = "/".join(segments[:start])
    package = package_of(file, packages)
    if package is None or not package.startswith(scaffold + "/"):
        return True
    return any(
        "/".join(segments[:end]) + "/pnpm-workspace.yaml" in files
        for end in range(start + 1, len(segments) + 1)
    )


def _unbundled_files(context: RuleContext) -> frozenset[str]:
    """Source files no bundler reads: no file imports them, and their package declares entry
    points that never load them (``rules.shipped``).

    Decision (issue 23, SPEC §0 is silent): a bundler resource query (``./x.css?inline``,
    ``?raw``, ``?url``) is resolved by the bundler alone; TypeScript never finds a file for
    it and types it through an ambient wildcard module (vite/client's ``*?inline``), or
    reports it itself. In a file only the type checker reads — qwik's
    ``src/core/examples.tsx``, doc snippets kept to check that they compile — no tool looks
    for the file, so its absence is no claim. A file some file imports (a test, which a
    bundling test runner loads) or that its package's entries load is still judged, as is
    every file of a package that declares no entry (an app: any file may be a bundle's
    entry)."""
    imported = {edge.target for edge in context.file_graph.edges}
    return frozenset(
        f for f in unshipped_files(context, context.package_directories) if f not in imported
    )


def _is_guarded(context: RuleContext, file: str, line: int, specifier: str) -> bool:
    """Whether every import of ``specifier`` at ``file:line`` is a guarded module call."""
    facts = context.facts.get(file)
    if facts is None:
        return False
    found = [f for f in facts.imports if f.line == line and f.specifier == specifier]
    return bool(found) and all(fact.guarded for fact in found)


class UnresolvedImport:
    """Flags every relative or aliased import that resolves to no file."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="unresolved-import",
        category=RuleCategory.DEPENDENCY,
        default_severity=Severity.ERROR,
        applies_to=ALL_CATEGORIES,
        description="Relative and aliased imports resolve to a file of the project.",
        rationale=(
            "An import that resolves to nothing fails to compile or to load: the file moved, "
            "was renamed or deleted, or the alias that should reach it is wrong."
        ),
        valid=(
            RuleExample(
                "a relative import of an existing file",
                {
                    "src/a.ts": "import { b } from './b';\nexport const a = b;\n",
                    "src/b.ts": "export const b = 1;\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "a relative import of a file that does not exist",
                {"src/a.ts": "import { b } from './gone';\nexport const a = b;\n"},
            ),
        ),
    )
    options_type: ClassVar[type[NoOptions]] = NoOptions

    def check(self, context: RuleContext, options: NoOptions) -> Iterable[Finding]:
        """Yield one finding per unresolved import, at the import."""
        universe = frozenset(context.tree.files)
        folded: dict[str, str] = {}
        for file in sorted(universe):
            folded.setdefault(file.casefold(), file)

        def case_twin(directory: str, specifier: str) -> str | None:
            """A project file a relative ``specifier`` names but for letter case."""
            if not specifier.startswith(("./", "../")):
                return None
            base = posixpath.normpath(posixpath.join(directory, specifier))
            stem, dot, extension = base.rpartition(".")
            bases = [base]
            if dot and "/" not in extension and extension in _JS_EXTENSIONS:
                bases.append(stem)  # `./x.js` names `x.ts`
            for candidate in bases:
                for suffix in _SUFFIXES:
                    hit = folded.get((candidate + suffix).casefold())
                    if hit is not None and hit != candidate + suffix:
                        # an exact name is no case twin: `./x.scss.js` beside `x.scss` names
                        # a file that is not there (an added `.js`), not a case variant
                        return hit
            return None

        unbundled: frozenset[str] | None = None
        for item in context.file_graph.unresolved:
            if item.specifier == DYNAMIC_SPECIFIER or item.file in context.test_files:
                continue
            if "?" in item.specifier:
                if unbundled is None:
                    unbundled = _unbundled_files(context)
                if item.file in unbundled:
                    continue  # only a bundler resolves a query, and none reads this file
            if _is_guarded(context, item.file, item.line, item.specifier):
                continue  # an optional dependency: the file handles its absence
            if (item.file, item.specifier) in context.generated_imports:
                continue  # git ignores the missing target: a build generates it
            if _names_generated_code(item.specifier):
                continue
            if _in_scaffold(item.file, context.package_directories, universe):
                continue
            directory = parent_path(item.file) if "/" in item.file else "."
            message = f"'{item.specifier}' resolves to no file of the project"
            twin = case_twin(directory, item.specifier)
            if twin is not None:
                message += (
                    f" ('{twin}' differs only in letter case: it resolves on a "
                    "case-insensitive file system only)"
                )
            yield Finding(
                node=directory,
                path=item.file,
                message=message,
                location=Location(file=item.file, line=item.line),
                suggestion=(
                    "fix the specifier; if the file is generated at build time, exempt this "
                    "import (rules.unresolved-import.exempt)"
                ),
                fingerprint_parts=(item.specifier,),
            )
