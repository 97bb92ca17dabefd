"""Apply a fix plan as one transaction, or preview it as a unified diff.

The plan is first played on a virtual copy of the files it touches: every precondition
(created file absent, edited or moved file with the digest it had when planned) is checked
and every path is confined to the project root before anything is written. Only then the
final state is committed file by file — each write atomic (temporary file in the same
directory, then ``os.replace``, keeping the file mode) — after the on-disk journal of
:mod:`filid.store.journal` holds every file's state before the run; any failure restores
every file and directory to its original state and raises :class:`FixError`, and a killed
run is restored by the next filid command. Read-only and hard-linked files are refused, never
replaced.
"""

from __future__ import annotations

import difflib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import assert_never

from filid.fix.actions import (
    CreateFile,
    Edit,
    EditFile,
    FixPlan,
    MoveFile,
    RemoveDirIfEmpty,
    SyncAction,
    digest,
)
from filid.model.errors import FixError
from filid.model.escape import git_path
from filid.store.files import replace_atomically, replace_refusal
from filid.store.journal import FileChange, FixJournal, fix_transaction

__all__ = ["apply_operations", "apply_plan", "check_path", "preview_diff"]


def check_path(root: Path, path: str) -> Path:
    """The absolute path of root-relative ``path``, refusing anything that could leave the root.

    Refuses absolute paths, ``..`` or empty segments, and paths whose real location (after
    following symbolic links of any existing ancestor or the file itself) is outside the root.
    """
    pure = PurePosixPath(path)
    if not path or pure.is_absolute() or ("\\" in path and os.sep != "/") or "\x00" in path:
        raise FixError(f"refusing to write {path!r}: not a root-relative path")
    if any(part in ("..", ".", "") for part in path.split("/")):
        raise FixError(f"refusing to write {path!r}: the path must not contain '..' or '.'")
    if any(part.lower().rstrip(". ") == ".git" for part in path.split("/")):
        raise FixError(f"refusing to write {path!r}: filid never writes inside .git")
    real_root = Path(os.path.realpath(root))
    absolute = real_root.joinpath(*pure.parts)
    real = Path(os.path.realpath(absolute))
    if real != real_root and real_root not in real.parents:
        raise FixError(f"refusing to write {path}: it resolves outside the project root")
    if absolute.is_symlink():
        # Replacing a link would write the link's target (or turn the link into a file);
        # either way the change would not be the one the plan shows.
        raise FixError(f"refusing to write {path}: it is a symbolic link")
    return absolute


@dataclass(slots=True)
class _State:
    """The virtual file system a plan is played on (``None`` content means absent)."""

    root: Path
    original: dict[str, bytes | None] = field(default_factory=dict)
    modes: dict[str, int] = field(default_factory=dict)
    current: dict[str, bytes | None] = field(default_factory=dict)
    moved_from: dict[str, str] = field(default_factory=dict)
    dirs_to_remove: list[str] = field(default_factory=list)

    def load(self, path: str) -> bytes | None:
        if path not in self.current:
            absolute = check_path(self.root, path)
            content: bytes | None
            if absolute.is_file():
                content = absolute.read_bytes()
                self.modes[path] = stat.S_IMODE(absolute.stat().st_mode)
            elif os.path.lexists(absolute):
                raise FixError(f"refusing to write {path}: it is not a regular file")
            else:
                content = None
            self.original[path] = content
            self.current[path] = content
        return self.current[path]


def _apply_edits(path: str, content: bytes, edits: tuple[Edit, ...]) -> bytes:
    out: list[bytes] = []
    position = 0
    for edit in sorted(edits, key=lambda e: (e.start_byte, e.end_byte)):
        if (
            edit.start_byte < position
            or edit.end_byte > len(content)
            or edit.start_byte > edit.end_byte
        ):
            raise FixError(f"invalid edit of {path}: overlapping or out of range")
        out.append(content[position : edit.start_byte])
        out.append(edit.replacement.encode("utf-8"))
        position = edit.end_byte
    out.append(content[position:])
    return b"".join(out)


def _changed(path: str) -> FixError:
    return FixError(f"{path} changed since the fix was planned")


def _simulate(root: Path, operations: tuple[SyncAction, ...]) -> _State:
    """Play ``operations`` on a virtual copy; raise ``FixError`` on any failed precondition."""
    state = _State(root=root)
    for operation in operations:
        if isinstance(operation, CreateFile):
            if state.load(operation.path) is not None:
                raise FixError(f"{operation.path} already exists; it was absent when planned")
            state.current[operation.path] = operation.content.encode("utf-8")
        elif isinstance(operation, EditFile):
            content = state.load(operation.path)
            if content is None or digest(content) != operation.expected_sha256:
                raise _changed(operation.path)
            state.current[operation.path] = _apply_edits(operation.path, content, operation.edits)
        elif isinstance(operation, MoveFile):
            content = state.load(operation.src)
            if content is None or digest(content) != operation.expected_sha256:
                raise _changed(operation.src)
            if state.load(operation.dst) is not None:
                raise FixError(f"{operation.dst} already exists; it was absent when planned")
            state.current[operation.dst] = content
            state.current[operation.src] = None
            state.modes.setdefault(operation.dst, state.modes.get(operation.src, 0o644))
            state.moved_from[operation.dst] = state.moved_from.pop(operation.src, operation.src)
        elif isinstance(operation, RemoveDirIfEmpty):
            check_path(root, operation.path)
            state.dirs_to_remove.append(operation.path)
        else:
            assert_never(operation)
    return state


def _default_mode() -> int:
    # The mode a plain `open(path, "w")` would give, honouring the user's umask.
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _missing_folders(root: Path, paths: list[str]) -> list[str]:
    """The folders (root-relative, shallowest first) writing ``paths`` will create."""
    missing: set[str] = set()
    for path in paths:
        folder = path.rpartition("/")[0]
        while folder and folder not in missing and not os.path.lexists(root / folder):
            missing.add(folder)
            folder = folder.rpartition("/")[0]
    return sorted(missing, key=lambda d: (d.count("/"), d))


def _refuse_unsafe_targets(root: Path, paths: list[str]) -> None:
    for path in paths:
        reason = replace_refusal(root / path)
        if reason is not None:
            raise FixError(f"refusing to rewrite {path}: {reason}")


def _commit(root: Path, state: _State, changes: list[str], journal: FixJournal) -> None:
    """Journal, then write: every file of ``changes`` and the folders around them."""
    writes = [p for p in changes if state.current[p] is not None]
    deletions = [p for p in changes if state.current[p] is None]
    _refuse_unsafe_targets(root, [p for p in changes if state.original[p] is not None])
    default_mode = _default_mode()
    created = _missing_folders(root, writes)
    removals = sorted(set(state.dirs_to_remove), key=lambda d: (-d.count("/"), d))
    removable: list[tuple[str, int]] = []
    for directory in removals:
        target = check_path(root, directory)
        if target.is_dir():
            removable.append((directory, stat.S_IMODE(target.lstat().st_mode)))
    files: list[FileChange] = []
    for path in changes:
        new = state.current[path]
        files.append(
            FileChange(
                path=path,
                before=state.original[path],
                mode=state.modes.get(path, default_mode),
                new_sha256=digest(new) if new is not None else None,
            )
        )
    # On disk and fsynced before the first byte below changes.
    journal.record(files, created, removable)
    for directory in created:
        check_path(root, directory).mkdir()
    for path in writes:
        target = check_path(root, path)
        new_content = state.current[path]
        assert new_content is not None
        replace_atomically(target, new_content, state.modes.get(path, default_mode))
    for path in deletions:
        check_path(root, path).unlink()
    for directory, _mode in removable:
        target = check_path(root, directory)
        if target.is_dir() and not any(target.iterdir()):
            target.rmdir()


def apply_operations(
    root: Path, operations: tuple[SyncAction, ...], journal: FixJournal | None = None
) -> tuple[str, ...]:
    """Apply ``operations`` transactionally under ``root``; return the changed paths, sorted.

    With ``journal`` the operations join a running fix transaction (which restores every
    pass when one fails); without, they are a transaction of their own. Raises
    :class:`FixError` (with every file restored) when a precondition fails, a file to rewrite
    is read-only or hard-linked, a path would leave the root, or any write fails.
    """
    root = Path(os.path.realpath(root))
    state = _simulate(root, operations)
    changes = sorted(
        path for path, content in state.current.items() if content != state.original[path]
    )
    if not changes and not state.dirs_to_remove:
        return ()
    if journal is not None:
        _commit(root, state, changes, journal)
    else:
        with fix_transaction(root) as own:
            _commit(root, state, changes, own)
    return tuple(changes)


def apply_plan(plan: FixPlan, journal: FixJournal | None = None) -> tuple[str, ...]:
    """Apply every operation of ``plan`` as one transaction (or as part of the transaction
    ``journal`` belongs to); return the changed paths."""
    return apply_operations(plan.root, plan.operations, journal)


def _lines(content: bytes) -> list[str]:
    """Diff lines as git counts them: only LF ends a line (a form feed, CR or U+2028 inside a
    line is content; ``str.splitlines`` would break there and the hunk counts would lie)."""
    text = content.decode("utf-8", errors="replace")
    if not text:
        return []
    lines = [line + "\n" for line in text.split("\n")]
    if text.endswith("\n"):
        lines.pop()
    else:
        lines[-1] = lines[-1][:-1] + "\n\\ No newline at end of file\n"
    return lines


def unified_lines(old: bytes | None, new: bytes | None, old_name: str, new_name: str) -> list[str]:
    """The unified diff lines from ``old`` to ``new`` (``None``: the file is absent)."""
    return list(
        difflib.unified_diff(
            _lines(old) if old is not None else [],
            _lines(new) if new is not None else [],
            fromfile=old_name,
            tofile=new_name,
        )
    )


def preview_diff(plan: FixPlan) -> str:
    """The unified diff of what ``plan`` would write (``a/``/``b/`` prefixes, ``/dev/null``
    for created or removed files, git-style rename headers for moves); writes nothing.

    Raises :class:`FixError` when a precondition already fails.
    """
    return diff_operations(Path(os.path.realpath(plan.root)), plan.operations)


def diff_operations(root: Path, operations: tuple[SyncAction, ...]) -> str:
    """The unified diff of ``operations`` under ``root`` (see :func:`preview_diff`)."""
    state = _simulate(root, operations)
    sources = set(state.moved_from.values())
    out: list[str] = []
    for path in sorted(state.current):
        old = state.original[path]
        new = state.current[path]
        if old == new:
            continue
        source = state.moved_from.get(path)
        if source is not None and new is not None:
            before = state.original[source]
            out.append(rename_header(source, path))
            out.extend(unified_lines(before, new, git_path(f"a/{source}"), git_path(f"b/{path}")))
        elif path in sources and new is None:
            continue  # shown with its rename header at the destination
        else:
            out.extend(file_diff(path, old, new))
    return "".join(out)


def file_diff(path: str, old: bytes | None, new: bytes | None) -> list[str]:
    """One file's git-style diff: header, ``new``/``deleted file mode`` when it appears or
    goes, and the unified hunks (``/dev/null`` for the absent side)."""
    old_name, new_name = git_path(f"a/{path}"), git_path(f"b/{path}")
    out = [f"diff --git {old_name} {new_name}\n"]
    if old is None:
        out.append("new file mode 100644\n")
    elif new is None:
        out.append("deleted file mode 100644\n")
    out.extend(
        unified_lines(
            old,
            new,
            old_name if old is not None else "/dev/null",
            new_name if new is not None else "/dev/null",
        )
    )
    return out


def rename_header(source: str, path: str, *, similarity: int | None = None) -> str:
    """The git header of a rename from ``source`` to ``path`` (paths quoted as git does)."""
    head = f"diff --git {git_path(f'a/{source}')} {git_path(f'b/{path}')}\n"
    if similarity is not None:
        head += f"similarity index {similarity}%\n"
    return head + f"rename from {git_path(source)}\nrename to {git_path(path)}\n"
