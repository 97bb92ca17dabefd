"""Drift: the distance between the tree and the rules, and the SyncPlan that closes it (SPEC §6).

``detect_drift`` turns each violation of a validation result into a :class:`DriftItem` that says
what the rule wants (``expected``) and what is there (``actual``), with a drift severity that
ranks structural damage (an import cycle is critical, a badly named folder is low). With
``with_plan`` it also lists one :class:`PlanItem` per distinct SyncAction, ordered so that the
plan can be applied top to bottom.

This module is pure: it reads a :class:`~filid.model.report.ValidationResult` and never touches
the file system (the fix engine in :mod:`filid.fix` computes and applies the concrete edits).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from filid.model.report import Regime, ValidationResult
from filid.model.violations import Risk, Severity, SyncActionKind, Violation

__all__ = [
    "NO_ACTION",
    "DriftItem",
    "DriftReport",
    "DriftSeverity",
    "PlanItem",
    "detect_drift",
    "drift_severity",
]

# The ``suggested_action`` of a violation whose rule has no SyncAction (intent-document-
# contract): the fix is an edit only a person (or an agent) can make. It is not one of the
# seed's SyncActions, so the JSON item has no ``suggestedAction`` and says what to do in its
# ``description`` instead.
NO_ACTION = "manual"


class DriftSeverity(StrEnum):
    """How much a drift item hurts the structure; ``rank`` orders them (critical first)."""

    CRITICAL = "critical"
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"

    @property
    def rank(self) -> int:
        """0 for critical … 3 for low."""
        return _DRIFT_RANK[self]


_DRIFT_RANK = {
    DriftSeverity.CRITICAL: 0,
    DriftSeverity.HIGH: 1,
    DriftSeverity.MEDIUM: 2,
    DriftSeverity.LOW: 3,
}

# SPEC §6: the drift severity of each rule; any other rule maps from its violation severity.
_RULE_DRIFT_SEVERITY: Mapping[str, DriftSeverity] = {
    "circular-dependency": DriftSeverity.CRITICAL,
    "pure-function-isolation": DriftSeverity.CRITICAL,
    "max-depth": DriftSeverity.HIGH,
    "organ-no-claudemd": DriftSeverity.HIGH,
    "organ-no-intentmd": DriftSeverity.HIGH,
    "external-import-boundary": DriftSeverity.HIGH,
    "index-barrel-pattern": DriftSeverity.MEDIUM,
    "module-entry-point": DriftSeverity.MEDIUM,
    "zero-peer-file": DriftSeverity.MEDIUM,
    "naming-convention": DriftSeverity.LOW,
    "intent-document-contract": DriftSeverity.LOW,
    "hybrid-node": DriftSeverity.LOW,
    # FCA 1.0 document and verification rules: contracts on paper, never structural damage.
    "detail-document-contract": DriftSeverity.LOW,
    "legacy-criteria-ledger": DriftSeverity.LOW,
    "spec-contract-link": DriftSeverity.LOW,
    "entry-point-surface": DriftSeverity.MEDIUM,
    "spec-document-case-cap": DriftSeverity.MEDIUM,
    "test-record-case-cap": DriftSeverity.MEDIUM,
    "spec-fragmentation": DriftSeverity.MEDIUM,
}

_SEVERITY_DRIFT: Mapping[Severity, DriftSeverity] = {
    Severity.ERROR: DriftSeverity.HIGH,
    Severity.WARNING: DriftSeverity.MEDIUM,
    Severity.INFO: DriftSeverity.LOW,
}

# Plan phases, applied in this order: renames move whole directories (deepest first, so that a
# shallower rename does not invalidate the deeper one's paths); then files are created and
# barrels split (rewrites may point at the new entry points); then single files move; then
# imports are rewritten; the plan-only actions come last because nothing after depends on them.
_PHASE: Mapping[SyncActionKind, int] = {
    SyncActionKind.RENAME: 0,
    SyncActionKind.CREATE_INDEX: 1,
    SyncActionKind.CREATE_MAIN: 1,
    SyncActionKind.SPLIT: 2,
    SyncActionKind.MOVE: 3,
    SyncActionKind.REWRITE_IMPORT: 4,
    SyncActionKind.RECLASSIFY: 5,
    SyncActionKind.MERGE: 6,
}

_RISK_RANK = {Risk.SAFE: 0, Risk.MODERATE: 1, Risk.RISKY: 2}


@dataclass(frozen=True, slots=True)
class DriftItem:
    """One violation seen as drift: what the rule wants versus what is there."""

    path: str
    rule: str
    expected: str
    actual: str
    severity: DriftSeverity
    suggested_action: str
    manual_change: str = ""

    def to_json(self) -> dict[str, object]:
        """The CONTRACT camelCase shape; a manual item has ``description`` instead of a
        ``suggestedAction`` (the seed's SyncAction list has no "manual")."""
        data: dict[str, object] = {
            "path": self.path,
            "rule": self.rule,
            "expected": self.expected,
            "actual": self.actual,
            "severity": self.severity.value,
        }
        if self.suggested_action == NO_ACTION:
            data["description"] = self.manual_change
        else:
            data["suggestedAction"] = self.suggested_action
        return data


@dataclass(frozen=True, slots=True)
class PlanItem:
    """One step of the SyncPlan."""

    action: SyncActionKind
    target_path: str
    description: str
    estimated_risk: Risk

    def to_json(self) -> dict[str, object]:
        """The CONTRACT camelCase shape."""
        return {
            "action": self.action.value,
            "targetPath": self.target_path,
            "description": self.description,
            "estimatedRisk": self.estimated_risk.value,
        }


@dataclass(frozen=True, slots=True)
class DriftReport:
    """Every drift item (sorted), counts per severity, and optionally the SyncPlan."""

    items: tuple[DriftItem, ...]
    total: int
    by_severity: Mapping[str, int]
    scan_timestamp: str
    sync_plan: tuple[PlanItem, ...] | None = None
    # SPEC §0: the regime whose rules the drift comes from (beside the seed's fields).
    regime: Regime = Regime.DECLARED
    declared_by: str | None = None

    def to_json(self) -> dict[str, object]:
        """The CONTRACT ``DriftReport`` object (``syncPlan`` only when a plan was asked for)."""
        data: dict[str, object] = {
            "items": [item.to_json() for item in self.items],
            "totalDrifts": self.total,
            "bySeverity": {
                level.value: self.by_severity.get(level.value, 0) for level in DriftSeverity
            },
            "scanTimestamp": self.scan_timestamp,
            "regime": self.regime.value,
        }
        if self.sync_plan is not None:
            data["syncPlan"] = [item.to_json() for item in self.sync_plan]
        return data


def drift_severity(violation: Violation) -> DriftSeverity:
    """The drift severity of a violation (SPEC §6), by rule, else by violation severity."""
    by_rule = _RULE_DRIFT_SEVERITY.get(violation.rule_id)
    return by_rule if by_rule is not None else _SEVERITY_DRIFT[violation.severity]


def detect_drift(
    result: ValidationResult,
    *,
    min_severity: str | DriftSeverity | None = None,
    with_plan: bool = False,
) -> DriftReport:
    """Turn the violations of ``result`` into a drift report.

    ``min_severity`` keeps that level and worse (``"high"`` keeps critical and high); the plan,
    when asked for, covers the kept items only. Raises ``ValueError`` for an unknown level
    (the CLI and MCP layers validate the choice before calling).
    """
    threshold = DriftSeverity(min_severity) if min_severity is not None else None
    kept: list[tuple[DriftItem, Violation]] = []
    for violation in result.violations:
        item = _drift_item(violation)
        if threshold is not None and item.severity.rank > threshold.rank:
            continue
        kept.append((item, violation))
    kept.sort(key=lambda pair: (pair[0].severity.rank, pair[0].path, pair[0].rule, _line(pair[1])))
    items = tuple(item for item, _ in kept)
    counts = {level.value: 0 for level in DriftSeverity}
    for item in items:
        counts[item.severity.value] += 1
    plan = build_sync_plan(v for _, v in kept) if with_plan else None
    return DriftReport(
        items=items,
        total=len(items),
        by_severity=counts,
        scan_timestamp=result.timestamp or _now(),
        sync_plan=plan,
        regime=result.regime,
        declared_by=result.declared_by,
    )


def build_sync_plan(violations: Iterable[Violation]) -> tuple[PlanItem, ...]:
    """One plan item per distinct SyncAction of ``violations``, ordered to apply top to bottom.

    Within a phase: renames deepest first, then by target path; everything else by target
    path, then description. Identical items (same action, target and description) appear once.
    """
    unique: dict[tuple[str, str, str], PlanItem] = {}
    for violation in violations:
        fix = violation.fix
        if fix is None:
            continue
        item = PlanItem(fix.action, fix.target_path, fix.description, fix.risk)
        key = (item.action.value, item.target_path, item.description)
        previous = unique.get(key)
        # Two violations asking for the same step keep the more cautious risk estimate.
        if (
            previous is None
            or _RISK_RANK[item.estimated_risk] > _RISK_RANK[previous.estimated_risk]
        ):
            unique[key] = item
    return tuple(sorted(unique.values(), key=_plan_order))


def _plan_order(item: PlanItem) -> tuple[int, int, str, str]:
    depth = item.target_path.count("/") + 1 if item.target_path not in ("", ".") else 0
    deeper_first = -depth if item.action is SyncActionKind.RENAME else 0
    return (_PHASE.get(item.action, 9), deeper_first, item.target_path, item.description)


def _line(violation: Violation) -> int:
    return violation.location.line


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _drift_item(violation: Violation) -> DriftItem:
    describe = _DESCRIBERS.get(violation.rule_id, _describe_generic)
    expected, actual = describe(violation)
    action = violation.fix.action.value if violation.fix is not None else NO_ACTION
    return DriftItem(
        path=violation.path,
        rule=violation.rule_id,
        expected=expected,
        actual=actual,
        severity=drift_severity(violation),
        suggested_action=action,
        manual_change="" if violation.fix is not None else _manual_change(violation, expected),
    )


def _manual_change(violation: Violation, expected: str) -> str:
    """What to do by hand for a violation no SyncAction resolves."""
    how = violation.suggestion or f"change {violation.location.file} so that {expected}"
    return f"manual change (no automatic fix): {how}"


def _target(violation: Violation, default: str) -> str:
    return violation.fix.target_path if violation.fix is not None else default


def _parent(path: str) -> str:
    head, sep, _ = path.rpartition("/")
    return head if sep else "."


def _describe_module_entry_point(v: Violation) -> tuple[str, str]:
    target = _target(v, f"{v.path}/index.ts")
    return (f"{target} exists", f"{v.path} has no index.* or main.*")


def _describe_external_import_boundary(v: Violation) -> tuple[str, str]:
    where = f"{v.location.file}:{v.location.line}"
    if v.fix is not None and v.fix.target_path:
        expected = f"{where} imports through the entry point {v.fix.target_path}"
    else:
        expected = f"{where} imports only through the target module's entry point"
    return (expected, v.message)


def _describe_naming(v: Violation) -> tuple[str, str]:
    name = v.path.rpartition("/")[2]
    if v.fix is not None:
        return (
            f"{v.fix.target_path} (kebab-case or camelCase name)",
            f"{v.path} is named {name!r}",
        )
    return (f"{v.path} has a kebab-case or camelCase name", f"{v.path} is named {name!r}")


def _describe_split(v: Violation) -> tuple[str, str]:
    index = v.location.file
    target = _target(v, f"{v.path}/<dirname>.ts")
    return (
        f"{index} only re-exports; its declarations live in {target}",
        f"{index} holds declarations or statements",
    )


def _describe_zero_peer(v: Violation) -> tuple[str, str]:
    target = _target(v, "a sub-folder")
    return (f"{v.path} lives in {_parent(target)}", f"{v.path} is a peer file of {_parent(v.path)}")


def _describe_cycle(v: Violation) -> tuple[str, str]:
    members = ", ".join(v.members) if v.members else v.path
    return ("the module graph has no import cycle", f"import cycle between {members}")


def _describe_pure(v: Violation) -> tuple[str, str]:
    return (
        f"{v.location.file} (pure-function) imports no fractal or hybrid module",
        v.message,
    )


def _describe_max_depth(v: Violation) -> tuple[str, str]:
    depth = v.path.count("/") + 1 if v.path != "." else 0
    return ("node depth within structure.maxDepth", f"{v.path} is at depth {depth}")


def _describe_organ_doc(v: Violation) -> tuple[str, str]:
    return (f"{v.path} holds no intent document (CLAUDE.md / INTENT.md)", v.message)


def _describe_intent_contract(v: Violation) -> tuple[str, str]:
    return (
        f"{v.location.file} within its line limit with the headings Always do, Ask first, Never do",
        v.message,
    )


def _describe_hybrid(v: Violation) -> tuple[str, str]:
    return (f"{v.path} is either an organ or a fractal", f"{v.path} is hybrid")


def _describe_generic(v: Violation) -> tuple[str, str]:
    if v.fix is not None:
        return (f"{v.fix.target_path}: {v.fix.description}", v.message)
    return (f"{v.path} satisfies {v.rule_id}", v.message)


_DESCRIBERS: Mapping[str, Callable[[Violation], tuple[str, str]]] = {
    "module-entry-point": _describe_module_entry_point,
    "external-import-boundary": _describe_external_import_boundary,
    "naming-convention": _describe_naming,
    "index-barrel-pattern": _describe_split,
    "zero-peer-file": _describe_zero_peer,
    "circular-dependency": _describe_cycle,
    "pure-function-isolation": _describe_pure,
    "max-depth": _describe_max_depth,
    "organ-no-claudemd": _describe_organ_doc,
    "organ-no-intentmd": _describe_organ_doc,
    "intent-document-contract": _describe_intent_contract,
    "hybrid-node": _describe_hybrid,
}
