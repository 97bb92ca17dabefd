"""``filid mcp`` as a real subprocess over stdio, through the SDK's stdio client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import TextContent

from filid.engine import evaluate, load_project
from filid.report import json as json_report
from tests.mcp.conftest import Workspace
from tests.mcp.test_server import stable

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


def server_environment() -> dict[str, str]:
    """What the server process needs beyond the stdio client's reduced default environment."""
    names = ("PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV", "LANG", "LC_ALL", "TMPDIR")
    return {name: os.environ[name] for name in names if name in os.environ}


async def test_stdio_server_lists_tools_and_validates(workspace: Workspace, tmp_path: Path) -> None:
    stderr_path = tmp_path / "server-stderr.txt"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "filid", "mcp", "--root", str(workspace.allowed)],
        env=server_environment(),
        cwd=str(workspace.allowed),
    )
    with stderr_path.open("w") as stderr:
        async with Client(params, mode="legacy", read_timeout_seconds=60) as client:
            assert client.server_info is not None
            assert client.server_info.name == "filid"
            listed = await client.list_tools()
            result = await client.call_tool(
                "structure-validate", {"path": "project", "maxChars": 50_000}
            )
            refused = await client.call_tool("fractal-scan", {"path": "/"})
    del stderr
    assert sorted(t.name for t in listed.tools) == [
        "drift-detect",
        "fractal-scan",
        "lca-resolve",
        "rule-query",
        "structure-validate",
    ]
    assert not result.is_error
    [block] = result.content
    assert isinstance(block, TextContent)
    data = json.loads(block.text)
    assert data == result.structured_content
    project = load_project(workspace.project)
    expected = json_report.validation_report(evaluate(project), project.tree)
    assert list(data)[:2] == ["summary", "nextActions"]
    assert stable(data) == stable(expected)
    assert refused.is_error


def test_a_missing_root_fails_before_serving(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "filid", "mcp", "--root", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert "nope: no such directory" in completed.stderr


def test_the_server_writes_only_protocol_to_stdout(workspace: Workspace) -> None:
    """A raw JSON-RPC session: every stdout line is a JSON-RPC message, logs go to stderr."""
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "fractal-scan", "arguments": {"path": "project", "depth": 1}},
        },
    ]
    with subprocess.Popen(
        [sys.executable, "-m", "filid", "mcp", "--root", str(workspace.allowed)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=workspace.allowed,
    ) as process:
        assert process.stdin and process.stdout and process.stderr
        # Never hang the suite: the server is killed if it has not answered in time.
        watchdog = threading.Timer(60, process.kill)
        watchdog.start()
        try:
            process.stdin.write("".join(json.dumps(m) + "\n" for m in messages))
            process.stdin.flush()
            # Keep stdin open until both answers are in: EOF ends the session.
            replies = [json.loads(process.stdout.readline()) for _ in range(2)]
            process.stdin.close()
            rest = process.stdout.read()
            stderr = process.stderr.read()
            process.wait(timeout=30)
        finally:
            watchdog.cancel()
            if process.poll() is None:
                process.kill()
    assert process.returncode == 0, stderr
    assert rest == ""
    assert [r["id"] for r in replies] == [1, 2]
    assert all(r["jsonrpc"] == "2.0" for r in replies)
    assert replies[0]["result"]["serverInfo"]["name"] == "filid"
    scan = replies[1]["result"]
    assert scan["isError"] is False
    assert all(n["depth"] <= 1 for n in scan["structuredContent"]["tree"]["nodes"].values())
    assert "serving" in stderr
