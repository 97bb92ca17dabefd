"""The check workflow: what ``filid check`` means, in one function every door calls.

The CLI (``filid check``, ``filid init``), the MCP server's ``structure-validate``, the Claude
Code hooks and the GitHub Action (through the CLI) all run :func:`run_check` with one
:class:`CheckOptions` and render the :class:`CheckRun` it returns. None of them decides what a
finding means: loading or reusing the stored result (``snapshot``), evaluating, marking the
fixes the planner would refuse, adding the imports broken by staged or committed deletions
(``change_set``), scoping to FILES and ``--rules`` (``scoping``), suppressing a baseline
(``baseline``), keeping only what is new since a git ref (``new_since``) and the fix loop
(``filid.fix.run``) all happen here, in this order.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from filid.check.baseline import (
    BASELINE_MAX_BYTES,
    BaselineCounts,
    BaselineFile,
    apply_baseline_file,
)
from filid.model.errors import FilidError, UsageError
from filid.model.report import ValidationResult
from filid.model.violations import Risk

if TYPE_CHECKING:
    from filid.check.project import Project
    from filid.config.model import Config
    from filid.fix.actions import SkippedFix
    from filid.scan.git_index import HeadIndex


class NothingStaged(Exception):
    """Raised by :func:`run_check` when ``CheckOptions.skip_when_nothing_staged`` is set and a
    ``staged`` check finds no FILES and no staged deletion: there is nothing of the commit's
    to check (pre-commit runs the hook on every commit)."""


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """Everything one check is asked to do (defaults: a plain ``filid check PATH``).

    - ``rules``: rule ids (or aliases) to evaluate; ``None`` = every enabled rule.
    - ``files``: FILES as pre-commit passes them; violations are kept only when they touch
      them. Each must exist unless git has its deletion staged.
    - ``staged``: check what is staged in git, the index (``filid.check.staged``: no
      untracked file, the result keyed by blob ids), and also report the deletions staged and
      the imports they break.
    - ``fix``: apply fixes up to this risk (``Risk.SAFE`` = ``--fix``, ``Risk.MODERATE`` =
      ``--unsafe-fixes``); with ``dry_run`` only compute the diff (``--diff``).
    - ``baseline``: report only violations not recorded in this baseline file.
    - ``new_since``: report only violations new since the merge base of this ref and HEAD.
    - ``exemptions_from``: take DETAIL.md boundary exemptions from this commit.
    - ``reuse``: answer from the stored result when nothing changed (``snapshot``); ``False``
      loads and evaluates afresh and returns the project with the result.
    - ``target``: check only the node holding this file or folder (``filid rules check``,
      MCP ``rule-query``); implies a fresh evaluation.
    - ``mark_fixes``: mark the fixes the planner would refuse (fix counts that ``--fix`` can
      honour); the SessionStart hook skips it.
    - ``note_refusals``: also say why each marked fix is refused in the result's notes (the
      CLI's text and JSON); the MCP server leaves them out of its answers and reads
      ``CheckRun.refused`` instead.
    """

    path: str | os.PathLike[str] = "."
    config_path: Path | None = None
    rules: Sequence[str] | None = None
    files: Sequence[str] = ()
    staged: bool = False
    skip_when_nothing_staged: bool = False
    fix: Risk | None = None
    dry_run: bool = False
    baseline: BaselineFile | None = None
    new_since: str | None = None
    exemptions_from: str | None = None
    use_cache: bool = True
    reuse: bool = True
    target: str | None = None
    mark_fixes: bool = True
    note_refusals: bool = True
    progress: Callable[[int, int], None] | None = None
    cancelled: Callable[[], bool] | None = None


@dataclass(frozen=True, slots=True)
class CheckRun:
    """What one check found, for a door to render.

    ``project`` is the loaded project when the result was computed afresh without fixes
    (``reuse=False`` or a ``target``); ``diff`` and ``changed_files`` come from the fix loop;
    ``deleted`` are the staged deletions that were checked; ``refused`` the fixes marked
    refused, with the planner's reasons (when computed afresh or by the fix loop; not from a
    reused result).
    """

    result: ValidationResult
    rule_ids: tuple[str, ...] | None
    project: Project | None = None
    diff: str = ""
    changed_files: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    baseline: BaselineCounts | None = None
    refused: tuple[SkippedFix, ...] = ()


def run_check(options: CheckOptions) -> CheckRun:
    """Run one check as ``options`` ask and return its result (see the module docstring).

    Raises the library's ``FilidError`` family for bad input (unknown rule, missing FILE,
    unreadable baseline, bad ref, bad configuration) and :class:`NothingStaged` when asked to.
    """
    from filid.check.scoping import select_rules

    path = os.fspath(options.path)
    rule_ids = select_rules(list(options.rules)) if options.rules is not None else None
    files = tuple(options.files)
    _require_files(path, files)
    deleted: tuple[str, ...] = ()
    head: HeadIndex | None = None
    if options.staged:
        from filid.scan.git_index import index_against_head
        from filid.scan.universe import resolve_root

        # One `git diff-index` tells the deletions and, to `check_staged`, what else changed.
        head = index_against_head(resolve_root(path))
        deleted = head.deleted if head is not None else ()
        files = (*files, *(os.path.join(path, name) for name in deleted))
        if not files and options.skip_when_nothing_staged:
            raise NothingStaged
    scope_files: Sequence[str] | None = files if (files or options.staged) else None
    pinned = None
    if options.exemptions_from:
        if options.fix is not None:
            raise UsageError(
                "--exemptions-from cannot be combined with --fix, --unsafe-fixes or --diff"
            )
        pinned = _pinned_config(path, options.config_path, options.exemptions_from)
    project: Project | None = None
    diff = ""
    changed: tuple[str, ...] = ()
    refused: tuple[SkippedFix, ...] = ()
    if options.fix is not None:
        from filid.fix.run import run_fix

        fixed = run_fix(
            Path(path),
            config_path=options.config_path,
            max_risk=options.fix,
            dry_run=options.dry_run,
            rule_ids=rule_ids,
            use_cache=options.use_cache,
            files=scope_files,
            cancelled=options.cancelled,
        )
        result, diff, changed = fixed.result, fixed.diff, fixed.changed_files
        refused = tuple(s for s in fixed.skipped if s.violation.fingerprint in result.refused_fixes)
    elif options.reuse and options.target is None and options.staged and pinned is None:
        from filid.check.staged import check_staged

        result = check_staged(
            path,
            config_path=options.config_path,
            rule_ids=rule_ids,
            files=scope_files,
            use_cache=options.use_cache,
            progress=options.progress,
            annotate=mark_refused_fixes if options.mark_fixes else None,
            head=head,
        )
    elif options.reuse and options.target is None:
        from filid.check.incremental import check_project

        result = check_project(
            path,
            config_path=options.config_path,
            rule_ids=rule_ids,
            files=scope_files,
            use_cache=options.use_cache,
            progress=options.progress,
            annotate=mark_refused_fixes if options.mark_fixes else None,
            config=pinned,
        )
    else:
        from filid.check.engine import evaluate
        from filid.check.project import load_project

        project = load_project(
            path,
            config_path=options.config_path,
            config=pinned,
            use_cache=options.use_cache,
            progress=options.progress,
        )
        scope = "."
        if options.target is not None:
            from filid.rules.query import scope_of

            scope = scope_of(project.tree, project.root, options.target)
        result = evaluate(project, rule_ids=rule_ids, scope=scope, files=scope_files)
        if options.mark_fixes:
            result, refused = plan_refusals(project, result)
            result = with_refusals(result, refused, notes=options.note_refusals)
    counts = None
    if options.baseline is not None:
        result, counts = apply_baseline_file(result, options.baseline)
    if options.new_since:
        result = _keep_new(result, options, rule_ids, pinned)
    elif deleted:
        result = _with_broken_imports(result, deleted, options, staged=True)
    return CheckRun(
        result=result,
        rule_ids=rule_ids,
        project=project,
        diff=diff,
        changed_files=changed,
        deleted=deleted,
        baseline=counts,
        refused=refused,
    )


def mark_refused_fixes(project: Project, result: ValidationResult) -> ValidationResult:
    """``result`` with the safe and moderate fixes the fix planner would refuse marked (and
    why, as notes), so that "N fixable with --fix" and "N more with --unsafe-fixes" count
    only what ``--fix`` and ``--unsafe-fixes`` can apply.

    Planned once per freshly computed result (the snapshot keeps the marks).
    """
    return with_refusals(*plan_refusals(project, result))


def plan_refusals(
    project: Project, result: ValidationResult
) -> tuple[ValidationResult, tuple[SkippedFix, ...]]:
    """``result`` with the files the fix planner read, and the safe and moderate fixes it
    would refuse, with its reasons. Fixes skipped only because another fix of the same pass
    conflicts are not refused: a later pass of the fix run applies them."""
    applicable = (Risk.SAFE, Risk.MODERATE)
    if not any(v.fix is not None and v.fix.risk in applicable for v in result.violations):
        return result, ()
    from filid.fix.planner import plan_fixes

    plan = plan_fixes(project, result.violations, max_risk=Risk.MODERATE, operations=False)
    result = dataclasses.replace(result, fix_inputs=plan.reads, fix_needles=plan.needles)
    refused = tuple(
        s
        for s in plan.skipped
        if s.violation.fix is not None
        and s.violation.fix.risk in applicable
        and not s.reason.startswith("another fix ")
    )
    return result, refused


def with_refusals(
    result: ValidationResult, refused: Sequence[SkippedFix], *, notes: bool = True
) -> ValidationResult:
    """``result`` with ``refused`` marked (and, with ``notes``, why, as notes)."""
    if not refused:
        return result
    added = tuple(
        f"fix not possible: {s.violation.rule_id} at {s.violation.path}: {s.reason}"
        for s in refused
    )
    return dataclasses.replace(
        result,
        refused_fixes=frozenset(s.violation.fingerprint for s in refused),
        notes=result.notes + added if notes else result.notes,
    )


def _require_files(path: str, files: Sequence[str]) -> None:
    """Every FILE must exist, unless git has its deletion staged (a pre-commit run of a
    commit that deletes it): a typo must not pass as "All checks passed!"."""
    missing = [f for f in files if not os.path.lexists(f)]
    if not missing:
        return
    import subprocess

    staged: set[str] = set()
    try:
        done = subprocess.run(
            ["git", "diff", "--cached", "--name-only", "--diff-filter=D", "-z"],
            cwd=path if os.path.isdir(path) else ".",
            capture_output=True,
            check=False,
        )
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=path if os.path.isdir(path) else ".",
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        if done.returncode == 0 and top:
            staged = {
                os.path.realpath(os.path.join(top, os.fsdecode(name)))
                for name in done.stdout.split(b"\0")
                if name
            }
    except OSError:
        pass
    unknown = [f for f in missing if os.path.realpath(f) not in staged]
    if unknown:
        shown = ", ".join(unknown[:5]) + (
            f" (and {len(unknown) - 5} more)" if len(unknown) > 5 else ""
        )
        raise FilidError(f"no such file: {shown}")


def _pinned_config(path: str, config_path: Path | None, ref: str) -> Config:
    """The configuration with the DETAIL.md boundary exemptions of commit ``ref``."""
    from filid.check.new_since import exemptions_at
    from filid.config.load import load_config
    from filid.rules.catalogue import ALIASES, RULE_IDS
    from filid.scan.universe import resolve_root

    root = resolve_root(path)
    settings = load_config(root, config_path, known_rule_ids=RULE_IDS, rule_aliases=ALIASES)
    return dataclasses.replace(settings, pinned_exemptions=exemptions_at(root, ref))


def _keep_new(
    result: ValidationResult,
    options: CheckOptions,
    rule_ids: Sequence[str] | None,
    pinned: Config | None,
) -> ValidationResult:
    """``--new-since``: the violations not present at the merge base (plus the imports the
    deletions since then break), on the lines this change touched."""
    from filid.check.change_set import deleted_since
    from filid.check.new_since import changed_lines, keep_new, result_at
    from filid.check.scoping import restrict
    from filid.config.load import load_config
    from filid.rules.catalogue import ALIASES, RULE_IDS

    assert options.new_since is not None
    settings = load_config(
        result.root, options.config_path, known_rule_ids=RULE_IDS, rule_aliases=ALIASES
    )
    if pinned is not None:
        settings = pinned
    before, commit = result_at(
        result.root, options.new_since, settings, use_cache=options.use_cache
    )
    result = _with_broken_imports(result, deleted_since(result.root, commit), options)
    return keep_new(
        result,
        restrict(before, rule_ids=rule_ids),
        options.new_since,
        commit,
        changed_lines(result.root, commit),
    )


def _with_broken_imports(
    result: ValidationResult, deleted: Sequence[str], options: CheckOptions, *, staged: bool = False
) -> ValidationResult:
    """``result`` plus an error for each import broken by deleting one of ``deleted`` (with
    ``staged``, the index's deletions: see :func:`filid.check.change_set.broken_imports`)."""
    if not deleted:
        return result
    from filid.check.change_set import broken_imports
    from filid.check.project import load_project
    from filid.model.violations import Violation

    project = load_project(
        result.root, config_path=options.config_path, use_cache=options.use_cache
    )
    broken = broken_imports(project, deleted, staged=staged)
    if not broken:
        return result
    violations = tuple(sorted((*result.violations, *broken), key=Violation.sort_key))
    return dataclasses.replace(result, violations=violations)


__all__ = [
    "BASELINE_MAX_BYTES",
    "BaselineCounts",
    "BaselineFile",
    "CheckOptions",
    "CheckRun",
    "NothingStaged",
    "mark_refused_fixes",
    "plan_refusals",
    "run_check",
    "with_refusals",
]
