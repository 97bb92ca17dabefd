"""spec-contract-link: several spec documents of one module link to declared groups.

Follows the upstream plugin 1.0 (vincent-kk/ogham ``findSpecFragmentation.ts``): when a
module owns more than one spec document (``*.spec.*``, see ``rules.verification``), each links
to acceptance groups of the module's DETAIL.md with ``filid:contract <id>`` comments. A spec
document without a link, or with one to a group the DETAIL.md does not
declare, is reported. Upstream's rule table says warning, but the findings it reports are
errors unless the config sets a severity; filid does the same.
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
class SpecContractLinkOptions:
    """The rule takes no options (upstream's has none)."""


class SpecContractLink:
    """Flags spec documents of a multi-spec module without a link to a declared group."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="spec-contract-link",
        category=RuleCategory.DOCUMENTATION,
        default_severity=Severity.WARNING,
        applies_to=ALL_CATEGORIES,
        description=(
            "When a module owns several spec documents, each names at least one acceptance group "
            "of the module's DETAIL.md (`// filid:contract <id>`), and only declared ones."
        ),
        rationale=(
            "With one spec per module the link is obvious; with several, only the explicit "
            "link says which contract each verifies, and a link to an undeclared group is a "
            "contract nobody wrote down."
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
                "a second spec document without a link",
                {
                    "src/search/INTENT.md": _INTENT,
                    "src/search/DETAIL.md": _DETAIL,
                    "src/search/index.ts": "export {};\n",
                    "src/search/find.spec.ts": _spec("AC-find"),
                    "src/search/rank.spec.ts": _spec(None),
                },
            ),
            RuleExample(
                "a link to a group DETAIL.md does not declare",
                {
                    "src/search/INTENT.md": _INTENT,
                    "src/search/DETAIL.md": _DETAIL,
                    "src/search/index.ts": "export {};\n",
                    "src/search/find.spec.ts": _spec("AC-find"),
                    "src/search/rank.spec.ts": _spec("AC-sort"),
                },
            ),
        ),
    )
    options_type: ClassVar[type[SpecContractLinkOptions]] = SpecContractLinkOptions

    def check(self, context: RuleContext, options: SpecContractLinkOptions) -> Iterable[Finding]:
        """Yield this rule's spec-contract findings."""
        for problem in contract_problems(context):
            if problem.rule_id != self.meta.id:
                continue
            yield Finding(
                node=problem.owner,
                path=problem.path,
                message=problem.message,
                location=Location(file=problem.path),
                suggestion="add `// filid:contract <id>` naming a group of the module's DETAIL.md",
                fingerprint_parts=(problem.group, problem.message),
                severity=Severity.ERROR,
            )
