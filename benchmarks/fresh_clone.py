"""Two filid builds on fresh clones with the cache folder carried over (a CI job's run).

A CI job checks out the repository afresh (every file gets a new modification time) and may
restore filid's cache folder from the previous job. This clones TREE (a git repository, say
``generate.py --git`` output) into one fixed path per build (the cache folder is per
project path, as a CI runner's checkout path is fixed), primes each build's own
``FILID_CACHE_DIR`` with one check, then per run and build, alternating the order:

- ``fresh-same``: delete the clone, clone the same commit again, ``filid check`` it;
- ``warm``: ``filid check`` the same clone again (nothing changed);
- ``fresh-next``: delete the clone, clone a commit that rewords a comment in one file;
  ``filid check`` it;
- ``fresh-back``: the same, back at the first commit.

Each clone is left ``--settle`` seconds (default 2.5) before the check, as the job's set-up
steps would: files younger than two seconds are never trusted by their stat data. Prints the
median, min and max wall time and the median CPU (user+sys of filid and its git children)
per row and build, plus the median ``git clone`` time for context.

    python benchmarks/fresh_clone.py TREE --before EXE --after EXE [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from alternate import report, timed_run

GIT = ["git", "-c", "user.name=b", "-c", "user.email=b@b", "-c", "commit.gpgsign=false"]


def _next_commit(source: Path, scratch: Path) -> str:
    """A commit on top of TREE's HEAD, in a scratch clone, rewording one source file's
    comment; returns the scratch repository's branch name ``next`` (cloned from there)."""
    subprocess.run(["git", "clone", "-q", str(source), str(scratch)], check=True)
    listed = subprocess.run(
        ["git", "ls-files", "*.ts"], cwd=scratch, capture_output=True, text=True, check=True
    ).stdout.split()
    target = scratch / listed[len(listed) // 2]
    target.write_bytes(target.read_bytes() + b"\n// reworded in the next commit\n")
    subprocess.run([*GIT, "checkout", "-qb", "next"], cwd=scratch, check=True)
    subprocess.run([*GIT, "commit", "-qam", "next"], cwd=scratch, check=True)
    subprocess.run([*GIT, "checkout", "-q", "--detach"], cwd=scratch, check=True)
    return "next"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--settle", type=float, default=2.5)
    args = parser.parse_args()
    source = args.tree.resolve()
    builds = {"before": args.before, "after": args.after}
    scratch = Path(tempfile.mkdtemp(prefix="filid-fresh-clone-"))
    origin = scratch / "origin"
    branch = _next_commit(source, origin)
    env = dict(os.environ)
    clone_times: list[float] = []

    def clone(build: str, ref: str | None) -> Path:
        target = scratch / f"clone-{build}"
        shutil.rmtree(target, ignore_errors=True)
        started = time.perf_counter()
        extra = ["--branch", ref] if ref else []
        subprocess.run(["git", "clone", "-q", *extra, str(origin), str(target)], check=True)
        clone_times.append(time.perf_counter() - started)
        time.sleep(args.settle)
        return target

    def timed(build: str, target: Path) -> tuple[float, float]:
        command = [builds[build], "check", "--no-progress", "--fail-on", "never", str(target)]
        return timed_run(command, {**env, "FILID_CACHE_DIR": str(scratch / f"cache-{build}")})

    rows = ("fresh-same", "warm", "fresh-next", "fresh-back")
    found: dict[tuple[str, str], list[tuple[float, float]]] = {
        (row, build): [] for row in rows for build in builds
    }
    try:
        for build in builds:  # prime each build's cache on the first commit
            timed(build, clone(build, None))
        for number in range(args.runs):
            order = list(builds) if number % 2 == 0 else list(builds)[::-1]
            for build in order:
                target = clone(build, None)
                found[("fresh-same", build)].append(timed(build, target))
                found[("warm", build)].append(timed(build, target))
            for build in order:
                found[("fresh-next", build)].append(timed(build, clone(build, branch)))
            for build in order:
                found[("fresh-back", build)].append(timed(build, clone(build, None)))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(
        f"{source.name}: {args.runs} runs per build, alternating; "
        f"git clone median {statistics.median(clone_times):.2f} s (not included)"
    )
    report(rows, builds, found, 11)


if __name__ == "__main__":
    main()
