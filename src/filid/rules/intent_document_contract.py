"""intent-document-contract: intent documents are short and carry the three boundary headings."""

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
)
from filid.scan.documents import missing_headings

DEFAULT_MAX_LINES = {"CLAUDE.md": 100, "INTENT.md": 50}
_GOOD = "# Search\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"


@dataclass(frozen=True, slots=True)
class IntentDocumentOptions:
    """``maxLines``: when set, the limit for both CLAUDE.md and INTENT.md."""

    maxLines: int | None = None


class IntentDocumentContract:
    """Flags intent documents that are too long or miss a boundary heading."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="intent-document-contract",
        category=RuleCategory.DOCUMENTATION,
        default_severity=Severity.WARNING,
        applies_to=frozenset({NodeCategory.FRACTAL, NodeCategory.HYBRID}),
        description=(
            "CLAUDE.md (≤100 lines) / INTENT.md (≤50 lines) has the headings Always do, "
            "Ask first, Never do."
        ),
        rationale=(
            "An intent document is read by every agent that enters the module: it must be short "
            "enough to stay in context and state its boundaries in the same three sections "
            "everywhere."
        ),
        valid=(
            RuleExample(
                "a short document with the three headings",
                {"src/search/CLAUDE.md": _GOOD, "src/search/index.ts": "export {};\n"},
            ),
            RuleExample(
                "a CLAUDE.md without the headings is a Claude Code memory file, not checked",
                {"CLAUDE.md": "# Notes\n\nRun pnpm test.\n", "src/index.ts": "export {};\n"},
            ),
        ),
        invalid=(
            RuleExample(
                "a document without 'Never do'",
                {
                    "src/search/INTENT.md": "# Search\n\n## Always do\n- a\n\n## Ask first\n- b\n",
                    "src/search/index.ts": "export {};\n",
                },
            ),
            RuleExample(
                "an INTENT.md over 50 lines",
                {
                    "src/search/INTENT.md": _GOOD + "line\n" * 60,
                    "src/search/index.ts": "export {};\n",
                },
            ),
        ),
    )
    options_type: ClassVar[type[IntentDocumentOptions]] = IntentDocumentOptions

    def check(self, context: RuleContext, options: IntentDocumentOptions) -> Iterable[Finding]:
        """Yield findings for over-long documents and missing headings."""
        for node in context.tree.nodes.values():
            if node.category not in (NodeCategory.FRACTAL, NodeCategory.HYBRID):
                continue
            if node.intent_doc is None:
                continue
            doc_path = node.file_path(node.intent_doc)
            facts = context.tree.documents.get(doc_path)
            if facts is None:
                continue
            limit = options.maxLines or DEFAULT_MAX_LINES[node.intent_doc]
            if facts.line_count > limit:
                yield Finding(
                    node=node.path,
                    path=node.path,
                    message=f"{node.intent_doc} has {facts.line_count} lines; the limit is {limit}",
                    location=Location(file=doc_path, line=limit + 1),
                    suggestion="move details into SPEC.md/DETAIL.md and keep the boundaries",
                    fingerprint_parts=("length",),
                )
            missing = missing_headings(facts)
            if missing:
                yield Finding(
                    node=node.path,
                    path=node.path,
                    message=(
                        f"{node.intent_doc} lacks the heading(s) "
                        + ", ".join(f"'{h}'" for h in missing)
                    ),
                    location=Location(file=doc_path),
                    suggestion="add '## Always do', '## Ask first' and '## Never do' sections",
                    fingerprint_parts=("headings",),
                )
