"""Bounded inputs: every string argument has a length limit checked before any work, an
error echoes a short prefix only, and ``maxChars`` is capped at what Claude Code accepts."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from filid.mcp import schemas, tools
from tests.mcp.conftest import ClientFactory, Workspace
from tests.mcp.test_server import error_text
from tests.mcp.test_stdio import server_environment

pytestmark = pytest.mark.anyio

HUGE = "x" * 5_000_000
# Longest echo an error may carry: the argument name, the limit, an 80-character prefix.
SHORT = 300


def every_string_argument() -> list[tuple[str, str, dict[str, Any]]]:
    """(tool, argument, the schema of one string) for every string an input schema takes."""
    found = []
    for spec in tools.TOOLS:
        for name, schema in spec.input_schema["properties"].items():
            if schema["type"] == "string" and "enum" not in schema:
                found.append((spec.name, name, schema))
            elif schema["type"] == "array":
                found.append((spec.name, name, schema["items"]))
    return found


def test_every_string_argument_has_a_documented_length_limit() -> None:
    found = every_string_argument()
    assert len(found) >= 12
    for tool, name, schema in found:
        assert 1 <= schema["maxLength"] <= schemas.PATH_MAX_LENGTH, (tool, name)
    for spec in tools.TOOLS:
        for name, schema in spec.input_schema["properties"].items():
            if schema["type"] == "array":
                assert schema["maxItems"] == schemas.LIST_MAX_ITEMS, (spec.name, name)
    assert spec.input_schema["properties"]["maxChars"]["maximum"] == 50_000


BASE = {
    "fractal-scan": {},
    "drift-detect": {},
    "lca-resolve": {"moduleA": "src/auth", "moduleB": "src/billing"},
    "rule-query": {"action": "check", "targetPath": "src"},
    "structure-validate": {},
}


@pytest.mark.parametrize(("tool", "name", "schema"), every_string_argument())
async def test_a_value_over_the_limit_is_refused_with_a_short_reason(
    connect: ClientFactory, tool: str, name: str, schema: dict[str, Any]
) -> None:
    value = "y" * (schema["maxLength"] + 1)
    arguments: dict[str, Any] = {"path": "project", **BASE[tool]}
    arguments[name] = [value] if name in ("paths", "rules") else value
    if tool == "rule-query" and name == "ruleId":
        arguments = {"path": "project", "action": "get", "ruleId": value}
    async with connect() as client:
        text = error_text(await client.call_tool(tool, arguments))
    assert f"at most {schema['maxLength']} characters" in text
    assert len(text) < SHORT


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ({"path": "project", "maxChars": 1_000_000}, "maxChars: must be between 2000 and 50000"),
        ({"path": "project", "paths": ["src"] * 101}, "paths: at most 100 items"),
        ({"path": "p" * 4000}, "cannot open"),
        ({"path": "a/" * 2000}, "no such directory"),
        ({"path": "project", "baseline": "b" * 4000}, "baseline: "),
        ({"path": "project", "baseline": "b/" * 2000}, "baseline: "),
    ],
)
async def test_long_values_within_the_limit_are_clean_errors(
    connect: ClientFactory, arguments: dict[str, Any], reason: str
) -> None:
    async with connect() as client:
        text = error_text(await client.call_tool("structure-validate", arguments))
    assert reason in text and "internal error" not in text
    assert len(text) < SHORT


@pytest.mark.slow
async def test_five_megabyte_arguments_are_clean_errors_over_stdio(workspace: Workspace) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "filid", "mcp", "--root", str(workspace.allowed)],
        env=server_environment(),
        cwd=str(workspace.allowed),
    )
    calls = [
        ("structure-validate", {"path": HUGE}),
        ("structure-validate", {"path": "project", "baseline": HUGE}),
        ("lca-resolve", {"path": "project", "moduleA": HUGE, "moduleB": "src/auth"}),
        ("fractal-scan", {"path": "project", "paths": [HUGE]}),
        ("rule-query", {"path": "project", "action": "get", "ruleId": HUGE}),
    ]
    async with Client(params, mode="legacy", read_timeout_seconds=60) as client:
        texts = [error_text(await client.call_tool(tool, args)) for tool, args in calls]
        # Still serving afterwards.
        assert not (await client.call_tool("fractal-scan", {"path": "project"})).is_error
    for text in texts:
        assert "at most" in text and "internal error" not in text and len(text) < SHORT


async def test_an_unknown_long_module_is_echoed_as_a_short_prefix(connect: ClientFactory) -> None:
    name = "q" * 1024
    async with connect() as client:
        result = await client.call_tool(
            "lca-resolve", {"path": "project", "moduleA": name, "moduleB": "src/auth"}
        )
    text = error_text(result)
    assert "is not a directory of the project" in text and len(text) < SHORT
    assert "(1024 characters)" in text
