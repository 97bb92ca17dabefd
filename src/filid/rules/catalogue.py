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
    "unresolved-import",
    "unpublished-package-import",
)

ALIASES: dict[str, str] = {"organ-no-intentmd": "organ-no-claudemd"}

# SPEC §0: the only claims an undeclared project gets (an allow-list, so a rule added later is
# off there until it is listed): cycles, imports of a workspace package's unpublished file,
# imports that resolve to nothing, and max-depth on folders holding source. Any other rule
# runs in an undeclared project only when its config enables it explicitly.
UNDECLARED_RULE_IDS: frozenset[str] = frozenset(
    {"circular-dependency", "max-depth", "unresolved-import", "unpublished-package-import"}
)

# Claims an undeclared project gets at a lower severity than their rule's default (SPEC §0,
# issue 23): nesting depth is a policy such a project has not chosen, so its depth claim is a
# warning. A rule's config severity still wins; a declared project keeps the default.
UNDECLARED_SEVERITY: dict[str, str] = {"max-depth": "warning"}

# filid's own claims beside upstream's rule set: a declared project (upstream 1.0 semantics)
# gets them only when its config enables them.
OPT_IN_WHEN_DECLARED: frozenset[str] = frozenset(
    {"unresolved-import", "unpublished-package-import"}
)


def rule_runs(
    rule_id: str, *, enabled_by_default: bool, configured: bool | None, declared: bool
) -> bool:
    """Whether a rule runs: its config's ``enabled`` wins (SPEC §0); otherwise the regime
    decides, and a rule upstream 1.0 removed (``enabled_by_default`` false) stays off."""
    if configured is not None:
        return configured
    return enabled_by_default and runs_by_default(rule_id, declared=declared)


def runs_by_default(rule_id: str, *, declared: bool) -> bool:
    """Whether ``rule_id`` runs in a project of that regime when its config says nothing."""
    if declared:
        return rule_id not in OPT_IN_WHEN_DECLARED
    return rule_id in UNDECLARED_RULE_IDS


def regime_severity(rule_id: str, *, declared: bool) -> str | None:
    """The severity (``"warning"``…) a rule's findings take by default in that regime, when it
    differs from the rule's own default; None otherwise."""
    return None if declared else UNDECLARED_SEVERITY.get(rule_id)


def canonical_rule_id(rule_id: str) -> str | None:
    """The implemented rule id for ``rule_id`` or one of its aliases; None when unknown."""
    if rule_id in RULE_IDS:
        return rule_id
    return ALIASES.get(rule_id)
