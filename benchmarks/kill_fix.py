"""Kill ``filid check --fix`` with SIGKILL at random moments; the next run must undo it.

Usage: ``.venv/bin/python benchmarks/kill_fix.py [--files N] [--kills K] [--seed S]``

The project is the synthetic monorepo of ``generate.py`` (its ``--fix`` rewrites imports
that reach past an entry point) plus copies of every fix fixture of ``tests/fixtures/fix``
under ``kill/<case>-<i>/`` (creates an index, rewrites imports, renames a folder, splits a
barrel, moves peer files into sub-folders: what ``--unsafe-fixes`` adds). For each mode
(``--fix`` and ``--unsafe-fixes``):

1. one uninterrupted run on a fresh copy gives the reference tree, its duration and the
   moment its journal first appears (the write phase);
2. each kill takes a fresh copy, starts the fix in a subprocess and SIGKILLs it — half of
   the kills at a uniform moment of the whole run, half at a uniform moment after the journal
   appeared (while files are being written);
3. then ``filid check`` (no fix) runs: its tree must be byte-identical (contents, modes,
   folders, links) to the tree before the killed run — or to the reference, when the killed
   run had already finished — with no ``*.filid-tmp*`` file and no journal left;
4. then the fix runs again: its tree must be byte-identical to the reference tree.

Any mismatch, leftover, or filid exit code 3 / traceback counts as an exception; the script
prints one table per mode and exits 1 if there was any. The work folder (default
``benchmarks/out/kill``) is recreated; it uses its own ``FILID_CACHE_DIR``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
FIXTURES = REPO / "tests" / "fixtures" / "fix"
MODES = {"fix": ("--fix",), "unsafe": ("--unsafe-fixes",)}

Snapshot = dict[str, tuple[str, bytes, int]]


def build_project(out: Path, files: int, seed: int, copies: int) -> Path:
    """Generate the monorepo into ``out`` and plant ``copies`` of every fix fixture."""
    if out.exists():
        shutil.rmtree(out)
    generator = [sys.executable, str(HERE / "generate.py")]
    subprocess.run(
        [*generator, "--files", str(files), "--out", str(out), "--seed", str(seed)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    for case in sorted(p for p in FIXTURES.iterdir() if (p / "before").is_dir()):
        for index in range(copies):
            shutil.copytree(case / "before", out / "kill" / f"{case.name}-{index}")
    # The rename and split fixes belong to rules that run only where the config enables them.
    (out / ".filid").mkdir(exist_ok=True)
    (out / ".filid" / "config.json").write_text(
        '{"rules": {"naming-convention": {"enabled": true},'
        ' "index-barrel-pattern": {"enabled": true}}}\n',
        encoding="utf-8",
    )
    return out


def snapshot(root: Path) -> Snapshot:
    """Every entry below ``root``: kind (file, dir, link), bytes (or link target), mode."""
    found: Snapshot = {}
    for folder, dirs, names in os.walk(root):
        for name in dirs + names:
            path = Path(folder, name)
            info = path.lstat()
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[rel] = ("link", os.readlink(path).encode(), 0)
            elif path.is_dir():
                found[rel] = ("dir", b"", info.st_mode & 0o7777)
            else:
                found[rel] = ("file", path.read_bytes(), info.st_mode & 0o7777)
    return found


def difference(left: Snapshot, right: Snapshot) -> str:
    """A short description of how two snapshots differ ("" when identical)."""
    if left == right:
        return ""
    only_left = sorted(set(left) - set(right))
    only_right = sorted(set(right) - set(left))
    changed = sorted(p for p in set(left) & set(right) if left[p] != right[p])
    parts = []
    for label, paths in (("missing", only_left), ("extra", only_right), ("changed", changed)):
        if paths:
            parts.append(f"{len(paths)} {label} (e.g. {paths[0]})")
    return ", ".join(parts)


def journal_path(cache: Path, root: Path) -> Path:
    """Where filid keeps the fix journal of ``root`` (filid.store.location, mirrored)."""
    key = hashlib.sha256(os.path.realpath(root).encode("utf-8", "surrogateescape")).hexdigest()
    return cache / "projects" / key[:32] / "fix-journal"


def leftovers(root: Path) -> list[str]:
    """Temporary files of a fix anywhere below ``root``."""
    return sorted(
        str(Path(folder, name).relative_to(root))
        for folder, _dirs, names in os.walk(root)
        for name in names
        if ".filid-tmp" in name
    )


@dataclass(frozen=True)
class Run:
    returncode: int
    stderr: str


def filid(args: Sequence[str], env: dict[str, str], timeout: float = 600) -> Run:
    done = subprocess.run(
        [sys.executable, "-m", "filid", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=timeout,
    )
    return Run(done.returncode, done.stderr)


def is_exception(run: Run) -> bool:
    return run.returncode not in (0, 1) or "Traceback" in run.stderr


@dataclass(frozen=True)
class Reference:
    tree: Snapshot
    duration: float
    journal_at: float


def reference_run(base: Path, work: Path, mode: str, env: dict[str, str], cache: Path) -> Reference:
    """An uninterrupted fix on a fresh copy: its tree, duration and first journal moment."""
    copy = work / f"reference-{mode}"
    shutil.copytree(base, copy, symlinks=True)
    journal = journal_path(cache, copy)
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "filid", "check", str(copy), "--no-progress", "-q", *MODES[mode]],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    journal_at = 0.0
    while process.poll() is None:
        if not journal_at and journal.exists():
            journal_at = time.monotonic() - started
        time.sleep(0.001)
    duration = time.monotonic() - started
    _, stderr = process.communicate()
    if process.returncode not in (0, 1):
        raise SystemExit(f"reference {mode} run failed ({process.returncode}): {stderr!r}")
    return Reference(snapshot(copy), duration, journal_at or duration * 0.5)


@dataclass(frozen=True)
class Kill:
    number: int
    mode: str
    aimed: str
    at_ms: int
    phase: str
    restored: bool
    before_ok: str
    tree: str
    half_applied: int
    temporaries_at_kill: int
    refix_ok: str
    temporaries: int
    journal_left: bool
    exception: bool

    @property
    def passed(self) -> bool:
        return (
            not self.before_ok
            and not self.refix_ok
            and not self.temporaries
            and not self.journal_left
            and not self.exception
        )


def kill_once(
    number: int,
    base: Path,
    pre: Snapshot,
    reference: Reference,
    mode: str,
    work: Path,
    env: dict[str, str],
    cache: Path,
    rng: random.Random,
) -> Kill:
    """One fresh copy, one fix killed at a random moment, one check, one re-run of the fix."""
    copy = work / f"kill-{mode}-{number:02d}"
    shutil.copytree(base, copy, symlinks=True)
    journal = journal_path(cache, copy)
    in_write = number % 2 == 1
    # stderr to a file, not a pipe: a child the killed filid left behind could hold a pipe
    # open and block the read.
    log = work / f"kill-{mode}-{number:02d}.stderr"
    command = [sys.executable, "-m", "filid", "check", str(copy), "--no-progress", "-q"]
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [*command, *MODES[mode]],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    started = time.monotonic()
    seen = False
    if in_write:
        while process.poll() is None and not journal.exists():
            time.sleep(0.0005)
        window = max(reference.duration - reference.journal_at, 0.01)
        deadline = time.monotonic() + rng.uniform(0, window)
    else:
        deadline = started + rng.uniform(0, reference.duration)
    while process.poll() is None and time.monotonic() < deadline:
        seen = seen or journal.exists()
        time.sleep(0.0005)
    at_ms = int((time.monotonic() - started) * 1000)
    finished = process.poll() is not None
    writing = journal.exists()
    seen = seen or writing or in_write
    if not finished:
        os.kill(process.pid, signal.SIGKILL)
    process.wait()
    # The tree the kill left, before any filid command touched it: how half-applied it is.
    at_kill = snapshot(copy)
    half_applied = sum(
        1 for p in set(pre) | set(at_kill) if pre.get(p) != at_kill.get(p) and ".filid-tmp" not in p
    )
    temporaries_at_kill = len(leftovers(copy))
    killed_stderr = log.read_text("utf-8", "replace")
    log.unlink()
    exception = finished and (process.returncode not in (0, 1) or "Traceback" in killed_stderr)
    if finished:
        phase = "finished"
    elif writing:
        phase = "writing"
    else:
        phase = "after commit" if seen else "before writes"

    check = filid(["check", str(copy), "--no-progress", "-q"], env)
    exception = exception or is_exception(check)
    restored = "restored" in check.stderr
    after = snapshot(copy)
    temporaries = len(leftovers(copy))
    journal_left = journal.exists()
    # Before the commit point the tree must be exactly the one before the run; after it
    # (killed while re-validating or exiting) exactly the fixed one.
    before_ok = difference(pre, after)
    if before_ok and not difference(reference.tree, after) and phase != "writing":
        before_ok = ""
        phase = "after commit" if phase != "finished" else phase

    refix = filid(["check", str(copy), "--no-progress", "-q", *MODES[mode]], env)
    exception = exception or is_exception(refix)
    refix_ok = difference(reference.tree, snapshot(copy))
    temporaries += len(leftovers(copy))
    shutil.rmtree(copy)
    return Kill(
        number=number,
        mode=mode,
        aimed="in write phase" if in_write else "anywhere",
        at_ms=at_ms,
        phase=phase,
        restored=restored,
        before_ok=before_ok,
        tree="= fixed" if not difference(reference.tree, after) else "= before",
        half_applied=half_applied,
        temporaries_at_kill=temporaries_at_kill,
        refix_ok=refix_ok,
        temporaries=temporaries,
        journal_left=journal_left,
        exception=exception,
    )


def render(kills: Sequence[Kill], reference: Reference, mode: str, changed: int) -> str:
    flag = " ".join(MODES[mode])
    lines = [
        f"### filid check {flag}: {len(kills)} kills "
        f"(uninterrupted: {reference.duration:.2f} s, journal from {reference.journal_at:.2f} s, "
        f"{changed} paths differ from the tree before)",
        "",
        "| # | aimed | killed at ms | phase | paths changed at kill | tmp files at kill"
        " | restore notice | tree after check | tree after re-fix | tmp files after"
        " | journal left | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for kill in kills:
        lines.append(
            f"| {kill.number} | {kill.aimed} | {kill.at_ms} | {kill.phase} "
            f"| {kill.half_applied} | {kill.temporaries_at_kill} "
            f"| {'yes' if kill.restored else 'no'} "
            f"| {kill.before_ok or kill.tree} | {kill.refix_ok or 'identical'} "
            f"| {kill.temporaries} | {'yes' if kill.journal_left else 'no'} "
            f"| {'ok' if kill.passed else 'EXCEPTION'} |"
        )
    writing = sum(k.phase == "writing" for k in kills)
    half = sum(k.half_applied > 0 and k.phase == "writing" for k in kills)
    restored = sum(k.restored for k in kills)
    failed = sum(not k.passed for k in kills)
    lines += [
        "",
        f"{len(kills)} kills, {writing} while writing ({half} left a half-applied tree), "
        f"{restored} restore notices, {failed} exception(s).",
        "",
    ]
    return "\n".join(lines)


def run_kills(
    work: Path,
    files: int,
    kills: int,
    seed: int,
    copies: int,
    modes: Sequence[str],
) -> tuple[str, int]:
    """Build the project under ``work``, kill each mode ``kills`` times; (report, failures)."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    cache = work / "cache"
    env = {**os.environ, "FILID_CACHE_DIR": str(cache), "NO_COLOR": "1"}
    env.pop("FILID_DEBUG", None)
    base = build_project(work / "base", files, seed, copies)
    pre = snapshot(base)
    rng = random.Random(seed)
    report: list[str] = [
        f"project: {sum(1 for v in pre.values() if v[0] == 'file')} files "
        f"({files} generated + {copies} copies of each fix fixture), seed {seed}",
        "",
    ]
    failures = 0
    for mode in modes:
        reference = reference_run(base, work, mode, env, cache)
        changed = len(set(pre) ^ set(reference.tree)) + sum(
            1 for p in set(pre) & set(reference.tree) if pre[p] != reference.tree[p]
        )
        results = [
            kill_once(n, base, pre, reference, mode, work, env, cache, rng)
            for n in range(1, kills + 1)
        ]
        failures += sum(not k.passed for k in results)
        report.append(render(results, reference, mode, changed))
    return "\n".join(report), failures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=5000, help="generated source files")
    parser.add_argument("--kills", type=int, default=20, help="kills per mode (>= 20)")
    parser.add_argument("--copies", type=int, default=10, help="copies of each fix fixture")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--modes", default="fix,unsafe", help="fix, unsafe or both")
    parser.add_argument("--work", type=Path, default=HERE / "out" / "kill")
    args = parser.parse_args(argv)
    report, failures = run_kills(
        args.work.resolve(),
        args.files,
        args.kills,
        args.seed,
        args.copies,
        [m for m in args.modes.split(",") if m],
    )
    print(report)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
