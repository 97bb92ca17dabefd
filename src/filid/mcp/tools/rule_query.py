"""rule-query: list the rules, get one, or check one subtree.

Each action accepts only its own arguments (an unused one is refused, not ignored).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from filid.check import CheckOptions, run_check
from filid.mcp import outputs, schemas
from filid.mcp.budget import Section
from filid.mcp.tools.calls import call, pager
from filid.mcp.tools.context import JsonObject, ToolContext, ToolSpec
from filid.mcp.tools.paging import budgeted
from filid.mcp.tools.violations import fix_actions, violation_summary, violations_page
from filid.model.errors import UsageError
from filid.report import json as json_report

__all__ = ["SPEC", "run_rule_query"]


def _reject_unused(args: Mapping[str, Any], action: str, allowed: set[str]) -> None:
    for name in ("ruleId", "category", "ruleCategory", "targetPath", "rules", "paths", "list"):
        if name in args and name not in allowed:
            raise UsageError(f"{name}: not used by action '{action}'")


def run_rule_query(ctx: ToolContext, root: Path, args: Mapping[str, Any]) -> JsonObject:
    """rule-query: list the rules, get one, or check one subtree."""
    from filid.rules.query import filter_rules, rule_states
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
            call(
                "rule-query",
                root,
                f"{meta.id}: its rationale, what it applies to, and examples",
                action="get",
                ruleId=meta.id,
            )
            for meta, _ in selected[:1]
        ]
        return budgeted(
            {"summary": summary},
            data,
            [Section("rules", ("rules",), data["rules"])],
            args,
            actions,
            pager("rule-query", root, args),
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
            call(
                "rule-query",
                root,
                f"evaluate {meta.id} on the whole project",
                action="check",
                targetPath=".",
                rules=[meta.id],
            )
        ]
        return budgeted({"summary": summary}, data, [], args, actions, None)
    _reject_unused(args, action, {"targetPath", "rules", "paths", "list"})
    if "targetPath" not in args:
        raise UsageError("targetPath: required for action 'check'")
    with ctx.locks.reading(root):
        run = run_check(
            CheckOptions(
                root,
                rules=args.get("rules"),
                target=args["targetPath"],
                reuse=False,
                note_refusals=False,
            )
        )
    result = run.result
    assert run.project is not None  # reuse=False: the project comes with the result
    data = json_report.evaluation_to_json(result, run.project.tree)
    page = violations_page(data["violations"], args)
    summary = violation_summary(result.violations, page, args)
    return budgeted(
        {"summary": summary},
        data,
        [Section("violations", ("violations",), page)],
        args,
        fix_actions(root, result.violations, args, run.refused, summary),
        pager("rule-query", root, args),
    )


SPEC: Final = ToolSpec(
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
)
