"""Answers that fit a context window, on a generated 2,000-file monorepo.

Every tool answers within its ``maxChars`` budget with the summary first; paging with
``offset`` (following the ``nextActions`` entry the answer gives) walks every item exactly
once, in the order of the whole answer; the severity order holds.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult, TextContent

from filid.mcp.budget import Section, compact, fit
from filid.mcp.server import build_server
from tests.conftest import REPO

pytestmark = pytest.mark.anyio

BUDGET = 20_000
WHOLE = 50_000

SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
DRIFT_RANK = {"critical": 0, "high": 1, "medium": 2, "low": 3}


def _load_generator() -> ModuleType:
    path = REPO / "benchmarks" / "generate.py"
    spec = importlib.util.spec_from_file_location("bench_generate_mcp", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def big_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated monorepo of about 2,000 files (five workspace packages, planted cycles)."""
    allowed = tmp_path_factory.mktemp("big")
    project = allowed / "mono"
    manifest = _load_generator().generate(2000, project, 1)
    assert int(manifest["files"]) >= 2000
    return project.resolve()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@asynccontextmanager
async def in_process(project: Path) -> AsyncIterator[Client]:
    async with Client(build_server([project.parent], cwd=project.parent)) as client:
        yield client


def text_of(result: CallToolResult) -> str:
    [block] = result.content
    assert isinstance(block, TextContent)
    return block.text


def answer(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert isinstance(data, dict)
    assert json.loads(text_of(result)) == data
    return data


def calls(project: Path) -> list[tuple[str, dict[str, Any]]]:
    path = str(project)
    return [
        ("fractal-scan", {"path": path}),
        ("fractal-scan", {"path": path, "includeModuleInfo": True}),
        ("drift-detect", {"path": path}),
        ("drift-detect", {"path": path, "generatePlan": True}),
        ("lca-resolve", {"path": path, "moduleA": "packages/core", "moduleB": "packages/ui"}),
        ("rule-query", {"path": path, "action": "list"}),
        ("rule-query", {"path": path, "action": "get", "ruleId": "external-import-boundary"}),
        ("rule-query", {"path": path, "action": "check", "targetPath": "."}),
        ("structure-validate", {"path": path}),
        ("structure-validate", {"path": path, "preview": True}),
    ]


def server_environment() -> dict[str, str]:
    names = (
        "PATH",
        "HOME",
        "PYTHONPATH",
        "VIRTUAL_ENV",
        "LANG",
        "LC_ALL",
        "TMPDIR",
        "FILID_CACHE_DIR",
    )
    return {name: os.environ[name] for name in names if name in os.environ}


@pytest.mark.slow
async def test_every_tool_fits_its_budget_with_the_summary_first_over_stdio(
    big_project: Path,
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "filid", "mcp", "--root", str(big_project.parent)],
        env=server_environment(),
        cwd=str(big_project.parent),
    )
    sizes: dict[str, int] = {}
    async with Client(params, mode="legacy", read_timeout_seconds=120) as client:
        for tool, arguments in calls(big_project):
            for budget in (None, 5_000):
                args = dict(arguments) if budget is None else {**arguments, "maxChars": budget}
                result = await client.call_tool(tool, args)
                data = answer(result)
                limit = budget or BUDGET
                text = text_of(result)
                assert len(text) <= limit, (tool, args, len(text))
                assert next(iter(data)) == "summary", (tool, list(data))
                assert "nextActions" in list(data)[:3]
                sizes[f"{tool} {sorted(args)}"] = len(text)
        # Without a budget the same answers are far larger: the budget is what keeps them small.
        whole = await client.call_tool(
            "structure-validate", {"path": str(big_project), "maxChars": WHOLE}
        )
        assert len(text_of(whole)) > 2 * BUDGET
    assert sizes


def lists_of(tool: str, data: dict[str, Any]) -> dict[str, list[Any]]:
    """The pageable lists of one answer, by the name ``truncated`` and ``list`` use."""
    if tool == "fractal-scan":
        return {
            "tree.nodes": list(data["tree"]["nodes"].items()),
            "modules": data.get("modules", []),
            "unresolved": data["unresolved"],
        }
    if tool == "drift-detect":
        return {"items": data["items"], "syncPlan": data.get("syncPlan", [])}
    if tool == "rule-query":
        return (
            {"violations": data["violations"]} if "violations" in data else {"rules": data["rules"]}
        )
    preview = data.get("preview", {})
    return {
        "fixedItems": data.get("fixedItems", []),
        "changedFiles": data.get("changedFiles", []),
        "fixes": preview.get("fixes", []),
        "diff": preview.get("diff", []),
        "violations": data["result"]["violations"],
        "notes": data.get("notes", []),
    }


async def walk(
    client: Client, tool: str, arguments: dict[str, Any], budget: int
) -> tuple[dict[str, list[Any]], int]:
    """Every list of an answer, completed by following its nextActions page calls; checks
    each page's ``truncated`` entry, cursor and text on the way. Returns the lists and the
    number of calls."""
    first = answer(await client.call_tool(tool, {**arguments, "maxChars": budget}))
    assert len(compact(first)) <= budget
    lists = lists_of(tool, first)
    cut = first.get("truncated", {})
    calls = 1
    for name, entry in cut.items():
        # Page 1 gives every list its share: no list is crowded out by the one before it.
        assert entry["shown"] > 0, (name, cut)
        assert entry["offset"] == 0 and entry["shown"] == len(lists[name])
    for name in list(cut):
        entry = cut[name]
        data = first
        while "nextOffset" in entry:
            [step] = first_or(data, name)
            assert step["args"]["list"] == name
            assert step["args"]["offset"] == entry["nextOffset"] == len(lists[name])
            assert f"from item {entry['nextOffset']}" in step["why"]
            page = answer(await client.call_tool(step["tool"], step["args"]))
            calls += 1
            assert len(compact(page)) <= step["args"].get("maxChars", 20_000)
            entry = page["truncated"][name]
            shown = lists_of(tool, page)[name]
            assert shown, "every page makes progress"
            assert entry["offset"] == len(lists[name]) and entry["shown"] == len(shown)
            assert entry["total"] == cut[name]["total"]
            lists[name].extend(shown)
            data = page
            assert calls < 500
        assert len(lists[name]) == cut[name]["total"]
    return lists, calls


def first_or(data: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The nextActions entry that pages list ``name``."""
    return [a for a in data["nextActions"] if a["args"].get("list") == name]


PAGED = [
    ("fractal-scan", {}),
    ("fractal-scan", {"includeModuleInfo": True, "depth": 3}),
    ("drift-detect", {"generatePlan": True}),
    ("rule-query", {"action": "check", "targetPath": "packages"}),
    ("structure-validate", {}),
    ("structure-validate", {"preview": True}),
    ("structure-validate", {"paths": ["packages/core/**"]}),
]


@pytest.mark.parametrize(("tool", "extra"), PAGED)
async def test_paging_walks_every_list_exactly_once(
    big_project: Path, tool: str, extra: dict[str, Any]
) -> None:
    path = str(big_project)
    async with in_process(big_project) as client:
        large, _ = await walk(client, tool, {"path": path, **extra}, WHOLE)
        small, calls = await walk(client, tool, {"path": path, **extra}, 8_000)
    assert calls > 1
    assert sum(len(v) for v in small.values()) > 20, "the generated project gives enough items"
    # The same items in the same order, whatever the budget: nothing skipped, nothing twice.
    assert small == large


async def test_items_come_most_severe_first_then_by_path(big_project: Path) -> None:
    path = str(big_project)
    # The whole lists, every page followed: the FCA 1.0 document rules give this project
    # more errors than one page holds, and the order must hold across pages too.
    async with in_process(big_project) as client:
        validation, _ = await walk(client, "structure-validate", {"path": path}, WHOLE)
        drift, _ = await walk(client, "drift-detect", {"path": path}, WHOLE)
    violations = validation["violations"]
    keys = [(SEVERITY_RANK[v["severity"]], v["path"]) for v in violations]
    assert keys == sorted(keys)
    assert len({v["severity"] for v in violations}) > 1
    items = [(DRIFT_RANK[i["severity"]], i["path"]) for i in drift["items"]]
    assert items == sorted(items)


async def test_filters_narrow_and_the_summary_counts_everything(big_project: Path) -> None:
    from filid.check.engine import evaluate
    from filid.check.project import load_project

    path = str(big_project)
    async with in_process(big_project) as client:
        narrowed = answer(
            await client.call_tool(
                "structure-validate",
                {
                    "path": path,
                    "maxChars": WHOLE,
                    "paths": ["packages/core"],
                    "rules": ["zero-peer-file"],
                },
            )
        )
    shown = narrowed["result"]["violations"]
    assert "truncated" not in narrowed
    assert shown and all(v["ruleId"] == "zero-peer-file" for v in shown)
    assert all(v["path"].startswith("packages/core/") for v in shown)
    result = evaluate(load_project(big_project), rule_ids=["zero-peer-file"])
    expected = sorted(
        v.fingerprint for v in result.violations if v.path.startswith("packages/core/")
    )
    assert sorted(v["fingerprint"] for v in shown) == expected
    assert narrowed["summary"]["matchingPaths"] == len(shown)
    assert narrowed["summary"]["violations"] == narrowed["summary"]["byRule"]["zero-peer-file"]


def test_an_item_larger_than_the_budget_is_shown_shortened() -> None:
    head = {"summary": {"items": 2}}
    huge = {"file": "a.ts", "diff": "x" * 50_000}
    data = fit(
        head,
        {"list": []},
        [Section("list", ("list",), [huge, {"file": "b.ts", "diff": "y"}])],
        offset=0,
        max_chars=2_000,
        actions=[],
        next_page=lambda name, n: {"tool": "t", "args": {"list": name, "offset": n}, "why": "n"},
    )
    assert len(compact(data)) <= 2_000
    assert next(iter(data)) == "summary"
    assert data["truncated"] == {
        "list": {"shown": 1, "total": 2, "offset": 0, "nextOffset": 1, "cutItems": 1}
    }
    [item] = data["list"]
    assert item["file"] == "a.ts" and "[cut: " in item["diff"]
    assert data["nextActions"] == [{"tool": "t", "args": {"list": "list", "offset": 1}, "why": "n"}]


def test_each_list_gets_its_share_of_the_first_page() -> None:
    """A long first list does not crowd out the others; totals are per list."""
    violations = [{"message": f"violation {i} " + "v" * 200} for i in range(200)]
    notes = [f"note {i} " + "n" * 100 for i in range(50)]
    data = fit(
        {"summary": {}},
        {"violations": [], "notes": []},
        [Section("violations", ("violations",), violations), Section("notes", ("notes",), notes)],
        offset=0,
        max_chars=10_000,
        actions=[],
        next_page=lambda name, n: {"tool": "t", "args": {"list": name, "offset": n}, "why": "n"},
    )
    assert len(compact(data)) <= 10_000
    cut = data["truncated"]
    assert cut["violations"]["total"] == 200 and cut["notes"]["total"] == 50
    assert data["violations"] == violations[: cut["violations"]["shown"]]
    assert data["notes"] == notes[: cut["notes"]["shown"]]
    # Equal shares of the budget: neither list gets less than a third of the items' room.
    shown_sizes = [len(compact(data["violations"])), len(compact(data["notes"]))]
    assert min(shown_sizes) > max(shown_sizes) / 3
    pages = [a["args"] for a in data["nextActions"]]
    assert pages == [
        {"list": "violations", "offset": cut["violations"]["shown"]},
        {"list": "notes", "offset": cut["notes"]["shown"]},
    ]


async def _follow(client: Client, tool: str, args: dict[str, Any], depth: int) -> int:
    """Call ``tool``; then call each of its nextActions exactly as given (``depth`` levels
    deep). Every call must succeed. Returns the number of actions called."""
    data = answer(await client.call_tool(tool, args))
    called = 0
    for action in data["nextActions"]:
        assert set(action) == {"tool", "args", "why"} and action["why"]
        if depth > 0:
            called += 1 + await _follow(client, action["tool"], action["args"], depth - 1)
        else:
            answer(await client.call_tool(action["tool"], action["args"]))
            called += 1
    return called


@pytest.mark.slow
async def test_every_next_action_called_as_given_succeeds_over_stdio(
    tmp_path: Path,
) -> None:
    project = (tmp_path / "mono").resolve()
    _load_generator().generate(2000, project, 2)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "filid", "mcp", "--root", str(tmp_path)],
        env=server_environment(),
        cwd=str(tmp_path),
    )
    called = 0
    async with Client(params, mode="legacy", read_timeout_seconds=120) as client:
        for tool, arguments in calls(project):
            called += await _follow(client, tool, {**arguments, "maxChars": 6_000}, 1)
    # Pages, previews, applies, explanations, deeper scans: many kinds were exercised.
    assert called > 30
