"""Subsets of a full result: the rules of ``--rules`` and the files of a pre-commit run.

Light on purpose (no parsing or graph code): a result answered from the snapshot is scoped
here without loading the pipeline.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from filid.model.errors import UsageError
from filid.model.report import ValidationResult
from filid.model.violations import Violation
from filid.rules.catalogue import RULE_IDS, canonical_rule_id


def select_rules(rule_ids: Sequence[str] | None) -> tuple[str, ...] | None:
    """Canonical ids for ``--rules``; ``UsageError`` naming the valid ids for an unknown one."""
    if rule_ids is None:
        return None
    selected: list[str] = []
    for raw in rule_ids:
        canonical = canonical_rule_id(raw.strip())
        if canonical is None:
            valid = ", ".join(sorted(RULE_IDS))
            raise UsageError(f"unknown rule id '{raw.strip()}' (valid ids: {valid})")
        selected.append(canonical)
    return tuple(dict.fromkeys(selected))


def _touches(violation: Violation, files: frozenset[str], directories: frozenset[str]) -> bool:
    if violation.path in files or violation.location.file in files:
        return True
    return violation.path in directories or any(r.file in files for r in violation.related)


def normalize_files(root: Path, files: Sequence[str]) -> frozenset[str]:
    """Root-relative POSIX paths of ``files`` (as pre-commit passes them); others dropped."""
    normalized: set[str] = set()
    for file in files:
        absolute = Path(os.path.abspath(file))
        try:
            rel = absolute.relative_to(root)
        except ValueError:
            try:
                rel = absolute.resolve().relative_to(root)
            except (ValueError, OSError):
                continue
        normalized.add(rel.as_posix())
    return frozenset(normalized)


def restrict(
    result: ValidationResult,
    *,
    rule_ids: Sequence[str] | None = None,
    files: Sequence[str] | None = None,
) -> ValidationResult:
    """Keep only the rules ``rule_ids`` (``--rules``) and the violations touching ``files``.

    Deriving a subset from a full result gives what ``evaluate`` with the same arguments
    gives, so a cached full result can answer a pre-commit run (``files``) or ``--rules``.
    """
    violations = list(result.violations)
    # Kept as it is unless rules are selected: a stored result's mapping splits its node
    # lists only when a report counts them (``check.staged_state``).
    evaluated: Mapping[str, tuple[str, ...]] = result.evaluated
    applied, skipped = list(result.rules_applied), list(result.rules_skipped)
    selected = select_rules(rule_ids)
    if selected is not None:
        violations = [v for v in violations if v.rule_id in selected]
        evaluated = {rule: nodes for rule, nodes in evaluated.items() if rule in selected}
        applied = [r for r in applied if r in selected]
        skipped = [rule for rule in RULE_IDS if rule not in applied]
    if files is not None:
        wanted = normalize_files(result.root, files)
        directories = frozenset(f.rpartition("/")[0] or "." for f in wanted)
        violations = [v for v in violations if _touches(v, wanted, directories)]
    if selected is None and files is None:
        return result
    return dataclasses.replace(
        result,
        violations=tuple(violations),
        evaluated=evaluated,
        rules_applied=tuple(applied),
        rules_skipped=tuple(skipped),
    )
