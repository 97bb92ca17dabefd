"""What the file system says about the paths a fix plans: whether a new path would drop out of
the project's file universe (an excluded folder, a git-ignored path), and every file a folder
rename must carry."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

from filid.config.model import Config
from filid.fix.candidate import NotFixable
from filid.scan.universe import EXCLUDED_DIRECTORIES, is_excluded, is_ignored_root

__all__ = ["dropped_paths", "folder_contents"]

# A folder rename carries every file in it; past this many it is refused (a build or
# dependency folder inside, most likely).
_MAX_RENAME_FILES = 2000


def dropped_paths(root: Path, config: Config, paths: Iterable[str]) -> dict[str, str]:
    """The new paths that would not be part of the file universe, with the reason.

    A file created or moved under an excluded directory name, or where git ignores it,
    would silently drop out of the project (and out of every import's reach).
    """
    excluded = EXCLUDED_DIRECTORIES | frozenset(config.structure.excluded_directories)
    wanted = sorted(set(paths))
    dropped = {
        p: "it would lie in an excluded directory" for p in wanted if is_excluded(p, excluded)
    }
    rest = [p for p in wanted if p not in dropped]
    if rest and not is_ignored_root(root):
        try:
            done = subprocess.run(
                ["git", "check-ignore", "-z", "--stdin"],
                cwd=root,
                input=b"\0".join(p.encode("utf-8") for p in rest) + b"\0",
                capture_output=True,
                check=False,
                timeout=120,
            )
        except (OSError, subprocess.SubprocessError):
            done = None
        # Exit 0: some paths are ignored; 1: none; anything else: not a git work tree.
        if done is not None and done.returncode == 0:
            for raw in done.stdout.split(b"\0"):
                if raw:
                    dropped[raw.decode("utf-8")] = "git would ignore it (.gitignore)"
    return dropped


def folder_contents(root: Path, folder: str) -> list[str]:
    """Every file in ``folder`` on disk, dot files and git-ignored ones included (a rename
    must carry them all). Refused when it holds a symbolic link or anything but regular
    files and folders, which a move could not carry faithfully."""
    found: list[str] = []
    base = root / folder
    stack = [base]
    while stack:
        current = stack.pop()
        try:
            entries = list(os.scandir(current))
        except OSError as error:
            raise NotFixable(f"cannot list {folder}: {error.strerror}") from error
        for entry in entries:
            rel = Path(entry.path).relative_to(root).as_posix()
            if entry.is_symlink():
                raise NotFixable(f"{folder} holds a symbolic link ({rel})")
            if entry.is_dir(follow_symlinks=False):
                stack.append(Path(entry.path))
            elif entry.is_file(follow_symlinks=False):
                found.append(rel)
            else:
                raise NotFixable(f"{folder} holds {rel}, which is not a regular file")
            if len(found) > _MAX_RENAME_FILES:
                raise NotFixable(f"{folder} holds more than {_MAX_RENAME_FILES} files")
    return sorted(found)
