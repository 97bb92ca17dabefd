"""``check --new-since REF``: only what a change introduced, against the merge base with REF.

The result at the merge base is computed from git's objects (the commit's files listed with
``git ls-tree`` and streamed one at a time from ``git cat-file --batch`` into a private
temporary folder; not ``git archive``, which honours ``export-ignore`` and would hide old
files, so their old violations would look new), never by touching the work tree, with the same
configuration as the current run. Violations are matched by fingerprint (rule, path and
non-positional parts; a moved line keeps its fingerprint), as a baseline matches them: the
report keeps the new ones and counts the fixed and unchanged ones.
"""

from __future__ import annotations

import codecs
import dataclasses
import os
import re
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from filid.config.model import Config
from filid.model.errors import InputError
from filid.model.escape import visible
from filid.model.facts import BoundaryExemption
from filid.model.report import NewSince, ValidationResult
from filid.scan.documents import MAX_DOCUMENT_BYTES, parse_boundary_exemptions
from filid.store.location import scratch_parent

__all__ = ["changed_lines", "exemptions_at", "keep_new", "result_at"]

_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def _git(cwd: Path, *args: str) -> bytes:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"--new-since: git {args[0]} failed: {message[-1] if message else ''}")
    return done.stdout


def result_at(
    root: Path, ref: str, config: Config, *, use_cache: bool = True
) -> tuple[ValidationResult, str]:
    """The full result of the project at the merge base of ``ref`` and HEAD, and that commit.

    With ``use_cache``, files whose content is unchanged take their facts from the current
    checkout's parse cache (read only; matched by SHA-256), so only changed files are parsed.
    """
    from filid.check.engine import evaluate
    from filid.check.project import load_project

    if ref.startswith("-"):
        raise InputError(f"--new-since: not a revision: {ref}")
    try:
        _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    except InputError:
        raise InputError(f"--new-since: {ref} is not a commit in this repository") from None
    try:
        base = _git(root, "merge-base", ref, "HEAD").decode().strip()
    except InputError:
        raise InputError(
            f"--new-since: {ref} and HEAD have no merge base in this clone "
            "(a shallow clone? fetch more history, e.g. actions/checkout with fetch-depth: 0)"
        ) from None
    prefix = _git(root, "rev-parse", "--show-prefix").decode().strip()
    top = Path(_git(root, "rev-parse", "--show-toplevel").decode().strip())
    entries = _tree_entries(top, base, prefix)
    size = sum(entry[2] for entry in entries)
    with tempfile.TemporaryDirectory(prefix="filid-base-", dir=scratch_parent(size)) as tmp:
        _write_blobs(top, entries, Path(tmp))
        project_root = Path(tmp) / prefix if prefix else Path(tmp)
        project_root.mkdir(parents=True, exist_ok=True)
        project = load_project(
            project_root,
            config=config,
            use_cache=False,
            borrow_cache_from=root if use_cache else None,
        )
        result = evaluate(project)
    return result, base


def _tree_entries(top: Path, commit: str, prefix: str) -> list[tuple[str, str, int]]:
    """``(path, blob id, size)`` of every regular file of ``commit`` below ``prefix`` (paths
    from the top of the repository). Links and submodules are left out, and so are files whose
    blob the clone lacks; ``--`` ends the options, and no ``.gitattributes`` is consulted
    (``export-ignore`` would hide files)."""
    listing = _git(
        top, "ls-tree", "-r", "-z", "--full-tree", "-l", commit, "--", *([prefix] if prefix else [])
    )
    entries: list[tuple[str, str, int]] = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        fields = meta.split()
        if len(fields) != 4 or fields[1] != b"blob" or fields[0] not in (b"100644", b"100755"):
            continue
        if not fields[3].isdigit():
            # git has no size for a blob the clone lacks (a partial clone, a mirror without
            # large blobs): the commit's tree lacks the file, as the work tree does
            continue
        path = raw_path.decode("utf-8", "surrogateescape")
        parts = path.split("/")
        if path.startswith("/") or any(part in ("", ".", "..") for part in parts):
            continue
        entries.append((path, fields[2].decode("ascii"), int(fields[3])))
    return entries


def _write_blobs(top: Path, entries: list[tuple[str, str, int]], into: Path) -> None:
    """Write each blob below ``into`` (a new private folder), streamed from one
    ``git cat-file --batch``: one object in memory at a time, in chunks; files are created
    exclusively, never through a link."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    made: set[str] = set()
    process = subprocess.Popen(
        ["git", "cat-file", "--batch"],
        cwd=top,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        for path, blob, _size in entries:
            process.stdin.write(blob.encode("ascii") + b"\n")
            process.stdin.flush()
            header = process.stdout.readline().split()
            if len(header) != 3 or header[1] != b"blob":
                raise InputError(f"--new-since: git cat-file cannot read {visible(path)}")
            remaining = int(header[2])
            parent = path.rpartition("/")[0]
            if parent and parent not in made:
                os.makedirs(into / parent, mode=0o700, exist_ok=True)
                made.add(parent)
            descriptor = os.open(into / path, flags, 0o600)
            try:
                while remaining:
                    chunk = process.stdout.read(min(remaining, 1 << 20))
                    if not chunk:
                        raise InputError("--new-since: git cat-file ended early")
                    view = memoryview(chunk)
                    while view:
                        view = view[os.write(descriptor, view) :]
                    remaining -= len(chunk)
            finally:
                os.close(descriptor)
            process.stdout.read(1)  # the newline after each object
    finally:
        process.stdin.close()
        process.stdout.close()
        process.wait()


def exemptions_at(root: Path, ref: str) -> tuple[tuple[str, tuple[BoundaryExemption, ...]], ...]:
    """The DETAIL.md boundary exemptions of every detail document of the project at ``ref``
    (paths relative to ``root``), read from git's objects: the policy a change cannot edit."""
    if ref.startswith("-"):
        raise InputError(f"--exemptions-from: not a revision: {ref}")
    try:
        commit = (
            _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
            .decode()
            .strip()
        )
    except InputError:
        raise InputError(f"--exemptions-from: {ref} is not a commit in this repository") from None
    prefix = _git(root, "rev-parse", "--show-prefix").decode().strip()
    top = Path(_git(root, "rev-parse", "--show-toplevel").decode().strip())
    pinned: list[tuple[str, tuple[BoundaryExemption, ...]]] = []
    for path, blob, size in _tree_entries(top, commit, prefix):
        if path.rpartition("/")[2] != "DETAIL.md" or size > MAX_DOCUMENT_BYTES:
            continue
        relative = path[len(prefix) :]
        text = _git(top, "cat-file", "blob", blob).decode("utf-8", "replace")
        directory = relative.rpartition("/")[0] or "."
        pinned.append((relative, parse_boundary_exemptions(directory, text.splitlines())))
    return tuple(sorted(pinned))


def changed_lines(root: Path, commit: str) -> dict[str, frozenset[int] | None]:
    """The lines of each file under ``root`` that differ from ``commit`` (root-relative paths).

    From ``git diff -U0`` of ``commit`` against the work tree; a file whose change has no line
    hunks (binary, mode only) maps to ``None``. Used only to order annotations, so a git
    failure yields an empty mapping rather than an error.
    """
    done = subprocess.run(
        ["git", "-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff",
         "--no-renames", "--relative", "--src-prefix=a/", "--dst-prefix=b/", commit, "--"],
        cwd=root, capture_output=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        return {}
    changed: dict[str, set[int] | None] = {}
    current: str | None = None
    for raw in done.stdout.split(b"\n"):
        if raw.startswith(b"+++ "):
            current = _diff_path(raw[4:])
            if current is not None:
                changed.setdefault(current, None)
        elif current is not None and (hunk := _HUNK.match(raw)):
            start, count = int(hunk[1]), int(hunk[2] or b"1")
            lines = changed.get(current) or set()
            # a pure deletion (count 0) sits between lines: mark the line after it
            lines.update(range(start, start + count) if count else (max(start, 1),))
            changed[current] = lines
    return {path: None if lines is None else frozenset(lines) for path, lines in changed.items()}


def _diff_path(spelled: bytes) -> str | None:
    """The path of a ``+++`` header (``b/…``, C-quoted when unusual; ``/dev/null``: none)."""
    # git ends a header whose path has a space with a tab (for GNU patch)
    text = spelled.rstrip(b"\r").removesuffix(b"\t")
    if text.startswith(b'"') and text.endswith(b'"'):
        text = codecs.escape_decode(text[1:-1])[0]
    if not text.startswith(b"b/"):
        return None
    return text[2:].decode("utf-8", "replace")


def keep_new(
    current: ValidationResult,
    base: ValidationResult,
    ref: str,
    commit: str,
    changed: dict[str, frozenset[int] | None] | None = None,
) -> ValidationResult:
    """``current`` with only the violations whose fingerprints the base did not have."""
    before = Counter(v.fingerprint for v in base.violations)
    seen: Counter[str] = Counter()
    new = []
    kept = []
    for violation in current.violations:
        seen[violation.fingerprint] += 1
        if seen[violation.fingerprint] > before[violation.fingerprint]:
            new.append(violation)
        else:
            kept.append(violation)
    unchanged = len(kept)
    fixed = sum((before - Counter(v.fingerprint for v in current.violations)).values())
    return dataclasses.replace(
        current,
        violations=tuple(new),
        new_since=NewSince(
            ref=ref,
            commit=commit,
            new=len(new),
            fixed=fixed,
            unchanged=unchanged,
            changed_lines=changed or {},
            unchanged_violations=tuple(kept),
        ),
    )
