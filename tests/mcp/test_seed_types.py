"""The seed's result types, exactly where it defines them (CONTRACT.md "MCP").

Each field the seed defines is checked on real answers with an explicit type test (not only
through the published schemas): milliseconds as a whole number for ``duration``, booleans
and numbers for ``filtered``/``rulesApplied``/``rulesSkipped``, strings for rule examples,
SyncActions from the seed's list (plus the documented ``rewrite-import``), no "manual"
action, the seed's six ``category`` values and a ``number`` ``depth``.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from filid.mcp import outputs
from tests.mcp.conftest import ClientFactory, Workspace
from tests.mcp.test_server import ok

pytestmark = pytest.mark.anyio

SEED_ACTIONS = {"move", "rename", "create-index", "create-main", "reclassify", "split", "merge"}
DOCUMENTED_EXTENSIONS = {"rewrite-import"}
WHOLE = 50_000


def is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


async def test_scan_report_types(connect: ClientFactory, workspace: Workspace) -> None:
    async with connect() as client:
        compact = ok(await client.call_tool("fractal-scan", {"path": "project", "maxChars": WHOLE}))
        full = ok(
            await client.call_tool(
                "fractal-scan", {"path": "project", "includeModuleInfo": True, "maxChars": WHOLE}
            )
        )
    for data in (compact, full):
        jsonschema.validate(data, outputs.SCAN_REPORT)
        # Milliseconds, a whole number (the seed's ScanReport); never fractional seconds.
        assert isinstance(data["duration"], int) and not isinstance(data["duration"], bool)
        assert isinstance(data["timestamp"], str)
        assert is_number(data["tree"]["depth"]) and is_number(data["tree"]["totalNodes"])
    # The seed's FractalTree.nodes is the node map, with or without includeModuleInfo; that
    # flag adds the modules only.
    assert full["tree"]["nodes"] and compact["tree"]["nodes"] == full["tree"]["nodes"]
    assert compact["tree"]["types"] == {} and compact["modules"] == [] and full["modules"]
    for node in full["tree"]["nodes"].values():
        assert isinstance(node["hasClaudeMd"], bool) and is_number(node["depth"])
        assert isinstance(node["metadata"], dict)


async def test_validation_report_types(connect: ClientFactory, workspace: Workspace) -> None:
    async with connect() as client:
        data = ok(
            await client.call_tool("structure-validate", {"path": "project", "maxChars": WHOLE})
        )
        fixed = ok(
            await client.call_tool(
                "structure-validate", {"path": "project", "fix": True, "maxChars": WHOLE}
            )
        )
    for report in (data, fixed):
        jsonschema.validate(report, outputs.VALIDATION_REPORT)
        config = report["config"]
        # Numbers in the seed; the ids travel beside them.
        assert is_number(config["rulesApplied"]) and is_number(config["rulesSkipped"])
        assert config["rulesApplied"] == len(config["rulesAppliedIds"])
        assert config["rulesSkipped"] == len(config["rulesSkippedIds"])
        result = report["result"]
        assert all(is_number(result[k]) for k in ("passed", "failed", "warnings"))
        for violation in result["violations"]:
            if "fix" in violation:
                assert violation["fix"]["action"] in SEED_ACTIONS | DOCUMENTED_EXTENSIONS
    assert fixed["fixedItems"]
    for item in fixed["fixedItems"]:
        assert item["action"] in SEED_ACTIONS | DOCUMENTED_EXTENSIONS
        assert isinstance(item["success"], bool)


async def test_drift_report_types_and_no_manual_action(
    connect: ClientFactory, workspace: Workspace
) -> None:
    async with connect() as client:
        data = ok(
            await client.call_tool(
                "drift-detect", {"path": "project", "generatePlan": True, "maxChars": WHOLE}
            )
        )
    jsonschema.validate(data, outputs.DRIFT_REPORT)
    assert is_number(data["totalDrifts"])
    assert set(data["bySeverity"]) == {"critical", "high", "medium", "low"}
    manual = [i for i in data["items"] if "suggestedAction" not in i]
    assert manual, "intent-document-contract has no SyncAction in the example project"
    for item in manual:
        assert item["description"].startswith("manual change")
    for item in data["items"]:
        if "suggestedAction" in item:
            assert item["suggestedAction"] in SEED_ACTIONS | DOCUMENTED_EXTENSIONS
    for step in data["syncPlan"]:
        assert step["action"] in SEED_ACTIONS | DOCUMENTED_EXTENSIONS
        assert step["estimatedRisk"] in {"safe", "moderate", "risky"}


async def test_rule_results_types(connect: ClientFactory, workspace: Workspace) -> None:
    async with connect() as client:
        listed = ok(await client.call_tool("rule-query", {"path": "project", "action": "list"}))
        narrowed = ok(
            await client.call_tool(
                "rule-query", {"path": "project", "action": "list", "category": "organ"}
            )
        )
        detail = ok(
            await client.call_tool(
                "rule-query", {"path": "project", "action": "get", "ruleId": "max-depth"}
            )
        )
        checked = ok(
            await client.call_tool(
                "rule-query", {"path": "project", "action": "check", "targetPath": "src"}
            )
        )
        lca = ok(
            await client.call_tool(
                "lca-resolve", {"path": "project", "moduleA": "src/auth", "moduleB": "src/app"}
            )
        )
    for data in (listed, narrowed):
        jsonschema.validate(data, outputs.RULE_LIST_RESULT)
        assert isinstance(data["filtered"], bool) and is_number(data["total"])
        assert data["total"] == len(data["rules"])
    assert listed["filtered"] is False and narrowed["filtered"] is True
    jsonschema.validate(detail, outputs.RULE_DETAIL)
    # string[] in the seed, one string per example; the structured cases travel beside them.
    for side in ("valid", "invalid"):
        texts = detail["examples"][side]
        assert isinstance(texts, list) and all(isinstance(t, str) for t in texts)
        cases = detail["exampleCases"][side]
        assert len(texts) == len(cases)
        for text, case in zip(texts, cases, strict=True):
            assert text.startswith(f"# {case['description']}")
    assert detail["examples"]["invalid"]
    jsonschema.validate(checked, outputs.RULE_EVALUATION_RESULT)
    jsonschema.validate(lca, outputs.LCA_RESOLVE_RESULT)
    assert all(is_number(lca[k]) for k in ("lcaDepth", "distanceA", "distanceB"))


async def test_input_types_are_the_seeds(connect: ClientFactory) -> None:
    async with connect() as client:
        listed = await client.list_tools()
    tools: dict[str, Any] = {t.name: t.input_schema for t in listed.tools}
    depth = tools["fractal-scan"]["properties"]["depth"]
    assert depth["type"] == "number"  # the seed's type; whole numbers through multipleOf
    assert depth["multipleOf"] == 1
    assert tools["rule-query"]["properties"]["category"]["enum"] == [
        "fractal",
        "organ",
        "pure-function",
        "hybrid",
        "structure",
        "dependency",
    ]
    assert tools["structure-validate"]["properties"]["rules"]["type"] == "array"
    assert tools["drift-detect"]["properties"]["severity"]["enum"] == [
        "critical",
        "high",
        "medium",
        "low",
    ]


async def test_a_whole_number_depth_given_as_a_float_is_accepted(
    connect: ClientFactory,
) -> None:
    async with connect() as client:
        data = ok(await client.call_tool("fractal-scan", {"path": "project", "depth": 2.0}))
    assert data["summary"]["nodesWithinDepth"] == len(data["tree"]["nodes"])


async def test_scan_nodes_fill_the_budget_first_and_the_rest_is_compact(
    connect: ClientFactory,
) -> None:
    async with connect() as client:
        whole = ok(await client.call_tool("fractal-scan", {"path": "project"}))
        small = ok(await client.call_tool("fractal-scan", {"path": "project", "maxChars": 2000}))
    nodes = list(whole["tree"]["nodes"])
    assert len(nodes) > 5 and "truncated" not in whole
    cut = small["truncated"]["tree.nodes"]
    shown = list(small["tree"]["nodes"])
    # Node objects first, in order; the ones that did not fit are listed compactly, and said.
    assert shown == nodes[: len(shown)] and 0 < len(shown) < len(nodes)
    assert cut["shown"] == len(shown) and cut["total"] == len(nodes)
    assert cut["nextOffset"] == len(shown)
    assert list(small["tree"]["types"]) == nodes[len(shown) : len(shown) + cut["compact"]]
    assert cut["compact"] > 0
    assert all(
        small["tree"]["types"][p] == whole["tree"]["nodes"][p]["type"]
        for p in small["tree"]["types"]
    )
    [page] = [a for a in small["nextActions"] if a["args"].get("list") == "tree.nodes"]
    assert page["args"]["offset"] == len(shown) and f"from item {len(shown)}" in page["why"]
