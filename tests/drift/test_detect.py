"""Drift detection: one item per violation, SPEC §6 severities and order, the SyncPlan."""

from __future__ import annotations

from pathlib import Path

import pytest

from filid.drift.detect import DriftSeverity, detect_drift, drift_severity
from filid.model.report import ValidationResult
from filid.model.violations import FixInfo, Location, Risk, Severity, SyncActionKind, Violation


def _violation(
    rule: str,
    path: str,
    severity: Severity = Severity.WARNING,
    fix: FixInfo | None = None,
    file: str | None = None,
    line: int = 1,
) -> Violation:
    return Violation(
        rule_id=rule,
        severity=severity,
        message=f"{rule} at {path}",
        path=path,
        location=Location(file=file or path, line=line),
        node=path,
        fix=fix,
    )


def _result(*violations: Violation) -> ValidationResult:
    return ValidationResult(
        root=Path("/project"),
        scope=".",
        violations=tuple(violations),
        evaluated={},
        rules_applied=(),
        rules_skipped=(),
        config_path=None,
        timestamp="2025-01-01T00:00:00Z",
    )


RENAME_DEEP = FixInfo(SyncActionKind.RENAME, Risk.MODERATE, "rename src/A/B", "src/A/b")
RENAME_TOP = FixInfo(SyncActionKind.RENAME, Risk.MODERATE, "rename src/A", "src/a")
CREATE = FixInfo(SyncActionKind.CREATE_INDEX, Risk.SAFE, "create", "src/auth/index.ts")
REWRITE = FixInfo(
    SyncActionKind.REWRITE_IMPORT, Risk.SAFE, "rewrite '../auth/x'", "src/auth/index.ts"
)
SPLIT = FixInfo(SyncActionKind.SPLIT, Risk.MODERATE, "split", "src/orders/orders.ts")
CYCLE = FixInfo(SyncActionKind.MOVE, Risk.RISKY, "move shared code", "src/shared")


@pytest.mark.parametrize(
    ("rule", "severity", "expected"),
    [
        ("circular-dependency", Severity.ERROR, DriftSeverity.CRITICAL),
        ("pure-function-isolation", Severity.ERROR, DriftSeverity.CRITICAL),
        ("max-depth", Severity.ERROR, DriftSeverity.HIGH),
        ("organ-no-claudemd", Severity.ERROR, DriftSeverity.HIGH),
        ("external-import-boundary", Severity.ERROR, DriftSeverity.HIGH),
        ("index-barrel-pattern", Severity.WARNING, DriftSeverity.MEDIUM),
        ("module-entry-point", Severity.WARNING, DriftSeverity.MEDIUM),
        ("zero-peer-file", Severity.WARNING, DriftSeverity.MEDIUM),
        ("naming-convention", Severity.WARNING, DriftSeverity.LOW),
        ("intent-document-contract", Severity.WARNING, DriftSeverity.LOW),
        ("hybrid-node", Severity.INFO, DriftSeverity.LOW),
        # Rule severity overridden in config does not change the drift severity of known rules.
        ("naming-convention", Severity.ERROR, DriftSeverity.LOW),
        # Unknown rules map from the violation severity.
        ("some-plugin-rule", Severity.ERROR, DriftSeverity.HIGH),
        ("some-plugin-rule", Severity.WARNING, DriftSeverity.MEDIUM),
        ("some-plugin-rule", Severity.INFO, DriftSeverity.LOW),
    ],
)
def test_drift_severity_follows_the_spec_table(
    rule: str, severity: Severity, expected: DriftSeverity
) -> None:
    assert drift_severity(_violation(rule, "src/x", severity)) is expected


def test_items_sort_by_severity_then_path_then_rule_and_are_counted() -> None:
    report = detect_drift(
        _result(
            _violation("naming-convention", "src/A", fix=RENAME_TOP),
            _violation("zero-peer-file", "src/b/z.ts"),
            _violation("module-entry-point", "src/b", fix=CREATE),
            _violation("index-barrel-pattern", "src/b"),
            _violation("circular-dependency", "src/z", Severity.ERROR, fix=CYCLE),
            _violation("external-import-boundary", "src/app/a.ts", Severity.ERROR, fix=REWRITE),
        )
    )
    assert [(i.severity.value, i.path, i.rule) for i in report.items] == [
        ("critical", "src/z", "circular-dependency"),
        ("high", "src/app/a.ts", "external-import-boundary"),
        ("medium", "src/b", "index-barrel-pattern"),
        ("medium", "src/b", "module-entry-point"),
        ("medium", "src/b/z.ts", "zero-peer-file"),
        ("low", "src/A", "naming-convention"),
    ]
    assert report.total == 6
    assert report.by_severity == {"critical": 1, "high": 1, "medium": 3, "low": 1}
    assert report.sync_plan is None


def test_items_say_concretely_what_is_expected_and_what_is_there() -> None:
    missing = _violation("module-entry-point", "src/auth", fix=CREATE, file="src/auth/CLAUDE.md")
    report = detect_drift(_result(missing))
    item = report.items[0]
    assert item.expected == "src/auth/index.ts exists"
    assert item.actual == "src/auth has no index.* or main.*"
    assert item.suggested_action == "create-index"

    doc = _violation("intent-document-contract", "src/auth", file="src/auth/CLAUDE.md")
    assert detect_drift(_result(doc)).items[0].suggested_action == "manual"


def test_min_severity_keeps_that_level_and_worse() -> None:
    result = _result(
        _violation("naming-convention", "src/A"),
        _violation("zero-peer-file", "src/b/z.ts"),
        _violation("max-depth", "a/b/c", Severity.ERROR),
        _violation("circular-dependency", "src/z", Severity.ERROR),
    )
    assert [i.rule for i in detect_drift(result, min_severity="high").items] == [
        "circular-dependency",
        "max-depth",
    ]
    assert detect_drift(result, min_severity="critical").total == 1
    assert detect_drift(result, min_severity="low").total == 4
    with pytest.raises(ValueError):
        detect_drift(result, min_severity="severe")


def test_the_plan_can_be_applied_top_to_bottom() -> None:
    report = detect_drift(
        _result(
            _violation("external-import-boundary", "src/app/a.ts", Severity.ERROR, fix=REWRITE),
            _violation("naming-convention", "src/A", fix=RENAME_TOP),
            _violation("index-barrel-pattern", "src/orders", fix=SPLIT),
            _violation("naming-convention", "src/A/B", fix=RENAME_DEEP),
            _violation("module-entry-point", "src/auth", fix=CREATE),
            _violation("circular-dependency", "src/z", Severity.ERROR, fix=CYCLE),
            # The same step asked for twice appears once.
            _violation(
                "external-import-boundary", "src/app/a.ts", Severity.ERROR, fix=REWRITE, line=2
            ),
        ),
        with_plan=True,
    )
    assert report.sync_plan is not None
    assert [(p.action.value, p.target_path) for p in report.sync_plan] == [
        ("rename", "src/A/b"),  # deeper directory first: its path is still valid
        ("rename", "src/a"),
        ("create-index", "src/auth/index.ts"),  # entry points exist before imports use them
        ("split", "src/orders/orders.ts"),
        ("move", "src/shared"),
        ("rewrite-import", "src/auth/index.ts"),
    ]
    assert report.sync_plan[0].estimated_risk is Risk.MODERATE


def test_json_shape_is_the_contract() -> None:
    report = detect_drift(
        _result(_violation("module-entry-point", "src/auth", fix=CREATE)), with_plan=True
    )
    data = report.to_json()
    # The seed's fields, plus the regime beside them (SPEC §0).
    assert set(data) == {
        "items",
        "totalDrifts",
        "bySeverity",
        "scanTimestamp",
        "syncPlan",
        "regime",
    }
    assert data["regime"] == "declared"
    assert data["items"] == [
        {
            "path": "src/auth",
            "rule": "module-entry-point",
            "expected": "src/auth/index.ts exists",
            "actual": "src/auth has no index.* or main.*",
            "severity": "medium",
            "suggestedAction": "create-index",
        }
    ]
    assert data["bySeverity"] == {"critical": 0, "high": 0, "medium": 1, "low": 0}
    assert data["scanTimestamp"] == "2025-01-01T00:00:00Z"
    assert data["syncPlan"] == [
        {
            "action": "create-index",
            "targetPath": "src/auth/index.ts",
            "description": "create",
            "estimatedRisk": "safe",
        }
    ]
    assert "syncPlan" not in detect_drift(_result()).to_json()
