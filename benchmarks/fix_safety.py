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
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
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


def main() -> int:
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
