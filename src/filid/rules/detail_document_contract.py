"""detail-document-contract: every fractal has a DETAIL.md that states a current contract.

Follows the upstream plugin 1.0 (vincent-kk/ogham ``collectDocumentEvidence.ts``,
``validateDetailMd.ts``, ``validateDetailAcceptanceGroups.ts``, ``parseBoundaryExemptions.ts``):
a fractal or hybrid without a detail document; a DETAIL.md without one of the sections
``## Requirements``, ``## API Contracts``, ``## Acceptance Criteria``, ``## Last Updated``; an
acceptance group heading that is not ``### <stable-id> — <title>`` or repeats an id; an
``## Acceptance Criteria`` section without a group; a ``## Boundary Exemptions`` entry without
a ``Reason``. Upstream's check that every path token still exists is left out (see
``intent-document-contract``).

A legacy ``SPEC.md`` beside an intent document counts as the detail document (filid reads old
FCA layouts); its content is not held to the 1.0 sections. A module that keeps the legacy
layout (its intent document a ``CLAUDE.md`` with the three boundary headings) is not asked for
a DETAIL.md: filid accepts that layout as it is, and a module moves to INTENT.md and DETAIL.md
together (upstream 1.0 asks such a module for both; a ``create-index`` fix would otherwise
turn a module-entry-point warning into a missing-document error).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from filid.model.nodes import NodeCategory
from filid.model.violations import Location, Severity
from filid.rules.base import (
    Finding,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
    is_declared_module,
)
from filid.scan.document_contract import detail_problems

_INTENT = "# Search\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"
_DETAIL = (
    "# Search\n\n## Requirements\n- r\n\n## API Contracts\n- c\n\n## Acceptance Criteria\n"
    "### AC-search — Finds documents\n- f\n\n## Last Updated\n2026-01-01\n"
)


@dataclass(frozen=True, slots=True)
class DetailDocumentOptions:
    """The rule takes no options (upstream's has none)."""


class DetailDocumentContract:
    """Flags fractals without a DETAIL.md and DETAIL.md files that miss the contract."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="detail-document-contract",
        category=RuleCategory.DOCUMENTATION,
        default_severity=Severity.ERROR,
        applies_to=frozenset({NodeCategory.FRACTAL, NodeCategory.HYBRID}),
        description=(
            "Every fractal or hybrid has a DETAIL.md with the sections Requirements, API "
            "Contracts, Acceptance Criteria (at least one '### <id> — <title>' group) and Last "
            "Updated; every boundary exemption it grants has a Reason."
        ),
        rationale=(
            "The detail document is the module's current public contract: what it must do, "
            "its API, and acceptance groups that tests link to. A section left out is a "
            "contract nobody can check, and an exemption without a reason is a disabled rule "
            "wearing a declaration."
        ),
        valid=(
            RuleExample(
                "a fractal with a complete DETAIL.md",
                {
                    "src/search/INTENT.md": _INTENT,
                    "src/search/DETAIL.md": _DETAIL,
                    "src/search/index.ts": "export {};\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "a fractal without a DETAIL.md",
                {"src/search/INTENT.md": _INTENT, "src/search/index.ts": "export {};\n"},
            ),
            RuleExample(
                "a DETAIL.md without an acceptance group",
                {
                    "src/search/INTENT.md": _INTENT,
                    "src/search/DETAIL.md": _DETAIL.replace(
                        "### AC-search — Finds documents\n", ""
                    ),
                    "src/search/index.ts": "export {};\n",
                },
            ),
            RuleExample(
                "a boundary exemption without a reason",
                {
                    "src/search/INTENT.md": _INTENT,
                    "src/search/DETAIL.md": _DETAIL
                    + "\n## Boundary Exemptions\n### utils — shared helpers\n"
                    + "- **Consumers**: src/**\n- **Direct import**: allowed\n",
                    "src/search/index.ts": "export {};\n",
                },
            ),
        ),
    )
    options_type: ClassVar[type[DetailDocumentOptions]] = DetailDocumentOptions

    def check(self, context: RuleContext, options: DetailDocumentOptions) -> Iterable[Finding]:
        """Yield the presence, section, acceptance-group and exemption findings."""
        tree = context.tree
        for node in tree.nodes.values():
            if node.category not in (NodeCategory.FRACTAL, NodeCategory.HYBRID):
                continue
            if node.detail_doc is None:
                if not is_declared_module(node):
                    continue
                yield Finding(
                    node=node.path,
                    path=node.path,
                    message=f"DETAIL.md is required for {node.category} node {node.path}",
                    suggestion=(
                        "write a DETAIL.md with Requirements, API Contracts, Acceptance "
                        "Criteria and Last Updated"
                    ),
                    fingerprint_parts=("presence",),
                )
                continue
            if node.detail_doc != "DETAIL.md":
                continue
            doc_path = node.file_path(node.detail_doc)
            facts = tree.documents.get(doc_path)
            if facts is None:
                continue
            for problem in detail_problems(facts.lines):
                yield Finding(
                    node=node.path,
                    path=node.path,
                    message=problem.message,
                    location=Location(file=doc_path, line=problem.line),
                    fingerprint_parts=(problem.kind, problem.message),
                )
            for exemption in facts.exemptions:
                if exemption.reason.strip():
                    continue
                target = exemption.target
                yield Finding(
                    node=node.path,
                    path=node.path,
                    message=(
                        f'boundary exemption "{target}" has no reason; an exemption without '
                        "one is an unmet contract, not a granted exemption"
                    ),
                    location=Location(file=doc_path, line=exemption.line),
                    suggestion="add '- **Reason**: …' saying why the import is allowed",
                    fingerprint_parts=("exemption", target),
                )
