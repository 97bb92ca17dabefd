"""Compare filid's findings with the upstream filid plugin's on one repository.

The upstream plugin (vincent-kk/ogham ``plugins/filid``) ships a built MCP server,
``plugins/filid/bridge/mcp-server.cjs``, that runs with node and no network. This script
starts it through the MCP SDK client over stdio, calls its structure-validate tool on the
repository root, runs ``filid check --format json`` on the same root, and prints a per-rule
table of counts and the errors only one side reports.

    python benchmarks/upstream.py --server /path/to/ogham/plugins/filid/bridge/mcp-server.cjs \\
        --repo /path/to/ogham [--json out.json]

Upstream and filid may use different rule ids for the same check; the table lists both ids as
they are. Nothing here is imported by the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def upstream_findings(server: Path, repo: Path) -> tuple[list[dict[str, Any]], str]:
    """The upstream server's structure-validate violations on ``repo`` and its tool name."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is not on PATH")
    params = StdioServerParameters(command=node, args=[str(server)], cwd=str(repo))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        name = next(t.name for t in tools if t.name.replace("-", "_") == "structure_validate")
        result = await session.call_tool(name, {"path": str(repo)})
        text = "".join(getattr(c, "text", "") for c in result.content)
        data = result.structured_content or json.loads(text)
    # Large results are written to an artifact file and only referenced in the answer.
    artifact = data.get("artifact") if isinstance(data, dict) else None
    if isinstance(artifact, dict) and isinstance(artifact.get("path"), str):
        data = json.loads(Path(artifact["path"]).read_text(encoding="utf-8"))
    return _violations(data), name


def _violations(data: Any) -> list[dict[str, Any]]:
    """Find the violation list in the upstream result, wherever its schema keeps it."""
    if isinstance(data, dict):
        for key in ("violations", "remainingViolations"):
            value = data.get(key)
            if isinstance(value, list) and all(isinstance(v, dict) for v in value):
                return value
        for value in data.values():
            found = _violations(value)
            if found:
                return found
    return []


def filid_findings(repo: Path) -> list[dict[str, Any]]:
    """``filid check --format json`` violations on ``repo`` (the filid on PATH or beside us)."""
    exe = shutil.which("filid") or str(Path(sys.executable).with_name("filid"))
    done = subprocess.run(
        [exe, "check", str(repo), "--format", "json", "--no-cache", "--exit-zero"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"filid exited {done.returncode}: {done.stderr.strip()}")
    violations: list[dict[str, Any]] = json.loads(done.stdout)["result"]["violations"]
    return violations


def relative(repo: Path, path: str) -> str:
    """A root-relative POSIX path for an absolute or relative one."""
    if os.path.isabs(path):
        try:
            return Path(path).relative_to(repo).as_posix() or "."
        except ValueError:
            return path
    return path


def upstream_path(repo: Path, violation: dict[str, Any]) -> str:
    """The root-relative path filid would give an upstream violation.

    Upstream reports ``zero-peer-file`` at the directory and names the peer in its message;
    filid reports it at the peer file, so the file name is joined back on.
    """
    path = relative(repo, str(violation.get("path")))
    if violation.get("ruleId") == "zero-peer-file":
        match = re.search(r'peer file "([^"]+)"', str(violation.get("message", "")))
        if match:
            return match.group(1) if path == "." else f"{path}/{match.group(1)}"
    return path


def main() -> int:
    """Run both tools and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", type=Path, required=True)
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--json", type=Path, help="write both finding lists here")
    args = parser.parse_args()
    repo = args.repo.resolve()
    theirs, tool = asyncio.run(upstream_findings(args.server.resolve(), repo))
    ours = filid_findings(repo)
    if args.json:
        args.json.write_text(json.dumps({"upstream": theirs, "filid": ours}, indent=1))
    counts: dict[tuple[str, str], list[int]] = collections.defaultdict(lambda: [0, 0])
    for v in theirs:
        counts[(str(v.get("ruleId") or v.get("rule")), str(v.get("severity")))][0] += 1
    for v in ours:
        counts[(v["ruleId"], v["severity"])][1] += 1
    print(f"upstream tool: {tool}; repository: {repo}")
    print("| rule | severity | upstream | filid |\n|---|---|---:|---:|")
    for (rule, severity), (up, us) in sorted(counts.items()):
        print(f"| {rule} | {severity} | {up} | {us} |")
    print(f"| total | | {len(theirs)} | {len(ours)} |")
    up_errors = collections.Counter(
        (str(v.get("ruleId")), upstream_path(repo, v))
        for v in theirs
        if v.get("severity") == "error"
    )
    ours_by_key: dict[tuple[str, str], list[dict[str, Any]]] = collections.defaultdict(list)
    for v in ours:
        if v["severity"] == "error":
            ours_by_key[(v["ruleId"], v["path"])].append(v)
    our_errors = collections.Counter({k: len(vs) for k, vs in ours_by_key.items()})
    only_ours = our_errors - up_errors
    only_theirs = up_errors - our_errors
    print(f"\nerrors only filid reports ({sum(only_ours.values())}; rule, path, count):")
    for (rule, path), n in sorted(only_ours.items()):
        print(f"  {rule} {path} x{n}")
        for v in ours_by_key[(rule, path)]:
            line = (v.get("location") or {}).get("line", "?")
            print(f"      line {line}: {v['message'][:300]}")
    print(f"\nerrors only upstream reports ({sum(only_theirs.values())}; rule, path, count):")
    for (rule, path), n in sorted(only_theirs.items()):
        print(f"  {rule} {path} x{n}")
    all_theirs = collections.Counter((str(v.get("ruleId")), upstream_path(repo, v)) for v in theirs)
    all_ours = collections.Counter((v["ruleId"], v["path"]) for v in ours)
    print(
        "\nall severities, findings only one side reports, per rule (filid-only / upstream-only):"
    )
    for rule in sorted({r for r, _ in all_theirs} | {r for r, _ in all_ours}):
        mine = sum(n for (r, _), n in (all_ours - all_theirs).items() if r == rule)
        yours = sum(n for (r, _), n in (all_theirs - all_ours).items() if r == rule)
        print(f"  {rule}: {mine} / {yours}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
