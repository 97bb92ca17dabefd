"""The five tools: each composes the same engine and report functions as its CLI command.

Every tool is a blocking function ``(context, root, arguments) -> JSON object``: the CONTRACT
shape with a ``summary`` first and ``nextActions`` (ready tool calls ``{tool, args, why}``),
its long lists sorted most severe first and cut at the ``maxChars`` budget, each list with
its share of the first page (see :mod:`filid.mcp.budget`). A nextAction is only offered when
the call it names would not be refused (a preview only when the planner plans a fix). The
server runs it in a worker thread. Library errors propagate as
:class:`~filid.model.errors.FilidError` and are turned into ``isError`` results by the server.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from filid.check.engine import evaluate
from filid.check.project import Project, load_project
from filid.check.scoping import select_rules, timestamp
from filid.config.globs import matches_any_glob
from filid.fix.actions import SkippedFix
from filid.mcp import outputs, schemas
from filid.mcp.budget import Section, compact, fit
from filid.mcp.fix_plans import (
    FixRuns,
    PlanPreview,
    PlanRegistry,
    apply_previewed,
    plan_preview,
    split_diff,
)
from filid.model.errors import FixError, InputError, UsageError
from filid.model.nodes import NodeCategory
from filid.model.report import ValidationResult
from filid.model.violations import Risk, Severity, Violation
from filid.report import json as json_report

JsonObject = dict[str, Any]

NEXT_ACTIONS = "nextActions"


class _RootState:
    """The lock state of one root (guarded by ``condition``)."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.readers = 0
        self.writing = False
        self.waiting_writers = 0


class RootLocks:
    """Per-root reader/writer locks: reads share a root, a fix run has it alone.

    A fix writes several files; without the lock a concurrent read could see half of them and
    two concurrent fix runs could interleave their edits.
    """

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._states: dict[Path, _RootState] = {}

    def _state(self, root: Path) -> _RootState:
        with self._guard:
            return self._states.setdefault(root, _RootState())

    @contextmanager
    def reading(self, root: Path) -> Iterator[None]:
        """Hold ``root`` shared (many readers at once, never during a fix)."""
        state = self._state(root)
        with state.condition:
            state.condition.wait_for(lambda: not state.writing and state.waiting_writers == 0)
            state.readers += 1
        try:
            yield
        finally:
            with state.condition:
                state.readers -= 1
                state.condition.notify_all()

    @contextmanager
    def writing(self, root: Path) -> Iterator[None]:
        """Hold ``root`` exclusively (one fix run, no readers)."""
        state = self._state(root)
        with state.condition:
            state.waiting_writers += 1
            state.condition.wait_for(lambda: not state.writing and state.readers == 0)
            state.waiting_writers -= 1
            state.writing = True
        try:
            yield
        finally:
            with state.condition:
                state.writing = False
                state.condition.notify_all()


ToolRun = Callable[["ToolContext", Path, Mapping[str, Any]], JsonObject]


@dataclass(frozen=True, slots=True)
class ToolContext:
    """What a tool run shares with the server: the root locks and the recent fix previews,
    and, per call, whether the client cancelled it (``notifications/cancelled``)."""

    locks: RootLocks
    plans: PlanRegistry
    runs: FixRuns = dataclasses.field(default_factory=FixRuns)
    notices: dict[Path, JsonObject] = dataclasses.field(default_factory=dict)
    cancelled: Callable[[], bool] = lambda: False


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as ``tools/list`` shows it, and the function that runs it."""

    name: str
    title: str
    description: str
    input_schema: schemas.JsonSchema
    output_schema: schemas.JsonSchema
    run: ToolRun
    read_only: bool


_VIOLATION_RANK: Final = {"error": 0, "warning": 1, "info": 2}
_DRIFT_RANK: Final = {"critical": 0, "high": 1, "medium": 2, "low": 3}
_BASELINE_MAX_BYTES: Final = 64 * 1024 * 1024


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _fix_count_text(count: int) -> str:
    return f"{count} safe fix" + ("" if count == 1 else "es")


def _call(tool: str, root: Path, why: str, **args: Any) -> JsonObject:
    """A nextActions entry: a tool call a client can make exactly as it is."""
    return {"tool": tool, "args": {"path": str(root), **args}, "why": why}


def _given(tool: str, args: Mapping[str, Any], drop: tuple[str, ...] = ()) -> JsonObject:
    """The non-default arguments of a call (without ``path``, ``offset`` and ``drop``)."""
    properties = TOOLS_BY_NAME[tool].input_schema["properties"]
    skip = {"path", "offset", "list", *drop}
    return {
        name: value
        for name, value in args.items()
        if name not in skip and value != properties[name].get("default", _NO_DEFAULT)
    }


_NO_DEFAULT: Final = object()


def _pager(
    tool: str, root: Path, args: Mapping[str, Any], drop: tuple[str, ...] = ()
) -> Callable[[str, int], JsonObject]:
    """The nextActions entry that shows list ``name`` of this call from item ``n`` on."""

    def next_page(name: str, n: int) -> JsonObject:
        return _call(
            tool,
            root,
            f"{name} was cut at the budget: this shows {name} alone from item {n} (offset {n})",
            **_given(tool, args, drop),
            list=name,
            offset=n,
        )

    return next_page


def _matches(patterns: Sequence[str] | None, *paths: str) -> bool:
    if not patterns:
        return True
    return any(matches_any_glob(p, patterns) for p in paths)


def _violation_key(v: JsonObject) -> tuple[int, str, str, int, int]:
    location = v["location"]
    return (
        _VIOLATION_RANK.get(v["severity"], 9),
        v["path"],
        v["ruleId"],
        location["line"],
        location["column"],
    )


def _violations_page(violations: Sequence[JsonObject], args: Mapping[str, Any]) -> list[JsonObject]:
    """The violations to page through: filtered by ``paths``, most severe first, then path."""
    patterns = args.get("paths")
    kept = [v for v in violations if _matches(patterns, v["path"], v["location"]["file"])]
    return sorted(kept, key=_violation_key)


def _violation_summary(
    violations: Sequence[Violation], shown_from: Sequence[JsonObject], args: Mapping[str, Any]
) -> JsonObject:
    by_severity = {level.value: 0 for level in Severity}
    by_rule: dict[str, int] = {}
    for v in violations:
        by_severity[v.severity.value] += 1
        by_rule[v.rule_id] = by_rule.get(v.rule_id, 0) + 1
    summary: JsonObject = {
        "violations": len(violations),
        "bySeverity": by_severity,
        "byRule": dict(sorted(by_rule.items())),
        "safeFixes": len(_safe_fixes(violations)),
    }
    if args.get("paths"):
        summary["matchingPaths"] = len(shown_from)
    return summary


def _safe_fixes(violations: Sequence[Violation]) -> list[Violation]:
    return [v for v in violations if v.fix is not None and v.fix.risk is Risk.SAFE]


def _budgeted(
    head: JsonObject,
    body: JsonObject,
    sections: Sequence[Section],
    args: Mapping[str, Any],
    actions: Sequence[JsonObject],
    next_page: Callable[[str, int], JsonObject] | None,
) -> JsonObject:
    offset = int(args.get("offset", 0))
    page: str | None = args.get("list")
    names = [s.name for s in sections]
    if page is not None and page not in names:
        raise UsageError(f"list: this answer has no list '{page}' (lists: {', '.join(names)})")
    if page is None and offset and sections:
        page = sections[0].name  # an offset without a list pages the first list
    return fit(
        head,
        body,
        sections,
        offset=offset,
        max_chars=int(args["maxChars"]),
        actions=actions,
        next_page=next_page,
        page=page,
    )


def blocked_text(skipped: Sequence[SkippedFix], limit: int = 3) -> str:
    """Why the planner left safe fixes out, in one short line (the first ``limit`` reasons)."""
    reasons = [f"{s.violation.rule_id} at {s.violation.path}: {s.reason}" for s in skipped]
    shown = "; ".join(r if len(r) <= 200 else r[:199] + "…" for r in reasons[:limit])
    more = f"; and {len(reasons) - limit} more" if len(reasons) > limit else ""
    return shown + more


def _fix_actions(
    root: Path,
    violations: Sequence[Violation],
    args: Mapping[str, Any],
    project: Project | None = None,
    summary: JsonObject | None = None,
) -> list[JsonObject]:
    """Calls that act on ``violations``: preview the safe fixes, explain the manual ones.

    With ``project`` the safe fixes are planned first: a preview is offered only when its
    plan would not be empty; otherwise ``summary.safeFixesBlocked`` says why (an agent told
    to preview an empty plan would only loop).
    """
    actions: list[JsonObject] = []
    safe = _safe_fixes(violations)
    if safe and project is not None:
        from filid.fix.planner import plan_fixes

        plan = plan_fixes(project, safe, max_risk=Risk.SAFE)
        if plan.is_empty:
            if summary is not None:
                summary["safeFixesBlocked"] = blocked_text(plan.skipped) or "no fix computable"
            safe = []
        else:
            safe = [f.violation for f in plan.fixes]
    if safe:
        rules = sorted({v.rule_id for v in safe})
        extra: JsonObject = {"rules": list(args["rules"])} if args.get("rules") else {}
        actions.append(
            _call(
                "structure-validate",
                root,
                f"preview the {_fix_count_text(len(safe))} ({', '.join(rules)}) as a diff; "
                "then apply exactly that plan with fix=true and its planToken",
                **extra,
                preview=True,
            )
        )
    manual = [v for v in violations if v.fix is None or v.fix.risk is not Risk.SAFE]
    if manual:
        counts: dict[str, int] = {}
        for v in manual:
            counts[v.rule_id] = counts.get(v.rule_id, 0) + 1
        rule_id = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        verb = "needs" if len(manual) == 1 else "need"
        actions.append(
            _call(
                "rule-query",
                root,
                f"{_plural(len(manual), 'violation')} {verb} a manual change (most are "
                f"{rule_id}): this explains the rule with valid and invalid examples",
                action="get",
                ruleId=rule_id,
            )
        )
    return actions


# -- fractal-scan ----------------------------------------------------------------------------


def run_fractal_scan(ctx: ToolContext, root: Path, args: Mapping[str, Any]) -> JsonObject:
    """fractal-scan: the classified tree to ``depth``: ``tree.nodes`` holds the node objects
    that fit the budget, ``tree.types`` the rest compactly (path -> type); the modules with
    ``includeModuleInfo``."""
    depth = int(args["depth"])
    full = bool(args["includeModuleInfo"])
    patterns = args.get("paths")
    with ctx.locks.reading(root):
        started = time.perf_counter()
        project = load_project(root)
        duration = time.perf_counter() - started
    data = json_report.scan_report(
        project.tree,
        project.facts,
        project.file_graph,
        timestamp=timestamp(),
        duration=duration,
        max_depth=depth,
        include_modules=full,
    )
    nodes: dict[str, JsonObject] = data["tree"]["nodes"]
    kept = [(p, n) for p, n in nodes.items() if _matches(patterns, p)]
    unresolved = [u for u in data["unresolved"] if _matches(patterns, u["file"])]
    by_type: dict[str, int] = {c.value: 0 for c in NodeCategory}
    for node in project.tree.nodes.values():
        by_type[node.category.value] += 1
    summary: JsonObject = {
        "totalNodes": len(project.tree.nodes),
        "depth": project.tree.depth,
        "byType": by_type,
        "modules": by_type["fractal"] + by_type["hybrid"],
        "unresolvedImports": len(data["unresolved"]),
        "nodesWithinDepth": len(nodes),
    }
    if patterns:
        summary["matchingPaths"] = len(kept)
    data["tree"]["nodes"] = {}
    data["tree"]["types"] = {}
    sections = [Section("tree.nodes", ("tree", "nodes"), kept, is_map=True)]
    if full:
        modules = [m for m in data["modules"] if _matches(patterns, m["path"])]
        sections.append(Section("modules", ("modules",), modules))
    sections.append(Section("unresolved", ("unresolved",), unresolved))
    actions = [
        _call(
            "structure-validate",
            root,
            "check these nodes against the rules (summary first, most severe first)",
        )
    ]
    if project.tree.depth > depth and depth < schemas.DEPTH_MAX:
        deeper = min(project.tree.depth, schemas.DEPTH_MAX)
        actions.append(
            _call(
                "fractal-scan",
                root,
                f"the tree is {project.tree.depth} levels deep: this shows the deeper nodes",
                **_given("fractal-scan", args, ("depth",)),
                depth=deeper,
            )
        )
    if not full and "list" not in args:
        actions.append(
            _call(
                "fractal-scan",
                root,
                "each module's entry point and export count",
                **_given("fractal-scan", args, ("includeModuleInfo",)),
                includeModuleInfo=True,
            )
        )
    answer = _budgeted(
        {"summary": summary},
        data,
        sections,
        args,
        actions,
        _pager("fractal-scan", root, args),
    )
    return _compact_rest(answer, kept, int(args["maxChars"]))


def _compact_rest(
    answer: JsonObject, kept: Sequence[tuple[str, JsonObject]], max_chars: int
) -> JsonObject:
    """Fill ``tree.types`` with the nodes ``tree.nodes`` had no room for (path -> type), as
    many as fit, and say how many in ``truncated["tree.nodes"].compact``."""
    cut = answer.get("truncated", {}).get("tree.nodes")
    if cut is None or "nextOffset" not in cut:
        return answer
    rest = kept[cut["nextOffset"] :]
    # The room the count itself takes: ',"compact":' and up to 7 digits.
    used = len(compact(answer)) + 18
    types: dict[str, str] = answer["tree"]["types"]
    for path, node in rest:
        size = len(compact(path)) + len(compact(node["type"])) + 2
        if used + size > max_chars:
            break
        types[path] = node["type"]
        used += size
    if types:
        cut["compact"] = len(types)
    while types and len(compact(answer)) > max_chars:
        types.pop(next(reversed(types)))
        cut["compact"] = len(types)
    if not types:
        cut.pop("compact", None)
    return answer


# -- drift-detect ----------------------------------------------------------------------------


def run_drift_detect(ctx: ToolContext, root: Path, args: Mapping[str, Any]) -> JsonObject:
    """drift-detect: violations as drift items, optionally with the SyncPlan."""
    from filid.drift.detect import detect_drift

    rule_ids = select_rules(args["rules"]) if "rules" in args else None
    with ctx.locks.reading(root):
        project = load_project(root)
        result = evaluate(project, rule_ids=rule_ids)
    report = detect_drift(result, min_severity=args.get("severity"), with_plan=args["generatePlan"])
    data: JsonObject = dict(report.to_json())
    patterns = args.get("paths")
    items = [i for i in data["items"] if _matches(patterns, i["path"])]
    items.sort(key=lambda i: (_DRIFT_RANK.get(i["severity"], 9), i["path"], i["rule"]))
    by_rule: dict[str, int] = {}
    for item in report.items:
        by_rule[item.rule] = by_rule.get(item.rule, 0) + 1
    summary: JsonObject = {
        "totalDrifts": report.total,
        "bySeverity": data["bySeverity"],
        "byRule": dict(sorted(by_rule.items())),
    }
    sections = [Section("items", ("items",), items)]
    if "syncPlan" in data:
        plan = [p for p in data["syncPlan"] if _matches(patterns, p["targetPath"])]
        summary["planSteps"] = len(data["syncPlan"])
        sections.append(Section("syncPlan", ("syncPlan",), plan))
    if patterns:
        summary["matchingPaths"] = len(items)
    # Act on what the answer shows: the kept severities, the matching paths.
    kept = {(i["path"], i["rule"]) for i in items}
    acted = [v for v in result.violations if (v.path, v.rule_id) in kept]
    actions = _fix_actions(root, acted, args, project, summary)
    if report.items and not args["generatePlan"]:
        actions.append(
            _call(
                "drift-detect",
                root,
                "order the corrective actions into a plan",
                **_given("drift-detect", args, ("generatePlan",)),
                generatePlan=True,
            )
        )
    return _budgeted(
        {"summary": summary}, data, sections, args, actions, _pager("drift-detect", root, args)
    )


# -- lca-resolve -----------------------------------------------------------------------------


def nearest_modules(error: InputError) -> list[str]:
    """The nearest existing modules that ``resolve_lca`` names in its error message."""
    _, found, tail = str(error).partition("; nearest: ")
    return [m.strip() for m in tail.split(",") if m.strip()] if found else []


def lca_error_actions(error: InputError, root: Path, args: Mapping[str, Any]) -> list[JsonObject]:
    """For an unknown module: the same call with each nearest existing module instead."""
    actions: list[JsonObject] = []
    message = str(error)
    for which in ("moduleA", "moduleB"):
        given = str(args.get(which, ""))
        if not given or f"'{given.strip().strip('/').removeprefix('./')}'" not in message:
            continue
        for module in nearest_modules(error):
            actions.append(
                _call(
                    "lca-resolve",
                    root,
                    f"{schemas.shown_prefix(given)} is not a node; {module} is the nearest "
                    "existing module",
                    **{**_given("lca-resolve", args), which: module},
                )
            )
        break
    return actions


def run_lca_resolve(ctx: ToolContext, root: Path, args: Mapping[str, Any]) -> JsonObject:
    """lca-resolve: the lowest common ancestor of two modules and where shared code goes."""
    from filid.graph import resolve_lca

    with ctx.locks.reading(root):
        project = load_project(root)
    result = resolve_lca(project.tree, args["moduleA"], args["moduleB"])
    data = json_report.lca_to_json(result, str(project.root))
    summary: JsonObject = {
        "lcaPath": result.lca,
        "suggestedPlacement": result.suggested_placement,
    }
    # At the root the subtree is the whole project: a scan of it tells nothing new.
    actions = (
        [
            _call(
                "fractal-scan",
                root,
                f"the subtree where code shared by {schemas.shown_prefix(args['moduleA'])} and "
                f"{schemas.shown_prefix(args['moduleB'])} belongs ({result.suggested_placement})",
                paths=[result.lca],
            )
        ]
        if result.lca != "."
        else []
    )
    return _budgeted({"summary": summary}, data, [], args, actions, None)


# -- rule-query ------------------------------------------------------------------------------


def _reject_unused(args: Mapping[str, Any], action: str, allowed: set[str]) -> None:
    for name in ("ruleId", "category", "ruleCategory", "targetPath", "rules", "paths", "list"):
        if name in args and name not in allowed:
            raise UsageError(f"{name}: not used by action '{action}'")


def run_rule_query(ctx: ToolContext, root: Path, args: Mapping[str, Any]) -> JsonObject:
    """rule-query: list the rules, get one, or check one subtree."""
    from filid.rules.query import filter_rules, rule_states, scope_of
    from filid.rules.registry import RULES_BY_ID, canonical_rule_id

    action: str = args["action"]
    if action == "list":
        _reject_unused(args, action, {"category", "ruleCategory", "list"})
        states = rule_states(root, None)
        selected = filter_rules(
            filter_rules(states, args.get("category")), args.get("ruleCategory")
        )
        data = json_report.rule_list(selected, total=len(states))
        summary = {k: data[k] for k in ("total", "filtered", "catalogueTotal")}
        actions = [
            _call(
                "rule-query",
                root,
                f"{meta.id}: its rationale, what it applies to, and examples",
                action="get",
                ruleId=meta.id,
            )
            for meta, _ in selected[:1]
        ]
        return _budgeted(
            {"summary": summary},
            data,
            [Section("rules", ("rules",), data["rules"])],
            args,
            actions,
            _pager("rule-query", root, args),
        )
    if action == "get":
        _reject_unused(args, action, {"ruleId"})
        if "ruleId" not in args:
            raise UsageError("ruleId: required for action 'get'")
        canonical = canonical_rule_id(args["ruleId"])
        if canonical is None:
            valid = ", ".join(sorted(RULES_BY_ID))
            raise UsageError(
                f"ruleId: unknown rule id '{schemas.shown_prefix(args['ruleId'])}' "
                f"(valid ids: {valid})"
            )
        enabled = dict((m.id, on) for m, on in rule_states(root, None))
        meta = RULES_BY_ID[canonical].meta
        data = json_report.rule_detail(meta, enabled[meta.id])
        summary = {"id": meta.id, "severity": data["severity"], "enabled": data["enabled"]}
        actions = [
            _call(
                "rule-query",
                root,
                f"evaluate {meta.id} on the whole project",
                action="check",
                targetPath=".",
                rules=[meta.id],
            )
        ]
        return _budgeted({"summary": summary}, data, [], args, actions, None)
    _reject_unused(args, action, {"targetPath", "rules", "paths", "list"})
    if "targetPath" not in args:
        raise UsageError("targetPath: required for action 'check'")
    rule_ids = select_rules(args["rules"]) if "rules" in args else None
    with ctx.locks.reading(root):
        project = load_project(root)
    scope = scope_of(project.tree, project.root, args["targetPath"])
    result = evaluate(project, scope=scope, rule_ids=rule_ids)
    data = json_report.evaluation_to_json(result, project.tree)
    page = _violations_page(data["violations"], args)
    summary = _violation_summary(result.violations, page, args)
    return _budgeted(
        {"summary": summary},
        data,
        [Section("violations", ("violations",), page)],
        args,
        _fix_actions(root, result.violations, args, project, summary),
        _pager("rule-query", root, args),
    )


# -- structure-validate ----------------------------------------------------------------------


def _baseline_file(root: Path, raw: str) -> Path:
    shown = schemas.shown_prefix(raw)
    candidate = Path(raw)
    if not candidate.is_absolute():
        candidate = root / candidate
    try:
        real = Path(os.path.realpath(candidate))
        if not real.is_relative_to(root):
            raise InputError(f"baseline: {shown}: outside the project root {root}")
        if not real.is_file():
            raise InputError(f"baseline: {shown}: no such file")
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) else str(error)
        raise InputError(f"baseline: {shown}: cannot open ({reason})") from None
    return real


def _apply_baseline(
    root: Path, raw: str, result: ValidationResult
) -> tuple[ValidationResult, JsonObject]:
    """``result`` with only new violations, and the baseline's counts."""
    from filid.check.baseline import apply_baseline
    from filid.store.files import read_regular_file

    path = _baseline_file(root, raw)
    shown = schemas.shown_prefix(raw)
    try:
        text = read_regular_file(path, _BASELINE_MAX_BYTES).decode("utf-8", "replace")
    except OSError as error:
        raise InputError(f"baseline: {shown}: cannot read ({error.strerror or error})") from None
    filtered = apply_baseline(result, text, source=f"baseline {shown}")
    suppressed = filtered.baseline_suppressed - result.baseline_suppressed
    applied = set(result.rules_applied)
    entries = json.loads(text)["violations"]
    # Entries of rules not evaluated in this call are neither suppressed nor fixed.
    relevant = sum(1 for e in entries if e.get("ruleId") in applied or "ruleId" not in e)
    counts: JsonObject = {
        "path": path.relative_to(root).as_posix(),
        "new": len(filtered.violations),
        "suppressed": suppressed,
        "fixed": max(0, relevant - suppressed),
    }
    return filtered, counts


def _fix_answer(
    runs: FixRuns,
    root: Path,
    args: Mapping[str, Any],
    result: ValidationResult,
    changed: Sequence[str],
    project: Project | None = None,
) -> JsonObject:
    # The CLI renders a fix run without the tree (no scope category); match it.
    data = json_report.validation_report(result, None)
    patterns = args.get("paths")
    fixed_items = [
        f
        for f in data.get("fixedItems", [])
        if _matches(patterns, f["violation"]["path"], f["resultPath"])
    ]
    page = _violations_page(data["result"]["violations"], args)
    summary = _violation_summary(result.violations, page, args)
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
    actions = _fix_actions(root, result.violations, args, project, summary)
    sections = [
        Section("fixedItems", ("fixedItems",), fixed_items),
        Section("changedFiles", ("changedFiles",), list(changed)),
        # The seed's remainingViolations: after a fix they are result.violations.
        Section("violations", ("result", "violations"), page, mirrors=(("remainingViolations",),)),
        Section("notes", ("notes",), list(data.get("notes", []))),
    ]
    run_id = runs.remember(root, ({"summary": summary}, data, sections))
    summary["fixRun"] = run_id
    return _budgeted(
        {"summary": summary}, data, sections, args, actions, _fix_run_pager(root, run_id)
    )


_LOCK_HELD: Final = (
    "not applied: another filid fix is running on this project right now (another MCP server "
    "or a CLI run holds its lock); this call changed nothing. Validate again once it has "
    "finished: it may already have fixed what this call would have"
)


def _settle_race(
    result: ValidationResult, now: ValidationResult
) -> tuple[ValidationResult, str | None]:
    """The run's result checked against the tree as it is now (read under our write lock).

    Another process (a second server, the CLI) may have fixed the tree between this run's
    reading and its writing: then the run's own view is stale. The answer reports the tree as
    it is now, and says how many of the fixes this run could not make are already made.
    """
    if sorted(v.fingerprint for v in now.violations) == sorted(
        v.fingerprint for v in result.violations
    ):
        return result, None
    present = {(v.rule_id, v.path, v.location.file, v.location.line) for v in now.violations}
    failed = [f for f in result.fixed if not f.success]
    done_elsewhere = sum(
        1
        for f in failed
        if (f.violation.rule_id, f.violation.path, f.violation.location.file,
            f.violation.location.line) not in present
    )  # fmt: skip
    settled = dataclasses.replace(result, violations=now.violations, remaining=now.violations)
    outcome = (
        "the tree changed while this fix ran: another filid fix (another MCP server or a CLI "
        f"run) worked on this project at the same time; {done_elsewhere} of the "
        f"{len(failed)} fix(es) this run could not make are already made on the tree; the "
        "violations listed are the tree as it is now"
    )
    return settled, outcome


def _fix_run_pager(root: Path, run_id: str) -> Callable[[str, int], JsonObject]:
    """Next pages of a fix answer come from the stored run (running the fix again would
    find nothing to fix)."""

    def next_page(name: str, n: int) -> JsonObject:
        return _call(
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
    return _budgeted(head, data, sections, args, [], _fix_run_pager(root, run_id))


def run_structure_validate(ctx: ToolContext, root: Path, args: Mapping[str, Any]) -> JsonObject:
    """structure-validate: evaluate the enabled (or the given) rules; ``preview`` shows the
    diff and a planToken; ``fix`` applies the safe fixes (exactly the previewed plan when a
    planToken is given) under the root's write lock and re-validates."""
    if "fixRun" in args:
        return _fix_run_page(ctx, root, args)
    rule_ids = select_rules(args["rules"]) if "rules" in args else None
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
            preview = plan_preview(root, rule_ids=rule_ids)
            if preview.token != token:
                raise InputError(ctx.plans.refusal(root, token))
            result, changed = apply_previewed(
                root, preview, rule_ids=rule_ids, cancelled=ctx.cancelled
            )
            project = load_project(root)
        return _fix_answer(ctx.runs, root, args, result, changed, project)
    if fix:
        from filid.fix.run import run_fix

        with ctx.locks.writing(root):
            try:
                run = run_fix(root, max_risk=Risk.SAFE, rule_ids=rule_ids, cancelled=ctx.cancelled)
            except FixError as error:
                if str(error).startswith("another filid fix is running"):
                    raise FixError(_LOCK_HELD) from None
                raise
            project = load_project(root)
            result, outcome = _settle_race(run.result, evaluate(project, rule_ids=rule_ids))
        answer = _fix_answer(ctx.runs, root, args, result, run.changed_files, project)
        if outcome:
            answer["summary"]["outcome"] = outcome
        return answer
    if preview_only:
        with ctx.locks.reading(root):
            preview = plan_preview(root, rule_ids=rule_ids)
        ctx.plans.remember(root, preview)
        return _preview_answer(root, args, preview)
    with ctx.locks.reading(root):
        project = load_project(root)
    result = evaluate(project, rule_ids=rule_ids)
    baseline: JsonObject | None = None
    if "baseline" in args:
        result, baseline = _apply_baseline(root, args["baseline"], result)
    data = json_report.validation_report(result, project.tree)
    if baseline is not None:
        data["baseline"] = baseline
    page = _violations_page(data["result"]["violations"], args)
    summary = _violation_summary(result.violations, page, args)
    if baseline is not None:
        summary["baseline"] = baseline
    return _budgeted(
        {"summary": summary},
        data,
        [
            Section("violations", ("result", "violations"), page),
            Section("notes", ("notes",), list(data.get("notes", []))),
        ],
        args,
        _fix_actions(root, result.violations, args, project, summary),
        _pager("structure-validate", root, args),
    )


def _preview_answer(root: Path, args: Mapping[str, Any], preview: PlanPreview) -> JsonObject:
    patterns = args.get("paths")
    chunks = [c for c in split_diff(preview.diff) if _matches(patterns, c["file"])]
    data = json_report.validation_report(preview.result, None)
    page = _violations_page(data["result"]["violations"], args)
    summary = _violation_summary(preview.result.violations, page, args)
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
        if _matches(patterns, f.violation.path, f.result_path)
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
            _call(
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
    return _budgeted(
        {"summary": summary},
        data,
        sections,
        args,
        actions,
        _pager("structure-validate", root, args),
    )


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="fractal-scan",
        title="Scan the fractal tree",
        description=(
            "Classify every directory of a TypeScript/JavaScript project as fractal (a module "
            "with its own CLAUDE.md boundary), organ (a role folder such as utils/ or "
            "components/), pure-function or hybrid, and return the tree (ScanReport: "
            "tree.nodes, the node objects that fit the budget, the rest compactly in "
            "tree.types path -> type; includeModuleInfo=true adds the modules; unresolved "
            "imports). Use it first to see the shape of a project; read-only. Every tool "
            "answers within maxChars (summary first; every list gets its share; page one "
            "list with list and offset, narrow with paths) and lists nextActions as ready "
            "tool calls."
        ),
        input_schema=schemas.FRACTAL_SCAN,
        output_schema=outputs.FRACTAL_SCAN,
        run=run_fractal_scan,
        read_only=True,
    ),
    ToolSpec(
        name="drift-detect",
        title="Detect structural drift",
        description=(
            "Compare the project's structure with the fractal rules and list each drift "
            "item (what the rule expects, what is there, severity critical/high/medium/low, "
            "suggested action). generatePlan=true adds an ordered syncPlan. Read-only; "
            "structure-validate with fix=true applies the safe part of the plan."
        ),
        input_schema=schemas.DRIFT_DETECT,
        output_schema=outputs.DRIFT_DETECT,
        run=run_drift_detect,
        read_only=True,
    ),
    ToolSpec(
        name="lca-resolve",
        title="Place shared code",
        description=(
            "Given two module directories (root-relative, e.g. 'src/auth' and 'src/billing'), "
            "find their lowest common ancestor in the fractal tree and the folder where code "
            "they share belongs (suggestedPlacement). Use it before extracting shared code. "
            "Read-only."
        ),
        input_schema=schemas.LCA_RESOLVE,
        output_schema=outputs.LCA_RESOLVE,
        run=run_lca_resolve,
        read_only=True,
    ),
    ToolSpec(
        name="rule-query",
        title="Explain the rules",
        description=(
            "action='list': the rules with their severity and whether the project enables "
            "them (filter with category); action='get' + ruleId: one rule's rationale, "
            "appliesTo, examples and fix support; action='check' + targetPath: evaluate the "
            "rules on one directory and its subtree. Read-only."
        ),
        input_schema=schemas.RULE_QUERY,
        output_schema=outputs.RULE_QUERY,
        run=run_rule_query,
        read_only=True,
    ),
    ToolSpec(
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
    ),
)

TOOLS_BY_NAME: dict[str, ToolSpec] = {tool.name: tool for tool in TOOLS}
