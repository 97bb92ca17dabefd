"""Agreement of filid with the upstream filid plugin (its own oracle) on one repository.

The upstream plugin (vincent-kk/ogham ``plugins/filid`` 0.10.12) ships a built MCP server,
``plugins/filid/bridge/mcp-server.cjs``, that runs with node and no network. This script
starts it through the MCP SDK client over stdio (with a scratch ``HOME``: results over 16 KiB
are written to an artifact file under ``$HOME/.claude/plugins/filid/artifacts``), calls
``structure_validate`` (``mode: "project"``) and ``fractal_scan`` (``detail: "full"``) on the
repository root, runs ``filid check --format json`` and ``filid scan --format json`` on the
same root, and prints:

1. per rule: errors upstream reports, errors filid reports, errors both report (matched by rule
   id and root-relative path, a boundary document's path read as its folder's, counted as
   multisets: upstream gives no line numbers), and the warnings/infos of each side;
2. every error only filid reports, each tagged ``alias`` (an import through a non-relative
   specifier: upstream resolves relative specifiers only), ``alias-cycle`` (a cycle with a hop
   through an alias, which upstream's relative-only graph cannot close), ``cycle`` or
   ``UNEXPLAINED``;
3. every error only upstream reports, tagged (see ``explain_upstream``);
4. folder classification: the share of folders both tools list whose category is equal, and
   each difference.

    python benchmarks/upstream.py --server /path/to/ogham/plugins/filid/bridge/mcp-server.cjs \\
        --repo /path/to/repository [--json out.json] [--filid EXE] [--upstream-json old.json]

Nothing here is imported by the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

Key = tuple[str, str]


async def upstream_results(
    server: Path, repo: Path, home: Path
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The upstream violations (``structure_validate``) and node categories (``fractal_scan``)."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is not on PATH")
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "")}
    params = StdioServerParameters(command=node, args=[str(server)], cwd=str(repo), env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        validate = await _call(
            session, "structure_validate", {"path": str(repo), "mode": "project"}
        )
        scan = await _call(session, "fractal_scan", {"path": str(repo), "detail": "full"})
    return _violations(validate), _categories(repo, scan)


async def _call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> Any:
    result = await session.call_tool(tool, arguments)
    text = "".join(getattr(c, "text", "") for c in result.content)
    if result.is_error:
        raise SystemExit(f"upstream {tool} failed: {text[:500]}")
    data = result.structured_content or json.loads(text)
    # Large results are written to an artifact file and only referenced in the answer.
    artifact = _find_key(data, "artifact")
    if isinstance(artifact, dict) and isinstance(artifact.get("path"), str):
        data = json.loads(Path(artifact["path"]).read_text(encoding="utf-8"))
    return data


def _find_key(data: Any, key: str) -> Any:
    if isinstance(data, dict):
        if key in data:
            return data[key]
        for value in data.values():
            found = _find_key(value, key)
            if found is not None:
                return found
    return None


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


def _categories(repo: Path, data: Any) -> dict[str, str]:
    """Root-relative node path → category from an upstream ``fractal_scan`` answer."""
    nodes = _find_key(data, "nodes")
    found: dict[str, str] = {}
    items: list[Any] = []
    if isinstance(nodes, dict):
        items = list(nodes.values())
    elif isinstance(nodes, list):
        items = [n[1] if isinstance(n, list) and len(n) == 2 else n for n in nodes]
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("path"), str):
            found[relative(repo, item["path"])] = str(item.get("type"))
    return found


def run_filid(exe: str, args: list[str]) -> Any:
    """Run filid with ``args`` and parse its JSON output."""
    done = subprocess.run([exe, *args], capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"filid {args[0]} exited {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def filid_results(exe: str, repo: Path) -> tuple[list[dict[str, Any]], dict[str, str], list[str]]:
    """filid's violations, node categories and notes on ``repo``."""
    check = run_filid(exe, ["check", str(repo), "--format", "json", "--no-cache", "--exit-zero"])
    scan = run_filid(exe, ["scan", str(repo), "--format", "json"])
    categories = {path: str(node["type"]) for path, node in scan["tree"]["nodes"].items()}
    notes = [str(n) for n in check.get("notes", [])]
    return check["result"]["violations"], categories, notes


def relative(repo: Path, path: str) -> str:
    """A root-relative POSIX path for an absolute or relative one."""
    if os.path.isabs(path):
        try:
            return Path(path).relative_to(repo).as_posix() or "."
        except ValueError:
            return path
    return path or "."


def upstream_path(repo: Path, violation: dict[str, Any]) -> str:
    """The root-relative path filid would give an upstream violation.

    Upstream reports ``zero-peer-file`` at the directory and names the peer in its message;
    filid reports it at the peer file, so the file name is joined back on. Document rules
    upstream reports at the document; filid at the document too.
    """
    path = relative(repo, str(violation.get("path")))
    if violation.get("ruleId") == "zero-peer-file":
        match = re.search(r'peer file "([^"]+)"', str(violation.get("message", "")))
        if match:
            return match.group(1) if path == "." else f"{path}/{match.group(1)}"
    return node_path(path)


_DOCUMENTS = ("INTENT.md", "DETAIL.md")


def node_path(path: str) -> str:
    """A boundary document's path as its folder's: upstream reports a document's content at
    the document and its absence at the folder, filid both at the folder."""
    folder, _, name = path.rpartition("/")
    return (folder or ".") if name in _DOCUMENTS else path


_SPECIFIER = re.compile(r"\('([^']*)'\)$")


def explain(violation: dict[str, Any]) -> str:
    """Why upstream cannot report a filid-only error: ``alias``, ``cycle`` or UNEXPLAINED."""
    if violation["ruleId"] == "circular-dependency":
        hops = re.findall(r"imports '([^']*)'", violation["message"])
        # a hop through an alias is an edge upstream's relative-only graph does not have
        return "alias-cycle" if any(not h.startswith(".") for h in hops) else "cycle"
    match = _SPECIFIER.search(violation["message"])
    if match and not match.group(1).startswith("."):
        return "alias"
    return "UNEXPLAINED"


_PARENT_READ = re.compile(
    r"sub-module '([^']*)' imports '[^']*' directly from its parent module '([^']*)'"
)


def parent_reads(ours: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """(sub-module, parent module) of each case (c) finding filid reports."""
    found: set[tuple[str, str]] = set()
    for v in ours:
        match = (
            _PARENT_READ.search(v["message"]) if v["ruleId"] == "external-import-boundary" else None
        )
        if match:
            found.add((match.group(1), match.group(2)))
    return found


def closed_by_parent_read(repo: Path, messages: list[str], reads: set[tuple[str, str]]) -> bool:
    """Does every upstream cycle in ``messages`` have a hop that filid reports as a case (c)
    finding (a child reading its parent's file, a type-only one included)?"""
    for message in messages:
        route = [relative(repo, p.strip()) for p in message.partition(":")[2].split("->")]
        hops = set(itertools.pairwise(route))
        if not hops & reads:
            return False
    return bool(messages)


def explain_upstream(rule: str, path: str, closed: bool = False) -> str:
    """Why filid does not report an upstream error: ``not-implemented`` (a rule id filid does
    not have), ``test-file`` (filid never judges test files), ``cycle-via-case-c`` (a cycle one
    of whose hops is a child reading its parent's file, which filid reports as an
    ``external-import-boundary`` case (c) finding and leaves out of cycles, as it does
    type-only imports), ``cycle`` (check by hand) or UNEXPLAINED."""
    from filid.rules.catalogue import RULE_IDS, canonical_rule_id
    from filid.scan.classify import is_test_file

    if canonical_rule_id(rule) not in RULE_IDS:
        return "not-implemented"
    if is_test_file(path):
        return "test-file"
    if rule == "circular-dependency":
        return "cycle-via-case-c" if closed else "cycle"
    return "UNEXPLAINED"


def main() -> int:
    """Run both tools and print the agreement tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--server", type=Path, required=True)
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--json", type=Path, help="write both tools' raw results here")
    parser.add_argument("--filid", help="the filid executable (default: beside this Python)")
    parser.add_argument(
        "--upstream-json",
        type=Path,
        help="reuse the upstream results a previous --json wrote instead of starting the server",
    )
    args = parser.parse_args()
    repo = args.repo.resolve()
    exe = args.filid or shutil.which("filid") or str(Path(sys.executable).with_name("filid"))
    if args.upstream_json:
        saved = json.loads(args.upstream_json.read_text(encoding="utf-8"))
        theirs, their_nodes = saved["upstream"], saved["upstreamNodes"]
    else:
        with tempfile.TemporaryDirectory(prefix="filid-upstream-home-") as home:
            server = args.server.resolve()
            theirs, their_nodes = asyncio.run(upstream_results(server, repo, Path(home)))
    ours, our_nodes, notes = filid_results(exe, repo)
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "upstream": theirs,
                    "filid": ours,
                    "upstreamNodes": their_nodes,
                    "filidNodes": our_nodes,
                },
                indent=1,
            )
        )
    print(f"repository: {repo}")
    for note in notes:
        print(f"filid note: {note}")

    up_errors = collections.Counter(
        (str(v.get("ruleId")), upstream_path(repo, v))
        for v in theirs
        if v.get("severity") == "error"
    )
    ours_by_key: dict[Key, list[dict[str, Any]]] = collections.defaultdict(list)
    for v in ours:
        if v["severity"] == "error":
            ours_by_key[(v["ruleId"], node_path(v["path"]))].append(v)
    our_errors = collections.Counter({k: len(vs) for k, vs in ours_by_key.items()})
    both = up_errors & our_errors
    only_ours = our_errors - up_errors
    only_theirs = up_errors - our_errors
    up_other = collections.Counter(
        str(v.get("ruleId")) for v in theirs if v.get("severity") != "error"
    )
    our_other = collections.Counter(v["ruleId"] for v in ours if v["severity"] != "error")

    rules = sorted(
        {r for r, _ in up_errors} | {r for r, _ in our_errors} | set(up_other) | set(our_other)
    )

    def per_rule(counter: collections.Counter[Key], rule: str) -> int:
        return sum(n for (r, _), n in counter.items() if r == rule)

    print(
        "\n| rule | errors upstream | errors filid | both | filid only | upstream only "
        "| other upstream | other filid |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for rule in rules:
        cells = [per_rule(c, rule) for c in (up_errors, our_errors, both, only_ours, only_theirs)]
        cells += [up_other[rule], our_other[rule]]
        print(f"| {rule} | " + " | ".join(str(c) for c in cells) + " |")
    totals = [sum(c.values()) for c in (up_errors, our_errors, both, only_ours, only_theirs)]
    totals += [sum(up_other.values()), sum(our_other.values())]
    print("| total | " + " | ".join(str(c) for c in totals) + " |")
    covered = totals[2] / totals[0] if totals[0] else 1.0
    print(f"\nupstream errors that are filid findings: {totals[2]}/{totals[0]} ({covered:.1%})")

    tags: collections.Counter[str] = collections.Counter()
    lines: list[str] = []
    for (rule, path), n in sorted(only_ours.items()):
        # Upstream names no line, so which of a file's findings pair with upstream's is open:
        # the ones upstream cannot see (alias, cycle) are taken as the filid-only ones first.
        ranked = sorted(ours_by_key[(rule, path)], key=lambda v: explain(v) != "UNEXPLAINED")
        for v in ranked[-n:]:
            tag = explain(v)
            tags[tag] += 1
            line = (v.get("location") or {}).get("line", "?")
            lines.append(f"  [{tag}] {rule} {path}:{line}: {v['message'][:240]}")
    summary = ", ".join(f"{t} {n}" for t, n in sorted(tags.items())) or "none"
    print(f"\nerrors only filid reports ({sum(only_ours.values())}: {summary}):")
    print("\n".join(lines))
    reads = parent_reads(ours)
    their_tags: collections.Counter[str] = collections.Counter()
    their_lines: list[str] = []
    for (rule, path), n in sorted(only_theirs.items()):
        messages = [
            str(v.get("message"))
            for v in theirs
            if v.get("severity") == "error"
            and (str(v.get("ruleId")), upstream_path(repo, v)) == (rule, path)
        ]
        tag = explain_upstream(rule, path, closed_by_parent_read(repo, messages, reads))
        their_tags[tag] += n
        their_lines.append(f"  [{tag}] {rule} {path}" + (f" x{n}" if n > 1 else ""))
    summary = ", ".join(f"{t} {n}" for t, n in sorted(their_tags.items())) or "none"
    print(f"\nerrors only upstream reports ({sum(only_theirs.values())}: {summary}):")
    print("\n".join(their_lines))

    shared = sorted(set(their_nodes) & set(our_nodes))
    equal = [p for p in shared if their_nodes[p] == our_nodes[p]]
    share = len(equal) / len(shared) if shared else 1.0
    print(
        f"\nfolder classification: {len(equal)}/{len(shared)} equal ({share:.1%}); "
        f"folders only upstream lists {len(set(their_nodes) - set(our_nodes))}, "
        f"only filid lists {len(set(our_nodes) - set(their_nodes))}"
    )
    for path in shared:
        if their_nodes[path] != our_nodes[path]:
            print(f"  {path}: upstream {their_nodes[path]}, filid {our_nodes[path]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
