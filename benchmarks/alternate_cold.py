"""Two filid builds' cold checks, alternated run by run on one tree, beside the parse floor.

On a shared machine the load moves from minute to minute; alternating the builds run by run
compares them under the same load (``alternate.py`` does the same for the pre-commit rows).
Per run: the parse floor (``parse_floor.py``), then ``filid check . --format json --no-cache
--fail-on never`` of each build, in the order before/after (after/before on odd runs). Prints
per build the median, min and max wall time, the median CPU (user+sys of filid, its parse
workers and git, from ``wait4``) and the largest peak resident size (``ru_maxrss`` of the
largest child), and cold / floor on the medians. Both builds' JSON reports are compared on
every run (the ``timestamp`` line left out): a difference stops the run.

    python benchmarks/alternate_cold.py TREE --before EXE --after EXE [--runs 4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def timed(command: list[str], cwd: Path) -> tuple[float, float, float, bytes]:
    """Run ``command``; (wall s, CPU s of it and its children, peak MB, stdout)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = process.stdout.read() if process.stdout is not None else b""
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{command[0]}: exit {code}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--runs", type=int, default=4)
    args = parser.parse_args()
    root = args.tree.resolve()
    builds = {"before": args.before, "after": args.after}
    check = ["check", ".", "--format", "json", "--no-cache", "--fail-on", "never"]
    floor = [sys.executable, str(HERE / "parse_floor.py"), str(root)]
    found: dict[str, list[tuple[float, float, float]]] = {"floor": [], **{b: [] for b in builds}}
    for number in range(args.runs):
        wall, cpu, peak, _ = timed(floor, root)
        found["floor"].append((wall, cpu, peak))
        order = list(builds) if number % 2 == 0 else list(builds)[::-1]
        reports: dict[str, list[bytes]] = {}
        for build in order:
            wall, cpu, peak, out = timed([builds[build], *check], root)
            found[build].append((wall, cpu, peak))
            reports[build] = [line for line in out.splitlines() if b'"timestamp"' not in line]
            print(f"run {number + 1} {build:6s} wall {wall:.2f} s, CPU {cpu:.2f} s", flush=True)
        if reports["before"] != reports["after"]:
            raise SystemExit(f"run {number + 1}: the two builds' reports differ")
    load = os.getloadavg()
    print(f"{root.name}: {args.runs} runs, alternating; load average now {load[0]:.2f}")
    medians = {}
    for name, rows in found.items():
        walls = [r[0] for r in rows]
        medians[name] = statistics.median(walls)
        print(
            f"  {name:6s} wall median {medians[name]:.2f} s (min {min(walls):.2f}, "
            f"max {max(walls):.2f}), CPU median {statistics.median(r[1] for r in rows):.2f} s, "
            f"peak {max(r[2] for r in rows):.0f} MB"
        )
    for build in builds:
        print(f"  {build} cold / floor (medians): {medians[build] / medians['floor']:.2f}")
    print("  reports identical in every run (timestamp line aside)")


if __name__ == "__main__":
    main()
