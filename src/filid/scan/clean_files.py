"""Which work-tree files git proves equal to their staged blob, with the blob ids.

A whole-repository check (``filid check`` without ``--staged``) keys its stored result by
each file's size and modification time. A fresh clone (a CI job with a restored cache folder)
gives every file a new modification time, so that key misses although no content changed.
Blob ids do not: for every file this module proves unchanged since it was staged, the
result snapshot (``filid.check.snapshot``) compares blob ids instead of timestamps.

A file is proven when, in one run of each:

- ``git ls-files -v --stage`` lists it as an ordinary index entry: tag ``H`` (neither
  ``assume-unchanged``, which makes git stop looking at the file, nor ``skip-worktree``, a
  sparse checkout's absent file), a regular file's mode (``100644``/``100755``, not a link or
  a submodule), stage 0 (not in conflict); and
- ``git diff-files`` does not name it, or names it but its content hashes, as git hashes a
  blob, to the staged id (``filid.scan.git_index.start_unstaged_anywhere``: a file merely
  touched; git compares content itself for racily clean entries).

Every other file (untracked, modified, deleted, a link, hidden by a bit) is simply not
proven: the snapshot keeps judging it by its stat data, exactly as before. Both commands
read the repository's own ``.git``, which is untrusted: an answer that does not follow git's
format proves nothing (None), and a blob id only ever matches an id filid stored itself
(the snapshot is sealed in the per-user cache folder, ``filid.store.sealed``).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from filid.scan.git_index import start_unstaged_anywhere

__all__ = ["start_clean_blobs"]

# An entry of ``git ls-files -v --stage -z`` for an ordinary, unconflicted regular file:
# ``H <mode> <blob id> 0``, a tab and the path, at the start of the output or after a NUL.
_CLEAN_ENTRY = re.compile(rb"(?<![^\0])H 100(?:644|755) ([0-9a-f]{40}|[0-9a-f]{64}) 0\t([^\0]+)")


def start_clean_blobs(root: Path) -> Callable[[], dict[str, str] | None]:
    """Start proving which files under ``root`` equal their staged blob (see the module
    docstring). The returned function waits for git (once: later calls repeat the answer)
    and answers root-relative path → blob id for every proven file, or None when git cannot
    tell (not a work tree, git missing, an answer not in git's format)."""
    differing = start_unstaged_anywhere(root)
    try:
        listing = subprocess.Popen(
            ["git", "ls-files", "-z", "-v", "--stage"],
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        differing()
        return lambda: None

    answers: list[dict[str, str] | None] = []

    def answer() -> dict[str, str] | None:
        if not answers:
            answers.append(_prove(listing, differing))
        return answers[0]

    return answer


def _prove(
    listing: subprocess.Popen[bytes], differing: Callable[[], frozenset[str] | None]
) -> dict[str, str] | None:
    """The proven files (path → blob id) from the two running commands, or None."""
    out, _ = listing.communicate()
    changed = differing()
    if listing.returncode != 0 or changed is None:
        return None
    proven: dict[str, str] = {}
    for blob, raw in _CLEAN_ENTRY.findall(out):
        try:
            name = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue  # never a universe file (the listing skips such names)
        if name not in changed:
            proven[name] = blob.decode("ascii")
    return proven
