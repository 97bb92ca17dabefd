"""zero-peer-file: a fractal holds only its entry points, documents and eponymous file.

Decisions (SPEC is silent):
- the project root is not checked: a repository root holds tooling files by nature (lock
  files, licences, bundler configs) that no sub-folder could take;
- the eponymous file is compared case-style-insensitively (``UserCard.tsx`` is eponymous in
  ``user-card/``), and the move target folder is kebab-case, so the fix never creates a folder
  that naming-convention would then flag.
"""

from __future__ import annotations

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
from filid.scan.classify import entry_stem
from filid.scan.documents import DETAIL_DOCUMENTS, INTENT_DOCUMENTS

_DOC = "# Cart\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"


def is_allowed_peer(node: FractalNode, name: str, context: RuleContext) -> bool:
    """True when ``name`` may sit directly in fractal/hybrid ``node`` (SPEC §5)."""
    if entry_stem(name) is not None or name in INTENT_DOCUMENTS or name in DETAIL_DOCUMENTS:
        return True
    stem = name.split(".", 1)[0]
    if stem == node.name or to_kebab_case(stem) == to_kebab_case(node.name):
        return True
    if name.startswith("README"):
        return True
    if name == "package.json" or (name.startswith("tsconfig") and name.endswith(".json")):
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
            "A fractal directly holds only its entry points, boundary documents, its eponymous "
            "file, README, package.json and tsconfig files."
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
