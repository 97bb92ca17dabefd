"""The rule ids and their aliases as plain data, in registry order.

Checking a config, ``--rules`` or scoping a stored result needs only the ids, not the rule
code (importing every rule module costs about 0.1 s, most of a run answered from the
snapshot). ``filid.rules.registry`` refuses to load if the two ever disagree.
"""

from __future__ import annotations

RULE_IDS: tuple[str, ...] = (
    "naming-convention",
    "organ-no-claudemd",
    "index-barrel-pattern",
    "module-entry-point",
    "max-depth",
    "circular-dependency",
    "pure-function-isolation",
    "zero-peer-file",
    "external-import-boundary",
    "intent-document-contract",
    "hybrid-node",
    "detail-document-contract",
    "entry-point-surface",
    "spec-document-case-cap",
    "test-record-case-cap",
    "spec-fragmentation",
    "spec-contract-link",
    "legacy-criteria-ledger",
)

ALIASES: dict[str, str] = {"organ-no-intentmd": "organ-no-claudemd"}


def canonical_rule_id(rule_id: str) -> str | None:
    """The implemented rule id for ``rule_id`` or one of its aliases; None when unknown."""
    if rule_id in RULE_IDS:
        return rule_id
    return ALIASES.get(rule_id)
