"""Where filid keeps its caches: a per-user folder outside every work tree.

The cache used to live in ``<root>/.filid/cache``, where a pull request could commit one (a
forged parse cache that says "no imports", a planted marshal bomb, a symbolic link that makes
filid write elsewhere). Now it lives in ``$FILID_CACHE_DIR``, else ``$XDG_CACHE_HOME/filid``,
else ``~/.cache/filid``, one folder per project named by the hash of the project root's real
path. Every folder on the way is created by filid with mode 0700 and checked to be a real
folder owned by the current user; a cache root inside the project is refused (the work tree
is never trusted). ``None`` means "no cache this run" (nothing writable): never an error.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

__all__ = ["cache_root", "project_cache_dir", "project_cache_path", "scratch_parent"]


def cache_root() -> Path:
    """The per-user cache root (not created)."""
    explicit = os.environ.get("FILID_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser().absolute()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "filid"


def _is_own_directory(path: Path) -> bool:
    info = os.lstat(path)
    owned = not hasattr(os, "geteuid") or info.st_uid == os.geteuid()
    return stat.S_ISDIR(info.st_mode) and owned


def ensure_private_directory(path: Path) -> bool:
    """Create ``path`` (0700) if needed; True when it is a real folder of this user."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        return _is_own_directory(path)
    except OSError:
        return False


def project_cache_path(root: Path) -> Path | None:
    """Where this project's cache folder is (nothing created or checked); None when the cache
    root lies inside the project (a folder there could have been committed)."""
    base = cache_root()
    real_root = os.path.realpath(root)
    real_base = os.path.realpath(base)
    if real_base == real_root or real_base.startswith(real_root.rstrip(os.sep) + os.sep):
        return None  # a cache inside the work tree could have been committed
    key = hashlib.sha256(real_root.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return base / "projects" / key


def project_cache_dir(root: Path) -> Path | None:
    """This project's cache folder, created and checked; None when no cache can be kept."""
    directory = project_cache_path(root)
    if directory is None:
        return None
    base = directory.parent.parent
    if not (ensure_private_directory(base) and ensure_private_directory(directory)):
        return None
    if not _is_own_directory(base / "projects"):
        return None
    return directory


_SHM = "/dev/shm"
_SHM_LIMIT = 256 * 1024 * 1024


def scratch_parent(size: int) -> str | None:
    """Where to put a private scratch copy of ``size`` bytes (``--new-since``'s old tree,
    ``--diff``'s trial run): memory-backed ``/dev/shm`` when it exists and the copy is small
    enough (creating thousands of files on a disk costs about a millisecond each), else
    ``None``, the usual temporary folder."""
    if size <= _SHM_LIMIT and os.path.isdir(_SHM) and os.access(_SHM, os.W_OK | os.X_OK):
        return _SHM
    return None
