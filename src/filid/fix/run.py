"""The fix loop: load, evaluate, plan, preview or apply, reload, re-evaluate.

Fixes that conflict with one another in a pass are skipped in that pass and planned again in
the next, on the files as the first pass left them, so one run converges (or stops after a
few passes) and a second run right after it changes nothing. All passes of a run form one
transaction under one on-disk journal (:mod:`filid.store.journal`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from filid.check.engine import evaluate
from filid.check.project import Project, load_project
from filid.check.scoping import normalize_files
from filid.fix.actions import FixPlan, SkippedFix, SyncAction
from filid.fix.apply import apply_plan
from filid.fix.planner import plan_fixes
from filid.model.errors import FixCancelled
from filid.model.report import FixedItem, ValidationResult
from filid.model.violations import Risk, Violation
from filid.scan.universe import resolve_root
from filid.store.journal import fix_transaction

__all__ = ["FixRun", "run_fix"]

# Enough for every dependency chain in practice (a rename, then the split inside it, then the
# rewrites that follow); a loop that still changes files after this many passes is a bug.
MAX_PASSES = 16


@dataclass(frozen=True, slots=True)
class FixRun:
    """What a fix run did.

    ``result`` is the re-validated result with ``fixed`` (what was applied, and whether its
    violation is gone) and ``remaining`` set; ``diff`` the unified diff of a dry run;
    ``changed_files`` the root-relative paths written, created or removed; ``skipped`` the
    fixes that could not be applied in the last pass, with the reason.
    """

    result: ValidationResult
    diff: str
    changed_files: tuple[str, ...]
    skipped: tuple[SkippedFix, ...] = ()


def _identity(violation: Violation) -> tuple[str, str, str, int, int]:
    # Not the fingerprint: it counts occurrences, so once the first of three identical
    # imports is fixed the second inherits its fingerprint. The place is what a fix changes.
    location = violation.location
    return (violation.rule_id, violation.path, location.file, location.line, location.column)


def _is_blocked(skip: SkippedFix) -> bool:
    """A skip the user can act on (not merely above the requested risk level)."""
    return not skip.reason.startswith(("risky:", "moderate:", "safe:"))


def _skip_notes(skipped: Sequence[SkippedFix]) -> tuple[str, ...]:
    return tuple(
        f"not fixed: {s.violation.rule_id} at {s.violation.path}: {s.reason}"
        for s in skipped
        if _is_blocked(s)
    )


def run_fix(
    root: str | os.PathLike[str],
    *,
    config_path: Path | None = None,
    max_risk: Risk = Risk.SAFE,
    dry_run: bool = False,
    rule_ids: Sequence[str] | None = None,
    use_cache: bool = True,
    files: Sequence[str] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> FixRun:
    """Fix the project at ``root`` up to ``max_risk`` (``--fix``: safe; ``--unsafe-fixes``:
    moderate), or with ``dry_run`` only compute the diff of the first pass (``--diff``).

    Raises :class:`~filid.model.errors.FixError` (every file restored) when applying fails,
    and the engine's ``InputError``/``ConfigError`` for a bad root or configuration.
    ``cancelled`` is asked before the run starts and after every pass: once it says yes the
    run stops before its commit point, every file is restored, and
    :class:`~filid.model.errors.FixCancelled` is raised.
    """

    if dry_run:
        return _preview(root, config_path, max_risk, rule_ids, use_cache, files)

    def load() -> tuple[Project, ValidationResult]:
        project = load_project(root, config_path=config_path, use_cache=use_cache)
        return project, evaluate(project, rule_ids=rule_ids, files=files)

    def check_cancelled() -> None:
        if cancelled is not None and cancelled():
            raise FixCancelled(tuple(sorted(changed)))

    changed: set[str] = set()
    check_cancelled()
    project, result = load()
    plan = plan_fixes(project, result.violations, max_risk=max_risk)
    check_cancelled()

    fixed: list[FixedItem] = []
    previous: tuple[SyncAction, ...] | None = None
    last_plan: FixPlan = plan
    # The whole run is one transaction: a failure in any pass, or a kill at any moment,
    # brings back the tree as it was before the first pass, never a tree between passes.
    with contextlib.ExitStack() as stack:
        journal = None if plan.is_empty else stack.enter_context(fix_transaction(project.root))
        for _ in range(MAX_PASSES):
            if plan.is_empty or plan.operations == previous:
                break
            changed.update(apply_plan(plan, journal))
            check_cancelled()
            previous = plan.operations
            project, result = load()
            still = {_identity(v) for v in result.violations}
            fixed.extend(
                FixedItem(
                    violation=f.violation,
                    action=f.action,
                    result_path=f.result_path,
                    success=_identity(f.violation) not in still,
                )
                for f in plan.fixes
            )
            plan = plan_fixes(project, result.violations, max_risk=max_risk)
            last_plan = plan
        check_cancelled()  # the last moment before the commit point
    blocked = [s for s in last_plan.skipped if _is_blocked(s)]
    fixed.extend(
        FixedItem(s.violation, s.violation.fix.action, s.violation.path, False)
        for s in blocked
        if s.violation.fix
    )
    final = replace(
        result,
        fixed=tuple(fixed),
        remaining=result.violations,
        notes=result.notes + _skip_notes(blocked),
        changed_files=tuple(sorted(changed)),
        refused_fixes=frozenset(s.violation.fingerprint for s in blocked),
    )
    return FixRun(
        result=final,
        diff="",
        changed_files=tuple(sorted(changed)),
        skipped=last_plan.skipped,
    )


def _preview(
    root: str | os.PathLike[str],
    config_path: Path | None,
    max_risk: Risk,
    rule_ids: Sequence[str] | None,
    use_cache: bool,
    files: Sequence[str] | None,
) -> FixRun:
    """``--diff``: the whole run (every pass) on a scratch copy, shown as a diff.

    The result reported is the project's as it is now (nothing was fixed); the notes say
    which fixes could not be planned.
    """
    from filid.fix.preview import preview_run

    resolved = resolve_root(root)
    project = load_project(resolved, config_path=config_path, use_cache=use_cache)
    result = evaluate(project, rule_ids=rule_ids, files=files)
    if not any(v.fix is not None for v in result.violations):
        return FixRun(result=result, diff="", changed_files=(), skipped=())
    scoped = (
        None if files is None else [str(resolved / f) for f in normalize_files(resolved, files)]
    )

    def fix_copy(copy: Path) -> FixRun:
        inside = (
            None if scoped is None else [str(copy / Path(f).relative_to(resolved)) for f in scoped]
        )
        return run_fix(
            copy, config_path=config_path, max_risk=max_risk, rule_ids=rule_ids,
            use_cache=False, files=inside,
        )  # fmt: skip

    simulated, diff = preview_run(resolved, fix_copy)
    notes = result.notes + _skip_notes(simulated.skipped)
    refused = frozenset(s.violation.fingerprint for s in simulated.skipped if _is_blocked(s))
    return FixRun(
        result=replace(result, notes=notes, refused_fixes=refused),
        diff=diff,
        changed_files=(),
        skipped=simulated.skipped,
    )
