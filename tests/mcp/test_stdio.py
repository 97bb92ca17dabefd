"""``filid mcp`` as a real subprocess over stdio, through the SDK's stdio client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import TextContent

from filid.check.engine import evaluate
from filid.check.project import load_project
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


MALFORMED: list[tuple[str, dict[str, Any] | None]] = [
    # (line, the error response the JSON-RPC specification names; None: no reply)
    ("this is not json", {"id": None, "code": -32700}),
    ("[]", {"id": None, "code": -32600}),
    ("42", {"id": None, "code": -32600}),
    ('{"jsonrpc":"2.0","id":7,"method":"tools/list","params":"x"}', {"id": 7, "code": -32602}),
    ('{"jsonrpc":"1.0","id":"eight","method":"tools/list"}', {"id": "eight", "code": -32600}),
    ('{"jsonrpc":"2.0","id":9,"method":5}', {"id": 9, "code": -32600}),
    ('{"jsonrpc":"2.0","id":{},"method":"tools/list"}', {"id": None, "code": -32600}),
    ('{"jsonrpc":"2.0","id":10}', {"id": 10, "code": -32600}),
    ('{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{}}', {"id": 11, "code": -32602}),
    # Notifications are never answered, not even malformed ones.
    ('{"jsonrpc":"2.0","method":"notifications/x","params":"bad"}', None),
    ('{"jsonrpc":"2.0","method":"notifications/initialized","params":"bad"}', None),
    ("", None),
]


def test_every_malformed_request_with_an_id_is_answered_with_the_specs_error(
    workspace: Workspace,
) -> None:
    """Raw lines on stdin: each malformed request gets its JSON-RPC error, in order, and the
    server keeps serving (a well-formed request after them is answered)."""
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }
    lines = [
        json.dumps(initialize),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        *(line for line, _ in MALFORMED),
        json.dumps({"jsonrpc": "2.0", "id": 99, "method": "tools/list"}),
    ]
    expected = [reply for _, reply in MALFORMED if reply is not None]
    with subprocess.Popen(
        [sys.executable, "-m", "filid", "mcp", "--root", str(workspace.allowed)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=workspace.allowed,
    ) as process:
        assert process.stdin and process.stdout and process.stderr
        watchdog = threading.Timer(60, process.kill)
        watchdog.start()
        try:
            process.stdin.write("".join(line + "\n" for line in lines))
            process.stdin.flush()
            replies = [json.loads(process.stdout.readline()) for _ in range(len(expected) + 2)]
            process.stdin.close()
            process.wait(timeout=30)
        finally:
            watchdog.cancel()
            if process.poll() is None:
                process.kill()
    assert replies[0]["id"] == 1 and "result" in replies[0]
    errors = replies[1:-1]
    assert [{"id": r["id"], "code": r["error"]["code"]} for r in errors] == expected
    assert all(r["jsonrpc"] == "2.0" and r["error"]["message"] for r in errors)
    assert replies[-1]["id"] == 99 and replies[-1]["result"]["tools"]
