"""The five tools: each composes the same engine and report functions as its CLI command.

Every tool is a blocking function ``(root, arguments) -> JSON object`` (the CONTRACT shape
plus ``nextActions``); the server runs it in a worker thread. Library errors propagate as
:class:`~filid.model.errors.FilidError` and are turned into ``isError`` results by the server.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filid.engine import evaluate, load_project, select_rules, timestamp
from filid.mcp import schemas
from filid.model.errors import InputError, UsageError
from filid.model.report import ValidationResult
from filid.model.violations import Risk, Violation
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


ToolRun = Callable[[Path, Mapping[str, Any], RootLocks], JsonObject]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as ``tools/list`` shows it, and the function that runs it."""

    name: str
    title: str
    description: str
    input_schema: schemas.JsonSchema
    run: ToolRun
    read_only: bool


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _safe_fixes(violations: Sequence[Violation]) -> list[Violation]:
    return [v for v in violations if v.fix is not None and v.fix.risk is Risk.SAFE]


def _fix_count_text(count: int) -> str:
    return f"{count} safe fix" + ("" if count == 1 else "es")


def _apply_hint(violations: Sequence[Violation]) -> str | None:
    safe = _safe_fixes(violations)
    if not safe:
        return None
    rules = ", ".join(sorted({v.rule_id for v in safe}))
    return f"structure-validate with fix=true would apply {_fix_count_text(len(safe))} ({rules})"


def _manual_hint(violations: Sequence[Violation]) -> str | None:
    manual = [v for v in violations if v.fix is None or v.fix.risk is not Risk.SAFE]
    if not manual:
        return None
    verb = "needs" if len(manual) == 1 else "need"
    return (
        f"{_plural(len(manual), 'violation')} {verb} a manual change: follow each "
        "violation's suggestion (rule-query action=get ruleId=… explains a rule)"
    )


def run_fractal_scan(root: Path, args: Mapping[str, Any], locks: RootLocks) -> JsonObject:
    """fractal-scan: the classified tree to ``depth``, optionally with module information."""
    depth: int = args["depth"]
    with locks.reading(root):
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
        include_modules=bool(args["includeModuleInfo"]),
    )
    actions = [f"structure-validate path={root} checks these nodes against the rules"]
    if project.tree.depth > depth:
        actions.append(
            f"the tree is {project.tree.depth} levels deep: fractal-scan with "
            f"depth={min(project.tree.depth, schemas.DEPTH_MAX)} shows the deeper nodes"
        )
    unresolved = len(project.file_graph.unresolved)
    if unresolved:
        actions.append(
            f"{_plural(unresolved, 'import')} did not resolve (see unresolved): check "
            "tsconfig paths and package names"
        )
    data[NEXT_ACTIONS] = actions
    return data


def run_drift_detect(root: Path, args: Mapping[str, Any], locks: RootLocks) -> JsonObject:
    """drift-detect: violations as drift items, optionally with the SyncPlan."""
    from filid.drift import detect_drift

    with locks.reading(root):
        result = evaluate(load_project(root))
    report = detect_drift(result, min_severity=args.get("severity"), with_plan=args["generatePlan"])
    data: JsonObject = dict(report.to_json())
    actions: list[str] = []
    if not report.items:
        actions.append("no drift at this severity: the structure matches the rules")
    apply = _apply_hint(result.violations)
    if apply is not None:
        actions.append(apply)
    if report.items and not args["generatePlan"]:
        actions.append("drift-detect with generatePlan=true orders the corrective actions")
    data[NEXT_ACTIONS] = actions
    return data


def nearest_modules(error: InputError) -> list[str]:
    """The nearest existing modules that ``resolve_lca`` names in its error message."""
    _, found, tail = str(error).partition("; nearest: ")
    return [m.strip() for m in tail.split(",") if m.strip()] if found else []


def run_lca_resolve(root: Path, args: Mapping[str, Any], locks: RootLocks) -> JsonObject:
    """lca-resolve: the lowest common ancestor of two modules and where shared code goes."""
    from filid.graph import resolve_lca

    with locks.reading(root):
        project = load_project(root)
    result = resolve_lca(project.tree, args["moduleA"], args["moduleB"])
    data = json_report.lca_to_json(result, str(project.root))
    data[NEXT_ACTIONS] = [
        f"put code shared by {args['moduleA']} and {args['moduleB']} in "
        f"{result.suggested_placement}"
    ]
    return data


def _reject_unused(args: Mapping[str, Any], action: str, allowed: set[str]) -> None:
    for name in ("ruleId", "category", "targetPath"):
        if name in args and name not in allowed:
            raise UsageError(f"{name}: not used by action '{action}'")


def run_rule_query(root: Path, args: Mapping[str, Any], locks: RootLocks) -> JsonObject:
    """rule-query: list the rules, get one, or check one subtree."""
    from filid.rule_query import filter_rules, rule_states, scope_of
    from filid.rules.registry import RULES_BY_ID, canonical_rule_id

    action: str = args["action"]
    if action == "list":
        _reject_unused(args, action, {"category"})
        states = rule_states(root, None)
        selected = filter_rules(states, args.get("category"))
        data = json_report.rule_list(selected, total=len(states))
        data[NEXT_ACTIONS] = ["rule-query action=get ruleId=<id> explains a rule with examples"]
        return data
    if action == "get":
        _reject_unused(args, action, {"ruleId"})
        if "ruleId" not in args:
            raise UsageError("ruleId: required for action 'get'")
        canonical = canonical_rule_id(args["ruleId"])
        if canonical is None:
            valid = ", ".join(sorted(RULES_BY_ID))
            raise UsageError(f"ruleId: unknown rule id '{args['ruleId']}' (valid ids: {valid})")
        enabled = dict((m.id, on) for m, on in rule_states(root, None))
        meta = RULES_BY_ID[canonical].meta
        data = json_report.rule_detail(meta, enabled[meta.id])
        data[NEXT_ACTIONS] = [
            "rule-query action=check targetPath=<dir> evaluates the rules on one subtree"
        ]
        return data
    _reject_unused(args, action, {"targetPath"})
    if "targetPath" not in args:
        raise UsageError("targetPath: required for action 'check'")
    with locks.reading(root):
        project = load_project(root)
    scope = scope_of(project.tree, project.root, args["targetPath"])
    result = evaluate(project, scope=scope)
    data = json_report.evaluation_to_json(result, project.tree)
    data[NEXT_ACTIONS] = _validation_actions(result)
    return data


def _validation_actions(result: ValidationResult) -> list[str]:
    if not result.violations:
        return ["no violations: nothing to do"]
    return [h for h in (_apply_hint(result.violations), _manual_hint(result.violations)) if h]


def run_structure_validate(root: Path, args: Mapping[str, Any], locks: RootLocks) -> JsonObject:
    """structure-validate: evaluate the enabled (or the given) rules; with ``fix`` apply the
    safe fixes under the root's write lock and re-validate."""
    rule_ids = select_rules(args["rules"]) if "rules" in args else None
    if args["fix"]:
        from filid.fix.run import run_fix

        with locks.writing(root):
            run = run_fix(root, max_risk=Risk.SAFE, rule_ids=rule_ids)
        # The CLI renders a fix run without the tree (no scope category); match it.
        data = json_report.validation_report(run.result, None)
        fixed = sum(1 for item in run.result.fixed if item.success)
        actions = [
            f"applied {_fix_count_text(fixed)}; changed {_plural(len(run.changed_files), 'file')}"
        ]
        manual = _manual_hint(run.result.violations)
        if manual is not None:
            actions.append(manual)
        data[NEXT_ACTIONS] = actions
        return data
    with locks.reading(root):
        project = load_project(root)
    result = evaluate(project, rule_ids=rule_ids)
    data = json_report.validation_report(result, project.tree)
    data[NEXT_ACTIONS] = _validation_actions(result)
    return data


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="fractal-scan",
        title="Scan the fractal tree",
        description=(
            "Classify every directory of a TypeScript/JavaScript project as fractal (a module "
            "with its own CLAUDE.md boundary), organ (a role folder such as utils/ or "
            "components/), pure-function or hybrid, and return the tree (ScanReport: "
            "tree.nodes keyed by root-relative path, modules, unresolved imports). Use it "
            "first to see the shape of a project; read-only."
        ),
        input_schema=schemas.FRACTAL_SCAN,
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
        run=run_rule_query,
        read_only=True,
    ),
    ToolSpec(
        name="structure-validate",
        title="Validate (and fix) the structure",
        description=(
            "Evaluate every enabled rule (or only `rules`) over the project and return the "
            "ValidationReport (violations with location, suggestion and fix risk; pass/fail "
            "counts). fix=true WRITES FILES: it applies the safe fixes (e.g. creates a missing "
            "index.ts), re-validates, and reports fixedItems and remainingViolations."
        ),
        input_schema=schemas.STRUCTURE_VALIDATE,
        run=run_structure_validate,
        read_only=False,
    ),
)

TOOLS_BY_NAME: dict[str, ToolSpec] = {tool.name: tool for tool in TOOLS}
