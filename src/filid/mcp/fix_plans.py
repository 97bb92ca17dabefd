"""Previewed fix plans for MCP: a diff and a token now, exactly that plan applied later.

``structure-validate`` with ``preview: true`` plans one fix pass, writes nothing, and returns
the diff with a ``planToken``: the SHA-256 of the plan's operations and of the current content
of every file they touch. ``fix: true`` with the token plans again under the root's write lock;
only if the new token is the same — same operations, same file contents — is that plan
applied. Otherwise the call is refused, naming the files that changed when this server issued
the token (it remembers the recent previews' file hashes for that).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, assert_never

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.fix.actions import CreateFile, EditFile, FixPlan, MoveFile, RemoveDirIfEmpty, digest
from filid.fix.apply import apply_plan, preview_diff
from filid.fix.planner import plan_fixes
from filid.model.errors import FixCancelled, InputError
from filid.model.escape import unquote_git_path
from filid.model.report import FixedItem, ValidationResult
from filid.model.violations import Risk, Violation
from filid.store.journal import fix_transaction

__all__ = [
    "FixRuns",
    "PlanPreview",
    "PlanRegistry",
    "apply_previewed",
    "changed_files",
    "plan_preview",
    "split_diff",
]

TOKEN_PREFIX: Final = "plan-sha256:"
# Files over this are hashed in chunks; a fix never touches anything near it in practice.
_CHUNK: Final = 1 << 20
_HUNK: Final = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


@dataclass(frozen=True, slots=True)
class PlanPreview:
    """One planned fix pass: the plan, its diff, the touched files' states, and the token."""

    plan: FixPlan
    diff: str
    files: Mapping[str, str | None]
    token: str
    result: ValidationResult


def _touched(plan: FixPlan) -> list[str]:
    paths: list[str] = []
    for operation in plan.operations:
        match operation:
            case CreateFile(path=path) | EditFile(path=path):
                paths.append(path)
            case MoveFile(src=src, dst=dst):
                paths.extend((src, dst))
            case RemoveDirIfEmpty():
                pass  # removed only when empty; its files are touched by the moves
            case _:
                assert_never(operation)
    return sorted(set(paths))


def file_state(root: Path, path: str) -> str | None:
    """The SHA-256 of the file at root-relative ``path``, ``None`` when absent, or a marker
    for something that is not a regular file (a directory, a link)."""
    target = root / path
    if target.is_symlink():
        return "symlink:" + os.readlink(target)
    if not target.exists():
        return None
    if not target.is_file():
        return "not-a-file"
    hasher = hashlib.sha256()
    with target.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            hasher.update(chunk)
    return hasher.hexdigest()


def _token(root: Path, plan: FixPlan, files: Mapping[str, str | None]) -> str:
    operations = [[type(op).__name__, dataclasses.asdict(op)] for op in plan.operations]
    material = json.dumps(
        {"root": str(root), "operations": operations, "files": dict(sorted(files.items()))},
        sort_keys=True,
        ensure_ascii=False,
    )
    return TOKEN_PREFIX + digest(material.encode("utf-8"))


def plan_preview(
    root: Path, *, rule_ids: Sequence[str] | None, max_risk: Risk = Risk.SAFE
) -> PlanPreview:
    """Plan one fix pass of the project at ``root`` (writes nothing)."""
    project = load_project(root)
    result = evaluate(project, rule_ids=rule_ids)
    plan = plan_fixes(project, result.violations, max_risk=max_risk)
    diff = preview_diff(plan) if not plan.is_empty else ""
    real_root = Path(os.path.realpath(root))
    files = {path: file_state(real_root, path) for path in _touched(plan)}
    return PlanPreview(
        plan=plan, diff=diff, files=files, token=_token(real_root, plan, files), result=result
    )


def changed_files(root: Path, recorded: Mapping[str, str | None]) -> list[str]:
    """The files of ``recorded`` whose state differs now."""
    real_root = Path(os.path.realpath(root))
    return [path for path, state in recorded.items() if file_state(real_root, path) != state]


def _identity(violation: Violation) -> tuple[str, str, str, int, int]:
    location = violation.location
    return (violation.rule_id, violation.path, location.file, location.line, location.column)


def apply_previewed(
    root: Path,
    preview: PlanPreview,
    *,
    rule_ids: Sequence[str] | None,
    cancelled: Callable[[], bool] | None = None,
) -> tuple[ValidationResult, tuple[str, ...]]:
    """Apply exactly ``preview.plan``, re-validate, and say which fixes took effect.

    Returns the re-validated result (``fixed`` and ``remaining`` set) and the changed paths.
    Raises :class:`~filid.model.errors.FixError` (every file restored) when applying fails,
    :class:`~filid.model.errors.FixCancelled` (every file restored) when ``cancelled`` says
    yes before the commit point.
    """
    if cancelled is not None and cancelled():
        raise FixCancelled(())
    changed: tuple[str, ...] = ()
    if not preview.plan.is_empty:
        with fix_transaction(preview.plan.root) as journal:
            changed = apply_plan(preview.plan, journal)
            if cancelled is not None and cancelled():
                raise FixCancelled(changed)
    result = evaluate(load_project(root), rule_ids=rule_ids)
    still = {_identity(v) for v in result.violations}
    fixed = tuple(
        FixedItem(
            violation=f.violation,
            action=f.action,
            result_path=f.result_path,
            success=_identity(f.violation) not in still,
        )
        for f in preview.plan.fixes
    )
    return dataclasses.replace(result, fixed=fixed, remaining=result.violations), changed


class PlanRegistry:
    """The touched files' states of the most recent previews, by token (bounded, thread-safe).

    Only used to name the files that changed when a token is refused; the decision itself
    never depends on it (a token from before a server restart is checked the same way).
    """

    def __init__(self, capacity: int = 64) -> None:
        self._lock = threading.Lock()
        self._capacity = capacity
        self._entries: OrderedDict[str, tuple[Path, dict[str, str | None]]] = OrderedDict()

    def remember(self, root: Path, preview: PlanPreview) -> None:
        """Keep the file states ``preview.token`` was computed from."""
        with self._lock:
            self._entries[preview.token] = (root, dict(preview.files))
            self._entries.move_to_end(preview.token)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)

    def refusal(self, root: Path, token: str) -> str:
        """Why ``token`` no longer matches the plan for ``root`` (one line)."""
        with self._lock:
            entry = self._entries.get(token)
        again = "call structure-validate with preview=true again for a new plan"
        if not token.startswith(TOKEN_PREFIX):
            return f"planToken: not a plan token (expected '{TOKEN_PREFIX}…'); {again}"
        if entry is None or entry[0] != root:
            return (
                "planToken: refused: the plan or the files it touches changed since the "
                f"preview (or the token is not from a preview of this project); {again}"
            )
        changed = changed_files(root, entry[1])
        if changed:
            shown = ", ".join(changed[:5]) + (
                f" and {len(changed) - 5} more" if len(changed) > 5 else ""
            )
            return f"planToken: refused: changed since the preview: {shown}; {again}"
        return f"planToken: refused: the files the plan needs changed since the preview; {again}"


def split_diff(diff: str) -> list[dict[str, Any]]:
    """A unified diff as one ``{file, diff}`` per file (hunk lengths decide where one ends)."""
    chunks: list[dict[str, Any]] = []
    # Only "\n" ends a diff line: str.splitlines would also split at a form feed or U+2028
    # inside a file's content and lose track of the hunks.
    lines = [line + "\n" for line in diff.split("\n")]
    lines[-1] = lines[-1][:-1]
    if not lines[-1]:
        lines.pop()
    index = 0
    while index < len(lines):
        start = index
        if lines[index].startswith("diff --git "):
            index += 1
            while index < len(lines) and not lines[index].startswith("--- "):
                index += 1
        if index >= len(lines) or not lines[index].startswith("--- "):
            raise InputError("cannot split the fix diff into files")  # pragma: no cover
        old_name = lines[index][4:].rstrip("\n")
        new_name = lines[index + 1][4:].rstrip("\n") if index + 1 < len(lines) else old_name
        index += 2
        while index < len(lines) and (match := _HUNK.match(lines[index])):
            old_count = int(match.group(1)) if match.group(1) is not None else 1
            new_count = int(match.group(2)) if match.group(2) is not None else 1
            index += 1
            while index < len(lines) and (old_count > 0 or new_count > 0):
                line = lines[index]
                if line.startswith(" "):
                    old_count -= 1
                    new_count -= 1
                elif line.startswith("-"):
                    old_count -= 1
                elif line.startswith("+"):
                    new_count -= 1
                index += 1
            while index < len(lines) and lines[index].startswith("\\"):
                index += 1
        name = new_name if new_name != "/dev/null" else old_name
        chunks.append({"file": _strip_prefix(name), "diff": "".join(lines[start:index])})
    return chunks


def _strip_prefix(name: str) -> str:
    name = unquote_git_path(name.removesuffix("\t"))
    return name[2:] if name.startswith(("a/", "b/")) else name


class FixRuns:
    """The answers of the most recent fix runs, by run id (bounded, thread-safe).

    A fix changes the tree, so its lists (``fixedItems``, ``changedFiles``…) cannot be asked
    for again by running it again: their next pages are served from here, by ``fixRun``.
    """

    def __init__(self, capacity: int = 16) -> None:
        self._lock = threading.Lock()
        self._capacity = capacity
        self._entries: OrderedDict[str, tuple[Path, Any]] = OrderedDict()

    def remember(self, root: Path, answer: Any) -> str:
        """Keep ``answer`` (whatever the caller pages from later); return its run id."""
        with self._lock:
            run_id = (
                f"fix-{len(self._entries)}-"
                + hashlib.sha256(
                    f"{root}\0{id(answer)}\0{os.getpid()}\0{os.urandom(8).hex()}".encode()
                ).hexdigest()[:16]
            )
            self._entries[run_id] = (root, answer)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)
            return run_id

    def recall(self, root: Path, run_id: str) -> Any:
        """The answer kept for ``run_id`` on ``root``; InputError when unknown or expired."""
        with self._lock:
            entry = self._entries.get(run_id)
        if entry is None or entry[0] != root:
            raise InputError(
                "fixRun: unknown or expired (this server keeps the lists of its last "
                f"{self._capacity} fix runs on their root; a restart forgets them)"
            )
        return entry[1]
