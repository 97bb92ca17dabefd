"""The fix journal: what a fix run is about to change, on disk before the first byte changes.

A fix run is one transaction. Before each pass writes anything, the journal gains, for every
file the pass will write, create or remove, its content and mode before the run (or that it
did not exist) and the digest it will have, plus the folders the pass will create or remove;
the journal is fsynced before the first write. When the run ends well the journal is removed
(one ``unlink``, the commit point). When it does not — an exception, Ctrl-C, or a ``SIGKILL``
that gives filid no chance to clean up — the journal is still there, and the next filid
command on the project (every command reaches :func:`recover_interrupted_fix` through
:func:`filid.scan.universe.resolve_root`) puts every file and folder back as it was before the
run, removes the run's temporary files, says so on stderr, and only then reads the tree.

Where: ``<per-user cache>/projects/<hash of the project's real path>/fix-journal`` (see
:mod:`filid.store.location`), next to a ``fix.lock`` that a running fix holds with ``flock``.
Not ``<root>/.filid/``: restoring from a journal writes files, so a journal that a pull
request could commit into the work tree would let a read-only ``filid check`` in CI write any
file of the checkout. The cache folder is created by filid, 0700, owned by the user, outside
every work tree. A fix refuses to start when no such folder can be kept.

Format: one record per line, ``<sha256 of the JSON> <JSON>``. A torn or corrupt line ends the
journal; that is safe, because nothing a record describes is written before the record is
fsynced, and every restore step is idempotent (restoring a file that was never changed is a
no-op), so a crash during recovery is recovered by the next command the same way.

Restoring never clobbers work: a file is put back only when it holds either its content
before the run or a content the run gave it; anything else (someone edited it after the
crash) is left alone and reported.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import logging
import os
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from filid.model.errors import FixError, FixLocked
from filid.store.files import UnsafePathError, read_regular_file, read_regular_file_with_stat
from filid.store.location import (
    cache_root,
    ensure_private_directory,
    project_cache_dir,
    trusted_project_dir,
)

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no flock, one fix at a time by convention
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "TEMPORARY_SUFFIX",
    "FileChange",
    "FixJournal",
    "Recovery",
    "fix_transaction",
    "recover_interrupted_fix",
    "replace_atomically",
]

JOURNAL_NAME = "fix-journal"
LOCK_NAME = "fix.lock"
TEMPORARY_SUFFIX = ".filid-tmp"
_VERSION = 1
_MAX_JOURNAL_BYTES = 4 * 1024 * 1024 * 1024
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# A restored file or folder gets at most rwx for its owner and r-x for the rest: never the
# setuid, setgid or sticky bits, never write permission for the group or others.
_MODE_MASK = 0o755

# Roots with a transaction open in this process: their journal is live, not interrupted.
_ACTIVE: set[str] = set()
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


class _StderrHandler(logging.Handler):
    """``filid: <message>`` on the stderr of the moment (click's runner swaps it)."""

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):
            sys.stderr.write(f"filid: {record.getMessage()}\n")
            sys.stderr.flush()


# The restore notice must reach the user of every command (including the MCP server, whose
# stdout is the protocol); an embedding program can silence or redirect this logger.
LOG = logging.getLogger("filid.recovery")
LOG.propagate = False
if not LOG.handlers:
    LOG.addHandler(_StderrHandler())
LOG.setLevel(logging.INFO)


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file a pass will change: its state before (``None``: absent) and after.

    ``mode`` is the permission bits before (ignored when absent); ``new_sha256`` the digest of
    the content the pass writes, ``None`` when the pass removes the file.
    """

    path: str
    before: bytes | None
    mode: int
    new_sha256: str | None


@dataclass(frozen=True, slots=True)
class Recovery:
    """What restoring an interrupted fix did: files put back, and what it could not do."""

    restored: tuple[str, ...]
    problems: tuple[str, ...]


def _sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def _record_line(payload: dict[str, object]) -> bytes:
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return f"{_sha256(text.encode('utf-8'))} {text}\n".encode()


def _parse(data: bytes) -> list[dict[str, object]]:
    """The intact records of a journal, up to the first torn or corrupt line."""
    records: list[dict[str, object]] = []
    for line in data.split(b"\n"):
        head, _, text = line.partition(b" ")
        if not text or _sha256(text) != head.decode("ascii", "replace"):
            break
        try:
            value = json.loads(text)
        except ValueError:
            break
        if not isinstance(value, dict):
            break
        records.append(value)
    return records


def _fsync_directory(directory: Path) -> None:
    with contextlib.suppress(OSError):
        handle = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


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


def _folder(root: Path, folder: str) -> Path:
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
    return _sha256(read_regular_file(target, _MAX_JOURNAL_BYTES)), stat.S_IMODE(info.st_mode)


def _write_back(target: Path, content: bytes, mode: int) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_atomically(target, content, mode)


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
        os.chmod(temporary, mode & _MODE_MASK)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _remove_temporaries(root: Path, paths: Sequence[str]) -> None:
    """Remove ``.<name>.*.filid-tmp`` files a killed write left beside the journal's paths."""
    names_by_folder: dict[str, set[str]] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        names_by_folder.setdefault(folder, set()).add(name)
    for folder, names in sorted(names_by_folder.items()):
        try:
            base = _folder(root, folder)
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


def _restore(root: Path, records: Sequence[dict[str, object]]) -> Recovery:
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
                before[path] = (content, mode & _MODE_MASK)
                allowed[path] = {_sha256(content) if content is not None else None}
            new = record.get("new")
            allowed[path].add(new if isinstance(new, str) else None)
        elif kind in ("mkdir", "rmdir"):
            first_dir.setdefault(path, kind)
            mode = record.get("mode")
            if kind == "rmdir" and isinstance(mode, int):
                dir_modes.setdefault(path, mode & _MODE_MASK)
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
            wanted = _sha256(content) if content is not None else None
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


def _open_lock(directory: Path) -> int:
    handle = os.open(
        directory / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | _NOFOLLOW, 0o600
    )
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise OSError(f"{directory / LOCK_NAME}: not a regular file")
    _PRIVATE_FDS.add(handle)
    return handle


def _close(handle: int) -> None:
    _PRIVATE_FDS.discard(handle)
    os.close(handle)


def _try_lock(handle: int) -> bool:
    if fcntl is None:  # pragma: no cover
        return True
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _lock_file(directory: Path, folder: str) -> int:
    name = hashlib.sha256(folder.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    handle = os.open(
        directory / f"{name}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | _NOFOLLOW, 0o600
    )
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise OSError(f"{directory / name}.lock: not a regular file")
    _PRIVATE_FDS.add(handle)
    return handle


def _nesting_locks(root: Path) -> list[int]:
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
            handle = _lock_file(directory, folder)
            held.append(handle)
            if fcntl is not None:
                try:
                    fcntl.flock(
                        handle, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB
                    )
                except BlockingIOError:
                    where = "a folder inside it" if exclusive else folder
                    raise FixLocked(
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
            _close(handle)
        raise


def _recover_locked(root: Path, directory: Path) -> Recovery | None:
    """Restore from the journal in ``directory`` (its lock held); None when there was none."""
    journal = directory / JOURNAL_NAME
    try:
        data, info = read_regular_file_with_stat(journal, _MAX_JOURNAL_BYTES)
    except FileNotFoundError:
        return None
    except (OSError, UnsafePathError) as error:
        return Recovery((), (f"cannot read the journal of an interrupted fix: {error}",))
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    if (uid is not None and info.st_uid != uid) or stat.S_IMODE(info.st_mode) & 0o077:
        # filid writes its journal 0600 as the user; anything else was put there by someone
        # else: never restored from (it would write files), never removed (it is not ours).
        return Recovery((), ("ignored a fix journal that filid did not write (owner or mode)",))
    records = _parse(data)
    header = records[0] if records else {}
    intact = header.get("t") == "begin" and header.get("root") == str(root)
    # Not intact: the run died before its first record was synced, so before any write;
    # there is nothing to undo.
    recovery = _restore(root, records[1:]) if intact else None
    os.unlink(journal)
    _fsync_directory(directory)
    return recovery


def _announce(root: Path, recovery: Recovery) -> None:
    LOG.info(
        "restored %s to its state before an interrupted fix (%d file(s) put back)",
        root,
        len(recovery.restored),
    )
    for problem in recovery.problems:
        LOG.warning("while restoring %s: %s", root, problem)


def recover_interrupted_fix(root: Path) -> Recovery | None:
    """Undo the unfinished fix of the project at ``root`` (a resolved real path), if any.

    Returns None (the common case, one ``lstat``) when there is no journal, when the fix
    that owns it is still running (its lock is held), or when the journal holds no intact
    record (the run died before its first write). Otherwise restores the tree, removes
    the journal, reports on stderr and returns what it did. Never raises for I/O problems:
    they are reported as problems.
    """
    if str(root) in _ACTIVE:
        return None
    directory = trusted_project_dir(root)
    if directory is None or not os.path.lexists(directory / JOURNAL_NAME):
        return None
    try:
        lock = _open_lock(directory)
    except OSError:
        return None
    try:
        if not _try_lock(lock):
            return None  # a fix is running right now; its journal is live
        recovery = _recover_locked(root, directory)
    except OSError as error:
        recovery = Recovery((), (f"cannot finish restoring: {error}",))
    finally:
        _close(lock)
    if recovery is not None:
        _announce(root, recovery)
    return recovery


@dataclass(slots=True)
class FixJournal:
    """The journal of one running fix (holding the project's fix lock).

    :meth:`record` appends what a pass will change and fsyncs it; only then may the pass
    write. :meth:`rollback` restores the state before the run; :meth:`commit` ends the run.
    """

    root: Path
    directory: Path
    lock: int
    stream: int | None = None
    records: list[dict[str, object]] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    folders: set[str] = field(default_factory=set)

    def _append(self, lines: list[dict[str, object]]) -> None:
        if self.stream is None:
            path = self.directory / JOURNAL_NAME
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC | _NOFOLLOW
            self.stream = os.open(path, flags, 0o600)
            _PRIVATE_FDS.add(self.stream)
            lines = [{"t": "begin", "v": _VERSION, "root": str(self.root)}, *lines]
            created = True
        else:
            created = False
        data = b"".join(_record_line(line) for line in lines)
        view = memoryview(data)
        while view:
            written = os.write(self.stream, view)
            view = view[written:]
        os.fsync(self.stream)
        if created:
            _fsync_directory(self.directory)

    def record(
        self,
        files: Sequence[FileChange],
        created_dirs: Sequence[str] = (),
        removed_dirs: Sequence[tuple[str, int]] = (),
    ) -> None:
        """Journal a pass before it writes: its files, and the folders it creates or removes.

        A file's content before the run is kept from its first record only.
        """
        lines: list[dict[str, object]] = []
        for change in files:
            line: dict[str, object] = {"t": "file", "path": change.path, "new": change.new_sha256}
            if change.path not in self.seen:
                line["before"] = (
                    base64.b64encode(change.before).decode("ascii")
                    if change.before is not None
                    else None
                )
                line["mode"] = change.mode
                self.seen.add(change.path)
            lines.append(line)
        lines.extend({"t": "mkdir", "path": path} for path in created_dirs)
        lines.extend({"t": "rmdir", "path": path, "mode": mode} for path, mode in removed_dirs)
        for line in lines:
            path = line["path"]
            assert isinstance(path, str)
            self.folders.add(path.rpartition("/")[0])
        if lines:
            self._append(lines)
            self.records.extend(lines)

    def rollback(self) -> Recovery:
        """Restore every file and folder to its state before the run."""
        return _restore(self.root, self.records)

    def _finish(self) -> None:
        if self.stream is not None:
            _close(self.stream)
            self.stream = None
            os.unlink(self.directory / JOURNAL_NAME)
            _fsync_directory(self.directory)

    def commit(self) -> None:
        """Make the run's writes durable, then remove the journal (the commit point)."""
        for folder in sorted(self.folders):
            with contextlib.suppress(OSError, UnsafePathError):
                _fsync_directory(_folder(self.root, folder))
        self._finish()


@contextlib.contextmanager
def fix_transaction(root: Path) -> Iterator[FixJournal]:
    """Run a fix under a journal: commit when the block ends, restore when it raises.

    Takes the project's fix lock (a second fix on the same project is refused), finishes the
    recovery of an older interrupted fix first, and raises :class:`FixError` when no journal
    can be kept. On an exception inside the block every file is restored; a ``FixError`` is
    re-raised as it is when the restore was complete, anything else becomes a ``FixError``
    saying the fix was rolled back (``KeyboardInterrupt`` and ``SystemExit`` pass through).
    """
    root = Path(os.path.realpath(root))
    directory = project_cache_dir(root)
    if directory is None:
        raise FixError(
            "no fix journal can be kept (the per-user cache folder is not writable or lies "
            "inside the project; set FILID_CACHE_DIR), so no fix is applied"
        )
    try:
        lock = _open_lock(directory)
    except OSError as error:
        raise FixError(f"cannot open the fix lock in {directory}: {error}") from None
    nesting: list[int] = []
    try:
        if not _try_lock(lock):
            raise FixLocked(f"another filid fix is running on {root}")
        try:
            nesting = _nesting_locks(root)
        except OSError as error:
            raise FixError(f"cannot take the fix locks: {error}") from None
        stale = _recover_locked(root, directory)
        if stale is not None:
            _announce(root, stale)
        journal = FixJournal(root=root, directory=directory, lock=lock)
        _ACTIVE.add(str(root))
        try:
            yield journal
        except BaseException as error:
            recovery = journal.rollback()
            if recovery.problems:
                # Keep the journal: the next command tries the restore again.
                if journal.stream is not None:
                    _close(journal.stream)
                    journal.stream = None
                detail = "; ".join(recovery.problems)
                raise FixError(
                    f"fix failed and was rolled back: {error}; rollback incomplete: {detail}"
                ) from error
            journal._finish()
            if isinstance(error, FixError | KeyboardInterrupt | SystemExit | GeneratorExit):
                raise
            raise FixError(f"fix failed and was rolled back: {error}") from error
        journal.commit()
    finally:
        _ACTIVE.discard(str(root))
        for handle in nesting:
            _close(handle)
        _close(lock)
