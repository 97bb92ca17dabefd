"""The session an agent runs through ``filid mcp`` on a real repository, over real stdio.

Usage: ``.venv/bin/python benchmarks/agent_session.py [REPO] [--work DIR] [--budget N]``
(default REPO ``/work/repos/ogham``, copied to a scratch folder first: the session fixes it).

The session: fractal-scan → structure-validate → drift-detect → lca-resolve → rule-query
(get) → structure-validate (preview) → structure-validate (fix with the planToken) →
structure-validate. The later steps take their arguments from the nextActions the earlier
answers offered, as an agent would. For every answer it checks: the text is within the budget
(default 20,000 characters); every nextAction, called exactly as given, succeeds (a fix is
only called as the session's apply step); no nextAction repeats the call that produced it.
It prints one table row per call with the answer's size, and exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult, TextContent

Call = tuple[str, dict[str, Any]]


def _text(result: CallToolResult) -> str:
    [block] = result.content
    assert isinstance(block, TextContent)
    return block.text


class Session:
    """The calls made, their sizes, and the problems found."""

    def __init__(self, client: Client, budget: int) -> None:
        self.client = client
        self.budget = budget
        self.rows: list[tuple[str, str, int, int, str]] = []
        self.problems: list[str] = []

    async def call(self, step: str, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        result = await self.client.call_tool(tool, args)
        text = _text(result)
        shown = {k: v for k, v in args.items() if k != "path"}
        label = f"{tool} {json.dumps(shown, ensure_ascii=False)}"
        if result.is_error:
            self.problems.append(f"{step}: {label}: error: {text[:300]}")
            self.rows.append((step, label, len(text), 0, "ERROR"))
            return {}
        data = json.loads(text)
        if len(text) > self.budget:
            self.problems.append(f"{step}: {label}: {len(text)} characters > {self.budget}")
        actions = data.get("nextActions", [])
        for action in actions:
            if action["tool"] == tool and action["args"] == args:
                self.problems.append(f"{step}: {label}: a nextAction repeats this call")
        cut = ", ".join(
            f"{name} {entry['shown']}/{entry['total']}"
            for name, entry in data.get("truncated", {}).items()
        )
        self.rows.append((step, label, len(text), len(actions), cut))
        return data

    async def follow(self, step: str, data: dict[str, Any]) -> None:
        """Call every nextAction of ``data`` as given, except a fix (it writes)."""
        for index, action in enumerate(data.get("nextActions", [])):
            if action["args"].get("fix") is True:
                continue
            await self.call(f"{step}.{index + 1}", action["tool"], action["args"])


def _action(data: dict[str, Any], **match: Any) -> dict[str, Any] | None:
    for action in data.get("nextActions", []):
        if all(action["args"].get(k) == v for k, v in match.items()):
            return action
    return None


async def run_session(root: Path, project: Path, budget: int) -> Session:
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "FILID_CACHE_DIR") if k in os.environ}
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "filid", "mcp", "--root", str(root)],
        env=env,
        cwd=str(root),
    )
    path = str(project)
    async with Client(params, mode="legacy", read_timeout_seconds=600) as client:
        session = Session(client, budget)
        scan = await session.call("1 scan", "fractal-scan", {"path": path})
        await session.follow("1", scan)
        validate = await session.call("2 validate", "structure-validate", {"path": path})
        await session.follow("2", validate)
        drift = await session.call("3 drift", "drift-detect", {"path": path})
        await session.follow("3", drift)
        modules = [p for p, n in scan["tree"]["nodes"].items() if n["type"] == "fractal"]
        pair = {"moduleA": modules[-1], "moduleB": modules[-2]} if len(modules) > 2 else {}
        if pair:
            lca = await session.call("4 lca", "lca-resolve", {"path": path, **pair})
            await session.follow("4", lca)
        rule = _action(validate, action="get") or {
            "args": {"action": "get", "ruleId": "zero-peer-file"}
        }
        got = await session.call("5 rule", "rule-query", {**rule["args"], "path": path})
        await session.follow("5", got)
        offered = _action(validate, preview=True)
        preview_args = offered["args"] if offered else {"path": path, "preview": True}
        preview = await session.call("6 preview", "structure-validate", preview_args)
        await session.follow("6", preview)
        apply = _action(preview, fix=True)
        if apply is not None:
            applied = await session.call("7 apply", apply["tool"], apply["args"])
            await session.follow("7", applied)
        else:
            session.rows.append(("7 apply", "(no plan to apply offered)", 0, 0, ""))
        final = await session.call("8 validate", "structure-validate", {"path": path})
        await session.follow("8", final)
    return session


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", nargs="?", default="/work/repos/ogham")
    parser.add_argument("--work", default=None, help="scratch folder (default: a temporary one)")
    parser.add_argument("--budget", type=int, default=20_000)
    options = parser.parse_args()
    work = Path(options.work or tempfile.mkdtemp(prefix="filid-agent-")).resolve()
    project = work / Path(options.repo).name
    if project.exists():
        shutil.rmtree(project)
    shutil.copytree(
        options.repo, project, ignore=shutil.ignore_patterns(".git", "node_modules"), symlinks=True
    )
    session = anyio.run(run_session, work, project, options.budget)
    print("| step | call | characters | nextActions | truncated |")
    print("|---|---|---:|---:|---|")
    for step, label, size, actions, cut in session.rows:
        print(f"| {step} | `{label[:140]}` | {size:,} | {actions} | {cut} |")
    largest = max(size for _, _, size, _, _ in session.rows)
    print(f"\n{len(session.rows)} calls, largest answer {largest:,} characters "
          f"(budget {options.budget:,}); problems: {len(session.problems)}")  # fmt: skip
    for problem in session.problems:
        print(f"- {problem}")
    return 1 if session.problems else 0


if __name__ == "__main__":
    sys.exit(main())
