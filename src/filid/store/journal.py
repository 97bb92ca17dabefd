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
import json
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from filid.model.errors import FixError
from filid.store.files import UnsafePathError, read_regular_file_with_stat
from filid.store.fix_locks import (
    close_private,
    keep_private,
    nesting_locks,
    open_project_lock,
    try_lock,
)
from filid.store.location import is_private_file, project_cache_dir, trusted_project_dir
from filid.store.restore import (
    MAX_JOURNAL_BYTES,
    Recovery,
    real_folder,
    restore_records,
    sha256_hex,
)

__all__ = [
    "JOURNAL_NAME",
    "FileChange",
    "FixJournal",
    "fix_transaction",
    "recover_interrupted_fix",
]

JOURNAL_NAME = "fix-journal"
_VERSION = 1
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

# Roots with a transaction open in this process: their journal is live, not interrupted.
_ACTIVE: set[str] = set()


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


def _record_line(payload: dict[str, object]) -> bytes:
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return f"{sha256_hex(text.encode('utf-8'))} {text}\n".encode()


def _parse(data: bytes) -> list[dict[str, object]]:
    """The intact records of a journal, up to the first torn or corrupt line."""
    records: list[dict[str, object]] = []
    for line in data.split(b"\n"):
        head, _, text = line.partition(b" ")
        if not text or sha256_hex(text) != head.decode("ascii", "replace"):
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


def _recover_locked(root: Path, directory: Path) -> Recovery | None:
    """Restore from the journal in ``directory`` (its lock held); None when there was none."""
    journal = directory / JOURNAL_NAME
    try:
        data, info = read_regular_file_with_stat(journal, MAX_JOURNAL_BYTES)
    except FileNotFoundError:
        return None
    except (OSError, UnsafePathError) as error:
        return Recovery((), (f"cannot read the journal of an interrupted fix: {error}",))
    if not is_private_file(info):
        # filid writes its journal 0600 as the user; anything else was put there by someone
        # else: never restored from (it would write files), never removed (it is not ours).
        return Recovery((), ("ignored a fix journal that filid did not write (owner or mode)",))
    records = _parse(data)
    header = records[0] if records else {}
    intact = header.get("t") == "begin" and header.get("root") == str(root)
    # Not intact: the run died before its first record was synced, so before any write;
    # there is nothing to undo.
    recovery = restore_records(root, records[1:]) if intact else None
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
        lock = open_project_lock(directory)
    except OSError:
        return None
    try:
        if not try_lock(lock):
            return None  # a fix is running right now; its journal is live
        recovery = _recover_locked(root, directory)
    except OSError as error:
        recovery = Recovery((), (f"cannot finish restoring: {error}",))
    finally:
        close_private(lock)
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
            keep_private(self.stream)
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
        return restore_records(self.root, self.records)

    def _finish(self) -> None:
        if self.stream is not None:
            close_private(self.stream)
            self.stream = None
            os.unlink(self.directory / JOURNAL_NAME)
            _fsync_directory(self.directory)

    def commit(self) -> None:
        """Make the run's writes durable, then remove the journal (the commit point)."""
        for folder in sorted(self.folders):
            with contextlib.suppress(OSError, UnsafePathError):
                _fsync_directory(real_folder(self.root, folder))
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
        lock = open_project_lock(directory)
    except OSError as error:
        raise FixError(f"cannot open the fix lock in {directory}: {error}") from None
    nesting: list[int] = []
    try:
        if not try_lock(lock):
            raise FixError(f"another filid fix is running on {root}")
        try:
            nesting = nesting_locks(root)
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
                    close_private(journal.stream)
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
            close_private(handle)
        close_private(lock)
