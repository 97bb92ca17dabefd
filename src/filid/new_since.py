"""``check --new-since REF``: only what a change introduced, against the merge base with REF.

The result at the merge base is computed from git's objects (``git archive`` of that commit
into a private temporary folder), never by touching the work tree, with the same
configuration as the current run. Violations are matched by fingerprint (rule, path and
non-positional parts; a moved line keeps its fingerprint), as a baseline matches them: the
report keeps the new ones and counts the fixed and unchanged ones.
"""

from __future__ import annotations

import dataclasses
import io
import subprocess
import tarfile
import tempfile
from collections import Counter
from pathlib import Path

from filid.config.model import Config
from filid.model.errors import InputError
from filid.model.report import NewSince, ValidationResult

__all__ = ["keep_new", "result_at"]


def _git(cwd: Path, *args: str) -> bytes:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"--new-since: git {args[0]} failed: {message[-1] if message else ''}")
    return done.stdout


def result_at(root: Path, ref: str, config: Config) -> tuple[ValidationResult, str]:
    """The full result of the project at the merge base of ``ref`` and HEAD, and that commit."""
    from filid.engine import evaluate, load_project

    if ref.startswith("-"):
        raise InputError(f"--new-since: not a revision: {ref}")
    base = _git(root, "merge-base", ref, "HEAD").decode().strip()
    prefix = _git(root, "rev-parse", "--show-prefix").decode().strip()
    archive = _git(root, "archive", "--format=tar", base, *([prefix] if prefix else []))
    with tempfile.TemporaryDirectory(prefix="filid-base-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            # git archive holds regular files, folders and symlinks; keep files and folders only
            members = [m for m in tar.getmembers() if m.isfile() or m.isdir()]
            if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4
                tar.extractall(tmp, members=members, filter="data")
            else:  # pragma: no cover - members are plain files and folders from git
                tar.extractall(tmp, members=members)
        project_root = Path(tmp) / prefix if prefix else Path(tmp)
        project_root.mkdir(parents=True, exist_ok=True)
        result = evaluate(load_project(project_root, config=config, use_cache=False))
    return result, base


def keep_new(
    current: ValidationResult, base: ValidationResult, ref: str, commit: str
) -> ValidationResult:
    """``current`` with only the violations whose fingerprints the base did not have."""
    before = Counter(v.fingerprint for v in base.violations)
    seen: Counter[str] = Counter()
    new = []
    for violation in current.violations:
        seen[violation.fingerprint] += 1
        if seen[violation.fingerprint] > before[violation.fingerprint]:
            new.append(violation)
    unchanged = len(current.violations) - len(new)
    fixed = sum((before - Counter(v.fingerprint for v in current.violations)).values())
    return dataclasses.replace(
        current,
        violations=tuple(new),
        new_since=NewSince(ref=ref, commit=commit, new=len(new), fixed=fixed, unchanged=unchanged),
    )
