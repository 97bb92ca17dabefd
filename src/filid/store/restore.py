"""Putting a project back as a fix journal's records say it was before the run.

Every step is idempotent (restoring a file that was never changed is a no-op), so a crash
during a restore is recovered by the next one the same way. Restoring never clobbers work: a
file is put back only when it holds either its content before the run or a content the run
gave it; anything else (someone edited it after the crash) is left alone and reported. Paths
come from a journal, so each is confined to the project root, never followed through a link.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from filid.store.files import (
    MODE_MASK,
    TEMPORARY_SUFFIX,
    UnsafePathError,
    read_regular_file,
    replace_atomically,
)

__all__ = ["MAX_JOURNAL_BYTES", "Recovery", "real_folder", "restore_records", "sha256_hex"]

MAX_JOURNAL_BYTES = 4 * 1024 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Recovery:
    """What restoring an interrupted fix did: files put back, and what it could not do."""

    restored: tuple[str, ...]
    problems: tuple[str, ...]


def sha256_hex(content: bytes) -> str:
    """The hex SHA-256 of ``content``."""
    return hashlib.sha256(content).hexdigest()


def _confined(root: Path, path: str) -> Path:
    """``root/path`` for a journal path, refusing escapes and links on the way."""
    pure = PurePosixPath(path)
    parts = path.split("/")
    if not path or pure.is_absolute() or ("\\" in path and os.sep != "/") or "\x00" in path:
        raise UnsafePathError(f"{path!r}: not a root-relative path")
    if any(part in ("", ".", "..") for part in parts):
        raise UnsafePathError(f"{path!r}: not a root-relative path")
    if any(part.lower().rstrip(". ") == ".git" for part in parts):
        raise UnsafePathError(f"{path!r}: filid never writes inside .git")
    current = root
    for part in parts[:-1]:
        current = current / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            break
        if not stat.S_ISDIR(info.st_mode):
            raise UnsafePathError(f"{path}: {current.relative_to(root)} is not a folder")
    return root.joinpath(*parts)


def real_folder(root: Path, folder: str) -> Path:
    """The real folder ``root/folder`` (``""`` is the root); UnsafePathError otherwise."""
    if not folder:
        return root
    target = _confined(root, folder)
    if not stat.S_ISDIR(os.lstat(target).st_mode):
        raise UnsafePathError(f"{folder}: not a folder")
    return target


def _state(target: Path) -> tuple[str | None, int]:
    """(digest or None when absent, mode) of a file; raises UnsafePathError for the rest."""
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return None, 0
    if not stat.S_ISREG(info.st_mode):
        raise UnsafePathError(f"{target}: not a regular file")
    return sha256_hex(read_regular_file(target, MAX_JOURNAL_BYTES)), stat.S_IMODE(info.st_mode)


def _write_back(target: Path, content: bytes, mode: int) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_atomically(target, content, mode)


def _remove_temporaries(root: Path, paths: Sequence[str]) -> None:
    """Remove ``.<name>.*.filid-tmp`` files a killed write left beside the journal's paths."""
    names_by_folder: dict[str, set[str]] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        names_by_folder.setdefault(folder, set()).add(name)
    for folder, names in sorted(names_by_folder.items()):
        try:
            base = real_folder(root, folder)
            entries = os.listdir(base)
        except (OSError, UnsafePathError):
            continue
        for entry in entries:
            if not entry.startswith(".") or TEMPORARY_SUFFIX not in entry:
                continue
            if any(entry.startswith(f".{name}.") for name in names):
                with contextlib.suppress(OSError):
                    if stat.S_ISREG(os.lstat(base / entry).st_mode):
                        os.unlink(base / entry)


def _depth(path: str) -> int:
    return path.count("/")


def restore_records(root: Path, records: Sequence[dict[str, object]]) -> Recovery:
    """Put every file and folder the records name back into its state before the run."""
    before: dict[str, tuple[bytes | None, int]] = {}
    allowed: dict[str, set[str | None]] = {}
    first_dir: dict[str, str] = {}
    dir_modes: dict[str, int] = {}
    problems: list[str] = []
    for record in records:
        kind = record.get("t")
        path = record.get("path")
        if not isinstance(path, str):
            continue
        if kind == "file":
            if path not in before:
                encoded = record.get("before")
                content = base64.b64decode(encoded) if isinstance(encoded, str) else None
                mode = record.get("mode")
                mode = mode if isinstance(mode, int) else 0o644
                before[path] = (content, mode & MODE_MASK)
                allowed[path] = {sha256_hex(content) if content is not None else None}
            new = record.get("new")
            allowed[path].add(new if isinstance(new, str) else None)
        elif kind in ("mkdir", "rmdir"):
            first_dir.setdefault(path, kind)
            mode = record.get("mode")
            if kind == "rmdir" and isinstance(mode, int):
                dir_modes.setdefault(path, mode & MODE_MASK)
    # Folders the run removed come back first, shallowest first, so their files can return.
    for path in sorted((p for p, k in first_dir.items() if k == "rmdir"), key=_depth):
        try:
            target = _confined(root, path)
            if not os.path.lexists(target):
                target.mkdir(mode=dir_modes.get(path, 0o755))
        except (OSError, UnsafePathError) as error:
            problems.append(f"cannot recreate folder {path}: {error}")
    restored: list[str] = []
    for path in sorted(before):
        content, mode = before[path]
        try:
            target = _confined(root, path)
            current, current_mode = _state(target)
            wanted = sha256_hex(content) if content is not None else None
            if current == wanted:
                if content is not None and current_mode != mode:
                    os.chmod(target, mode, follow_symlinks=False)
                    restored.append(path)
                continue
            if current not in allowed[path]:
                problems.append(f"{path} changed after the interrupted fix; left as it is")
                continue
            if content is None:
                os.unlink(target)
            else:
                _write_back(target, content, mode)
            restored.append(path)
        except (OSError, UnsafePathError) as error:
            problems.append(f"cannot restore {path}: {error}")
    _remove_temporaries(root, sorted(before))
    for path in sorted((p for p, k in first_dir.items() if k == "mkdir"), key=_depth, reverse=True):
        try:
            target = _confined(root, path)
            if os.path.isdir(target) and not os.path.islink(target):
                target.rmdir()
        except OSError as error:
            problems.append(f"cannot remove folder {path} the fix created: {error.strerror}")
        except UnsafePathError as error:
            problems.append(f"cannot remove folder {path} the fix created: {error}")
    return Recovery(restored=tuple(restored), problems=tuple(problems))
