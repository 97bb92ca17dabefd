"""entry-point-surface: a module's public surface can be listed name by name.

Follows the upstream plugin 1.0 (vincent-kk/ogham ``checkEntryPointSurface.ts``,
``ecmascriptStructureAdapter.inspectEntryPoint``): every entry point of a fractal or hybrid
(``index.*``, ``main.*``, a config ``entryPointOverrides`` file, and in filid also a file its
package manifest declares) must have an exactly enumerable export surface. Upstream gives up
at any ``export *``; filid follows ``export * from`` through its own resolution
(``graph.exports``), so only a re-export of something it cannot enumerate is reported: an
external package, a specifier that resolves to nothing, a file that could not be parsed, or a
chain that leads to one of those. ``export * as ns`` exports one name and is always exact.

Upstream also reports framework entry files (a Next.js ``page.tsx``…) as "non-enumerable
(opaque)": their surface is fixed by the framework, so no change to the module could answer
that finding, and filid leaves it out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from filid.model.facts import ExportKind
from filid.model.nodes import NodeCategory
from filid.model.violations import Location, Severity
from filid.rules.base import (
    Finding,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
)
from filid.scan.universe import is_source_file


@dataclass(frozen=True, slots=True)
class EntryPointSurfaceOptions:
    """The rule takes no options (upstream's has none)."""


class EntryPointSurface:
    """Flags entry points whose exported names cannot be listed exactly."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="entry-point-surface",
        category=RuleCategory.MODULE,
        default_severity=Severity.WARNING,
        applies_to=frozenset({NodeCategory.FRACTAL, NodeCategory.HYBRID}),
        description=(
            "Each entry point of a fractal exports an exactly enumerable surface: no "
            "`export * from` an external package or an unresolvable specifier."
        ),
        rationale=(
            "A module's entry point is its contract: agents and reviewers read it to learn "
            "what the module offers. `export * from 'some-package'` makes that contract "
            "whatever the package exports today, which no one can review or keep stable."
        ),
        valid=(
            RuleExample(
                "named re-exports and an `export *` of a project file",
                {
                    "src/search/index.ts": (
                        "export { find } from './find';\nexport * from './types';\n"
                    ),
                    "src/search/find.ts": "export const find = (): null => null;\n",
                    "src/search/types.ts": "export type Query = string;\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "an entry point that re-exports a whole external package",
                {
                    "src/search/index.ts": "export * from 'lodash-es';\n",
                    "package.json": '{"dependencies": {"lodash-es": "4"}}\n',
                },
            ),
        ),
    )
    options_type: ClassVar[type[EntryPointSurfaceOptions]] = EntryPointSurfaceOptions

    def check(self, context: RuleContext, options: EntryPointSurfaceOptions) -> Iterable[Finding]:
        """Yield one finding per entry point whose surface is not enumerable."""
        reexports = context.reexport_targets()
        index = context.export_index()
        for node in context.tree.nodes.values():
            if node.category not in (NodeCategory.FRACTAL, NodeCategory.HYBRID):
                continue
            for name in node.files:
                file = node.file_path(name)
                # the entry test first: it leaves out most files with one prefix test
                if not context.is_entry_file(file):
                    continue
                if not is_source_file(file) or file in context.test_files:
                    continue
                facts = context.facts.get(file)
                if facts is None:
                    continue
                for export in facts.exports:
                    if export.kind is not ExportKind.STAR or export.source is None:
                        continue
                    target = reexports.get((file, export.source))
                    if target is None:
                        why = "a module outside the project or one that resolves to nothing"
                    elif index.reexported(target) is None:
                        why = f"{target}, whose own surface is not enumerable"
                    else:
                        continue
                    yield Finding(
                        node=node.path,
                        path=file,
                        message=(
                            f'public surface of "{file}" is indeterminate: '
                            f"`export * from '{export.source}'` re-exports {why}"
                        ),
                        location=Location(file=file, line=export.line),
                        suggestion="re-export the names the module offers explicitly",
                        fingerprint_parts=("surface",),
                    )
                    break
