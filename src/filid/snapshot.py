"""The result snapshot: a whole check result reused while nothing in the project changed.

filid's rules are cross-file (a cycle can close anywhere), so results cannot be cached per
file as ruff and eslint do. Instead the full result of the last run (every enabled rule, no
scope) is stored under a key made of filid's version, the config file's bytes, and the path,
size and modification time of every file in the universe. A run whose key matches answers
from the snapshot, after listing and ``stat``-ing the files, without parsing, resolving or
evaluating; anything else runs the pipeline (with its per-file parse cache) and stores a new
snapshot. ``--rules`` and pre-commit file lists are derived from the full result
(``engine.restrict``). A file modified within two seconds of the snapshot is never trusted
(timestamp granularity; the window is measured from when the files were stat'ed, not from
when the snapshot was written). The snapshot is a sealed file in the per-user cache folder
(``store``): never in the work tree, never decoded unless this user's filid signed it. This
module imports nothing heavy: the engine loads only on a miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import filid
from filid.config.model import Config
from filid.model.report import ValidationResult
from filid.model.violations import (
    FixInfo,
    Location,
    Risk,
    Severity,
    SyncActionKind,
    Violation,
)
from filid.store.files import read_regular_file
from filid.store.sealed import read_sealed, write_sealed

if TYPE_CHECKING:
    from filid.engine import Project
    from filid.scan.universe import Universe

# Completes a freshly computed full result (see check_project).
Annotate = Callable[["Project", ValidationResult], ValidationResult]

SNAPSHOT_FORMAT = 3  # 2: the precision and hostile-input semantics; 3: refused fixes
RACY_WINDOW_NS = 2_000_000_000
_NAME = "result-snapshot.marshal"


def snapshot_key(root: Path, files: Sequence[str], config_path: Path | None) -> tuple[str, int]:
    """(digest of everything a result depends on, newest mtime_ns); raises OSError on stat."""
    digest = hashlib.sha256()
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    digest.update(f"filid {filid.__version__} py{python} f{SNAPSHOT_FORMAT}\0".encode())
    if config_path is not None:
        digest.update(b"config\0" + read_regular_file(config_path, 4 * 1024 * 1024) + b"\0")
    newest = 0
    for rel in files:
        stat = os.stat(root / rel)
        newest = max(newest, stat.st_mtime_ns)
        digest.update(f"{rel}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest(), newest


def _location(loc: Location) -> tuple[Any, ...]:
    return (loc.file, loc.line, loc.column, loc.end_line, loc.end_column, loc.utf16_column)


def _violation(v: Violation) -> tuple[Any, ...]:
    fix = (
        None
        if v.fix is None
        else (v.fix.action.value, v.fix.risk.value, v.fix.description, v.fix.target_path)
    )
    return (
        v.rule_id,
        v.severity.value,
        v.message,
        v.path,
        _location(v.location),
        v.node,
        v.suggestion,
        fix,
        [_location(r) for r in v.related],
        list(v.members),
        v.fingerprint,
    )


def _decode_violation(data: Any) -> Violation:
    (rule, severity, message, path, loc, node, suggestion, fix, related, members, fp) = data
    return Violation(
        rule_id=rule,
        severity=Severity(severity),
        message=message,
        path=path,
        location=Location(*loc),
        node=node,
        suggestion=suggestion,
        fix=None if fix is None else FixInfo(SyncActionKind(fix[0]), Risk(fix[1]), fix[2], fix[3]),
        related=tuple(Location(*r) for r in related),
        members=tuple(members),
        fingerprint=fp,
    )


def encode_result(result: ValidationResult) -> dict[str, Any]:
    """A ``ValidationResult`` as plain data for ``marshal``."""
    return {
        "scope": result.scope,
        "violations": [_violation(v) for v in result.violations],
        "evaluated": {rule: list(nodes) for rule, nodes in result.evaluated.items()},
        "applied": list(result.rules_applied),
        "skipped": list(result.rules_skipped),
        "config": result.config_path,
        "notes": list(result.notes),
        "category": result.extra.get("category"),
        "refused": sorted(result.refused_fixes),
    }


def decode_result(root: Path, data: dict[str, Any], timestamp: str) -> ValidationResult:
    """The inverse of :func:`encode_result`; raises on malformed data."""
    category = data["category"]
    return ValidationResult(
        root=root,
        scope=data["scope"],
        violations=tuple(_decode_violation(v) for v in data["violations"]),
        evaluated={rule: tuple(nodes) for rule, nodes in data["evaluated"].items()},
        rules_applied=tuple(data["applied"]),
        rules_skipped=tuple(data["skipped"]),
        config_path=data["config"],
        timestamp=timestamp,
        notes=tuple(data["notes"]),
        extra={"category": category} if isinstance(category, str) else {},
        refused_fixes=frozenset(_strings(data.get("refused", []))),
    )


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("not a list of strings")
    return value


def load_snapshot(cache_dir: Path, key: str, newest_ns: int, root: Path) -> ValidationResult | None:
    """The stored result for ``key``, or None (absent, other key, racy, unsigned, malformed)."""
    from filid.engine import timestamp

    data = read_sealed(cache_dir / _NAME)
    try:
        if not isinstance(data, dict) or data.get("key") != key:
            return None
        checked = data["checked_ns"]
        if not isinstance(checked, int) or newest_ns >= checked - RACY_WINDOW_NS:
            return None
        return decode_result(root, data["result"], timestamp())
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None


def store_snapshot(cache_dir: Path, key: str, checked_ns: int, result: ValidationResult) -> None:
    """Write the snapshot; ``checked_ns`` is when the files were stat'ed. A failure to write
    is not an error (it is a cache)."""
    payload = {"key": key, "checked_ns": checked_ns, "result": encode_result(result)}
    with contextlib.suppress(OSError):
        write_sealed(cache_dir / _NAME, payload)


def check_project(
    path: str | os.PathLike[str],
    *,
    config_path: Path | None = None,
    rule_ids: Sequence[str] | None = None,
    files: Sequence[str] | None = None,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
    annotate: Annotate | None = None,
) -> ValidationResult:
    """``filid check`` without fixes: from the snapshot when nothing changed, else computed.

    ``annotate`` completes a freshly computed full result before it is kept (the CLI marks
    the proposed fixes the fix planner would refuse); a snapshot keeps what it added.
    """
    from filid.config.load import find_config_file, load_config
    from filid.rules.registry import ALIASES, RULES_BY_ID
    from filid.scan.universe import list_universe, resolve_root
    from filid.store.location import project_cache_dir

    root = resolve_root(path)
    if not use_cache:
        return _compute(root, config_path, rule_ids, files, False, progress, annotate=annotate)
    config = load_config(root, config_path, known_rule_ids=tuple(RULES_BY_ID), rule_aliases=ALIASES)
    universe = list_universe(
        root, config.structure.additional_excluded_directories, config.structure.generated_paths
    )
    cache_dir = project_cache_dir(root)
    if cache_dir is None:
        return _compute(root, config_path, rule_ids, files, True, progress, annotate=annotate)
    checked_ns = time.time_ns()  # before the stat calls: the racy window starts here
    try:
        key, newest = snapshot_key(root, universe.files, find_config_file(root, config_path))
    except OSError:
        return _compute(root, config_path, rule_ids, files, True, progress, annotate=annotate)
    cached = load_snapshot(cache_dir, key, newest, root)
    if cached is not None:
        from filid.engine import restrict

        return restrict(cached, rule_ids=rule_ids, files=files)
    return _compute(
        root,
        config_path,
        rule_ids,
        files,
        True,
        progress,
        (cache_dir, key, checked_ns),
        config,
        universe,
        annotate,
    )


def _compute(
    root: Path,
    config_path: Path | None,
    rule_ids: Sequence[str] | None,
    files: Sequence[str] | None,
    use_cache: bool,
    progress: Callable[[int, int], None] | None,
    store: tuple[Path, str, int] | None = None,
    config: Config | None = None,
    universe: Universe | None = None,
    annotate: Annotate | None = None,
) -> ValidationResult:
    from filid.engine import evaluate, load_project, restrict, select_rules

    select_rules(rule_ids)  # a bad --rules is a usage error before any work
    project = load_project(
        root,
        config_path=config_path,
        config=config,
        use_cache=use_cache,
        progress=progress,
        universe=universe,
    )
    full = evaluate(project)
    if annotate is not None:
        full = annotate(project, full)
    if store is not None:
        store_snapshot(store[0], store[1], store[2], full)
    return restrict(full, rule_ids=rule_ids, files=files)
