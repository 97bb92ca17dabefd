"""Where filid keeps its caches: a per-user folder outside every work tree.

The cache used to live in ``<root>/.filid/cache``, where a pull request could commit one (a
forged parse cache that says "no imports", a planted marshal bomb, a symbolic link that makes
filid write elsewhere). Now it lives in ``$FILID_CACHE_DIR``, else ``$XDG_CACHE_HOME/filid``,
else ``~/.cache/filid``, one folder per project named by the hash of the project root's real
path. ``None`` means "no cache this run" (nothing writable or nothing trusted): never an
error.

One rule for everything persisted (caches, the fix journal, the signing secret): filid trusts
a folder only when

- it is a real folder (not a link) owned by the current user, with no permission for group or
  others (mode 0700), at every level from the cache root down to the project's folder — a
  shared ``FILID_CACHE_DIR``/``XDG_CACHE_HOME`` (a ``/tmp`` path, a shared CI box) that another
  user created, or could write, is ignored with a one-line note on stderr;
- it lies outside every work tree that contains the project: not only outside the project
  root but outside every enclosing folder with a ``.git`` entry (a project in a sub-folder of a
  checkout whose cache root lies elsewhere in the checkout would read what a pull request
  committed there).

A folder owned by the user and writable by nobody else (say 0755, made by ``mkdir -p``) is
tightened to 0700 rather than refused: nobody else could have put anything in it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
from pathlib import Path

__all__ = [
    "cache_root",
    "cache_root_trusted",
    "ensure_private_directory",
    "is_private_file",
    "project_cache_dir",
    "project_cache_path",
    "scratch_parent",
    "trusted_directory",
    "trusted_project_dir",
]

_NOTED: set[str] = set()


def cache_root() -> Path:
    """The per-user cache root (not created)."""
    explicit = os.environ.get("FILID_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser().absolute()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "filid"


def _note(path: Path, reason: str) -> None:
    """One line on stderr, once per folder and process: why a cache folder is not used."""
    key = f"{path}\0{reason}"
    if key in _NOTED:
        return
    _NOTED.add(key)
    from filid.model.escape import visible

    with contextlib.suppress(Exception):
        sys.stderr.write(
            f"filid: ignoring the cache folder {visible(str(path))}: {reason} "
            "(set FILID_CACHE_DIR to a private folder)\n"
        )
        sys.stderr.flush()


def _own_uid() -> int | None:
    return os.geteuid() if hasattr(os, "geteuid") else None


def _untrusted_reason(info: os.stat_result) -> str | None:
    """Why a folder with this ``lstat`` cannot hold what filid trusts, or None."""
    if not stat.S_ISDIR(info.st_mode):
        return "it is not a real folder"
    uid = _own_uid()
    if uid is not None and info.st_uid != uid:
        return f"it belongs to another user (uid {info.st_uid})"
    if stat.S_IMODE(info.st_mode) & 0o022:
        return f"others can write in it (mode {stat.S_IMODE(info.st_mode):04o})"
    return None


def is_private_file(info: os.stat_result) -> bool:
    """Whether a file with this ``stat`` is one filid wrote for this user (the signing
    secret, a fix journal): owned by the user, no permission for group or others."""
    uid = _own_uid()
    return (uid is None or info.st_uid == uid) and not stat.S_IMODE(info.st_mode) & 0o077


def trusted_directory(path: Path, *, tighten: bool = True, note: bool = True) -> bool:
    """True when ``path`` is a real folder of this user that nobody else can write; with
    ``tighten``, such a folder that others can read or enter is made 0700."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    reason = _untrusted_reason(info)
    if reason is not None:
        if note:
            _note(path, reason)
        return False
    if tighten and stat.S_IMODE(info.st_mode) & 0o077:
        try:
            os.chmod(path, 0o700, follow_symlinks=False)
        except (OSError, NotImplementedError):
            return False
    return True


def ensure_private_directory(path: Path) -> bool:
    """Create ``path`` (0700) if needed; True when it is a trusted folder of this user (see
    :func:`trusted_directory`)."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return False
    return trusted_directory(path)


def cache_root_trusted(*, create: bool) -> bool:
    """True when the cache root is (after creating it, with ``create``) a trusted folder."""
    root = cache_root()
    if create:
        return ensure_private_directory(root)
    return trusted_directory(root, tighten=False)


def _enclosing_work_trees(real_root: str) -> list[str]:
    """``real_root`` and every folder above it that holds a ``.git`` entry, up to and
    including the first with a ``.git`` folder (a repository's own work tree; a ``.git``
    file marks a submodule or linked work tree, whose superproject's checkout contains it
    too). A separate repository further up (a home folder kept in git) does not contain the
    project's files, so a cache there is not refused."""
    trees = [real_root]
    current = real_root
    while True:
        marker = os.path.join(current, ".git")
        if os.path.lexists(marker):
            if current != real_root:
                trees.append(current)
            if os.path.isdir(marker) and not os.path.islink(marker):
                return trees
        parent = os.path.dirname(current)
        if parent == current:
            return trees
        current = parent


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def project_cache_path(root: Path) -> Path | None:
    """Where this project's cache folder is (nothing created or checked); None when the cache
    root lies inside the project or inside any work tree that contains it (a folder there
    could have been committed)."""
    base = cache_root()
    real_root = os.path.realpath(root)
    real_base = os.path.realpath(base)
    if any(_inside(real_base, tree) for tree in _enclosing_work_trees(real_root)):
        _note(base, "it lies inside a work tree that contains the project")
        return None  # a cache inside the work tree could have been committed
    key = hashlib.sha256(real_root.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return base / "projects" / key


def project_cache_dir(root: Path) -> Path | None:
    """This project's cache folder, created and checked; None when no cache can be kept."""
    directory = project_cache_path(root)
    if directory is None:
        return None
    base = directory.parent.parent
    for folder in (base, base / "projects", directory):
        if not ensure_private_directory(folder):
            return None
    return directory


def trusted_project_dir(root: Path) -> Path | None:
    """This project's cache folder when it exists and every level from the cache root down is
    trusted (nothing created, nothing tightened); None otherwise."""
    directory = project_cache_path(root)
    if directory is None or not os.path.lexists(directory):
        return None
    base = directory.parent.parent
    for folder in (base, base / "projects", directory):
        if not trusted_directory(folder, tighten=False):
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
