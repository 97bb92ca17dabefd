"""structure-validate: evaluate the rules; preview the safe fixes; apply them.

``preview`` shows the diff and a planToken; ``fix`` applies the safe fixes (exactly the
previewed plan when a planToken is given) under the root's write lock and re-validates. A fix
answer's lists are paged from the stored run (``fixRun``): running the fix again would find
nothing to fix.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from filid.check import BaselineFile, CheckOptions, CheckRun, run_check
from filid.fix.actions import SkippedFix
from filid.mcp import outputs, schemas
from filid.mcp.budget import Section
from filid.mcp.fix_plans import FixRuns, PlanPreview, apply_previewed, plan_preview, split_diff
from filid.mcp.tools.calls import call, pager
from filid.mcp.tools.context import JsonObject, ToolContext, ToolSpec
from filid.mcp.tools.paging import budgeted, matches_paths
from filid.mcp.tools.violations import (
    blocked_text,
    fix_actions,
    violation_summary,
    violations_page,
)
from filid.model.errors import FixError, FixLocked, InputError, UsageError
from filid.model.report import ValidationResult
from filid.model.violations import Risk
from filid.report import json as json_report

__all__ = ["SPEC", "run_structure_validate"]


def _fix_answer(
    runs: FixRuns,
    root: Path,
    args: Mapping[str, Any],
    result: ValidationResult,
    changed: Sequence[str],
    refused: Sequence[SkippedFix],
) -> JsonObject:
    """The answer of a fix run; ``refused`` are the fixes still refused on the tree it left."""
    # The CLI renders a fix run without the tree (no scope category); match it.
    data = json_report.validation_report(result, None)
    patterns = args.get("paths")
    fixed_items = [
        f
        for f in data.get("fixedItems", [])
        if matches_paths(patterns, f["violation"]["path"], f["resultPath"])
    ]
    page = violations_page(data["result"]["violations"], args)
    summary = violation_summary(result.violations, page, args)
    summary.update(
        fixed=sum(1 for item in result.fixed if item.success),
        fixFailed=sum(1 for item in result.fixed if not item.success),
        changedFiles=len(changed),
    )
    if not result.fixed and not changed:
        summary["outcome"] = "nothing to fix: no safe fix is planned on the tree as it is now"
    if patterns:
        summary["matchingPaths"] = len(page)
    data["fixedItems"] = []
    data["changedFiles"] = []
    actions = fix_actions(root, result.violations, args, refused, summary)
    sections = [
        Section("fixedItems", ("fixedItems",), fixed_items),
        Section("changedFiles", ("changedFiles",), list(changed)),
        # The seed's remainingViolations: after a fix they are result.violations.
        Section("violations", ("result", "violations"), page, mirrors=(("remainingViolations",),)),
        Section("notes", ("notes",), list(data.get("notes", []))),
    ]
    run_id = runs.remember(root, ({"summary": summary}, data, sections))
    summary["fixRun"] = run_id
    return budgeted(
        {"summary": summary}, data, sections, args, actions, _fix_run_pager(root, run_id)
    )


_LOCK_HELD: Final = (
    "not applied: another filid fix is running on this project right now (another MCP server "
    "or a CLI run holds its lock); this call changed nothing. Validate again once it has "
    "finished: it may already have fixed what this call would have"
)


def _settle_race(
    root: Path, rules: Sequence[str] | None, run: CheckRun
) -> tuple[ValidationResult, tuple[SkippedFix, ...], str | None]:
    """The run's result checked against the tree as it is now (read under our write lock).

    Another process (a second server, the CLI) may have fixed the tree between this run's
    reading and its writing: then the run's own view is stale. The answer reports the tree as
    it is now (its refused fixes planned again), and says how many of the fixes this run
    could not make are already made. Without a race the run's own result stands: its last
    plan already says which fixes are refused, so nothing is planned again.
    """
    result = run.result
    now = run_check(CheckOptions(root, rules=rules, reuse=False, mark_fixes=False))
    if sorted(v.fingerprint for v in now.result.violations) == sorted(
        v.fingerprint for v in result.violations
    ):
        return result, run.refused, None
    # The tree changed under us: check it again as it is now, refused fixes marked by the
    # workflow (a second load, only when another fix raced this one).
    now = run_check(
        CheckOptions(root, rules=rules, reuse=False, mark_fixes=True, note_refusals=False)
    )
    refused = now.refused
    present = {(v.rule_id, v.path, v.location.file, v.location.line) for v in now.result.violations}
    failed = [f for f in result.fixed if not f.success]
    done_elsewhere = sum(
        1
        for f in failed
        if (f.violation.rule_id, f.violation.path, f.violation.location.file,
            f.violation.location.line) not in present
    )  # fmt: skip
    settled = dataclasses.replace(
        result,
        violations=now.result.violations,
        remaining=now.result.violations,
        refused_fixes=now.result.refused_fixes,
    )
    outcome = (
        "the tree changed while this fix ran: another filid fix (another MCP server or a CLI "
        f"run) worked on this project at the same time; {done_elsewhere} of the "
        f"{len(failed)} fix(es) this run could not make are already made on the tree; the "
        "violations listed are the tree as it is now"
    )
    return settled, refused, outcome


def _fix_run_pager(root: Path, run_id: str) -> Callable[[str, int], JsonObject]:
    """Next pages of a fix answer come from the stored run (running the fix again would
    find nothing to fix)."""

    def next_page(name: str, n: int) -> JsonObject:
        return call(
            "structure-validate",
            root,
            f"{name} was cut at the budget: this shows {name} of fix run {run_id} alone from "
            f"item {n} (offset {n})",
            fixRun=run_id,
            list=name,
            offset=n,
        )

    return next_page


def _fix_run_page(ctx: ToolContext, root: Path, args: Mapping[str, Any]) -> JsonObject:
    for name in ("fix", "preview", "planToken", "baseline", "rules", "paths"):
        if name in args and args[name] not in (False, None):
            raise UsageError(f"{name}: not with fixRun (it pages a stored fix answer)")
    run_id = str(args["fixRun"])
    head, data, sections = ctx.runs.recall(root, run_id)
    return budgeted(head, data, sections, args, [], _fix_run_pager(root, run_id))


def run_structure_validate(ctx: ToolContext, root: Path, args: Mapping[str, Any]) -> JsonObject:
    """structure-validate: evaluate the enabled (or the given) rules; ``preview`` shows the
    diff and a planToken; ``fix`` applies the safe fixes (exactly the previewed plan when a
    planToken is given) under the root's write lock and re-validates."""
    if "fixRun" in args:
        return _fix_run_page(ctx, root, args)
    rules: list[str] | None = args.get("rules")
    fix: bool = args["fix"]
    preview_only: bool = args["preview"]
    token = args.get("planToken")
    if fix and preview_only:
        raise UsageError("preview: not with fix=true (preview first, then fix with planToken)")
    if token is not None and not fix:
        raise UsageError("planToken: only with fix=true (it applies a previewed plan)")
    if "baseline" in args and (fix or preview_only):
        raise UsageError("baseline: only when validating (not with fix or preview)")
    if fix and token is not None:
        with ctx.locks.writing(root):
            preview = plan_preview(root, rules=rules)
            if preview.token != token:
                raise InputError(ctx.plans.refusal(root, token))
            try:
                applied = apply_previewed(root, preview, rules=rules, cancelled=ctx.cancelled)
            except FixLocked:
                raise FixError(_LOCK_HELD) from None
        return _fix_answer(
            ctx.runs, root, args, applied.result, applied.changed_files, applied.refused
        )
    if fix:
        with ctx.locks.writing(root):
            try:
                run = run_check(
                    CheckOptions(root, rules=rules, fix=Risk.SAFE, cancelled=ctx.cancelled)
                )
            except FixLocked:
                raise FixError(_LOCK_HELD) from None
            result, refused, outcome = _settle_race(root, rules, run)
        answer = _fix_answer(ctx.runs, root, args, result, run.changed_files, refused)
        if outcome:
            answer["summary"]["outcome"] = outcome
        return answer
    if preview_only:
        with ctx.locks.reading(root):
            preview = plan_preview(root, rules=rules)
        ctx.plans.remember(root, preview)
        return _preview_answer(root, args, preview)
    baseline = None
    if "baseline" in args:
        shown = schemas.shown_prefix(args["baseline"])
        baseline = BaselineFile(args["baseline"], shown=shown, confine_to=root)
    with ctx.locks.reading(root):
        run = run_check(
            CheckOptions(root, rules=rules, baseline=baseline, reuse=False, note_refusals=False)
        )
    result = run.result
    assert run.project is not None  # reuse=False: the project comes with the result
    data = json_report.validation_report(result, run.project.tree)
    if run.baseline is not None:
        data["baseline"] = run.baseline.to_json()
    page = violations_page(data["result"]["violations"], args)
    summary = violation_summary(result.violations, page, args)
    if run.baseline is not None:
        summary["baseline"] = run.baseline.to_json()
    return budgeted(
        {"summary": summary},
        data,
        [
            Section("violations", ("result", "violations"), page),
            Section("notes", ("notes",), list(data.get("notes", []))),
        ],
        args,
        fix_actions(root, result.violations, args, run.refused, summary),
        pager("structure-validate", root, args),
    )


def _preview_answer(root: Path, args: Mapping[str, Any], preview: PlanPreview) -> JsonObject:
    patterns = args.get("paths")
    chunks = [c for c in split_diff(preview.diff) if matches_paths(patterns, c["file"])]
    data = json_report.validation_report(preview.result, None)
    page = violations_page(data["result"]["violations"], args)
    summary = violation_summary(preview.result.violations, page, args)
    summary["plannedFixes"] = len(preview.plan.fixes)
    summary["filesToChange"] = len(split_diff(preview.diff))
    summary["planToken"] = preview.token
    if preview.plan.is_empty:
        blocked = [s for s in preview.plan.skipped if s.violation.fix is not None]
        summary["outcome"] = "nothing to apply: " + (
            blocked_text(blocked) if blocked else "no violation has a safe fix"
        )
    fixes = [
        {
            "ruleId": f.violation.rule_id,
            "path": f.violation.path,
            "action": f.action.value,
            "resultPath": f.result_path,
        }
        for f in preview.plan.fixes
        if matches_paths(patterns, f.violation.path, f.result_path)
    ]
    data["preview"] = {
        "planToken": preview.token,
        "skipped": len(preview.plan.skipped),
        "fixes": [],
        "diff": [],
    }
    actions: list[JsonObject] = []
    if not preview.plan.is_empty:
        extra: JsonObject = {"rules": list(args["rules"])} if args.get("rules") else {}
        actions.append(
            call(
                "structure-validate",
                root,
                "apply exactly this plan (refused if a file it touches changed since)",
                **extra,
                fix=True,
                planToken=preview.token,
            )
        )
    sections = [
        Section("fixes", ("preview", "fixes"), fixes),
        Section("diff", ("preview", "diff"), chunks),
        Section("violations", ("result", "violations"), page),
    ]
    return budgeted(
        {"summary": summary},
        data,
        sections,
        args,
        actions,
        pager("structure-validate", root, args),
    )


SPEC: Final = ToolSpec(
    name="structure-validate",
    title="Validate (and fix) the structure",
    description=(
        "Evaluate every enabled rule (or only `rules`) over the project and return the "
        "ValidationReport (violations with location, suggestion and fix risk; pass/fail "
        "counts), most severe first. preview=true writes nothing and returns the diff of "
        "the safe fixes with a planToken; fix=true with that planToken WRITES FILES: it "
        "applies exactly that plan (refused if a file changed since) and re-validates; "
        "plain fix=true applies every safe fix. baseline: report only violations a "
        "recorded baseline file does not list."
    ),
    input_schema=schemas.STRUCTURE_VALIDATE,
    output_schema=outputs.STRUCTURE_VALIDATE,
    run=run_structure_validate,
    read_only=False,
)
