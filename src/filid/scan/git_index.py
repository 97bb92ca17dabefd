"""Reading staged content from git: blobs by id, and which staged files the work tree changed.

``check --staged`` checks what is being committed, the index. The listing
(``scan.universe.list_universe(..., index=True)``) gives every staged path with its blob id;
this module reads the few blobs a run needs (``git cat-file --batch``) and tells whether the
work tree's copies still equal the staged ones (``git diff-files``, which trusts git's own
stat cache and compares content where that cache is racy).

Everything git answers here comes from the repository, so it is untrusted: a blob larger than
the caller's cap, of another type, or an answer that does not follow git's batch format is
reported missing, never guessed at.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from filid.store.files import UnsafePathError, read_regular_file

__all__ = [
    "HeadIndex",
    "deleted_paths",
    "head_tree",
    "index_against_head",
    "read_blobs",
    "staged_changes",
    "staged_deletions",
    "start_unstaged_anywhere",
    "unstaged_anywhere",
    "unstaged_paths",
]

# A staged file larger than this is compared by git's stat cache alone (it differs).
MAX_HASHED = 64 * 1024 * 1024


def read_blobs(root: Path, ids: Sequence[str], limit: int) -> dict[str, bytes]:
    """The content of each blob in ``ids`` of the repository at ``root``, by id; a blob that
    is missing, not a blob, or larger than ``limit`` bytes is left out (so is every blob when
    git cannot be run)."""
    # Sizes first (``--batch-check``): a huge blob is never read into memory.
    asked = frozenset(ids)
    sizes = _cat_file(root, "--batch-check", sorted(asked))
    wanted = sorted(
        blob
        for line in (sizes or b"").splitlines()
        if len(fields := line.split(b" ")) == 3
        and fields[1] == b"blob"
        and fields[2].isdigit()
        and int(fields[2]) <= limit
        and (blob := fields[0].decode("ascii", "replace")) in asked
    )
    out = _cat_file(root, "--batch", wanted) if wanted else None
    return _parse_batch(out, frozenset(wanted), limit) if out is not None else {}


def _cat_file(root: Path, mode: str, ids: Sequence[str]) -> bytes | None:
    request = "".join(f"{blob}\n" for blob in ids).encode("ascii", "replace")
    try:
        done = subprocess.run(
            ["git", "cat-file", mode],
            cwd=root,
            input=request,
            capture_output=True,
            check=False,
        )
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def _parse_batch(out: bytes, wanted: Collection[str], limit: int) -> dict[str, bytes]:
    """Blobs from ``git cat-file --batch`` output: ``<id> blob <size>`` LF, the content, LF;
    ``<id> missing`` LF for an unknown id. Stops at the first line that follows neither."""
    found: dict[str, bytes] = {}
    at = 0
    while at < len(out):
        end = out.find(b"\n", at)
        if end < 0:
            break
        header = out[at:end].split(b" ")
        at = end + 1
        if len(header) == 2 and header[1] == b"missing":
            continue
        if len(header) != 3 or not header[2].isdigit():
            break
        size = int(header[2])
        content = out[at : at + size]
        at += size + 1
        if len(content) != size:
            break
        blob = header[0].decode("ascii", "replace")
        if header[1] == b"blob" and blob in wanted and size <= limit:
            found[blob] = content
    return found


def unstaged_paths(root: Path, staged: Mapping[str, str]) -> frozenset[str] | None:
    """The paths of ``staged`` (root-relative path → blob id) whose work-tree copy differs
    from the staged blob, or is gone; None when git cannot tell (not a work tree, git
    missing).

    ``git diff-files`` names the candidates from git's stat cache (a file merely touched is
    among them); each candidate's content is hashed as git hashes a blob, so only a real
    difference counts. A candidate that is not a regular file (a link, a folder) differs.
    """
    try:
        done = subprocess.run(
            ["git", "diff-files", "--name-only", "-z", "--relative", "--no-renames"],
            cwd=root,
            capture_output=True,
            check=False,
        )
    except OSError:
        return None
    if done.returncode != 0:
        return None
    names = (raw.decode("utf-8", "surrogateescape") for raw in done.stdout.split(b"\0"))
    differing: set[str] = set()
    for name in names:
        blob = staged.get(name)
        if blob is None:
            continue
        try:
            content = read_regular_file(root / name, MAX_HASHED)
        except (OSError, UnsafePathError):
            differing.add(name)
            continue
        digest = hashlib.sha1 if len(blob) == 40 else hashlib.sha256
        header = b"blob %d\0" % len(content)
        if digest(header + content).hexdigest() != blob:
            differing.add(name)
    return frozenset(differing)


def unstaged_anywhere(root: Path) -> frozenset[str] | None:
    """:func:`unstaged_paths` over every staged path under ``root``, without listing them:
    ``git diff-files --raw`` names each candidate with its staged blob id."""
    return start_unstaged_anywhere(root)()


def start_unstaged_anywhere(root: Path) -> Callable[[], frozenset[str] | None]:
    """:func:`unstaged_anywhere`, started now (git stats every index entry, a tenth of a
    second at 50,000 files: the caller works meanwhile) and answered when the returned
    function is called (call it once)."""
    try:
        process = subprocess.Popen(
            # One thread: its lstat calls are bound by the kernel, more threads take the
            # core the caller works on without making git any faster.
            [
                *("git", "-c", "core.preloadIndex=false", "diff-files"),
                *("--raw", "-z", "--no-renames", "--relative", "--no-abbrev"),
            ],
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return lambda: None

    def answer() -> frozenset[str] | None:
        stdout, _ = process.communicate()
        if process.returncode != 0:
            return None
        return _differing(root, stdout)

    return answer


def _differing(root: Path, output: bytes) -> frozenset[str] | None:
    """The paths of ``git diff-files --raw -z`` ``output`` whose work-tree copy differs
    from the staged blob (None: not git's raw format)."""
    fields = output.split(b"\0")
    differing: set[str] = set()
    for at in range(0, len(fields) - 1, 2):
        meta = _RAW_ENTRY.fullmatch(fields[at])
        if meta is None:
            return None  # not git's raw format: never guess
        name = fields[at + 1].decode("utf-8", "surrogateescape")
        if meta[1] not in _REGULAR:
            differing.add(name)
            continue
        blob = meta[3].decode("ascii")
        try:
            content = read_regular_file(root / name, MAX_HASHED)
        except (OSError, UnsafePathError):
            differing.add(name)
            continue
        digest = hashlib.sha1 if len(blob) == 40 else hashlib.sha256
        if digest(b"blob %d\0" % len(content) + content).hexdigest() != blob:
            differing.add(name)
    return frozenset(differing)


def staged_deletions(root: Path) -> tuple[str, ...]:
    """Root-relative paths whose deletion (or rename away) is staged in git's index."""
    return deleted_paths(root, ["--cached"])


def deleted_paths(root: Path, what: Sequence[str]) -> tuple[str, ...]:
    """Root-relative paths ``git diff --diff-filter=D <what>`` lists as deleted (sorted);
    none when git cannot tell."""
    try:
        done = subprocess.run(
            ["git", "diff", "--name-only", "-z", "--no-renames", "--diff-filter=D", "--relative",
             *what, "--"],
            cwd=root, capture_output=True, check=False,
        )  # fmt: skip
    except OSError:
        return ()
    if done.returncode != 0:
        return ()
    names = (name.decode("utf-8", "surrogateescape") for name in done.stdout.split(b"\0"))
    return tuple(sorted(name for name in names if name))


def head_tree(root: Path) -> str | None:
    """The id of HEAD's tree in the repository at ``root`` (the empty tree's before the first
    commit); None when git cannot tell."""
    for args in (
        ["rev-parse", "-q", "--verify", "HEAD^{tree}"],
        ["hash-object", "-t", "tree", "--stdin"],
    ):
        try:
            done = subprocess.run(
                ["git", *args], cwd=root, capture_output=True, check=False, input=b""
            )
        except OSError:
            return None
        tree = done.stdout.strip().decode("ascii", "replace")
        if done.returncode == 0 and _OBJECT_ID.fullmatch(tree):
            return tree
    return None


# Where a staged path stands against a tree: (path, its blob in the tree, its blob in the
# index); None for absent, or not a regular file (a link, a submodule, an unmerged path).
StagedChange = tuple[str, str | None, str | None]


@dataclass(frozen=True, slots=True)
class HeadIndex:
    """What git's index holds against HEAD's tree (:func:`index_against_head`): the tree's
    id, every path whose staged entry differs from it (:func:`staged_changes`) and the
    staged deletions among them (:func:`staged_deletions`)."""

    tree: str
    changes: list[StagedChange]
    deleted: tuple[str, ...]


def index_against_head(root: Path) -> HeadIndex | None:
    """:func:`staged_changes` against HEAD's tree and :func:`staged_deletions`, from one
    ``git diff-index --cached`` (git reads the whole index for each call: at 50,000 files
    that is most of what the call costs); None when git cannot tell."""
    tree = head_tree(root)
    if tree is None:
        return None
    found = _diff_index(root, tree)
    if found is None:
        return None
    changes, deleted = found
    return HeadIndex(tree, changes, tuple(sorted(deleted)))


def staged_changes(root: Path, tree: str) -> list[StagedChange] | None:
    """Every path under ``root`` (root-relative) whose staged entry differs from ``tree``
    (``git diff-index --cached``: git compares its cached tree, so this costs what changed,
    not what the repository holds); None when git cannot tell (``tree`` is gone, …)."""
    found = _diff_index(root, tree)
    return None if found is None else found[0]


def _diff_index(root: Path, tree: str) -> tuple[list[StagedChange], list[str]] | None:
    """:func:`staged_changes`, and the paths among them deleted from the index (status
    ``D``, as ``git diff --cached --diff-filter=D`` names them)."""
    if not _OBJECT_ID.fullmatch(tree):
        return None
    try:
        done = subprocess.run(
            ["git", "diff-index", "--cached", "--raw", "-z", "--no-renames", "--relative",
             "--no-abbrev", tree, "--"],
            cwd=root, capture_output=True, check=False,
        )  # fmt: skip
    except OSError:
        return None
    if done.returncode != 0:
        return None
    fields = done.stdout.split(b"\0")
    changes: list[StagedChange] = []
    deleted: list[str] = []
    for at in range(0, len(fields) - 1, 2):
        meta = _RAW_ENTRY.fullmatch(fields[at])
        if meta is None:
            return None  # not git's raw format: never guess
        name = fields[at + 1].decode("utf-8", "surrogateescape")
        before = meta[3].decode("ascii") if meta[1] in _REGULAR else None
        after = meta[4].decode("ascii") if meta[2] in _REGULAR else None
        changes.append((name, before, after))
        if meta[5] == b"D":
            deleted.append(name)
    return changes, deleted


_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_REGULAR = (b"100644", b"100755")
# ``:<mode> <mode> <id> <id> <status>`` of ``--raw`` output (ids in full, --no-abbrev).
_RAW_ENTRY = re.compile(
    rb":([0-7]{6}) ([0-7]{6}) ([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) ([A-Z])[0-9]*"
)
