"""rule-query: the rule catalogue with enabled states, filters, and check scopes."""

from __future__ import annotations

import os
from pathlib import Path

from filid.config.load import load_config
from filid.model.errors import InputError, UsageError
from filid.model.nodes import FractalTree, NodeCategory
from filid.rules.base import RuleCategory, RuleMeta
from filid.rules.catalogue import rule_runs
from filid.rules.registry import ALIASES, RULES, RULES_BY_ID
from filid.scan.regime import is_declared
from filid.scan.universe import resolve_root

NODE_CATEGORIES = frozenset(c.value for c in NodeCategory)
RULE_CATEGORIES = frozenset(c.value for c in RuleCategory)


def rule_states(root: Path, config_path: Path | None) -> list[tuple[RuleMeta, bool]]:
    """Every rule's metadata with whether it runs on the project: its config's word, else
    the default of the project's regime (SPEC §0)."""
    resolved = resolve_root(root)
    config = load_config(
        resolved, config_path, known_rule_ids=tuple(RULES_BY_ID), rule_aliases=ALIASES
    )
    declared = is_declared(resolved, config)
    states: list[tuple[RuleMeta, bool]] = []
    for rule in RULES:
        rule_config = config.rules.get(rule.meta.id)
        enabled = rule_runs(
            rule.meta.id,
            enabled_by_default=rule.meta.enabled_by_default,
            configured=rule_config.enabled if rule_config else None,
            declared=declared,
        )
        states.append((rule.meta, enabled))
    return states


def filter_rules(
    states: list[tuple[RuleMeta, bool]], category: str | None
) -> list[tuple[RuleMeta, bool]]:
    """Keep rules of a rule category, or rules that apply to a node category."""
    if category is None:
        return list(states)
    if category in NODE_CATEGORIES:
        node_category = NodeCategory(category)
        return [(m, on) for m, on in states if node_category in m.applies_to]
    if category in RULE_CATEGORIES:
        return [(m, on) for m, on in states if m.category.value == category]
    valid = ", ".join(sorted(NODE_CATEGORIES | RULE_CATEGORIES))
    raise UsageError(f"unknown category '{category}' (valid: {valid})")


def scope_of(tree: FractalTree, root: Path, target: str) -> str:
    """The node path for a ``rules check`` TARGET: a root-relative node path or a real path."""
    candidate = target.strip().rstrip("/") or "."
    if candidate in tree.nodes:
        return candidate
    absolute = Path(os.path.abspath(target))
    try:
        rel = absolute.relative_to(root).as_posix() or "."
    except ValueError:
        rel = None
    if rel is not None and (rel in tree.nodes or rel == "."):
        return "." if rel in ("", ".") else rel
    raise InputError(f"{target}: not a node of the project at {root}")
