"""The MCP server in-process through the SDK client, in both protocol modes.

Every tool's structured content is compared with what the engine and report functions return
for the same input (the CLI's ``--format json`` objects), minus timestamps and nextActions.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.server import Server
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent, TextResourceContents

from filid import __version__
from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.drift.detect import detect_drift
from filid.graph import resolve_lca
from filid.mcp.server import build_server
from filid.model.violations import Risk
from filid.report import json as json_report
from filid.rules.query import filter_rules, rule_states, scope_of
from filid.rules.registry import RULES, RULES_BY_ID
from tests.mcp.conftest import ClientFactory, Workspace

pytestmark = pytest.mark.anyio

TOOL_NAMES = ["fractal-scan", "drift-detect", "lca-resolve", "rule-query", "structure-validate"]
VOLATILE = ("timestamp", "duration", "scanTimestamp", "nextActions", "summary", "truncated")
# Large enough for the whole answer on the example project: comparisons see every item.
WHOLE = 50_000


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def ok(result: CallToolResult) -> dict[str, Any]:
    """The structured content of a successful call; the text content is the same JSON."""
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert isinstance(data, dict)
    assert json.loads(text_of(result)) == data
    return data


def _engine_order(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(
        violations,
        key=lambda v: (v["path"], v["ruleId"], v["location"]["line"], v["location"]["column"]),
    )


def stable(data: dict[str, Any]) -> dict[str, Any]:
    """The answer without volatile keys, its violations back in the engine's order (MCP
    answers list them most severe first)."""
    out = {k: v for k, v in data.items() if k not in VOLATILE}
    if isinstance(out.get("tree"), dict) and out["tree"].get("types") == {}:
        # The compact listing of nodes that did not fit: empty when every node fits.
        out["tree"] = {k: v for k, v in out["tree"].items() if k != "types"}
    if isinstance(out.get("result"), dict) and "violations" in out["result"]:
        out["result"] = {**out["result"], "violations": _engine_order(out["result"]["violations"])}
    if "violations" in out:
        out["violations"] = _engine_order(out["violations"])
    return out


def scan_compact(report: dict[str, Any]) -> dict[str, Any]:
    """A scan report as fractal-scan answers without includeModuleInfo: every node (the
    seed's node map), no modules."""
    return {**report, "modules": []}


def error_text(result: CallToolResult) -> str:
    assert result.is_error
    text = text_of(result)
    assert "\n" not in text
    return text


# -- listing ---------------------------------------------------------------------------------


async def test_server_identity_and_tool_schemas(connect: ClientFactory) -> None:
    async with connect() as client:
        listed = await client.list_tools()
        if client.server_info is not None:
            assert client.server_info.name == "filid"
            assert client.server_info.version == __version__
    tools = {t.name: t for t in listed.tools}
    assert sorted(tools) == sorted(TOOL_NAMES)
    for tool in tools.values():
        schema = tool.input_schema
        assert schema["additionalProperties"] is False
        assert tool.description and len(tool.description) > 80
    required = {name: sorted(t.input_schema["required"]) for name, t in tools.items()}
    assert required == {
        "fractal-scan": ["path"],
        "drift-detect": ["path"],
        "lca-resolve": ["moduleA", "moduleB", "path"],
        "rule-query": ["action", "path"],
        "structure-validate": ["path"],
    }
    depth = tools["fractal-scan"].input_schema["properties"]["depth"]
    assert (depth["minimum"], depth["maximum"], depth["default"]) == (1, 20, 10)
    severity = tools["drift-detect"].input_schema["properties"]["severity"]["enum"]
    assert severity == ["critical", "high", "medium", "low"]
    assert tools["rule-query"].input_schema["properties"]["action"]["enum"] == [
        "list",
        "get",
        "check",
    ]
    assert tools["structure-validate"].annotations is not None
    assert tools["structure-validate"].annotations.read_only_hint is False
    assert tools["fractal-scan"].annotations is not None
    assert tools["fractal-scan"].annotations.read_only_hint is True


# -- each tool against the engine ------------------------------------------------------------


async def test_fractal_scan_matches_scan_report(
    connect: ClientFactory, workspace: Workspace
) -> None:
    async with connect() as client:
        shallow = ok(
            await client.call_tool(
                "fractal-scan", {"path": str(workspace.project), "maxChars": WHOLE}
            )
        )
        deep = ok(
            await client.call_tool(
                "fractal-scan",
                {"path": "project", "depth": 2, "includeModuleInfo": True, "maxChars": WHOLE},
            )
        )
    project = load_project(workspace.project)
    expected_default = json_report.scan_report(
        project.tree,
        project.facts,
        project.file_graph,
        timestamp="",
        duration=0.0,
        max_depth=10,
        include_modules=False,
    )
    expected_depth2 = json_report.scan_report(
        project.tree,
        project.facts,
        project.file_graph,
        timestamp="",
        duration=0.0,
        max_depth=2,
        include_modules=True,
    )
    assert stable(shallow) == stable(scan_compact(expected_default))
    assert stable(deep) == stable(expected_depth2)
    assert "truncated" not in shallow and "truncated" not in deep
    assert deep["modules"], "the example project has modules"
    assert all(n["depth"] <= 2 for n in deep["tree"]["nodes"].values())
    assert any(a["tool"] == "structure-validate" for a in deep["nextActions"])
    # The example tree is deeper than 2: the next action asks for the depth that shows all.
    assert any(a["args"].get("depth") == project.tree.depth for a in deep["nextActions"])


@pytest.mark.parametrize(
    ("severity", "plan"), [(None, False), ("high", True), ("low", False), ("critical", True)]
)
async def test_drift_detect_matches_detect_drift(
    connect: ClientFactory, workspace: Workspace, severity: str | None, plan: bool
) -> None:
    arguments: dict[str, Any] = {
        "path": str(workspace.project),
        "generatePlan": plan,
        "maxChars": WHOLE,
    }
    if severity is not None:
        arguments["severity"] = severity
    async with connect() as client:
        data = ok(await client.call_tool("drift-detect", arguments))
    result = evaluate(load_project(workspace.project))
    expected = detect_drift(result, min_severity=severity, with_plan=plan).to_json()
    assert stable(data) == stable(expected)
    assert ("syncPlan" in data) is plan
    # The preview offered covers the safe fixes of the items shown (the kept severities).
    kept = {(i["path"], i["rule"]) for i in data["items"]}
    safe = sum(
        1
        for v in result.violations
        if v.fix is not None and v.fix.risk is Risk.SAFE and (v.path, v.rule_id) in kept
    )
    previews = [a for a in data["nextActions"] if a["args"].get("preview") is True]
    if safe:
        assert previews and f"{safe} safe fix" in previews[0]["why"]
    else:
        assert not previews
    if severity in (None, "low"):
        assert safe > 0, "the example project has safe fixes"


async def test_lca_resolve_matches_resolve_lca(
    connect: ClientFactory, workspace: Workspace
) -> None:
    async with connect() as client:
        data = ok(
            await client.call_tool(
                "lca-resolve",
                {
                    "path": str(workspace.project),
                    "moduleA": "src/auth",
                    "moduleB": "./src/billing/",
                },
            )
        )
    project = load_project(workspace.project)
    expected = json_report.lca_to_json(
        resolve_lca(project.tree, "src/auth", "src/billing"), str(project.root)
    )
    assert stable(data) == expected
    assert data["lca"].startswith(str(workspace.project))
    if data["lcaPath"] == ".":
        # The subtree is the whole project: a scan of it would tell nothing new.
        assert not [a for a in data["nextActions"] if a["tool"] == "fractal-scan"]
    else:
        assert any(data["suggestedPlacement"] in a["why"] for a in data["nextActions"])


async def test_lca_resolve_unknown_module_names_the_nearest(
    connect: ClientFactory, workspace: Workspace
) -> None:
    async with connect() as client:
        result = await client.call_tool(
            "lca-resolve",
            {"path": str(workspace.project), "moduleA": "src/auht", "moduleB": "src/billing"},
        )
    message = error_text(result)
    assert "src/auht" in message
    assert isinstance(result.structured_content, dict)
    actions = result.structured_content["nextActions"]
    assert any(a["args"]["moduleA"] == "src/auth" for a in actions)
    # Every suggestion is a real node of the project, offered as the same call.
    tree = load_project(workspace.project).tree
    assert all(a["tool"] == "lca-resolve" for a in actions)
    named = [a["args"]["moduleA"] for a in actions]
    assert named and all(m in tree.nodes for m in named)
    assert all(a["args"]["moduleB"] == "src/billing" for a in actions)


@pytest.mark.parametrize(
    ("key", "category"),
    [
        ("category", None),
        ("category", "organ"),
        ("category", "fractal"),
        ("category", "dependency"),
        ("ruleCategory", "documentation"),
    ],
)
async def test_rule_query_list_matches_rule_list(
    connect: ClientFactory, workspace: Workspace, key: str, category: str | None
) -> None:
    arguments: dict[str, Any] = {"action": "list", "path": str(workspace.project)}
    if category is not None:
        arguments[key] = category
    async with connect() as client:
        data = ok(await client.call_tool("rule-query", arguments))
    states = rule_states(workspace.project, None)
    expected = json_report.rule_list(filter_rules(states, category), total=len(states))
    assert stable(data) == expected
    # The seed's RuleListResult: total counts the listed rules, filtered is a boolean.
    assert data["catalogueTotal"] == len(RULES) and data["total"] == len(data["rules"])
    assert data["filtered"] is (data["total"] != len(RULES))


async def test_rule_query_get_and_check_match_the_engine(
    connect: ClientFactory, workspace: Workspace
) -> None:
    path = str(workspace.project)
    async with connect() as client:
        detail = ok(
            await client.call_tool(
                "rule-query", {"action": "get", "path": path, "ruleId": "module-entry-point"}
            )
        )
        checked = ok(
            await client.call_tool(
                "rule-query", {"action": "check", "path": path, "targetPath": "src/auth"}
            )
        )
    enabled = dict((m.id, on) for m, on in rule_states(workspace.project, None))
    meta = RULES_BY_ID["module-entry-point"].meta
    assert stable(detail) == json_report.rule_detail(meta, enabled[meta.id])
    project = load_project(workspace.project)
    scope = scope_of(project.tree, project.root, "src/auth")
    expected = json_report.evaluation_to_json(evaluate(project, scope=scope), project.tree)
    assert stable(checked) == expected
    assert checked["path"] == "src/auth"


async def test_structure_validate_matches_validation_report(
    connect: ClientFactory, workspace: Workspace
) -> None:
    async with connect() as client:
        full = ok(
            await client.call_tool(
                "structure-validate", {"path": str(workspace.project), "maxChars": WHOLE}
            )
        )
        some = ok(
            await client.call_tool(
                "structure-validate",
                {"path": "project", "rules": ["max-depth", "module-entry-point"]},
            )
        )
    project = load_project(workspace.project)
    expected = json_report.validation_report(evaluate(project), project.tree)
    assert stable(full) == stable(expected)
    assert full["result"]["violations"], "the example project has violations"
    subset = evaluate(project, rule_ids=["max-depth", "module-entry-point"])
    assert stable(some) == stable(json_report.validation_report(subset, project.tree))
    assert {v["ruleId"] for v in some["result"]["violations"]} <= {
        "max-depth",
        "module-entry-point",
    }
    safe = sum(1 for v in evaluate(project).violations if v.fix and v.fix.risk is Risk.SAFE)
    assert any(f"the {safe} safe fix" in a["why"] for a in full["nextActions"])
    # Validation never writes: the project is unchanged.
    assert not (workspace.project / "src/orders/index.ts").exists()


# -- fixing ----------------------------------------------------------------------------------


async def test_fix_creates_the_missing_entry_point_and_revalidates(
    connect: ClientFactory, workspace: Workspace
) -> None:
    before = evaluate(load_project(workspace.project))
    missing = [v for v in before.violations if v.rule_id == "module-entry-point"]
    assert [v.path for v in missing] == ["src/components", "src/orders"]
    async with connect() as client:
        data = ok(
            await client.call_tool(
                "structure-validate",
                {"path": str(workspace.project), "fix": True, "maxChars": WHOLE},
            )
        )
    for module in ("src/components", "src/orders"):
        assert (workspace.project / module / "index.ts").is_file()
    # The seed's remainingViolations: after a fix, the violations still there.
    assert data["remainingViolations"] == data["result"]["violations"]
    remaining = _engine_order(data["result"]["violations"])
    assert not [v for v in remaining if v["ruleId"] == "module-entry-point"]
    fixed = [f for f in data["fixedItems"] if f["violation"]["ruleId"] == "module-entry-point"]
    assert fixed and all(f["success"] for f in fixed)
    # What the server reports is what a fresh validation of the files now finds.
    after = evaluate(load_project(workspace.project))
    assert [v["fingerprint"] for v in remaining] == [v.fingerprint for v in after.violations]


async def test_a_fix_answer_acts_on_the_runs_own_last_plan_without_planning_again(
    connect: ClientFactory, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fix loop's last plan already says which safe fixes are refused: the answer's
    nextActions come from it (no second planning of the tree the run just left), and are
    the ones a validation of that tree offers."""
    import filid.fix.planner
    import filid.fix.run  # the fix loop plans with its own binding: counted apart

    assert filid.fix.run.plan_fixes is filid.fix.planner.plan_fixes
    real_plan = filid.fix.planner.plan_fixes
    planned_outside_the_run: list[int] = []

    def counting_plan(*args: Any, **kwargs: Any) -> Any:
        planned_outside_the_run.append(1)
        return real_plan(*args, **kwargs)

    # The create-index fixes of these two modules are refused (a file the parser rejects):
    # safe fixes remain after the run, and the answer must say why without planning again.
    for module in ("src/orders", "src/components"):
        for source in (workspace.project / module).iterdir():
            if source.suffix in (".ts", ".tsx"):
                source.write_text("export const broken = (;\n")
    fix = {"path": str(workspace.project), "fix": True, "maxChars": WHOLE}
    async with connect() as client:
        monkeypatch.setattr(filid.fix.planner, "plan_fixes", counting_plan)
        fixed = ok(await client.call_tool("structure-validate", fix))
        monkeypatch.setattr(filid.fix.planner, "plan_fixes", real_plan)
        validated = ok(
            await client.call_tool(
                "structure-validate", {"path": str(workspace.project), "maxChars": WHOLE}
            )
        )
    assert "syntax errors" in fixed["summary"]["safeFixesBlocked"]
    assert planned_outside_the_run == []
    assert fixed["nextActions"] == validated["nextActions"]
    assert fixed["summary"].get("safeFixesBlocked") == validated["summary"].get("safeFixesBlocked")


async def test_fix_runs_on_one_root_never_interleave(
    server: Server[Any], workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    import filid.fix.run

    real_run_fix = filid.fix.run.run_fix
    active: list[int] = []
    overlaps: list[int] = []
    guard = threading.Lock()

    def slow_run_fix(*args: Any, **kwargs: Any) -> Any:
        with guard:
            active.append(1)
            overlaps.append(len(active))
        try:
            time.sleep(0.2)
            return real_run_fix(*args, **kwargs)
        finally:
            with guard:
                active.pop()

    monkeypatch.setattr(filid.fix.run, "run_fix", slow_run_fix)
    arguments = {"path": str(workspace.project), "fix": True}
    results: list[CallToolResult] = []
    async with Client(server) as client:

        async def call() -> None:
            results.append(await client.call_tool("structure-validate", arguments))

        async with anyio.create_task_group() as group:
            for _ in range(3):
                group.start_soon(call)
    assert len(results) == 3 and all(not r.is_error for r in results)
    assert overlaps == [1, 1, 1]


async def test_the_event_loop_stays_responsive_during_a_slow_tool(
    server: Server[Any], workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    import filid.mcp.tools.fractal_scan

    real_load = load_project

    def slow_load(*args: Any, **kwargs: Any) -> Any:
        time.sleep(1.0)
        return real_load(*args, **kwargs)

    monkeypatch.setattr(filid.mcp.tools.fractal_scan, "load_project", slow_load)
    async with Client(server) as client:
        listed_after: list[float] = []
        started = time.perf_counter()

        async def slow() -> None:
            ok(await client.call_tool("fractal-scan", {"path": str(workspace.project)}))

        async def quick() -> None:
            await anyio.sleep(0.1)
            await client.list_tools()
            listed_after.append(time.perf_counter() - started)

        async with anyio.create_task_group() as group:
            group.start_soon(slow)
            group.start_soon(quick)
    assert listed_after and listed_after[0] < 0.8


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("fractal-scan", {}, "path: required argument missing"),
        (
            "fractal-scan",
            {"path": "project", "depth": 0},
            "depth: must be between 1 and 20 (got 0)",
        ),
        (
            "fractal-scan",
            {"path": "project", "depth": 21},
            "depth: must be between 1 and 20 (got 21)",
        ),
        ("fractal-scan", {"path": "project", "depth": "deep"}, "depth: must be a number"),
        ("fractal-scan", {"path": "project", "depth": 2.5}, "depth: must be a whole number"),
        ("drift-detect", {"path": 42}, "path: must be a string (got 42)"),
        (
            "drift-detect",
            {"path": "project", "generatePlan": "yes"},
            "generatePlan: must be a boolean",
        ),
        ("drift-detect", {"path": "project", "severity": "severe"}, "severity: must be one of"),
        ("lca-resolve", {"path": "project", "moduleA": "src/auth"}, "moduleB: required argument"),
        ("rule-query", {"path": "project", "action": "list", "verbose": True}, "verbose: unknown"),
        ("rule-query", {"path": "project", "action": "get"}, "ruleId: required for action 'get'"),
        (
            "rule-query",
            {"path": "project", "action": "get", "ruleId": "no-such-rule"},
            "unknown rule id 'no-such-rule'",
        ),
        (
            "rule-query",
            {"path": "project", "action": "check", "targetPath": "src/nowhere"},
            "src/nowhere: not a node",
        ),
        (
            "rule-query",
            {"path": "project", "action": "list", "ruleId": "max-depth"},
            "ruleId: not used by action 'list'",
        ),
        (
            "structure-validate",
            {"path": "project", "rules": ["max-depth", "no-such-rule"]},
            "unknown rule id 'no-such-rule'",
        ),
        ("structure-validate", {"path": "project", "fix": "true"}, "fix: must be a boolean"),
        ("structure-validate", {"path": "project", "fix": "preview"}, "fix: must be a boolean"),
        ("structure-validate", {"path": "project", "fix": 1}, "fix: must be a boolean"),
        (
            "structure-validate",
            {"path": "project", "fix": True, "preview": True},
            "preview: not with fix=true",
        ),
        (
            "structure-validate",
            {"path": "project", "planToken": "plan-sha256:00"},
            "planToken: only with fix=true",
        ),
        (
            "structure-validate",
            {"path": "project", "fix": True, "planToken": "plan-sha256:00"},
            "planToken: refused",
        ),
        ("fractal-scan", {"path": "project", "maxChars": 100}, "maxChars: must be between"),
        ("fractal-scan", {"path": "project", "offset": -1}, "offset: must be at least 0"),
        ("drift-detect", {"path": "project", "rules": ["nope"]}, "unknown rule id 'nope'"),
        ("rule-query", {"path": "project", "action": "list", "category": "naming"}, "one of"),
        ("structure-validate", {"path": "project", "baseline": "nope.json"}, "no such file"),
        (
            "structure-validate",
            {"path": "project", "baseline": "../../outside/package.json"},
            "outside the project root",
        ),
        ("structure-validate", {"path": "nope"}, "nope: no such directory"),
        ("structure-validate", {"path": "project/package.json"}, "not a directory"),
    ],
)
async def test_bad_arguments_are_tool_errors(
    connect: ClientFactory, tool: str, arguments: dict[str, Any], expected: str
) -> None:
    async with connect() as client:
        result = await client.call_tool(tool, arguments)
    assert expected in error_text(result)


async def test_unknown_rule_id_lists_the_valid_ids(connect: ClientFactory) -> None:
    async with connect() as client:
        result = await client.call_tool(
            "structure-validate", {"path": "project", "rules": ["no-such-rule"]}
        )
    message = error_text(result)
    assert all(rule.meta.id in message for rule in RULES)


async def test_paths_outside_the_roots_are_refused(
    connect: ClientFactory, workspace: Workspace
) -> None:
    link = workspace.allowed / "escape"
    link.symlink_to(workspace.outside, target_is_directory=True)
    attempts = [str(workspace.outside), "../outside", "escape", str(link), "/"]
    async with connect() as client:
        for path in attempts:
            calls: list[tuple[str, dict[str, Any]]] = [
                ("structure-validate", {"fix": True}),
                ("fractal-scan", {}),
                ("rule-query", {"action": "list"}),
            ]
            for tool, extra in calls:
                result = await client.call_tool(tool, {"path": path, **extra})
                message = error_text(result)
                assert message == f"{path}: outside the allowed roots ({workspace.allowed})"
    # The refused fix wrote nothing outside.
    assert not (workspace.outside / "src/orders/index.ts").exists()


async def test_a_path_resolves_against_the_servers_working_directory(
    workspace: Workspace,
) -> None:
    server = build_server([workspace.allowed], cwd=workspace.project / "src")
    async with Client(server) as client:
        data = ok(
            await client.call_tool(
                "lca-resolve", {"path": "..", "moduleA": "src/auth", "moduleB": "src/app"}
            )
        )
    expected = resolve_lca(load_project(workspace.project).tree, "src/auth", "src/app")
    assert stable(data) == json_report.lca_to_json(expected, str(workspace.project))


async def test_internal_errors_become_tool_errors(
    connect: ClientFactory, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    import filid.mcp.tools.fractal_scan

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("boom")

    monkeypatch.setattr(filid.mcp.tools.fractal_scan, "load_project", broken)
    async with connect() as client:
        result = await client.call_tool("fractal-scan", {"path": str(workspace.project)})
        # The server is still serving afterwards.
        listed = await client.list_tools()
    assert error_text(result) == "internal error: KeyError: 'boom'"
    assert len(listed.tools) == 5


async def test_a_broken_config_is_a_tool_error(
    connect: ClientFactory, workspace: Workspace
) -> None:
    (workspace.project / ".filid/config.json").write_text('{"rules": {"max-depth": 3}}')
    async with connect() as client:
        result = await client.call_tool("structure-validate", {"path": "project"})
    assert "config.json" in error_text(result)


async def test_an_unreadable_tsconfig_governing_a_source_file_is_a_tool_error(
    connect: ClientFactory, workspace: Workspace
) -> None:
    (workspace.project / "src/math/tsconfig.json").write_text("invalid tsconfig file\n")
    async with connect() as client:
        result = await client.call_tool("structure-validate", {"path": "project"})
    assert error_text(result).startswith("src/math/tsconfig.json: invalid JSON at line 1")


async def test_an_unreadable_tsconfig_no_tool_reads_is_a_note(
    connect: ClientFactory, workspace: Workspace
) -> None:
    # stryker-js's deliberate `invalid-tsconfig/tsconfig.json`, in a folder holding no source
    folder = workspace.project / "resources/errors/invalid-tsconfig"
    folder.mkdir(parents=True)
    (folder / "tsconfig.json").write_text("invalid tsconfig file\n")
    async with connect() as client:
        result = await client.call_tool("structure-validate", {"path": "project"})
    assert not result.is_error
    assert "resources/errors/invalid-tsconfig/tsconfig.json: invalid JSON" in text_of(result)


async def test_an_unknown_tool_is_a_protocol_error(connect: ClientFactory) -> None:
    async with connect() as client:
        with pytest.raises(MCPError, match="unknown tool 'scan'"):
            await client.call_tool("scan", {"path": "project"})


# -- the rules resource ----------------------------------------------------------------------


async def test_the_rules_resource_lists_every_rule(connect: ClientFactory) -> None:
    async with connect() as client:
        listed = await client.list_resources()
        read = await client.read_resource("filid://rules")
    assert [(str(r.uri), r.mime_type) for r in listed.resources] == [
        ("filid://rules", "text/markdown")
    ]
    [contents] = read.contents
    assert isinstance(contents, TextResourceContents)
    assert contents.mime_type == "text/markdown"
    text = contents.text
    assert text.startswith("# filid rules\n")
    for rule in RULES:
        meta = rule.meta
        section = text.split(f"## `{meta.id}`\n", 1)[1].split("\n## ", 1)[0]
        assert meta.description in section
        assert meta.rationale in section
        assert f"**Category:** {meta.category.value}" in section
        assert f"**Default severity:** {meta.default_severity.value}" in section
        for category in meta.applies_to:
            assert category.value in section.split("**Applies to:**", 1)[1].split("\n", 1)[0]
        fix = section.split("**Fix:**", 1)[1].split("\n", 1)[0]
        if meta.fix_action is not None:
            assert meta.fix_action.value in fix
        else:
            assert "manual" in fix


async def test_an_unknown_resource_is_a_protocol_error(connect: ClientFactory) -> None:
    async with connect() as client:
        with pytest.raises(MCPError, match="unknown resource"):
            await client.read_resource("filid://nope")


# -- concurrency -----------------------------------------------------------------------------


async def test_fifty_concurrent_mixed_calls_all_answer_right(
    connect: ClientFactory, workspace: Workspace
) -> None:
    path = str(workspace.project)
    project = load_project(workspace.project)
    result = evaluate(project)
    expected = {
        "fractal-scan": stable(
            json_report.scan_report(
                project.tree,
                project.facts,
                project.file_graph,
                timestamp="",
                duration=0.0,
                max_depth=3,
                include_modules=True,
            )
        ),
        "drift-detect": stable(detect_drift(result, with_plan=True).to_json()),
        "lca-resolve": json_report.lca_to_json(
            resolve_lca(project.tree, "src/auth", "src/math"), str(project.root)
        ),
        "rule-query": json_report.rule_list(rule_states(workspace.project, None), len(RULES)),
        "structure-validate": stable(json_report.validation_report(result, project.tree)),
    }
    whole = {"path": path, "maxChars": WHOLE}
    arguments: dict[str, dict[str, Any]] = {
        "fractal-scan": {**whole, "depth": 3, "includeModuleInfo": True},
        "drift-detect": {**whole, "generatePlan": True},
        "lca-resolve": {**whole, "moduleA": "src/auth", "moduleB": "src/math"},
        "rule-query": {**whole, "action": "list"},
        "structure-validate": whole,
    }
    calls = [TOOL_NAMES[i % len(TOOL_NAMES)] for i in range(45)]
    bad = [("fractal-scan", {"path": path, "depth": 99})] * 5
    answers: dict[int, tuple[str, CallToolResult]] = {}
    async with connect() as client:

        async def call(i: int, tool: str, args: dict[str, Any]) -> None:
            answers[i] = (tool, await client.call_tool(tool, args))

        async with anyio.create_task_group() as group:
            for i, tool in enumerate(calls):
                group.start_soon(call, i, tool, arguments[tool])
            for j, (tool, args) in enumerate(bad):
                group.start_soon(call, 100 + j, tool, args)
    assert len(answers) == 50
    for i, (tool, answer) in answers.items():
        if i >= 100:
            assert error_text(answer) == "depth: must be between 1 and 20 (got 99)"
        else:
            assert stable(ok(answer)) == expected[tool], tool


def test_roots_must_exist(tmp_path: Path) -> None:
    from filid.model.errors import InputError

    with pytest.raises(InputError, match=r"--root .*nope: no such directory"):
        build_server([tmp_path / "nope"])
    assert os.path.isdir(tmp_path)


# -- nextActions -----------------------------------------------------------------------------


async def test_next_actions_are_tool_calls_that_succeed(
    connect: ClientFactory, workspace: Workspace
) -> None:
    path = str(workspace.project)
    starts: list[tuple[str, dict[str, Any]]] = [
        ("fractal-scan", {"path": path, "depth": 2}),
        ("drift-detect", {"path": path}),
        ("lca-resolve", {"path": path, "moduleA": "src/auth", "moduleB": "src/billing"}),
        ("rule-query", {"path": path, "action": "list"}),
        ("rule-query", {"path": path, "action": "get", "ruleId": "zero-peer-file"}),
        ("rule-query", {"path": path, "action": "check", "targetPath": "src"}),
        ("structure-validate", {"path": path, "maxChars": 3000}),
    ]
    kinds: set[tuple[str, str]] = set()
    async with connect() as client:
        for tool, arguments in starts:
            data = ok(await client.call_tool(tool, arguments))
            # An LCA at the root leaves nothing narrower to look at.
            assert data["nextActions"] or data.get("lcaPath") == ".", tool
            for action in data["nextActions"]:
                assert set(action) == {"tool", "args", "why"}
                ok(await client.call_tool(action["tool"], action["args"]))
                kinds.add((action["tool"], ",".join(sorted(action["args"]))))
        # An unknown module's error offers the same call with the nearest existing module.
        failed = await client.call_tool(
            "lca-resolve", {"path": path, "moduleA": "src/auht", "moduleB": "src/billing"}
        )
        assert failed.is_error and isinstance(failed.structured_content, dict)
        for action in failed.structured_content["nextActions"]:
            ok(await client.call_tool(action["tool"], action["args"]))
    assert ("structure-validate", "path,preview") in kinds
    assert ("structure-validate", "list,maxChars,offset,path") in kinds
    assert any(tool == "rule-query" for tool, _ in kinds)
