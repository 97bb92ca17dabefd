"""The locks a fix holds, and the descriptors a forked child must not keep.

A running fix holds the project's ``fix.lock`` (in its per-user cache folder) with ``flock``:
a second fix on the same project is refused, and a journal whose lock is free belongs to an
interrupted run. Fixes on nested project roots write the same files under separate journals,
so a fix also takes :func:`nesting_locks`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from pathlib import Path

from filid.model.errors import FixError
from filid.store.location import cache_root, ensure_private_directory

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no flock, one fix at a time by convention
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "LOCK_NAME",
    "close_private",
    "keep_private",
    "nesting_locks",
    "open_project_lock",
    "try_lock",
]

LOCK_NAME = "fix.lock"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# File descriptors of open locks and journals: a forked child (a parse worker) must not keep
# them. A child that outlived a killed fix would otherwise hold the fix lock, and the next
# command would take the interrupted journal for a live one.
_PRIVATE_FDS: set[int] = set()


def _close_private_fds() -> None:
    for handle in list(_PRIVATE_FDS):
        with contextlib.suppress(OSError):
            os.close(handle)
    _PRIVATE_FDS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_private_fds)


def keep_private(handle: int) -> None:
    """Close ``handle`` in every child this process forks from now on."""
    _PRIVATE_FDS.add(handle)


def close_private(handle: int) -> None:
    """Close a descriptor registered with :func:`keep_private`."""
    _PRIVATE_FDS.discard(handle)
    os.close(handle)


def _open_lock_file(path: Path) -> int:
    """Open (creating it 0600, never through a link) the lock file ``path``."""
    handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | _NOFOLLOW, 0o600)
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise OSError(f"{path}: not a regular file")
    keep_private(handle)
    return handle


def open_project_lock(directory: Path) -> int:
    """Open the fix lock of the project whose cache folder is ``directory`` (not locked)."""
    return _open_lock_file(directory / LOCK_NAME)


def try_lock(handle: int) -> bool:
    """Take the exclusive lock on ``handle`` without waiting; False when another holds it."""
    if fcntl is None:  # pragma: no cover
        return True
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def nesting_locks(root: Path) -> list[int]:
    """Locks that keep fixes on nested roots apart: exclusive on ``root``'s folder, shared on
    each folder above it. A fix on ``/p`` and one on ``/p/web`` write the same files under
    separate journals; with these, the second to start is refused (siblings may run)."""
    directory = cache_root() / "locks"
    if not ensure_private_directory(directory):
        raise FixError(f"cannot keep the fix locks in {directory}")
    held: list[int] = []
    try:
        folder = str(root)
        exclusive = True
        while True:
            name = hashlib.sha256(folder.encode("utf-8", "surrogateescape")).hexdigest()[:32]
            handle = _open_lock_file(directory / f"{name}.lock")
            held.append(handle)
            if fcntl is not None:
                try:
                    fcntl.flock(
                        handle, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB
                    )
                except BlockingIOError:
                    where = "a folder inside it" if exclusive else folder
                    raise FixError(
                        f"another filid fix is running on {where} (fixes on nested project "
                        f"roots cannot run at once); try again when it ends"
                    ) from None
            exclusive = False
            parent = os.path.dirname(folder)
            if parent == folder:
                return held
            folder = parent
    except BaseException:
        for handle in held:
            close_private(handle)
        raise
