"""Agreement of filid's file-level import graph with dependency-cruiser on one repository.

Usage: python benchmarks/agreement.py REPO [--depcruise PATH] [--samples N]

Runs ``depcruise --output-type json`` (tsconfig-aware when REPO/tsconfig.json exists) and
``filid graph REPO --level file --format json``, keeps the local edges between source files
both tools could see, and prints how many edges both found, only filid found, and only
dependency-cruiser found, with samples of each difference (file, specifier) to explain them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_DEPCRUISE = HERE / "out" / "node" / "node_modules" / ".bin" / "depcruise"
SOURCE = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
SKIP_SEGMENTS = {"node_modules", "dist", "build", "coverage", "out"}

Edge = tuple[str, str]


def is_source(path: str) -> bool:
    """A source file both tools should look at (no declarations, no hidden/build folders)."""
    if not path.endswith(SOURCE) or path.endswith((".d.ts", ".d.mts", ".d.cts")):
        return False
    return not any(seg.startswith(".") or seg in SKIP_SEGMENTS for seg in path.split("/"))


def depcruise_edges(repo: Path, depcruise: Path) -> tuple[dict[Edge, str], float]:
    """Local edges (source → resolved file) with the specifier, and the run time."""
    command = [
        str(depcruise),
        "--no-config",
        "--output-type",
        "json",
        "--exclude",
        "(^|/)(node_modules|dist|build|coverage|out|\\.[^/]+)/",
        "--ts-pre-compilation-deps",
        "--do-not-follow",
        "node_modules",
    ]
    if (repo / "tsconfig.json").is_file():
        command += ["--ts-config", "tsconfig.json"]
    command.append(".")
    started = time.perf_counter()
    done = subprocess.run(command, cwd=repo, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if not done.stdout.strip():
        sys.exit(f"depcruise failed ({done.returncode}): {done.stderr[-2000:]}")
    data = json.loads(done.stdout)
    edges: dict[Edge, str] = {}
    for module in data["modules"]:
        source = module["source"]
        if not is_source(source):
            continue
        for dep in module.get("dependencies", []):
            target = dep.get("resolved", "")
            if dep.get("coreModule") or dep.get("couldNotResolve") or not is_source(target):
                continue
            edges.setdefault((source, target), dep.get("module", ""))
    return edges, elapsed


def filid_edges(repo: Path) -> tuple[dict[Edge, str], float]:
    """File-level edges from ``filid graph`` with the specifier, and the run time."""
    command = [sys.executable, "-m", "filid", "graph", str(repo), "--level", "file", "--no-cache"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"filid graph failed ({done.returncode}): {done.stderr[-2000:]}")
    edges: dict[Edge, str] = {}
    for edge in json.loads(done.stdout)["edges"]:
        if is_source(edge["from"]) and is_source(edge["to"]):
            edges.setdefault((edge["from"], edge["to"]), edge["specifier"] or "")
    return edges, elapsed


def kind_of(specifier: str) -> str:
    """A coarse class of specifier, to explain differences."""
    if specifier.startswith("."):
        return "relative"
    if specifier.startswith("/"):
        return "root-absolute"
    return "bare/aliased"


def main() -> None:
    """Run both tools and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("repo", type=Path)
    parser.add_argument("--depcruise", type=Path, default=DEFAULT_DEPCRUISE)
    parser.add_argument("--samples", type=int, default=8)
    args = parser.parse_args()
    repo = args.repo.resolve()
    cruised, cruise_time = depcruise_edges(repo, args.depcruise)
    ours, filid_time = filid_edges(repo)
    both = cruised.keys() & ours.keys()
    only_filid = sorted(ours.keys() - cruised.keys())
    only_cruise = sorted(cruised.keys() - ours.keys())
    print(f"repository: {repo}")
    print(f"dependency-cruiser: {len(cruised)} local edges in {cruise_time:.1f}s")
    print(f"filid:              {len(ours)} local edges in {filid_time:.1f}s")
    print(
        f"both: {len(both)}  only filid: {len(only_filid)}  "
        f"only dependency-cruiser: {len(only_cruise)}"
    )
    for title, edges, table in (
        ("only filid", only_filid, ours),
        ("only dependency-cruiser", only_cruise, cruised),
    ):
        kinds = Counter(kind_of(table[e]) for e in edges)
        print(f"\n{title}, by specifier kind: {dict(sorted(kinds.items()))}")
        for source, target in edges[: args.samples]:
            print(f"  {source} --'{table[(source, target)]}'--> {target}")


if __name__ == "__main__":
    main()
