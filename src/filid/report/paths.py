"""Rebasing a result's paths onto the repository root, for formats that GitHub/CI read.

filid's paths are relative to the project root it was given. When that root is a sub-folder
of a git repository (``filid check frontend``), SARIF, JUnit, annotations and the job summary
must name files relative to the *repository* root instead, or code scanning and pull-request
annotations attach to the wrong files.
"""

from __future__ import annotations

import dataclasses

from filid.model.report import FixedItem, ValidationResult
from filid.model.violations import Location, Violation


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    return prefix.rstrip("/") if path == "." else f"{prefix.rstrip('/')}/{path}"


def _location(location: Location, prefix: str) -> Location:
    return dataclasses.replace(location, file=_join(prefix, location.file))


def _violation(violation: Violation, prefix: str) -> Violation:
    return dataclasses.replace(
        violation,
        path=_join(prefix, violation.path),
        node=_join(prefix, violation.node),
        location=_location(violation.location, prefix),
        related=tuple(_location(r, prefix) for r in violation.related),
        members=tuple(_join(prefix, m) for m in violation.members),
    )


def rebase_result(result: ValidationResult, prefix: str) -> ValidationResult:
    """A copy of ``result`` whose paths start with ``prefix`` (e.g. ``"frontend/"``)."""
    if not prefix:
        return result
    return dataclasses.replace(
        result,
        violations=tuple(_violation(v, prefix) for v in result.violations),
        evaluated={
            rule: tuple(_join(prefix, n) for n in nodes) for rule, nodes in result.evaluated.items()
        },
        fixed=tuple(
            FixedItem(
                violation=_violation(item.violation, prefix),
                action=item.action,
                result_path=_join(prefix, item.result_path),
                success=item.success,
            )
            for item in result.fixed
        ),
        remaining=(
            None
            if result.remaining is None
            else tuple(_violation(v, prefix) for v in result.remaining)
        ),
        new_since=(
            None
            if result.new_since is None
            else dataclasses.replace(
                result.new_since,
                changed_lines={
                    _join(prefix, path): lines
                    for path, lines in result.new_since.changed_lines.items()
                },
                unchanged_violations=tuple(
                    _violation(v, prefix) for v in result.new_since.unchanged_violations
                ),
            )
        ),
    )
