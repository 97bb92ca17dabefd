"""Two filid builds, alternated run by run on one tree: the pre-commit rows that edit imports.

On a shared machine the load moves between two ``run.py`` sessions; alternating the builds
run by run (each with its own ``FILID_CACHE_DIR``, so neither clobbers the other's staged
state) compares them under the same load. Per run, each build checks, in the order
before/after (after/before on odd runs):

- ``staged-imports``: ``run.py``'s imports-edited edit (its two import lines in turn),
  staged, then ``filid check --staged`` as the hook runs it;
- ``work-imports``: the same content, ``filid check . FILE`` (the work-tree row);
- ``staged-import-dropped``: the original with a comment line, staged (the import is
  dropped again), ``filid check --staged``;
- ``staged-comment``: another comment line instead, staged: only the text changed, the
  ``run.py`` row "--staged, one file" (the early cutoff).

Prints the median, min and max wall time and the median CPU (user+sys of filid and its git
children) per row and build. The file is restored (and staged) afterwards.

    python benchmarks/alternate.py TREE --before EXE --after EXE [--runs 4]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run


def timed_run(
    command: list[str], env: dict[str, str], cwd: Path | None = None
) -> tuple[float, float]:
    """Run ``command`` (filid, exit 0 or 1 expected) and return (wall s, CPU s of children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command[0]}: exit {done.returncode}: {done.stderr[-300:]!r}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def report(
    rows: tuple[str, ...],
    builds: dict[str, str],
    found: dict[tuple[str, str], list[tuple[float, float]]],
    width: int,
) -> None:
    """Print each row's wall median (min, max) and CPU median, build by build."""
    for row in rows:
        for build in builds:
            walls = [wall for wall, _ in found[(row, build)]]
            cpus = [cpu for _, cpu in found[(row, build)]]
            print(
                f"  {row:{width}s} {build:6s} wall median {statistics.median(walls):.2f} s "
                f"(min {min(walls):.2f}, max {max(walls):.2f}), "
                f"CPU median {statistics.median(cpus):.2f} s"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--runs", type=int, default=4)
    args = parser.parse_args()
    root = args.tree.resolve()
    builds = {"before": args.before, "after": args.after}
    target = run.make_target("alternate", root)
    lines = run.import_edits(root, target.one_file)
    path = root / target.one_file
    original = path.read_bytes()
    caches = Path(tempfile.mkdtemp(prefix="filid-alternate-"))
    env = dict(os.environ)

    def stage(content: bytes) -> None:
        path.write_bytes(content)
        subprocess.run(["git", "add", "--", target.one_file], cwd=root, check=True)

    def timed(build: str, command: list[str]) -> tuple[float, float]:
        cache = {**env, "FILID_CACHE_DIR": str(caches / build)}
        return timed_run([builds[build], *command], cache, root)

    staged = ["check", "--no-progress", "--staged", "--fail-on", "never", ".", "--"]
    staged.append(target.one_file)
    work = ["check", ".", target.one_file, "--fail-on", "never"]
    rows = ("staged-imports", "staged-import-dropped", "staged-comment", "work-imports")
    found: dict[tuple[str, str], list[tuple[float, float]]] = {
        (row, build): [] for row in rows for build in builds
    }
    try:
        stage(original)
        for build in builds:  # prime each build's caches on the committed content
            timed(build, staged)
            timed(build, work)
        for number in range(args.runs):
            order = list(builds) if number % 2 == 0 else list(builds)[::-1]
            stage(original + lines[number % 2].encode() + b"\n")
            for build in order:
                found[("staged-imports", build)].append(timed(build, staged))
            for build in order:
                found[("work-imports", build)].append(timed(build, work))
            stage(original + f"\n// filid benchmark edit {number}\n".encode())
            for build in order:
                found[("staged-import-dropped", build)].append(timed(build, staged))
            stage(original + f"\n// filid benchmark edit {number}, again\n".encode())
            for build in order:
                found[("staged-comment", build)].append(timed(build, staged))
    finally:
        stage(original)
        # the two builds' caches of a 50k tree take hundreds of MB: never leave them behind
        shutil.rmtree(caches, ignore_errors=True)
    print(f"{root.name}: {target.one_file}, {args.runs} runs per build, alternating")
    report(rows, builds, found, 22)


if __name__ == "__main__":
    main()
