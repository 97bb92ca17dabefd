"""``--diff``: exactly what the same command without ``--diff`` would write.

A fix run makes passes until nothing more applies (a fix can enable another: a created entry
point makes a deep import rewritable). So the preview does the real run on a scratch copy of
the project — every file under the root except ``.git`` and the directories filid never
reads (``node_modules``…), in a fresh git repository so that ``.gitignore`` rules hold there
too — and prints the difference between the project and the copy: unified diffs with
``a/``/``b/`` prefixes, ``/dev/null`` for created and removed files, and git rename headers for
files moved unchanged, so that ``git apply`` gives the tree the run would give.

Dot folders other than ``.filid`` and anything that is not a regular file or a symbolic link
(a FIFO, a socket) are not copied.

The copy goes to memory-backed ``/dev/shm`` when it exists and the project is small enough,
else to the usual temporary folder; symbolic links are copied as links, never followed.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from filid.fix.apply import file_diff, rename_header
from filid.scan.universe import EXCLUDED_DIRECTORIES
from filid.store.location import scratch_parent

__all__ = ["diff_trees", "preview_run"]

T = TypeVar("T")


def _files(root: Path) -> Iterator[tuple[str, os.stat_result]]:
    """Every entry to copy: (root-relative POSIX path, lstat) of regular files and symbolic
    links. Folders filid never reads are left out — ``.git``, ``node_modules``… and every
    dot folder but ``.filid`` (a ``.cache`` or ``.next`` can be huge) — and so is anything
    that is neither a file nor a link (a FIFO or socket cannot be copied, nor needs to be)."""
    stack = [root]
    while stack:
        current = stack.pop()
        with os.scandir(current) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    name = entry.name
                    if name in EXCLUDED_DIRECTORIES or (name.startswith(".") and name != ".filid"):
                        continue
                    stack.append(Path(entry.path))
                    continue
                info = entry.stat(follow_symlinks=False)
                if not (stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode)):
                    continue
                yield Path(entry.path).relative_to(root).as_posix(), info


def preview_run(root: Path, run: Callable[[Path], T]) -> tuple[T, str]:
    """Call ``run`` on a scratch copy of ``root``; return its result and the diff from
    ``root`` to the copy as ``run`` left it (the copy is removed afterwards)."""
    listed = list(_files(root))
    size = sum(info.st_size for _, info in listed)
    with tempfile.TemporaryDirectory(prefix="filid-diff-", dir=scratch_parent(size)) as tmp:
        copy = Path(tmp) / "project"
        copy.mkdir()
        for rel, _stat in listed:
            target = copy / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / rel, target, follow_symlinks=False)
        subprocess.run(["git", "init", "-q"], cwd=copy, capture_output=True, check=False)
        result = run(copy)
        return result, diff_trees(root, copy, [rel for rel, _ in listed])


def diff_trees(before: Path, after: Path, paths: list[str]) -> str:
    """The unified diff from ``before`` to ``after`` over ``paths`` and any new file."""
    original = {p: _read(before / p) for p in paths}
    current = {rel: _read(after / rel) for rel, _ in _files(after) if not rel.startswith(".git/")}
    changed = sorted(p for p in set(original) | set(current) if original.get(p) != current.get(p))
    removed = [p for p in changed if p not in current]
    created = [p for p in changed if p not in original]
    renamed: dict[str, str] = {}
    for destination in created:
        for source in removed:
            if source not in renamed.values() and original[source] == current[destination]:
                renamed[destination] = source
                break
    out: list[str] = []
    for path in changed:
        if path in renamed.values():
            continue  # shown at its destination
        if path in renamed:
            out.append(rename_header(renamed[path], path, similarity=100))
            continue
        out.extend(file_diff(path, original.get(path), current.get(path)))
    return "".join(out)


def _read(path: Path) -> bytes | None:
    try:
        if path.is_symlink():
            return os.readlink(path).encode("utf-8", "surrogateescape")
        return path.read_bytes()
    except OSError:
        return None
