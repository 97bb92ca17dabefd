"""Reading and writing files without trusting what a repository placed on the path.

A pull request can commit a symbolic link where filid will write (``filid.sarif`` pointing
at the next step's script), a FIFO or ``/dev/zero`` where filid will read, or a huge file.
These primitives refuse all of it:

- :func:`write_file_atomically` writes a temporary file created exclusively next to the
  target and renames it over the target. ``rename`` replaces a symbolic link instead of
  following it, and the target is refused anyway when it exists as a link or a non-regular
  file; with ``append`` the file is opened with ``O_APPEND | O_NOFOLLOW``. Parent folders
  below ``confine`` that are links are refused too.
- :func:`replace_atomically` is the fix's write: a fsynced temporary file (named with
  ``TEMPORARY_SUFFIX``, so a restore can remove a leftover) renamed over the target, with a
  mode never above ``MODE_MASK``. The fix checks each target before (``replace_refusal``).
- :func:`read_regular_file` opens with ``O_NOFOLLOW | O_NONBLOCK``, checks with ``fstat``
  that it is a regular file no larger than the cap, and reads at most that much;
  :func:`read_regular_range` does the same checks and reads one range of it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from filid.model.errors import InputError

__all__ = [
    "UnsafePathError",
    "read_regular_file",
    "read_regular_file_with_stat",
    "read_regular_range",
    "replace_atomically",
    "replace_refusal",
    "write_file_atomically",
]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
# The suffix of every temporary file an atomic write creates: a restore recognises leftovers.
TEMPORARY_SUFFIX = ".filid-tmp"
# A file or folder a fix writes or restores gets at most rwx for its owner and r-x for the
# rest: never the setuid, setgid or sticky bits, never write permission for group or others.
MODE_MASK = 0o755


class UnsafePathError(InputError):
    """A path filid will not read or write: a symbolic link, a non-regular file, too large."""


def _check_parents(target: Path, confine: Path | None) -> None:
    """Refuse when a folder between ``confine`` (exclusive) and ``target`` is a link."""
    if confine is None:
        return
    try:
        relative = target.parent.relative_to(confine)
    except ValueError:
        return
    current = confine
    for part in relative.parts:
        current = current / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return
        if stat.S_ISLNK(info.st_mode):
            raise UnsafePathError(f"{current}: refusing to write through a symbolic link")


def replace_refusal(path: str | os.PathLike[str]) -> str | None:
    """Why an existing file must not be rewritten or removed by a fix (``"it is read-only"``),
    or None when it may.

    An atomic write replaces the directory entry: it would silently succeed over a read-only
    file (only the folder's permission counts) and would split a hard link into two files, so
    the other names keep the old content. Both are refused rather than done behind the user's
    back; so are links and non-regular files. An absent file is no reason to refuse.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"it cannot be inspected ({error.strerror})"
    if stat.S_ISLNK(info.st_mode):
        return "it is a symbolic link"
    if not stat.S_ISREG(info.st_mode):
        return "it is not a regular file"
    if info.st_nlink > 1:
        return (
            f"it has {info.st_nlink} hard links; replacing it would leave the other names "
            "with the old content"
        )
    # The owner's write bit, not os.access: as root, access() says every file is writable.
    if not info.st_mode & stat.S_IWUSR or not os.access(path, os.W_OK, follow_symlinks=False):
        return "it is read-only"
    return None


def write_file_atomically(
    path: str | os.PathLike[str],
    data: bytes,
    *,
    append: bool = False,
    confine: Path | None = None,
    mode: int = 0o644,
) -> None:
    """Write ``data`` to ``path`` without ever following a link or writing a non-regular file.

    ``confine`` (usually the working directory or the project root) is the folder below
    which every parent must be a real folder. Raises :class:`UnsafePathError` for a link or
    non-regular target, ``OSError`` for anything else that fails; a failed write leaves the
    old file untouched and no temporary file behind.
    """
    target = Path(os.path.abspath(path))
    _check_parents(target, confine)
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise UnsafePathError(f"{path}: refusing to write through a symbolic link")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise UnsafePathError(f"{path}: refusing to write: not a regular file")
    target.parent.mkdir(parents=True, exist_ok=True)
    if append:
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW
        handle = os.open(target, flags, mode)
        try:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                raise UnsafePathError(f"{path}: refusing to write: not a regular file")
            os.write(handle, data)
        finally:
            os.close(handle)
        return
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=TEMPORARY_SUFFIX, dir=target.parent
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode if info is None else stat.S_IMODE(info.st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def replace_atomically(target: Path, content: bytes, mode: int) -> None:
    """Write ``content`` with ``mode`` to ``target`` through a fsynced temporary file beside
    it (named so a restore recognises a leftover), then rename it over ``target``."""
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=TEMPORARY_SUFFIX
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode & MODE_MASK)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _open_regular(path: str | os.PathLike[str], max_bytes: int) -> tuple[int, os.stat_result]:
    """An open read-only descriptor of a regular file of at most ``max_bytes`` and its
    ``fstat``, never through a link (the caller closes it). Raises as
    :func:`read_regular_file` does."""
    try:
        handle = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    except OSError as error:
        if error.errno == errno.ELOOP:  # O_NOFOLLOW met a link
            raise UnsafePathError(
                f"{os.fsdecode(path)}: refusing to read a symbolic link"
            ) from None
        raise
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafePathError(f"{os.fsdecode(path)}: not a regular file")
        if info.st_size > max_bytes:
            raise UnsafePathError(f"{os.fsdecode(path)}: larger than {max_bytes} bytes")
    except BaseException:
        os.close(handle)
        raise
    return handle, info


def read_regular_file(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``, never read through a link.

    Raises :class:`UnsafePathError` for a link, a non-regular file or a file over the cap,
    ``FileNotFoundError``/``OSError`` when it cannot be opened.
    """
    return read_regular_file_with_stat(path, max_bytes)[0]


def read_regular_file_with_stat(
    path: str | os.PathLike[str], max_bytes: int
) -> tuple[bytes, os.stat_result]:
    """:func:`read_regular_file` plus the ``fstat`` of the file that was read."""
    handle, info = _open_regular(path, max_bytes)
    try:
        chunks: list[bytes] = []
        remaining = max_bytes + 1
        # Ask for the size fstat gave (plus one byte, to see the end): one read of exactly
        # that many bytes, not a 1 MiB buffer allocated and shrunk for every small file.
        size = info.st_size
        want = size + 1
        while remaining > 0:
            chunk = os.read(handle, min(remaining, max(want, 1 << 12)))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
            if len(chunk) == size and len(chunks) == 1:
                # a first read that stops at the size fstat gave, though asked for more, met
                # the end of the regular file: no second read to be told so
                break
        data = b"".join(chunks)
        if len(data) > max_bytes:
            raise UnsafePathError(f"{os.fsdecode(path)}: larger than {max_bytes} bytes")
        return data, info
    finally:
        os.close(handle)


def read_regular_range(
    path: str | os.PathLike[str], offset: int, length: int, max_bytes: int
) -> bytes:
    """At most ``length`` bytes at ``offset`` of a regular file of at most ``max_bytes``,
    never read through a link (fewer when the file ends first).

    Raises as :func:`read_regular_file` does.
    """
    handle, _ = _open_regular(path, max_bytes)
    try:
        chunks: list[bytes] = []
        wanted = max(0, min(length, max_bytes - offset))
        if wanted:
            os.lseek(handle, offset, os.SEEK_SET)  # not pread: Windows has none
        while wanted > 0:
            chunk = os.read(handle, wanted)
            if not chunk:
                break
            chunks.append(chunk)
            wanted -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(handle)
