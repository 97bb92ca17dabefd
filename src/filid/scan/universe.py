"""The file universe: which files of a project filid looks at (SPEC §1).

Inside a git work tree it is what ``git ls-files --cached --others --exclude-standard`` lists
and still exists; outside git, a walk of the tree. Either way dot segments, build output
folders and configured exclusions are dropped, and symbolic links are never followed (a
symlink is not part of the universe at all).
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

from filid.config.globs import matches_any_glob
from filid.model.errors import InputError
from filid.store.journal import recover_interrupted_fix

EXCLUDED_DIRECTORIES = frozenset({"node_modules", "dist", "build", "coverage", "out"})
SOURCE_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
DECLARATION_SUFFIXES = (".d.ts", ".d.mts", ".d.cts")

_GIT_SYMLINK = "120000"
_GIT_SUBMODULE = "160000"


@dataclass(frozen=True, slots=True)
class Universe:
    """The listed files (root-relative POSIX, sorted) and notes about what was left out."""

    files: tuple[str, ...]
    notes: tuple[str, ...]
    from_git: bool


def resolve_root(path: str | os.PathLike[str]) -> Path:
    """Resolve the project root to an absolute real path; it must be an existing directory.

    An interrupted fix of that project (a journal left by a killed run) is undone first, with
    a line on stderr (:func:`filid.store.journal.recover_interrupted_fix`).
    """
    try:
        root = Path(path).resolve(strict=True)
    except FileNotFoundError:
        raise InputError(f"{os.fsdecode(path)}: no such directory") from None
    except (RuntimeError, OSError) as error:  # symlink loops, permission problems
        reason = "symbolic link loop" if isinstance(error, RuntimeError) else error.strerror
        raise InputError(f"{os.fsdecode(path)}: cannot open ({reason})") from None
    if not root.is_dir():
        raise InputError(f"{os.fsdecode(path)}: not a directory")
    if not os.access(root, os.R_OK | os.X_OK):
        raise InputError(f"{os.fsdecode(path)}: permission denied")
    # Every command (CLI and MCP) resolves its project root here, so this is the one place
    # where a fix that was killed half-way is undone before anything reads the tree.
    recover_interrupted_fix(root)
    return root


def is_source_file(path: str) -> bool:
    """A TypeScript/JavaScript source file (declaration files excluded)."""
    return path.endswith(SOURCE_EXTENSIONS) and not path.endswith(DECLARATION_SUFFIXES)


def is_excluded(rel: str, excluded: Collection[str]) -> bool:
    """True when any segment of ``rel`` starts with a dot or is an excluded directory name."""
    return any(seg.startswith(".") or seg in excluded for seg in rel.split("/"))


def list_universe(
    root: Path, extra_excluded: Collection[str] = (), generated: Collection[str] = ()
) -> Universe:
    """List the file universe of ``root`` (already resolved with :func:`resolve_root`).

    ``generated`` are config ``generatedPaths`` globs (upstream filid's key): files they match,
    or that lie in a folder they match, are generated output and left out of every check.
    """
    excluded = EXCLUDED_DIRECTORIES | frozenset(extra_excluded)
    notes: list[str] = []
    listed = _git_listing(root, notes)
    from_git = listed is not None
    if listed is None:
        listed = list(_walk(root, excluded, notes))
    files = sorted({f for f in listed if not is_excluded(f, excluded)})
    if generated:
        files = [f for f in files if not matches_any_glob(f, generated)]
    return Universe(files=tuple(files), notes=tuple(sorted(notes)), from_git=from_git)


def _decode(raw: bytes, notes: list[str]) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        shown = raw.decode("utf-8", errors="replace")
        notes.append(f"{shown}: skipped, file name is not valid UTF-8")
        return None


def _run_git(root: Path, *args: str) -> bytes | None:
    try:
        done = subprocess.run(
            ["git", "ls-files", "-z", *args],
            cwd=root,
            capture_output=True,
            check=False,
        )
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def is_ignored_root(root: Path) -> bool:
    """Whether the enclosing git repository ignores ``root`` itself (then nothing in it is
    git's business: it is listed from disk and new files in it are not "ignored")."""
    try:
        done = subprocess.run(
            ["git", "check-ignore", "-q", "."], cwd=root, capture_output=True, check=False
        )
    except OSError:
        return False
    return done.returncode == 0


def _git_listing(root: Path, notes: list[str]) -> list[str] | None:
    """Tracked + untracked-not-ignored files that still exist, or None outside a work tree."""
    staged = _run_git(root, "--stage", "--cached")
    if staged is None:
        return None
    if not staged and is_ignored_root(root):
        # The project lies in a folder its enclosing repository ignores (a generated or
        # scratch project): git lists nothing there, so read the folder itself.
        return None
    others = _run_git(root, "-t", "--others", "--deleted", "--exclude-standard") or b""
    files: set[str] = set()
    for entry in staged.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode = meta.split(b" ", 1)[0].decode("ascii", "replace")
        if mode in (_GIT_SYMLINK, _GIT_SUBMODULE):
            continue
        name = _decode(raw_path, notes)
        if name is not None:
            files.add(name)
    untracked: list[str] = []
    for entry in others.split(b"\0"):
        if len(entry) < 3:
            continue
        tag, raw_path = entry[:1], entry[2:]
        name = _decode(raw_path, notes)
        if name is None:
            continue
        if tag == b"R":
            files.discard(name)
        elif tag == b"?":
            untracked.append(name)
    for name in untracked:
        try:
            if stat.S_ISREG(os.lstat(root / name).st_mode):
                files.add(name)
        except OSError:
            continue
    return sorted(files)


def _walk(root: Path, excluded: frozenset[str], notes: list[str]) -> Iterator[str]:
    """Walk ``root`` without following symlinks, pruning excluded directories."""
    stack: list[tuple[bytes, str]] = [(os.fsencode(root), "")]
    while stack:
        directory, prefix = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError as error:
            notes.append(f"{prefix or '.'}: skipped, cannot list ({error.strerror})")
            continue
        for entry in entries:
            name = _decode(entry.name, notes)
            if name is None:
                continue
            if name.startswith(".") or name in excluded:
                continue
            rel = f"{prefix}{name}"
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append((entry.path, rel + "/"))
                elif entry.is_file(follow_symlinks=False):
                    yield rel
            except OSError:
                continue
