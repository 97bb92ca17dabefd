"""``check --new-since REF``: only what a change introduced, against the merge base with REF.

The result at the merge base is computed from git's objects (``git archive`` of that commit
into a private temporary folder), never by touching the work tree, with the same
configuration as the current run. Violations are matched by fingerprint (rule, path and
non-positional parts; a moved line keeps its fingerprint), as a baseline matches them: the
report keeps the new ones and counts the fixed and unchanged ones.
"""

from __future__ import annotations

import codecs
import dataclasses
import io
import os
import re
import subprocess
import tarfile
import tempfile
from collections import Counter
from pathlib import Path

from filid.config.model import Config
from filid.model.errors import InputError
from filid.model.report import NewSince, ValidationResult
from filid.store.location import scratch_parent

__all__ = ["changed_lines", "keep_new", "result_at"]

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
    from filid.engine import evaluate, load_project

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
    archive = _git(root, "archive", "--format=tar", base, *([prefix] if prefix else []))
    with tempfile.TemporaryDirectory(prefix="filid-base-", dir=scratch_parent(len(archive))) as tmp:
        _extract(archive, Path(tmp))
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


def _extract(archive: bytes, into: Path) -> None:
    """Write the regular files of a ``git archive`` tar below ``into`` (a new private folder).

    Symbolic links and anything else are left out; a name that is absolute or climbs out is
    refused; files are created exclusively without following links.
    """
    made: set[str] = set()
    jobs: list[tuple[str, bytes]] = []
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar:
            name = member.name
            parts = name.split("/")
            if not member.isfile() or name.startswith("/") or ".." in parts or "" in parts:
                continue
            parent = "/".join(parts[:-1])
            if parent and parent not in made:
                os.makedirs(into / parent, mode=0o700, exist_ok=True)
                made.add(parent)
            handle = tar.extractfile(member)
            if handle is not None:
                jobs.append((name, handle.read()))

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for name, data in jobs:
        descriptor = os.open(into / name, flags, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view) :]
        finally:
            os.close(descriptor)


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
