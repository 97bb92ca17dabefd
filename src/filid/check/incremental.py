"""The incremental check: ``filid check`` without fixes, answered from the result snapshot
when no change can alter the result, else computed (with the parse cache) and stored.

The snapshot itself (what is stored, how a change is recognised as harmless) is
``filid.check.snapshot``; this module only decides, per call, whether to reuse or compute.
It imports nothing heavy: the engine loads only on a miss.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from filid.check.result_codec import decode_result
from filid.check.snapshot import (
    base_key,
    changed_by_blobs,
    changed_indexes,
    load_resolutions,
    load_state,
    restamp_state,
    reverified,
    still_proven,
    store_delta,
    store_state,
)
from filid.config.model import Config
from filid.model.report import ValidationResult
from filid.scan.clean_files import start_clean_blobs

if TYPE_CHECKING:
    from filid.check.project import Project
    from filid.scan.universe import Universe

# Completes a freshly computed full result (see check_project).
Annotate = Callable[["Project", ValidationResult], ValidationResult]
# The files git proves equal to their staged blob (filid.scan.clean_files), to come / known.
Proof = Callable[[], dict[str, str] | None]
Proven = dict[str, str] | None
# Beyond this many files with new stat data, git is asked which of them still hold the blob
# the stored result saw (a checkout or a fresh clone rewrote them); below it they are most
# likely edits, re-parsed one by one as before.
ASK_GIT_ABOVE = 8


def check_project(
    path: str | os.PathLike[str],
    *,
    config_path: Path | None = None,
    rule_ids: Sequence[str] | None = None,
    files: Sequence[str] | None = None,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
    annotate: Annotate | None = None,
    config: Config | None = None,
) -> ValidationResult:
    """``filid check`` without fixes: from the stored state when no change can alter the
    result, else computed (with the parse cache) and stored.

    A ``config`` given by the caller (pinned exemptions) is used as it is; such a result is
    computed each time and never stored (the stored state is keyed by the config file).

    ``annotate`` completes a freshly computed full result before it is kept (the CLI marks
    the proposed fixes the fix planner would refuse); the stored state keeps what it added.
    """
    from filid.config.load import find_config_file, load_config
    from filid.rules.catalogue import ALIASES, RULE_IDS
    from filid.scan.regime import list_project_universe
    from filid.scan.universe import is_source_file, resolve_root
    from filid.store.location import project_cache_dir

    root = resolve_root(path)
    if config is not None:
        return _compute(
            root, config_path, rule_ids, files, use_cache, progress, None, config, None, annotate
        )
    if not use_cache:
        return _compute(root, config_path, rule_ids, files, False, progress, annotate=annotate)
    config = load_config(root, config_path, known_rule_ids=RULE_IDS, rule_aliases=ALIASES)
    checked_ns = time.time_ns()  # before the listing stats the files: the racy window starts
    universe = list_project_universe(root, config)
    cache_dir = project_cache_dir(root)
    if cache_dir is None:
        return _compute(root, config_path, rule_ids, files, True, progress, annotate=annotate)
    try:
        key = base_key(find_config_file(root, config_path), root)
        if annotate is None:
            # A result without the caller's completion (the CLI's refused-fix marks) is a
            # different result: it must never answer a call that expects them, nor they it.
            key += "-plain"
        stats = list(universe.stats)  # the listing's one lstat per file
    except OSError:
        return _compute(root, config_path, rule_ids, files, True, progress, annotate=annotate)
    state = load_state(cache_dir, key)
    resolutions: object = None
    changed = changed_indexes(state, universe.files, stats) if state is not None else None
    proof: Proof | None = None
    proven: Proven = None
    if (
        state is not None
        and changed is not None
        and len(changed) > ASK_GIT_ABOVE
        and universe.from_git
        and state.has_ids
    ):
        # Many files with new stat data (a fresh clone, a checkout): judge the files git
        # proves equal to their staged blob by blob id instead (snapshot.changed_by_blobs).
        proof = start_clean_blobs(root)
        proven = proof()
        if proven:
            changed = changed_by_blobs(state, universe.files, stats, proven)
    if state is not None and changed is not None:
        verified = reverified(root, state, universe.files, changed)
        if verified is None and not any(
            not is_source_file(universe.files[index]) for index in changed
        ):
            # Same files, same tsconfigs and manifests: every specifier resolves as before.
            resolutions = load_resolutions(cache_dir, state.token)
        if verified is not None:
            from filid.check.clock import timestamp
            from filid.check.scoping import normalize_files, restrict

            wanted = None if files is None else normalize_files(root, files)
            try:
                cached = decode_result(root, state.result(), timestamp(), wanted)
            except (EOFError, ValueError, TypeError, KeyError, IndexError, AttributeError):
                cached = None
            if cached is not None:
                if proven:
                    recorded = dict(zip(state.files, state.ids, strict=False))
                    fresh = {n: b for n, b in proven.items() if recorded.get(n) != b}
                    kept = still_proven(root, universe.files, stats, fresh, checked_ns)
                    restamp_state(cache_dir, key, state, checked_ns, stats, proven, kept, verified)
                elif verified:
                    store_delta(cache_dir, state, checked_ns, verified)
                return restrict(cached, rule_ids=rule_ids, files=files)
    carried: str | None = None
    if proof is None and universe.from_git:
        if state is not None and changed is not None and state.has_ids:
            # An edit on a recorded tree: a file unchanged by stat data keeps its blob id
            # (same content), the changed ones get none; git need not be asked. Kept joined
            # as the state stores them: a mapping of 50,000 ids would stay alive (~10 MB)
            # through the whole computation.
            skip = frozenset(changed)
            delta = state.delta
            carried = "\0".join(
                "" if index in skip or name in delta else blob
                for index, (name, blob) in enumerate(zip(universe.files, state.ids, strict=True))
            )
        else:
            proof = start_clean_blobs(root)  # git works while the pipeline runs
    return _compute(
        root,
        config_path,
        rule_ids,
        files,
        True,
        progress,
        (cache_dir, key, checked_ns, stats, proof, proven if carried is None else carried),
        config,
        universe,
        annotate,
        resolutions,
    )


def evaluate_afresh(
    root: Path,
    config_path: Path | None,
    config: Config | None,
    rule_ids: Sequence[str] | None,
    use_cache: bool,
    progress: Callable[[int, int], None] | None,
    universe: Universe | None,
    annotate: Annotate | None,
    resolutions: object,
) -> tuple[Project, ValidationResult]:
    """Load the project and evaluate every rule (the result a snapshot stores, before
    scoping), with the refused-fix marks when ``annotate`` is given; a bad ``--rules`` is a
    usage error before any work."""
    from filid.check.engine import evaluate
    from filid.check.project import load_project
    from filid.check.scoping import select_rules

    select_rules(rule_ids)
    project = load_project(
        root,
        config_path=config_path,
        config=config,
        use_cache=use_cache,
        progress=progress,
        universe=universe,
        resolutions=resolutions,
    )
    full = evaluate(project)
    return project, full if annotate is None else annotate(project, full)


def _compute(
    root: Path,
    config_path: Path | None,
    rule_ids: Sequence[str] | None,
    files: Sequence[str] | None,
    use_cache: bool,
    progress: Callable[[int, int], None] | None,
    store: tuple[Path, str, int, list[tuple[int, int]], Proof | None, Proven | str] | None = None,
    config: Config | None = None,
    universe: Universe | None = None,
    annotate: Annotate | None = None,
    resolutions: object = None,
) -> ValidationResult:
    from filid.check.scoping import restrict

    try:
        project, full = evaluate_afresh(
            root,
            config_path,
            config,
            rule_ids,
            use_cache,
            progress,
            universe,
            annotate,
            resolutions,
        )
    except BaseException:
        if store is not None and store[4] is not None:
            store[4]()  # reap the git processes (a long-lived MCP server calls again)
        raise
    if store is not None and universe is not None:
        cache_dir, key, checked_ns, stats_list, proof, known = store
        ids: Proven | str
        if proof is not None:
            proven = proof()
            ids = (
                still_proven(root, universe.files, stats_list, proven, checked_ns)
                if proven
                else None
            )
        else:
            ids = known  # carried over from the state (joined, as stored): already checked
        store_state(
            cache_dir,
            key,
            checked_ns,
            universe.files,
            stats_list,
            project.fact_digests,
            full,
            project.resolver.memo_data(),
            ids,
        )
    return restrict(full, rule_ids=rule_ids, files=files)
