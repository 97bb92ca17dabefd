"""The repository is a Claude Code plugin marketplace holding the filid plugin.

The static tests check the files against Claude Code's documented formats (marketplace
``name``/``owner``/``plugins[].{name,source}``; plugin ``name``, component paths starting
with ``./``; hooks ``{"hooks": {Event: [{matcher?, hooks: [{type, command, timeout?}]}]}}``;
``.mcp.json`` ``mcpServers``). The slow test runs Claude Code's own ``claude plugin
validate`` and installs the plugin with ``claude plugin marketplace add`` + ``claude plugin
install`` into a scratch home, from a fresh clone (the binary comes from the npm package
``@anthropic-ai/claude-code`` that ``tests/node`` pins).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from filid.cli.hook import HOOK_EVENTS

REPO = Path(__file__).resolve().parents[2]
CLAUDE = REPO / "tests" / "node" / "node_modules" / ".bin" / "claude"


def _json(rel: str) -> Any:
    return json.loads((REPO / rel).read_text(encoding="utf-8"))


def test_marketplace_lists_the_plugin_at_the_repository_root() -> None:
    market = _json(".claude-plugin/marketplace.json")
    assert isinstance(market["name"], str) and market["name"] == market["name"].lower()
    assert isinstance(market["owner"]["name"], str)
    [entry] = market["plugins"]
    assert entry["name"] == "filid"
    assert entry["source"] == "./"


def test_plugin_manifest_names_existing_components_and_the_package_version() -> None:
    plugin = _json(".claude-plugin/plugin.json")
    assert plugin["name"] == "filid"
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    assert plugin["version"] == version
    for key in ("hooks", "mcpServers"):
        assert plugin[key].startswith("./"), key
        assert (REPO / plugin[key]).is_file(), key


def test_hooks_run_filid_hook_subcommands_for_their_events() -> None:
    hooks = _json("hooks/hooks.json")["hooks"]
    by_event = {name: event for event, name in HOOK_EVENTS.items()}
    assert set(hooks) == set(by_event)
    for event, groups in hooks.items():
        for group in groups:
            assert set(group) <= {"matcher", "hooks"}
            for hook in group["hooks"]:
                assert hook["type"] == "command"
                assert hook["command"] == f"filid hook {by_event[event]}"
                assert 0 < hook["timeout"] <= 60
    [pre] = hooks["PreToolUse"]
    assert set(pre["matcher"].split("|")) == {"Read", "Write", "Edit", "MultiEdit"}


def test_mcp_config_starts_filid_mcp() -> None:
    servers = _json(".mcp.json")["mcpServers"]
    assert servers == {"filid": {"command": "filid", "args": ["mcp"]}}


def _claude_env(home: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ANTHROPIC_", "CLAUDE_"))
    }
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        DISABLE_TELEMETRY="1",
        DISABLE_AUTOUPDATER="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
    )
    return env


@pytest.mark.slow
def test_claude_code_validates_and_installs_the_plugin_from_a_fresh_clone(
    tmp_path: Path,
) -> None:
    if not CLAUDE.exists():
        pytest.skip("Claude Code is not installed in tests/node (npm install --prefix tests/node)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from tests.packaging.checkout import copy_checkout

    clone = copy_checkout(tmp_path / "filid")
    home = tmp_path / "home"
    home.mkdir()
    env = _claude_env(home)

    def claude(*args: str) -> str:
        done = subprocess.run(
            [str(CLAUDE), *args], env=env, capture_output=True, text=True, timeout=180
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout + done.stderr

    validated = claude("plugin", "validate", str(clone))
    assert "Validation passed" in validated
    assert "error" not in validated.lower().replace("0 errors", "")
    claude("plugin", "marketplace", "add", str(clone))
    claude("plugin", "install", "filid@filid")
    installed = home / ".claude" / "plugins" / "cache" / "filid" / "filid" / "0.1.0"
    for rel in (".claude-plugin/plugin.json", "hooks/hooks.json", ".mcp.json"):
        assert json.loads((installed / rel).read_text()) == json.loads((REPO / rel).read_text()), (
            rel
        )
    registry = json.loads((home / ".claude" / "plugins" / "installed_plugins.json").read_text())
    assert "filid@filid" in json.dumps(registry)
