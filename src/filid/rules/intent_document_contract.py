"""intent-document-contract: every fractal has a short intent document with three boundaries.

Follows the upstream plugin 1.0 (vincent-kk/ogham ``collectDocumentEvidence.ts``,
``validateIntentMd.ts``, ``detectStructureEnumeration.ts``): a fractal or hybrid without an
intent document is an error; an INTENT.md over 50 lines is an error; a missing "Always do",
"Ask first" or "Never do" section, a section listing three or more path tokens (an inventory
``ls`` already answers) and a section naming half or more of the node's four-plus children
are warnings. Upstream's check that every path token still exists is left out: on real
repositories it reported mostly renamed examples and prose, not drift worth a change.

filid also accepts a legacy ``CLAUDE.md`` carrying the three boundary headings as the intent
document (limit 100 lines; the inventory checks are 1.0's and read INTENT.md only); upstream
reads ``INTENT.md`` only (and asks a module with only a ``CLAUDE.md`` for an INTENT.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from filid.model.facts import DocumentFacts
from filid.model.nodes import FractalNode, NodeCategory
from filid.model.violations import Location, Severity
from filid.rules.base import (
    Finding,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
    is_declared_module,
)
from filid.scan.document_contract import (
    DERIVABLE_ENUMERATION_THRESHOLD,
    INTENT_LINE_LIMIT,
    MIN_CHILD_COUNT,
    missing_boundaries,
    path_tokens,
    section_label,
    split_sections,
)

DEFAULT_MAX_LINES = {"CLAUDE.md": 100, "INTENT.md": INTENT_LINE_LIMIT}
_GOOD = "# Search\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"
_DETAIL = (
    "# Search\n\n## Requirements\n- r\n\n## API Contracts\n- c\n\n## Acceptance Criteria\n"
    "### AC-1 — Finds\n- f\n\n## Last Updated\n2026-01-01\n"
)


@dataclass(frozen=True, slots=True)
class IntentDocumentOptions:
    """``maxLines``: when set, the line limit for both CLAUDE.md and INTENT.md (default 100
    for CLAUDE.md, 50 for INTENT.md)."""

    maxLines: int | None = None


class IntentDocumentContract:
    """Flags fractals without an intent document and intent documents that break the
    contract (length, boundaries, inventories)."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="intent-document-contract",
        category=RuleCategory.DOCUMENTATION,
        default_severity=Severity.ERROR,
        applies_to=frozenset({NodeCategory.FRACTAL, NodeCategory.HYBRID}),
        description=(
            "Every fractal or hybrid has an INTENT.md (error) of at most 50 lines (error) with "
            "the sections Always do, Ask first, Never do (warning); no section lists three or "
            "more path tokens or half of the node's children (warning)."
        ),
        rationale=(
            "An intent document is read by every agent that enters the module: it must exist, "
            "be short enough to stay in context, state its boundaries in the same three "
            "sections everywhere, and say what the tree cannot (a file inventory goes stale "
            "and `ls` already answers it)."
        ),
        valid=(
            RuleExample(
                "a short document with the three boundaries",
                {
                    "src/search/INTENT.md": _GOOD,
                    "src/search/DETAIL.md": _DETAIL,
                    "src/search/index.ts": "export {};\n",
                },
            ),
            RuleExample(
                "a CLAUDE.md without the headings is a Claude Code memory file, not checked",
                {"CLAUDE.md": "# Notes\n\nRun pnpm test.\n", "lib.ts": "export {};\n"},
            ),
        ),
        invalid=(
            RuleExample(
                "a fractal (it has an index.ts) without an INTENT.md",
                {
                    "src/search/DETAIL.md": _DETAIL,
                    "src/search/index.ts": "export {};\n",
                },
            ),
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
            RuleExample(
                "a section that inventories three paths",
                {
                    "src/search/INTENT.md": _GOOD
                    + "\n## Structure\n- `core/a.ts`, `core/b.ts`, `adapters/c.ts`\n",
                    "src/search/index.ts": "export {};\n",
                },
            ),
        ),
    )
    options_type: ClassVar[type[IntentDocumentOptions]] = IntentDocumentOptions

    def check(self, context: RuleContext, options: IntentDocumentOptions) -> Iterable[Finding]:
        """Yield the presence, length, boundary and inventory findings of every fractal."""
        tree = context.tree
        # Upstream's "children" of a node: every node whose parent is owned by it (its child
        # fractals and organs, and the fractals and organs inside those organs).
        owned: dict[str, set[str]] = {}
        for child in tree.nodes.values():
            if child.parent is not None:
                owned.setdefault(tree.owner_of(child.parent).path, set()).add(child.name)
        for node in tree.nodes.values():
            if node.category not in (NodeCategory.FRACTAL, NodeCategory.HYBRID):
                continue
            if node.intent_doc is None:
                if not is_declared_module(node):
                    continue
                yield Finding(
                    node=node.path,
                    path=node.path,
                    message=f"INTENT.md is required for {node.category} node {node.path}",
                    suggestion="write an INTENT.md with its purpose and the three boundaries",
                    fingerprint_parts=("presence",),
                )
                continue
            doc_path = node.file_path(node.intent_doc)
            facts = tree.documents.get(doc_path)
            if facts is not None:
                children = owned.get(node.path, set())
                yield from _document_findings(node, doc_path, facts, children, options)


def _document_findings(
    node: FractalNode,
    doc_path: str,
    facts: DocumentFacts,
    children: set[str],
    options: IntentDocumentOptions,
) -> Iterable[Finding]:
    name = node.intent_doc or "INTENT.md"
    limit = options.maxLines or DEFAULT_MAX_LINES.get(name, INTENT_LINE_LIMIT)
    if facts.line_count > limit:
        yield Finding(
            node=node.path,
            path=node.path,
            message=f"{name} exceeds the {limit}-line limit ({facts.line_count} lines)",
            location=Location(file=doc_path, line=limit + 1),
            suggestion="compress, deduplicate, or move detailed content to DETAIL.md",
            fingerprint_parts=("length",),
        )
    missing = missing_boundaries(facts.lines)
    if missing:
        yield Finding(
            node=node.path,
            path=node.path,
            message=f"{name} is missing the boundary section(s) " + ", ".join(missing),
            location=Location(file=doc_path),
            suggestion="add '## Always do', '## Ask first' and '## Never do' sections",
            fingerprint_parts=("headings",),
            severity=Severity.WARNING,
        )
    if name != "INTENT.md":
        return  # a legacy CLAUDE.md is held to its length and headings only
    sections = split_sections(facts.lines)
    listings: list[Finding] = []
    listed: set[str] = set()
    if len(children) >= MIN_CHILD_COUNT:
        for section in sections:
            mentioned = {
                token.rstrip("/").rpartition("/")[2] for token in path_tokens(section.body)
            } & children
            if len(mentioned) * 2 < len(children):
                continue
            listed.add(section.title)
            listings.append(
                Finding(
                    node=node.path,
                    path=node.path,
                    message=(
                        f"{section_label(section, capital=True)} names {len(mentioned)} of "
                        f"this node's {len(children)} children: a directory listing"
                    ),
                    location=Location(file=doc_path, line=section.line),
                    suggestion="keep only what the tree cannot say",
                    fingerprint_parts=("listing", section.title),
                    severity=Severity.WARNING,
                )
            )
    for section in sections:
        tokens = path_tokens(section.body)
        if len(tokens) < DERIVABLE_ENUMERATION_THRESHOLD or section.title in listed:
            continue
        yield Finding(
            node=node.path,
            path=node.path,
            message=(
                f"section {section_label(section)} lists {len(tokens)} path tokens: "
                "a derivable inventory"
            ),
            location=Location(file=doc_path, line=section.line),
            suggestion=(
                "keep only what the tree cannot say (name traps, generated-vs-canonical), "
                "with a reason"
            ),
            fingerprint_parts=("inventory", section.title),
            severity=Severity.WARNING,
        )
    yield from listings
