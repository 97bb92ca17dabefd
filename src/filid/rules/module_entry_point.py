"""module-entry-point: every fractal and hybrid has an ``index.*`` or ``main.*``.

Decision (SPEC is silent on the root): the project root is not checked. A repository root with
a CLAUDE.md is a package whose entry is declared by package.json, not a module with a barrel.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from filid.model.nodes import NodeCategory
from filid.model.violations import FixInfo, Risk, Severity, SyncActionKind
from filid.rules.base import (
    Finding,
    NoOptions,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
)

_DOC = "# Billing\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"


def has_typescript(context: RuleContext) -> bool:
    """True when the project has any TypeScript source file (else barrels are ``index.js``)."""
    return any(f.endswith((".ts", ".tsx", ".mts", ".cts")) for f in context.facts)


class ModuleEntryPoint:
    """Flags fractal and hybrid nodes without an entry point."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="module-entry-point",
        category=RuleCategory.MODULE,
        default_severity=Severity.WARNING,
        applies_to=frozenset({NodeCategory.FRACTAL, NodeCategory.HYBRID}),
        description="Every fractal module has an index.* (or main.*) entry point.",
        rationale=(
            "The entry point is a module's public surface: other modules import it instead of "
            "reaching into files, so the inside can change freely. A module with a boundary "
            "document but no entry point invites deep imports."
        ),
        valid=(
            RuleExample(
                "a documented module with a barrel",
                {
                    "src/billing/CLAUDE.md": _DOC,
                    "src/billing/index.ts": "export { charge } from './billing';\n",
                    "src/billing/billing.ts": "export function charge(): number { return 1; }\n",
                },
            ),
            RuleExample(
                "a package root: its package.json is its entry",
                {
                    "packages/plugin/INTENT.md": _DOC,
                    "packages/plugin/package.json": '{"name": "plugin", "private": true}\n',
                    "packages/plugin/src/hook.ts": "export const hook = 1;\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "a documented module without index.ts",
                {
                    "src/billing/CLAUDE.md": _DOC,
                    "src/billing/billing.ts": "export function charge(): number { return 1; }\n",
                },
            ),
        ),
        fix_action=SyncActionKind.CREATE_INDEX,
        fix_risk=Risk.SAFE,
    )
    options_type: ClassVar[type[NoOptions]] = NoOptions

    def check(self, context: RuleContext, options: NoOptions) -> Iterable[Finding]:
        """Yield one finding per fractal/hybrid without index.* and main.*."""
        index_name = "index.ts" if has_typescript(context) else "index.js"
        for node in context.tree.nodes.values():
            if node.path == "." or node.category not in (NodeCategory.FRACTAL, NodeCategory.HYBRID):
                continue
            if node.index_file is not None or node.main_file is not None:
                continue
            if "package.json" in node.files:
                # A package root's entry is its manifest (the upstream plugin's reading): the
                # targets it declares, or for a private package (a Claude Code plugin, a tool
                # folder) the package.json itself. Creating an index.ts there would be wrong.
                continue
            target = node.file_path(index_name)
            yield Finding(
                node=node.path,
                path=node.path,
                message=(
                    f"{node.category} module '{node.path}' has no index.* or main.* entry point"
                ),
                suggestion=f"create {target} re-exporting the module's public API",
                fix=FixInfo(
                    action=SyncActionKind.CREATE_INDEX,
                    risk=Risk.SAFE,
                    description=f"create {target} re-exporting the exports of its files",
                    target_path=target,
                ),
            )
