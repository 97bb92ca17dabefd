"""spec-fragmentation: one acceptance group is verified by one spec document.

Follows the upstream plugin 1.0 (vincent-kk/ogham ``findSpecFragmentation.ts``): when a
module owns more than one spec document (``*.spec.*``, see ``rules.verification``), each links
to acceptance groups of the module's DETAIL.md with ``filid:contract <id>`` comments. An
acceptance group claimed by two spec documents of the same module is split across them
(an error): a cap on cases per spec cannot be evaded by cutting one contract into files.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from filid.model.violations import Location, Severity
from filid.rules.base import (
    ALL_CATEGORIES,
    Finding,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
)
from filid.rules.verification import contract_problems

_DETAIL = (
    "# Search\n\n## Requirements\n- r\n\n## API Contracts\n- c\n\n## Acceptance Criteria\n"
    "### AC-find — Finds\n- f\n\n### AC-rank — Ranks\n- r\n\n## Last Updated\n2026-01-01\n"
)
_INTENT = "# Search\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"


def _spec(group: str | None) -> str:
    marker = f"// filid:contract {group}\n" if group else ""
    return marker + "it('holds a case', () => {});\n"


@dataclass(frozen=True, slots=True)
class SpecFragmentationOptions:
    """The rule takes no options (upstream's has none)."""


class SpecFragmentation:
    """Flags acceptance groups that several spec documents of one module claim."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="spec-fragmentation",
        category=RuleCategory.DOCUMENTATION,
        default_severity=Severity.ERROR,
        applies_to=ALL_CATEGORIES,
        description=(
            "Two spec documents of one module never link to the same acceptance group "
            "(`filid:contract <id>`)."
        ),
        rationale=(
            "A contract verified in two places is verified in neither: each spec must own whole "
            "acceptance groups, so cutting a spec in two to stay under the case cap is visible."
        ),
        valid=(
            RuleExample(
                "two spec documents, each linked to its own declared group",
                {
                    "src/search/INTENT.md": _INTENT,
                    "src/search/DETAIL.md": _DETAIL,
                    "src/search/index.ts": "export {};\n",
                    "src/search/find.spec.ts": _spec("AC-find"),
                    "src/search/rank.spec.ts": _spec("AC-rank"),
                },
            ),
        ),
        invalid=(
            RuleExample(
                "two spec documents claim the same group",
                {
                    "src/search/INTENT.md": _INTENT,
                    "src/search/DETAIL.md": _DETAIL,
                    "src/search/index.ts": "export {};\n",
                    "src/search/find.spec.ts": _spec("AC-find"),
                    "src/search/find-more.spec.ts": _spec("AC-find"),
                },
            ),
        ),
    )
    options_type: ClassVar[type[SpecFragmentationOptions]] = SpecFragmentationOptions

    def check(self, context: RuleContext, options: SpecFragmentationOptions) -> Iterable[Finding]:
        """Yield this rule's spec-contract findings."""
        for problem in contract_problems(context):
            if problem.rule_id != self.meta.id:
                continue
            yield Finding(
                node=problem.owner,
                path=problem.path,
                message=problem.message,
                location=Location(file=problem.path),
                suggestion=(
                    "merge the spec documents that verify this group, or split the group in "
                    "DETAIL.md"
                ),
                fingerprint_parts=(problem.group, problem.message),
                severity=Severity.ERROR,
            )
