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
whose missing target git ignores (a file the build generates), nor a file that its governing
tsconfig excludes (``exclude``) and no file imports (no compiler reads it: payload's codemod
fixtures ``*.input.ts``/``*.output.ts`` are read as text by their tests).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from filid.graph import DYNAMIC_SPECIFIER
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
        for item in context.file_graph.unresolved:
            if item.specifier == DYNAMIC_SPECIFIER or item.file in context.test_files:
                continue
            if (item.file, item.specifier) in context.generated_imports:
                continue  # git ignores the missing target: a build generates it
            directory = parent_path(item.file) if "/" in item.file else "."
            yield Finding(
                node=directory,
                path=item.file,
                message=f"'{item.specifier}' resolves to no file of the project",
                location=Location(file=item.file, line=item.line),
                suggestion=(
                    "fix the specifier; if the file is generated at build time, exempt this "
                    "import (rules.unresolved-import.exempt)"
                ),
                fingerprint_parts=(item.specifier,),
            )
