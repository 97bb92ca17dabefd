"""What every report says about the regime that ran (SPEC §0), worded once for all formats."""

from __future__ import annotations

from filid.model.report import Regime, ValidationResult

__all__ = ["ADOPT_HINT", "describe_regime", "regime_sentence"]

ADOPT_HINT = "Run `filid init` to adopt FCA and get its rules."

_UNDECLARED = (
    "Undeclared project (no .filid/config.json, no INTENT.md or DETAIL.md): only the checks "
    "that hold for any TypeScript project ran (import cycles between packages and between "
    "barrels, imports of unpublished package files, imports that resolve to nothing, max-depth)."
)


def regime_sentence(result: ValidationResult) -> str:
    """One sentence naming the regime and what declared it; for an undeclared project, how to
    adopt FCA."""
    return describe_regime(result.regime, result.declared_by)


def describe_regime(regime: Regime, declared_by: str | None) -> str:
    """:func:`regime_sentence` from the regime and the declaring file alone."""
    if regime is Regime.UNDECLARED:
        return f"{_UNDECLARED} {ADOPT_HINT}"
    by = f" (declared by {declared_by})" if declared_by else ""
    return f"FCA project{by}: the FCA rules ran."
