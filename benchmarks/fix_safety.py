"""Do ``--unsafe-fixes`` keep a real project compiling and its framework paths in place?

For each repository (a git work tree; it is cloned into a scratch folder, never changed):

1. ``tsc --noEmit`` on every ``tsconfig.json`` of the project (through a wrapper config that
   sets ``"types": []`` and ``noEmit``, since node_modules are not installed), errors counted
   per error code;
2. ``filid check --diff --unsafe-fixes`` on a second clone, applied with ``git apply``;
3. ``filid check --unsafe-fixes`` on the first clone, then tsc again: the counts per code must
   be the same as before; no route file, migration, or path a ``package.json`` or tool config
   names may have moved or disappeared (checked here independently of filid's own rules, by
   path patterns and by searching the configs' text); a second run must change nothing; the
   ``git apply``'d clone must equal the fixed clone.

Usage: ``python benchmarks/fix_safety.py REPO [REPO...]`` (needs ``tests/node`` installed:
``npm install --prefix tests/node``). Prints one table row per repository; exit 1 if any
check fails.

With dependencies installed (``--installed``), the repository's own checks are the judges:

``python benchmarks/fix_safety.py --installed DIR --install CMD --typecheck CMD --test CMD
--format CMD``

works in place on the git work tree ``DIR`` (it must be clean; it is reset with ``git
checkout``/``git clean`` after each phase, ignored files such as ``node_modules`` are kept):
``--install`` runs once (e.g. ``npx -y pnpm@10 install --frozen-lockfile --filter ai...``),
then the type check, the test command and the formatter check run before any fix, after
``filid check --fix`` and after ``filid check --unsafe-fixes``. Each command runs with
``sh -c`` in ``DIR``. The type check must report exactly the errors it did before (compared
as (code, message) pairs: ``error TS…`` lines, so that a moved file's errors still match);
the test command the same exit code and summary line; the formatter check, run on the files
the fix wrote (the command gets them appended) before and after, no file failing that did
not fail before. After ``--unsafe-fixes`` no framework special file, tool configuration or
file a ``package.json`` script, Dockerfile or Procfile names may have moved (checked here by
name, independently of filid's own rules). Prints a Markdown table, one row per phase.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TSC = REPO / "tests" / "node" / "node_modules" / ".bin" / "tsc"
FILID = [sys.executable, "-m", "filid"]
WRAPPER = "tsconfig.filid-safety.json"
_ERROR = re.compile(r"error (TS\d+):")
_ROUTE = re.compile(r"(^|/)(pages|app|routes)/|(^|/)[\[(@+]|(^|/)_(app|document)\.")
_MIGRATION = re.compile(r"(^|/)migrations?/|(^|/)\d{8,}")
_CONFIG = re.compile(r"(^|/)([^/]+\.config\.[^/]+|tsconfig[^/]*\.json|package\.json)$")


def _run(args: list[str], cwd: Path, check: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=check)


def _tsconfigs(root: Path) -> list[Path]:
    listed = _run(["git", "ls-files", "-z", "--", "*tsconfig.json"], root).stdout
    return [root / p for p in sorted(listed.split("\0")) if p.endswith("tsconfig.json")]


def tsc_errors(root: Path) -> Counter[str]:
    """Error counts per code over every tsconfig.json of ``root``."""
    counts: Counter[str] = Counter()
    for config in _tsconfigs(root):
        wrapper = config.parent / WRAPPER
        wrapper.write_text(
            json.dumps(
                {
                    "extends": "./tsconfig.json",
                    # node_modules are not installed: no ambient types, and a jsx mode of
                    # its own (a base config from a package, e.g. @docusaurus/tsconfig, that
                    # would set it is missing), the same before and after the fix
                    "compilerOptions": {
                        "types": [],
                        "noEmit": True,
                        "incremental": False,
                        "jsx": "preserve",
                    },
                }
            ),
            encoding="utf-8",
        )
        try:
            done = _run([str(TSC), "-p", str(wrapper)], config.parent)
        finally:
            wrapper.unlink()
        counts.update(_ERROR.findall(done.stdout))
    return counts


def _tree(root: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(".git/") or rel == ".git" or not path.is_file() or path.is_symlink():
            continue
        files[rel] = path.read_bytes()
    return files


def _moved_away(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    return sorted(set(before) - set(after))


def _protected(paths: list[str], tree: dict[str, bytes]) -> list[str]:
    """The paths that are routes, migrations, or named by a manifest or tool config."""
    configs = [text.decode("utf-8", "replace") for rel, text in tree.items() if _CONFIG.search(rel)]
    hits = []
    for path in paths:
        stem = re.sub(r"\.(d\.)?[cm]?[jt]sx?$", "", path)
        named = any(path in c or (stem != path and f"{stem}'" in c) for c in configs)
        if _ROUTE.search(path) or _MIGRATION.search(path) or named:
            hits.append(path)
    return hits


def check(repo: Path, scratch: Path) -> tuple[list[str], list[str]]:
    """Figures and failures for one repository."""
    name = repo.name
    fixed = scratch / f"{name}-fixed"
    previewed = scratch / f"{name}-diff"
    for target in (fixed, previewed):
        _run(["git", "clone", "-q", str(repo), str(target)], scratch, check=True)
    before_tree = _tree(fixed)
    before = tsc_errors(fixed)
    diff = _run([*FILID, "check", ".", "--diff", "--unsafe-fixes", "--no-progress"], previewed)
    patch = scratch / f"{name}.patch"
    patch.write_text(diff.stdout, encoding="utf-8")
    applied = _run(["git", "apply", "--allow-empty", str(patch)], previewed)
    first = _run([*FILID, "check", ".", "--unsafe-fixes", "--no-progress", "-q"], fixed)
    after_tree = _tree(fixed)
    after = tsc_errors(fixed)
    second = _run([*FILID, "check", ".", "--unsafe-fixes", "--no-progress", "-q"], fixed)
    changed = sorted(
        p for p in set(before_tree) | set(after_tree) if before_tree.get(p) != after_tree.get(p)
    )
    moved = _moved_away(before_tree, after_tree)
    touched_protected = _protected(moved, before_tree)
    failures: list[str] = []
    if before != after:
        codes = sorted(set(before) | set(after))
        delta = {c: (before[c], after[c]) for c in codes if before[c] != after[c]}
        failures.append(f"tsc error counts changed: {delta}")
    if touched_protected:
        failures.append(f"protected paths moved: {touched_protected[:5]}")
    second_changed = _tree(fixed) != after_tree
    if second_changed:
        failures.append(f"the second run changed files (exit {second.returncode})")
    if applied.returncode != 0:
        failures.append(f"git apply failed: {applied.stderr.strip()[:200]}")
    elif _tree(previewed) != after_tree:
        differing = sorted(
            p
            for p in set(_tree(previewed)) | set(after_tree)
            if _tree(previewed).get(p) != after_tree.get(p)
        )
        failures.append(f"--diff applied differs from the run in {len(differing)} files: "
                        f"{differing[:5]}")  # fmt: skip
    figures = [
        name,
        str(len(before_tree)),
        str(sum(before.values())),
        ", ".join(f"{c}: {n}" for c, n in sorted(before.items())[:6]) or "-",
        str(sum(after.values())),
        str(len(changed)),
        str(len(moved)),
        str(first.returncode),
        "yes" if second_changed else "no",
        str(len(diff.stdout.splitlines())),
    ]
    return figures, failures


_TS_ERROR = re.compile(r"error (TS\d+): (.*)$", re.MULTILINE)
_TEST_SUMMARY = re.compile(r"^\s*Tests?:?\s+.*\d+ (?:passed|failed).*$", re.MULTILINE)
_SPECIAL_STEMS = frozenset(
    {
        "middleware", "proxy", "instrumentation", "instrumentation-client", "mdx-components",
        "hooks", "hooks.server", "hooks.client", "service-worker", "entry.client",
        "entry.server", "entry-client", "entry-server", "gatsby-config",
        "gatsby-node", "gatsby-browser", "gatsby-ssr",
    }
)  # fmt: skip
_FAILED_TEST = re.compile("^\\s*(?:FAIL|\u00d7|\u2717)\\s+(.+)$", re.MULTILINE)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass
class Outcome:
    """One phase's results."""

    phase: str
    type_errors: Counter[tuple[str, str]]
    type_exit: int
    test_exit: int
    test_summary: str
    format_new: list[str]
    changed: list[str]
    moved: list[str]
    protected_moved: list[str]
    seconds: float


def _shell(command: str, cwd: Path, extra: list[str] | None = None) -> tuple[int, str]:
    if not command:
        return 0, ""
    args = command + "".join(f" {shlex.quote(a)}" for a in extra or [])
    done = subprocess.run(
        ["sh", "-c", args], cwd=cwd, capture_output=True, text=True, check=False, timeout=3600
    )
    return done.returncode, _ANSI.sub("", done.stdout + done.stderr)


def _git_changes(root: Path) -> tuple[list[str], list[str]]:
    """(paths written, created or removed; paths removed) since HEAD, untracked included."""
    status = _run(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"], root).stdout
    changed: list[str] = []
    removed: list[str] = []
    for entry in status.split("\0"):
        if len(entry) < 4:
            continue
        code, path = entry[:2], entry[3:]
        changed.append(path)
        if "D" in code:
            removed.append(path)
    return sorted(changed), sorted(removed)


def _named_by_processes(root: Path) -> str:
    """The text of every package.json script, Dockerfile and Procfile of the work tree."""
    texts: list[str] = []
    listed = _run(["git", "ls-files", "-z"], root).stdout.split("\0")
    for rel in listed:
        name = rel.rpartition("/")[2]
        if name == "package.json":
            try:
                data = json.loads((root / rel).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            scripts = data.get("scripts") if isinstance(data, dict) else None
            if isinstance(scripts, dict):
                texts.extend(str(v) for v in scripts.values())
        elif name.startswith("Dockerfile") or name.endswith("Dockerfile") or name == "Procfile":
            with contextlib.suppress(OSError):
                texts.append((root / rel).read_text(encoding="utf-8", errors="replace"))
    return "\n".join(texts)


def _at_package_top(root: Path, path: str) -> bool:
    """Whether ``path`` lies in a package's folder or its ``src/``/``app/`` (where frameworks
    look for their special files)."""
    folder = Path(path).parent
    if (root / folder / "package.json").is_file():
        return True
    return folder.name in ("src", "app") and (root / folder.parent / "package.json").is_file()


def _protected_by_name(root: Path, paths: list[str], process_text: str) -> list[str]:
    hits = []
    for path in paths:
        name = path.rpartition("/")[2]
        stem = re.sub(r"\.(d\.)?[cm]?[jt]sx?$", "", name)
        if (
            (stem in _SPECIAL_STEMS and _at_package_top(root, path))
            or ".config." in name
            or re.search(rf"(^|[\s/'\"]){re.escape(name)}($|[\s'\"])", process_text)
        ):
            hits.append(path)
    return hits


def _format_failures(command: str, root: Path, files: list[str]) -> set[str]:
    """The files of ``files`` (existing ones) the formatter check rejects."""
    present = [f for f in files if (root / f).is_file() and re.search(r"\.[cm]?[jt]sx?$", f)]
    if not command or not present:
        return set()
    code, _ = _shell(command, root, present)
    if code == 0:
        return set()
    return {f for f in present if _shell(command, root, [f])[0] != 0}


def _phase(root: Path, phase: str, args: argparse.Namespace, process_text: str) -> Outcome:
    started = time.monotonic()
    changed: list[str] = []
    removed: list[str] = []
    format_new: list[str] = []
    if phase != "before":
        flag = "--fix" if phase == "--fix" else "--unsafe-fixes"
        _run([*FILID, "check", ".", flag, "--no-progress", "-q", "--exit-zero"], root)
        changed, removed = _git_changes(root)
        fixed_fail = _format_failures(args.format, root, changed)
        _run(["git", "stash", "push", "-q", "--include-untracked"], root)
        before_fail = _format_failures(args.format, root, changed)
        _run(["git", "stash", "pop", "-q"], root)
        format_new = sorted(fixed_fail - before_fail)
    type_exit, type_out = _shell(args.typecheck, root)
    test_exit, test_out = _shell(args.test, root)
    summary = _TEST_SUMMARY.findall(test_out)
    for failing in sorted(set(_FAILED_TEST.findall(test_out)))[:5]:
        print(f"  ({phase}) failing test: {failing.strip()}", file=sys.stderr)
    protected = _protected_by_name(root, removed, process_text) if phase != "before" else []
    return Outcome(
        phase=phase,
        type_errors=Counter(_TS_ERROR.findall(type_out)),
        type_exit=type_exit,
        test_exit=test_exit,
        test_summary=" ".join(summary[-1].split()) if summary else "-",
        format_new=format_new,
        changed=changed,
        moved=removed,
        protected_moved=protected,
        seconds=time.monotonic() - started,
    )


def _reset(root: Path) -> None:
    _run(["git", "checkout", "-q", "--", "."], root, check=True)
    _run(["git", "clean", "-fdq"], root, check=True)


def installed(args: argparse.Namespace) -> int:
    """The ``--installed`` benchmark (see the module docstring)."""
    root = Path(args.installed).resolve()
    if _git_changes(root)[0]:
        print(f"{root} has uncommitted changes; commit or stash them first", file=sys.stderr)
        return 2
    if args.install:
        code, out = _shell(args.install, root)
        if code != 0:
            print(f"install failed ({code}):\n{out[-2000:]}", file=sys.stderr)
            return 2
    process_text = _named_by_processes(root)
    outcomes = [_phase(root, "before", args, process_text)]
    for phase in ("--fix", "--unsafe-fixes"):
        try:
            outcomes.append(_phase(root, phase, args, process_text))
        finally:
            _reset(root)
    base = outcomes[0]
    header = [
        "phase", "files changed", "files moved away", "type errors", "same errors",
        "test exit", "tests", "new format failures", "special/script files moved", "seconds",
    ]  # fmt: skip
    print(f"{root.name} (filid {_version()})")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    failed = False
    for outcome in outcomes:
        same = outcome.type_errors == base.type_errors and outcome.type_exit == base.type_exit
        tests_same = outcome.test_exit == base.test_exit and (
            outcome.test_summary == base.test_summary
        )
        row = [
            outcome.phase,
            str(len(outcome.changed)),
            str(len(outcome.moved)),
            f"{sum(outcome.type_errors.values())} (exit {outcome.type_exit})",
            "yes" if same else "NO",
            str(outcome.test_exit),
            outcome.test_summary.replace("|", "/") + ("" if tests_same else " (CHANGED)"),
            str(len(outcome.format_new)),
            str(len(outcome.protected_moved)),
            f"{outcome.seconds:.0f}",
        ]
        print("| " + " | ".join(row) + " |")
        problems = []
        if not same:
            new = sorted((outcome.type_errors - base.type_errors).elements())
            problems.append(f"type errors differ: {new[:5]}")
        if not tests_same:
            problems.append(f"tests differ: {outcome.test_summary!r} vs {base.test_summary!r}")
        if outcome.format_new:
            problems.append(f"newly unformatted: {outcome.format_new[:5]}")
        if outcome.protected_moved:
            problems.append(f"special or script-named files moved: {outcome.protected_moved[:5]}")
        for problem in problems:
            failed = True
            print(f"  FAIL {outcome.phase}: {problem}")
    return 1 if failed else 0


def _version() -> str:
    return _run([*FILID, "--version"], REPO).stdout.strip().rpartition(" ")[2] or "?"


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--installed":
        parser = argparse.ArgumentParser(description="fix safety with installed dependencies")
        parser.add_argument("--installed", required=True)
        parser.add_argument("--install", default="")
        parser.add_argument("--typecheck", default="")
        parser.add_argument("--test", default="")
        parser.add_argument("--format", default="")
        return installed(parser.parse_args())
    repos = [Path(arg).resolve() for arg in sys.argv[1:]]
    if not repos or not TSC.exists():
        print(__doc__)
        return 2
    header = [
        "repository", "files", "tsc errors before", "by code (first)", "after", "files changed",
        "files moved away", "fix exit", "2nd run fixed", "diff lines",
    ]  # fmt: skip
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    failed = False
    with tempfile.TemporaryDirectory(prefix="filid-fix-safety-") as tmp:
        for repo in repos:
            figures, failures = check(repo, Path(tmp))
            print("| " + " | ".join(figures) + " |")
            for failure in failures:
                failed = True
                print(f"  FAIL {repo.name}: {failure}")
            shutil.rmtree(Path(tmp) / f"{repo.name}-fixed", ignore_errors=True)
            shutil.rmtree(Path(tmp) / f"{repo.name}-diff", ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
