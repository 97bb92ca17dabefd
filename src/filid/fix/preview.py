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

import contextlib
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
    ``root`` to the copy as ``run`` left it (the copy is removed afterwards).

    Each file is read once: the copy is written from those bytes, and the diff is taken
    against them, so a file that changes or vanishes in ``root`` meanwhile (an editor, a
    build watcher, git finishing a checkout) neither fails the preview nor shows up as a
    change the fix would make. The copy's git repository gets ``root``'s index, so that git
    lists and ignores there exactly what it does in ``root`` (a tracked file that a
    ``.gitignore`` pattern matches stays part of the project)."""
    listed = list(_files(root))
    size = sum(info.st_size for _, info in listed)
    with tempfile.TemporaryDirectory(
        prefix="filid-diff-", dir=scratch_parent(size), ignore_cleanup_errors=True
    ) as tmp:
        copy = Path(tmp) / "project"
        copy.mkdir()
        original: dict[str, bytes | None] = {}
        for rel, _stat in listed:
            content = _read(root / rel)
            if content is None:
                continue  # gone since it was listed
            original[rel] = content
            target = copy / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if (root / rel).is_symlink():
                os.symlink(os.readlink(root / rel), target)
            else:
                target.write_bytes(content)
                shutil.copystat(root / rel, target, follow_symlinks=False)
        subprocess.run(["git", "init", "-q"], cwd=copy, capture_output=True, check=False)
        _copy_index(root, copy)
        result = run(copy)
        return result, _diff(original, copy)


def _copy_index(root: Path, copy: Path) -> None:
    """Give the copy's fresh repository ``root``'s index (the list of tracked files), when
    ``root`` is the top of its work tree (an index names paths from there)."""
    done = subprocess.run(
        ["git", "rev-parse", "--show-prefix", "--path-format=absolute", "--git-path", "index"],
        cwd=root,
        capture_output=True,
        check=False,
    )
    lines = done.stdout.split(b"\n")
    if done.returncode != 0 or len(lines) < 2 or lines[0].strip():
        return
    index = Path(os.fsdecode(lines[1].strip()))
    with contextlib.suppress(OSError):
        shutil.copyfile(index, copy / ".git" / "index")


def diff_trees(before: Path, after: Path, paths: list[str]) -> str:
    """The unified diff from ``before`` to ``after`` over ``paths`` and any new file."""
    return _diff({p: _read(before / p) for p in paths}, after)


def _diff(original: dict[str, bytes | None], after: Path) -> str:
    """The unified diff from ``original`` (path → content) to the tree ``after``."""
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
