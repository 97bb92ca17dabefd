"""zero-peer-file: a fractal holds only its entry points, documents and eponymous file.

Decisions (SPEC is silent):
- the project root is not checked: a repository root holds tooling files by nature (lock
  files, licences, bundler configs) that no sub-folder could take;
- the eponymous file is compared case-style-insensitively (``UserCard.tsx`` is eponymous in
  ``user-card/``), and the move target folder is kebab-case, so the fix never creates a folder
  that naming-convention would then flag.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar

from filid.config.globs import matches_glob
from filid.model.nodes import FractalNode, NodeCategory
from filid.model.violations import FixInfo, Location, Risk, Severity, SyncActionKind
from filid.rules.base import (
    Finding,
    NoOptions,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
)
from filid.rules.naming_convention import to_kebab_case
from filid.scan.classify import is_test_file
from filid.scan.universe import is_source_file

_DOC = "# Cart\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"


# Tool configs a package root holds: `vite.config.ts`, `jest.setup.js`, `tailwind-config.js`,
# and the Gatsby files whose names the framework fixes at the site root.
_TOOL_CONFIG = re.compile(
    r"^([^.]+(\.[^.]+)*[.-](config|setup)\.[^.]+|gatsby-(browser|node|ssr)\.[^.]+)$"
)


def is_allowed_peer(node: FractalNode, name: str, context: RuleContext) -> bool:
    """True when ``name`` may sit directly in fractal/hybrid ``node`` (SPEC §5).

    Only source files are peers: styles, assets, data and documents are not. Entry points
    (``index.*``, ``main.*``, what the package manifest or ``entryPointOverrides`` declare),
    the eponymous file, test files, configured peers and, at a package root, tool configs
    (``*.config.*``, ``*.setup.*``) are allowed.
    """
    file = node.file_path(name)
    if not is_source_file(name) or context.is_entry_file(file) or file in context.test_files:
        return True
    if is_test_file(file):
        return True
    if "package.json" in node.files and _TOOL_CONFIG.match(name):
        return True
    stem = name.split(".", 1)[0]
    if stem == node.name or to_kebab_case(stem) == to_kebab_case(node.name):
        return True
    for peer in context.structure.additional_allowed_peers:
        if peer.basename == name and (
            not peer.paths or any(matches_glob(node.path, g) for g in peer.paths)
        ):
            return True
    return False


class ZeroPeerFile:
    """Flags loose files beside a fractal's entry point."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="zero-peer-file",
        category=RuleCategory.STRUCTURE,
        default_severity=Severity.WARNING,
        applies_to=frozenset({NodeCategory.FRACTAL, NodeCategory.HYBRID}),
        description=(
            "Of source files, a fractal directly holds only its entry points, its eponymous "
            "file, tests and (at a package root) tool configs; other files are not peers."
        ),
        rationale=(
            "Loose files beside a barrel grow into an unstructured heap. Giving each piece its "
            "own sub-folder (an organ or a sub-module) keeps the module's shape readable and its "
            "boundary document accurate."
        ),
        valid=(
            RuleExample(
                "barrel, document and eponymous file",
                {
                    "src/cart/CLAUDE.md": _DOC,
                    "src/cart/index.ts": "export { total } from './cart';\n",
                    "src/cart/cart.ts": "export const total = 0;\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "a loose helper beside the barrel",
                {
                    "src/cart/index.ts": "export { total } from './cart';\n",
                    "src/cart/cart.ts": "export const total = 0;\n",
                    "src/cart/format.ts": "export const format = (n: number) => `${n}`;\n",
                },
            ),
        ),
        fix_action=SyncActionKind.MOVE,
        fix_risk=Risk.MODERATE,
    )
    options_type: ClassVar[type[NoOptions]] = NoOptions

    def check(self, context: RuleContext, options: NoOptions) -> Iterable[Finding]:
        """Yield one finding per disallowed peer file."""
        for node in context.tree.nodes.values():
            if node.path == "." or node.category not in (NodeCategory.FRACTAL, NodeCategory.HYBRID):
                continue
            for name in node.files:
                if is_allowed_peer(node, name, context):
                    continue
                file = node.file_path(name)
                stem = name.split(".", 1)[0]
                folder = node.file_path(to_kebab_case(stem) or stem or name)
                target = f"{folder}/{name}"
                yield Finding(
                    node=node.path,
                    path=file,
                    message=f"'{name}' is a loose peer file in module '{node.path}'",
                    location=Location(file=file),
                    suggestion=f"move it into its own folder: {target}",
                    fix=FixInfo(
                        action=SyncActionKind.MOVE,
                        risk=Risk.MODERATE,
                        description=f"move {file} to {target} and rewrite its imports",
                        target_path=target,
                    ),
                )
