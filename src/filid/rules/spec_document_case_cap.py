"""spec-document-case-cap: a spec document declares at most 15 test cases.

Follows the upstream plugin 1.0 (vincent-kk/ogham ``evaluateVerificationPolicy.ts``, cap
``SPEC_DOCUMENT_CASE_CAP``): a spec document (``*.spec.*`` holding at least one case, see
``rules.verification``) with more than 15 cases is an error; one whose cases cannot be
counted exactly (a computed ``.each`` table, an alias of a case function) is a warning that
says why.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from filid.model.violations import Severity
from filid.rules.base import (
    ALL_CATEGORIES,
    Finding,
    RuleCategory,
    RuleContext,
    RuleExample,
    RuleMeta,
)
from filid.rules.verification import SPEC_DOCUMENT, case_cap_findings


def _rows(count: int) -> str:
    """One parameterized case with ``count`` rows (each row is a case)."""
    return f"it.each([{', '.join(str(i) for i in range(count))}])('row %s', () => {{}});\n"


@dataclass(frozen=True, slots=True)
class SpecDocumentCaseCapOptions:
    """``maxCases``: the most cases one spec document may declare (upstream: 15)."""

    maxCases: int = 15


class SpecDocumentCaseCap:
    """Flags spec documents over the case cap or whose cases cannot be counted."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="spec-document-case-cap",
        category=RuleCategory.DOCUMENTATION,
        default_severity=Severity.ERROR,
        applies_to=ALL_CATEGORIES,
        description=(
            "A spec document (`*.spec.*`) declares at most 15 test cases (each `.each` "
            "row counts); one whose cases cannot be counted exactly is a warning."
        ),
        rationale=(
            "A spec document states one contract as executable cases: a dozen or so cases is what"
            " one contract group needs; more means the spec covers several contracts and should "
            "be split along them."
        ),
        valid=(
            RuleExample(
                "15 cases: rows of one table",
                {"src/search/search.spec.ts": _rows(15), "src/search/index.ts": "export {};\n"},
            ),
        ),
        invalid=(
            RuleExample(
                "16 cases: one plain case and a table",
                {
                    "src/search/search.spec.ts": "it('case', () => {});\n" + _rows(15),
                    "src/search/index.ts": "export {};\n",
                },
            ),
            RuleExample(
                "a table computed at run time",
                {
                    "src/search/search.spec.ts": "it.each(loadRows())('row', () => {});\n",
                    "src/search/index.ts": "export {};\n",
                },
            ),
        ),
    )
    options_type: ClassVar[type[SpecDocumentCaseCapOptions]] = SpecDocumentCaseCapOptions

    def check(self, context: RuleContext, options: SpecDocumentCaseCapOptions) -> Iterable[Finding]:
        """Yield a finding per spec document over the cap or not exactly countable."""
        yield from case_cap_findings(context, SPEC_DOCUMENT, self.meta.id, options.maxCases)
