"""The ``filid://rules`` resource: the rule catalogue as Markdown, built from the registry."""

from __future__ import annotations

from typing import Final

from filid.rules.base import RuleMeta
from filid.rules.registry import RULES

RULES_URI: Final = "filid://rules"
RULES_MIME_TYPE: Final = "text/markdown"
RULES_DESCRIPTION: Final = (
    "Every filid rule: id, category, default severity, what it checks, why, which node "
    "categories it applies to, and whether filid can fix it."
)


def _fix_text(meta: RuleMeta) -> str:
    if meta.fix_action is None or meta.fix_risk is None:
        return "none (a manual change)"
    return f"{meta.fix_action.value} ({meta.fix_risk.value})"


def _rule_section(meta: RuleMeta) -> str:
    applies = ", ".join(sorted(c.value for c in meta.applies_to))
    lines = [
        f"## `{meta.id}`",
        "",
        meta.description,
        "",
        f"- **Category:** {meta.category.value}",
        f"- **Default severity:** {meta.default_severity.value}",
        f"- **Applies to:** {applies}",
        f"- **Fix:** {_fix_text(meta)}",
    ]
    if meta.aliases:
        lines.append(f"- **Aliases:** {', '.join(f'`{a}`' for a in meta.aliases)}")
    lines += ["", f"**Rationale.** {meta.rationale}", ""]
    return "\n".join(lines)


def rules_markdown() -> str:
    """The catalogue: one section per rule of the registry, in registry order."""
    header = [
        "# filid rules",
        "",
        f"{len(RULES)} rules. A project's `.filid/config.json` may disable a rule, change its "
        "severity, or exempt paths. Fix risks: `safe` fixes are applied by structure-validate "
        "with fix=true (CLI `filid check --fix`); `moderate` ones only with `--unsafe-fixes`.",
        "",
    ]
    return "\n".join(header) + "\n" + "\n".join(_rule_section(rule.meta) for rule in RULES)
