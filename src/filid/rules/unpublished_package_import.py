"""unpublished-package-import: a workspace package's file its manifest does not publish.

filid-specific (no upstream id). ``import '@acme/ui/src/button'`` when ``@acme/ui``'s
``package.json`` has an ``exports`` map without that subpath: Node refuses it
(``ERR_PACKAGE_PATH_NOT_EXPORTED``), and so do bundlers and TypeScript under
``moduleResolution`` node16/bundler once the package is consumed built. It holds for any
TypeScript project, so an undeclared project gets it; a declared project gets it when its
config enables it. A package without ``exports`` publishes every path, and a tsconfig
``paths`` alias that reaches the file is the project's own mapping: neither is reported.

An import erased at emit (``import type``, ``type`` on every specifier, or plain specifiers
that each name a type or are read only as types: :func:`is_erased_at_emit`) is never seen by
Node. Its only reader is TypeScript, whose node10 and classic resolution (``moduleResolution``
unset with ``module`` commonjs, say) ignore ``exports`` and find the file: no claim there
(hcengineering/platform's ``import type { DomainResult } from '@hcengineering/core/src'``).
Where the importer's resolution reads ``exports`` (node16, nodenext, bundler) TypeScript
refuses the path, and the message says so instead of naming Node. When the importer's
tsconfig extends a base filid cannot read (a package in ``node_modules``), which resolution
runs is unknown and an erased import is not claimed (the engine's ``unpublished_imports``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from filid.model.facts import ImportKind
from filid.model.graph import ImportEdge
from filid.model.violations import Severity
from filid.parse.import_elision import is_typescript
from filid.rules.base import (
    ALL_CATEGORIES,
    Finding,
    NoOptions,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
    import_location,
    join_path,
    parent_path,
)

_PACKAGE = '{"name": "@acme/ui", "exports": {".": "./src/index.ts"}}\n'


def is_erased_at_emit(edge: ImportEdge) -> bool:
    """Whether TypeScript drops the import ``edge`` from the emitted JavaScript: the importer
    is TypeScript and the import is ``import type``/all-``type`` specifiers, or names only
    types, or is read only as types (``ImportEdge.type_only``)."""
    return is_typescript(edge.source) and (edge.fact.kind is ImportKind.TYPE or edge.type_only)


class UnpublishedPackageImport:
    """Flags imports of a workspace package's file that its ``exports`` do not publish."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="unpublished-package-import",
        category=RuleCategory.DEPENDENCY,
        default_severity=Severity.ERROR,
        applies_to=ALL_CATEGORIES,
        description="Workspace packages are imported only by the paths their manifest exports.",
        rationale=(
            "A package's exports map is its published surface: Node refuses any other path "
            "(ERR_PACKAGE_PATH_NOT_EXPORTED), so such an import works only while the packages "
            "sit side by side in one repository, unbuilt."
        ),
        valid=(
            RuleExample(
                "an import of an exported subpath",
                {
                    "package.json": '{"workspaces": ["packages/*"]}\n',
                    "packages/ui/package.json": _PACKAGE,
                    "packages/ui/src/index.ts": "export const button = 1;\n",
                    "packages/app/package.json": '{"name": "app"}\n',
                    "packages/app/src/a.ts": (
                        "import { button } from '@acme/ui';\nexport { button };\n"
                    ),
                },
            ),
        ),
        invalid=(
            RuleExample(
                "an import of a file the exports map does not list",
                {
                    "package.json": '{"workspaces": ["packages/*"]}\n',
                    "packages/ui/package.json": _PACKAGE,
                    "packages/ui/src/index.ts": "export const button = 1;\n",
                    "packages/ui/src/internal.ts": "export const secret = 1;\n",
                    "packages/app/package.json": '{"name": "app"}\n',
                    "packages/app/src/a.ts": (
                        "import { secret } from '@acme/ui/src/internal';\nexport { secret };\n"
                    ),
                },
            ),
        ),
    )
    options_type: ClassVar[type[NoOptions]] = NoOptions

    def check(self, context: RuleContext, options: NoOptions) -> Iterable[Finding]:
        """Yield one finding per import of an unpublished path, at the import."""
        for edge in context.file_graph.edges:
            specifier = edge.fact.specifier
            if specifier is None or edge.source in context.test_files:
                continue
            package = context.unpublished_imports.get((edge.source, specifier))
            if package is None:
                continue
            manifest = join_path(package, "package.json")
            refusal = (
                "TypeScript's node16/nodenext/bundler resolution refuses it; the import is "
                "erased at emit, so only type checking and emitted declarations depend on it"
                if is_erased_at_emit(edge)
                else "Node and bundlers that honour exports maps refuse the import"
            )
            yield Finding(
                node=parent_path(edge.source) if "/" in edge.source else ".",
                path=edge.source,
                message=(
                    f"'{specifier}' is not published by {manifest} (its exports map does not "
                    f"list that path; {refusal})"
                ),
                location=import_location(edge.source, edge.fact),
                suggestion=(
                    f"import it through a path {manifest} exports, or add that path to its exports"
                ),
                fingerprint_parts=(specifier, edge.target),
            )
