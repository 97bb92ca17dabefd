"""test-record-case-cap: a test record declares at most 32 test cases.

Follows the upstream plugin 1.0 (vincent-kk/ogham ``evaluateVerificationPolicy.ts``, cap
``TEST_RECORD_CASE_CAP``): a test record (``*.test.*`` holding at least one case, see
``rules.verification``) with more than 32 cases is an error; one whose cases cannot be
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
from filid.rules.verification import TEST_RECORD, case_cap_findings


def _rows(count: int) -> str:
    """One parameterized case with ``count`` rows (each row is a case)."""
    return f"it.each([{', '.join(str(i) for i in range(count))}])('row %s', () => {{}});\n"


@dataclass(frozen=True, slots=True)
class TestRecordCaseCapOptions:
    """``maxCases``: the most cases one test record may declare (upstream: 32)."""

    maxCases: int = 32


class TestRecordCaseCap:
    """Flags test records over the case cap or whose cases cannot be counted."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="test-record-case-cap",
        category=RuleCategory.DOCUMENTATION,
        default_severity=Severity.ERROR,
        applies_to=ALL_CATEGORIES,
        description=(
            "A test record (`*.test.*`) declares at most 32 test cases (each `.each` "
            "row counts); one whose cases cannot be counted exactly is a warning."
        ),
        rationale=(
            "A test record is evidence a reviewer reads: past a few dozen cases it stops being "
            "read and starts being skimmed, and the behaviour it covers is usually several "
            "modules' worth."
        ),
        valid=(
            RuleExample(
                "32 cases: rows of one table",
                {"src/search/search.test.ts": _rows(32), "src/search/index.ts": "export {};\n"},
            ),
        ),
        invalid=(
            RuleExample(
                "33 cases: one plain case and a table",
                {
                    "src/search/search.test.ts": "it('case', () => {});\n" + _rows(32),
                    "src/search/index.ts": "export {};\n",
                },
            ),
            RuleExample(
                "a table computed at run time",
                {
                    "src/search/search.test.ts": "it.each(loadRows())('row', () => {});\n",
                    "src/search/index.ts": "export {};\n",
                },
            ),
        ),
    )
    options_type: ClassVar[type[TestRecordCaseCapOptions]] = TestRecordCaseCapOptions

    def check(self, context: RuleContext, options: TestRecordCaseCapOptions) -> Iterable[Finding]:
        """Yield a finding per test record over the cap or not exactly countable."""
        yield from case_cap_findings(context, TEST_RECORD, self.meta.id, options.maxCases)
