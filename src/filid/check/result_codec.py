"""A ``ValidationResult`` as plain data (for ``marshal``) and back: the result snapshot's
encoding. Decoding can keep only the violations a file-scoped run keeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from filid.model.report import Regime, ValidationResult
from filid.model.violations import FixInfo, Location, Risk, Severity, SyncActionKind, Violation


def _location(loc: Location) -> tuple[Any, ...]:
    return (loc.file, loc.line, loc.column, loc.end_line, loc.end_column, loc.utf16_column)


def _violation(v: Violation) -> tuple[Any, ...]:
    fix = (
        None
        if v.fix is None
        else (v.fix.action.value, v.fix.risk.value, v.fix.description, v.fix.target_path)
    )
    return (
        v.rule_id,
        v.severity.value,
        v.message,
        v.path,
        _location(v.location),
        v.node,
        v.suggestion,
        fix,
        [_location(r) for r in v.related],
        list(v.members),
        v.fingerprint,
    )


def _decode_violation(data: Any) -> Violation:
    (rule, severity, message, path, loc, node, suggestion, fix, related, members, fp) = data
    return Violation(
        rule_id=rule,
        severity=Severity(severity),
        message=message,
        path=path,
        location=Location(*loc),
        node=node,
        suggestion=suggestion,
        fix=None if fix is None else FixInfo(SyncActionKind(fix[0]), Risk(fix[1]), fix[2], fix[3]),
        related=tuple(Location(*r) for r in related),
        members=tuple(members),
        fingerprint=fp,
    )


def encode_result(result: ValidationResult) -> dict[str, Any]:
    """A ``ValidationResult`` as plain data for ``marshal``."""
    return {
        "scope": result.scope,
        "violations": [_violation(v) for v in result.violations],
        "evaluated": {rule: list(nodes) for rule, nodes in result.evaluated.items()},
        "applied": list(result.rules_applied),
        "skipped": list(result.rules_skipped),
        "config": result.config_path,
        "notes": list(result.notes),
        "category": result.extra.get("category"),
        "refused": sorted(result.refused_fixes),
        "regime": result.regime.value,
        "declaredBy": result.declared_by,
    }


def decode_result(
    root: Path, data: dict[str, Any], timestamp: str, files: frozenset[str] | None = None
) -> ValidationResult:
    """The inverse of :func:`encode_result`; raises on malformed data.

    ``files`` (root-relative) decodes only the violations a pre-commit run on those files
    keeps (``scoping.restrict`` would drop the others): a stored result of many thousand
    violations is not rebuilt for a one-file run.
    """
    category = data["category"]
    encoded = data["violations"]
    if files is not None:
        directories = frozenset(f.rpartition("/")[0] or "." for f in files)
        encoded = [v for v in encoded if _touches_encoded(v, files, directories)]
    return ValidationResult(
        root=root,
        scope=data["scope"],
        violations=tuple(_decode_violation(v) for v in encoded),
        evaluated={rule: tuple(nodes) for rule, nodes in data["evaluated"].items()},
        rules_applied=tuple(data["applied"]),
        rules_skipped=tuple(data["skipped"]),
        config_path=data["config"],
        timestamp=timestamp,
        notes=tuple(data["notes"]),
        extra={"category": category} if isinstance(category, str) else {},
        refused_fixes=frozenset(string_list(data.get("refused", []))),
        regime=Regime(data["regime"]),
        declared_by=declared_by if isinstance(declared_by := data.get("declaredBy"), str) else None,
    )


def _touches_encoded(data: Any, files: frozenset[str], directories: frozenset[str]) -> bool:
    """``scoping._touches`` on an encoded violation (path, location file, related files)."""
    path, location, related = data[3], data[4], data[8]
    if path in files or location[0] in files or path in directories:
        return True
    return any(r[0] in files for r in related)


def string_list(value: Any) -> list[str]:
    """``value`` when it is a list of strings; ``ValueError`` otherwise."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("not a list of strings")
    return value
