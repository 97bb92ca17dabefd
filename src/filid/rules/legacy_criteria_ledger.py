"""legacy-criteria-ledger: a pre-1.0 ``.filid/criteria.md`` ledger moves into DETAIL.md.

The upstream plugin before 1.0 kept acceptance criteria in one ledger at
``.filid/criteria.md``; 1.0 keeps them as acceptance groups in the DETAIL.md of the fractal
they belong to (vincent-kk/ogham ``checkLegacyCriteriaLedger.ts``). One warning while the
ledger exists, pointing at the root DETAIL.md as the migration target.
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


@dataclass(frozen=True, slots=True)
class LegacyCriteriaLedgerOptions:
    """The rule takes no options (upstream's has none)."""


class LegacyCriteriaLedger:
    """Flags the legacy ``.filid/criteria.md`` acceptance-criteria ledger."""

    meta: ClassVar[RuleMeta] = RuleMeta(
        id="legacy-criteria-ledger",
        category=RuleCategory.DOCUMENTATION,
        default_severity=Severity.WARNING,
        applies_to=ALL_CATEGORIES,
        description=(
            "The project root holds no legacy acceptance-criteria ledger `.filid/criteria.md`."
        ),
        rationale=(
            "FCA 1.0 keeps acceptance criteria as groups in the DETAIL.md of the module they "
            "belong to, where tests link to them; a project-wide ledger is a second source of "
            "truth that drifts from them."
        ),
        valid=(
            RuleExample(
                "criteria live in the root DETAIL.md",
                {
                    "DETAIL.md": "## Acceptance Criteria\n### AC-1 — Works\n- it works\n",
                    "src/index.ts": "export {};\n",
                },
            ),
        ),
        invalid=(
            RuleExample(
                "a legacy ledger",
                {
                    ".filid/criteria.md": "# Criteria\n\n- preserve this claim\n",
                    "src/index.ts": "export {};\n",
                },
            ),
        ),
    )
    options_type: ClassVar[type[LegacyCriteriaLedgerOptions]] = LegacyCriteriaLedgerOptions

    def check(
        self, context: RuleContext, options: LegacyCriteriaLedgerOptions
    ) -> Iterable[Finding]:
        """Yield one finding while the ledger exists."""
        ledger = context.legacy_ledger
        if ledger is None:
            return
        yield Finding(
            node=".",
            path=ledger,
            message="legacy acceptance criteria ledger requires migration into DETAIL.md",
            location=Location(file=ledger),
            suggestion="move the legacy acceptance claims into DETAIL.md",
            fingerprint_parts=("ledger",),
        )
