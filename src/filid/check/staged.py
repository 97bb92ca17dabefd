"""``check --staged``: the result for what is being committed, keyed by staged blob ids.

A pre-commit run checks the index, not the work tree. The file set and each file's content
identity come from ``git ls-files --stage`` (``list_project_universe(..., index=True)``):
no ``stat`` of the work tree and no scan for untracked files (an untracked file is not part
of the commit, so a cycle or an import through one is not either). A blob id names its
content exactly, so unlike the work-tree snapshot (``filid.check.snapshot``) no racy window
of timestamps applies.

The staged state is a sealed file in the per-user cache folder, beside the work-tree
snapshot and independent of it (:class:`StagedState`), read by sections (only those a run
asks for: a one-file run reads the buckets of its files and the violations touching them,
whatever the repository's size): the key (``check.snapshot.base_key`` plus ``-staged``),
the tree the index was compared with (HEAD's) and every path whose staged blob differed
from it, the universe with each file's facts digests, what the fix planner read and
searched for, and the full result. A later run asks git only what the index holds against
that tree (``git diff-index --cached``: git compares its cached tree, so this costs what
changed, not what the repository holds; the caller's call against HEAD, which found the
staged deletions, serves when HEAD's tree is the state's), reads the changed blobs
(``git cat-file --batch``) and answers from the state when the file set is the same and
every changed file passes the early cutoff of the work-tree snapshot (``check.snapshot``
explains it): a source file whose staged content parses to the same facts, or to facts of
the same shape while the result mentions the file nowhere, that the fix planner neither read
nor would find a searched folder name in, and that is not a vitest config. The re-verified
files go to a small delta.

Anything else computes the result with the pipeline over the staged file set, which reads the
work tree: that is the staged content only when the work tree's copies of the staged files
equal the index (``git diff-files``, each candidate hashed as git hashes a blob), as under
pre-commit, which stashes unstaged changes before running hooks. Then the result is stored
under the blob ids. When some staged file differs in the work tree (``filid check --staged``
run by hand on a tree with unstaged edits), the run falls back to the work-tree check of
``filid.check.incremental``, as before this mode existed, and stores no staged state.

Decided where the issue is silent: ``unresolved-import`` does not claim an import whose
target exists on disk outside the file universe (a build output), so an import of an
untracked file is not reported by a staged run either (a false error costs more than a missed
one); staged deletions still load the project once more to find the imports they break.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filid.check.incremental import Annotate, check_project, evaluate_afresh
from filid.check.result_codec import decode_result
from filid.check.snapshot import MAX_REPARSED, base_key
from filid.check.staged_state import (
    StagedState,
    load_graph,
    load_resolutions,
    load_staged_state,
    store_delta,
    store_state,
)
from filid.model.report import ValidationResult
from filid.scan.git_index import StagedChange, head_tree, staged_changes, unstaged_paths
from filid.scan.universe import with_unfetched_sources
from filid.store.sealed import SealedSectionError

if TYPE_CHECKING:
    from filid.config.model import Config
    from filid.scan.git_index import HeadIndex
    from filid.scan.universe import Universe

__all__ = ["check_staged"]

# A staged file the result was not computed for: (path, its universe index, its blob now,
# its blob in the state's tree).
Changed = tuple[str, int, str, str | None]


def _changed(state: StagedState, changes: Sequence[StagedChange]) -> list[Changed] | None:
    """The universe files whose staged blob differs from what the state's result was
    computed for (its delta applied), from ``changes`` (the index against the state's tree);
    None when the file set may have changed (a universe file gone or no longer a regular
    file, a path outside the universe that became a regular file)."""
    listed = {name: (before, after) for name, before, after in changes}
    candidates = listed.keys() | state.diverged.keys() | state.delta.keys()
    if not candidates:
        return []
    changed: list[Changed] = []
    for name in sorted(candidates):
        known = listed.get(name)
        if known is not None:
            in_tree, now = known
        else:  # the index holds the tree's blob: the state knows it
            was = state.diverged.get(name)
            in_tree = was[0] if was is not None else state.delta[name][1]
            now = in_tree
        verified = state.delta.get(name)
        diverged = state.diverged.get(name)
        then = verified[0] if verified else diverged[1] if diverged else in_tree
        if then == now:
            continue
        index = state.index_of(name)
        if index is None:
            if then is None:
                return None  # maybe a new universe file (unless excluded: not worth asking)
            continue  # a staged file outside the universe: excluded by its path
        if now is None:
            return None  # a universe file removed, or no longer a regular file
        changed.append((name, index, now, in_tree))
    return changed


def _reverified(
    root: Path, state: StagedState, changed: Sequence[Changed], read: dict[str, bytes]
) -> dict[str, tuple[str, str | None, str]] | None:
    """The changed files with their new (blob, tree blob, digests) when none of the changes
    can alter the result (the early cutoff, on staged content); None when it must be
    recomputed. The blobs read (the changed files' new ones, and the ones the result was
    computed from, which the patch path compares them with) are left in ``read``."""
    if len(changed) > MAX_REPARSED:
        return None
    if not changed:
        return {}
    from filid.parse.files import MAX_FILE_BYTES, process_source
    from filid.parse.vitest import is_vitest_config
    from filid.scan.git_index import read_blobs
    from filid.scan.universe import is_source_file

    for name, index, _, _ in changed:
        if state.digest_at(index) is None or not is_source_file(name) or name in state.fix_inputs:
            return None
        if is_vitest_config(name):
            return None  # its `typecheck.include` strings decide test files, not its facts
    wanted = [blob for _, _, blob, _ in changed]
    wanted += [then for name, _, _, in_tree in changed if (then := _then(state, name, in_tree))]
    blobs = read_blobs(root, wanted, MAX_FILE_BYTES)
    read.update(blobs)
    needles = [needle.encode("utf-8") for needle in sorted(state.fix_needles)]
    verified: dict[str, tuple[str, str | None, str]] = {}
    for name, index, blob, in_tree in changed:
        content = blobs.get(blob)
        if content is None:
            return None
        known = state.delta.get(name)
        stored = known[2] if known is not None else state.digest_at(index)
        assert stored is not None
        outcome = process_source(name, content)
        if outcome.note is not None or not outcome.fdigest:
            return None
        if outcome.fdigest != stored:
            if outcome.fdigest.split(" ")[1] != stored.split(" ")[1]:
                return None
            if state.mentions(name):
                return None
        if any(needle in content for needle in needles):
            return None
        verified[name] = (blob, in_tree, outcome.fdigest)
    return verified


def _then(state: StagedState, name: str, in_tree: str | None) -> str | None:
    """The blob of ``name`` the state's result was computed from (its delta applied)."""
    verified = state.delta.get(name)
    if verified is not None:
        return verified[0]
    diverged = state.diverged.get(name)
    return diverged[1] if diverged is not None else in_tree


def _patchable(
    state: StagedState, changed: Sequence[Changed]
) -> list[tuple[str, int, str, str]] | None:
    """The changed files with the blob the stored result was computed from, when what the
    state alone tells allows the patch path (``check.staged_patch``): few files, each a
    source file with stored digests, not a vitest config, not read by the fix planner,
    named by no violation and no note but another file's refused fix; else None."""
    from filid.parse.vitest import is_vitest_config

    if len(changed) > MAX_REPARSED:
        return None
    edited: list[tuple[str, int, str, str]] = []
    for name, index, now, in_tree in changed:
        then = _then(state, name, in_tree)
        if then is None or state.digest_at(index) is None or name in state.fix_inputs:
            return None
        if is_vitest_config(name) or state.mentions_beyond_refusals(name):
            return None
        edited.append((name, index, now, then))
    return edited


def _patch(
    root: Path,
    cache_dir: Path | None,
    config: Config,
    state: StagedState,
    edited: Sequence[tuple[str, int, str, str]],
    changed: Sequence[Changed],
    files: Sequence[str],
    clean: Callable[[], bool],
    read: Mapping[str, bytes],
) -> tuple[dict[str, tuple[str, str | None, str]], dict[str, int]] | None:
    """The changed files' delta entries and the module edge counts, when
    ``check.staged_patch`` proves the stored result still holds for these import edits
    (``files`` is the state's universe; ``clean()`` tells whether the work tree's copies of
    them equal the index, asked before the proof answers; ``read`` the blobs already read);
    None otherwise."""
    from filid.check.project import gc_paused  # the proof imports it too
    from filid.check.staged_patch import unchanged_by_imports
    from filid.parse.files import MAX_FILE_BYTES, process_source
    from filid.scan.git_index import read_blobs

    assert cache_dir is not None
    with gc_paused():  # the kept tree's many tuples hold no cycles
        graph = load_graph(cache_dir, state)
    if graph is None:
        return None
    wanted = [blob for _, _, now, then in edited for blob in (now, then)]
    missing = [blob for blob in wanted if blob not in read]
    contents = {**read, **(read_blobs(root, missing, MAX_FILE_BYTES) if missing else {})}
    needles = [needle.encode("utf-8") for needle in sorted(state.fix_needles)]
    verified: dict[str, tuple[str, str | None, str]] = {}
    for (name, index, now, then), (_, _, _, in_tree) in zip(edited, changed, strict=True):
        content, before = contents.get(now), contents.get(then)
        if content is None or before is None or any(n in content for n in needles):
            return None
        known = state.delta.get(name)
        stored = known[2] if known is not None else state.digest_at(index)
        if process_source(name, before).fdigest != stored:
            return None  # not the content the result was computed from
        outcome = process_source(name, content)
        if outcome.note is not None or not outcome.fdigest:
            return None
        verified[name] = (now, in_tree, outcome.fdigest)
    pairs = unchanged_by_imports(
        root, config, files, graph, state.violations, edited, contents, clean
    )
    return None if pairs is None else (verified, pairs)


def check_staged(
    path: str | os.PathLike[str],
    *,
    config_path: Path | None = None,
    rule_ids: Sequence[str] | None = None,
    files: Sequence[str] | None = None,
    use_cache: bool = True,
    progress: Any = None,
    annotate: Annotate | None = None,
    head: HeadIndex | None = None,
) -> ValidationResult:
    """``filid check --staged`` without fixes: the result for the staged files (see the
    module docstring), restricted to ``rule_ids`` and ``files`` as ``check_project`` does.
    ``head`` is what the index held against HEAD when the caller asked (it asked for the
    staged deletions): git is not asked again for it.

    Outside a git work tree it is :func:`filid.check.incremental.check_project`.
    """
    from filid.config.load import find_config_file, load_config
    from filid.rules.catalogue import ALIASES, RULE_IDS
    from filid.scan.regime import list_project_universe
    from filid.scan.universe import is_source_file, resolve_root
    from filid.store.location import project_cache_dir

    root = resolve_root(path)

    def work_tree() -> ValidationResult:
        return check_project(
            root,
            config_path=config_path,
            rule_ids=rule_ids,
            files=files,
            use_cache=use_cache,
            progress=progress,
            annotate=annotate,
        )

    config = load_config(root, config_path, known_rule_ids=RULE_IDS, rule_aliases=ALIASES)
    cache_dir = project_cache_dir(root) if use_cache else None
    key = ""
    state: StagedState | None = None
    if cache_dir is not None:
        try:
            key = base_key(find_config_file(root, config_path), root) + "-staged"
        except OSError:
            cache_dir = None
        else:
            if annotate is None:
                key += "-plain"  # a result without the CLI's refused-fix marks is another one
            state = load_staged_state(cache_dir, key)
    read: dict[str, bytes] = {}  # blobs the early cutoff read, for the patch path
    resolved_by: str | None = None  # the state whose stored resolutions still hold
    patchable: list[Changed] | None = None

    def answer(
        state: StagedState,
        verified: dict[str, tuple[str, str | None, str]],
        pairs: dict[str, int] | None = None,
    ) -> ValidationResult | None:
        """The stored result (the files ``verified`` recorded in its delta), or None when
        it cannot be decoded."""
        from filid.check.clock import timestamp
        from filid.check.scoping import normalize_files, restrict

        assert cache_dir is not None
        wanted = None if files is None else normalize_files(root, files)
        try:
            data = {
                **state.core(),
                "evaluated": {},
                "violations": state.violations_touching(wanted),
            }
            cached = decode_result(root, data, timestamp(), wanted)
            # Read (and checked) now, split into paths only if a report counts them.
            cached = dataclasses.replace(cached, evaluated=state.evaluated())
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, EOFError):
            return None
        if verified:
            store_delta(cache_dir, state, verified, pairs)
        return restrict(cached, rule_ids=rule_ids, files=files)

    if cache_dir is not None and state is not None:
        # What git's index holds against the state's tree: costs what changed, no listing.
        if head is not None and head.tree == state.tree:
            changes: list[StagedChange] | None = head.changes
        else:
            changes = staged_changes(root, state.tree)
        try:
            changed = _changed(state, changes) if changes is not None else None
            if changed is not None:
                verified = _reverified(root, state, changed, read)
                if verified is not None:
                    cached = answer(state, verified)
                    if cached is not None:
                        return cached
                elif all(is_source_file(name) for name, _, _, _ in changed):
                    # Same files, same tsconfigs and manifests: specifiers resolve as before
                    # (read only when the result is computed: the proof does not need them).
                    resolved_by = state.token
                    patchable = changed
        except SealedSectionError:  # the state file was replaced or damaged meanwhile
            state = None
    asked: list[frozenset[str] | None] = []  # `git diff-files`, asked at most once
    pending: list[Callable[[], frozenset[str] | None]] = []

    def differing() -> frozenset[str] | None:
        """The staged paths whose work-tree copy differs from the index (None: unknown)."""
        from filid.scan.git_index import start_unstaged_anywhere

        if not asked:
            asked.append(pending[0]() if pending else start_unstaged_anywhere(root)())
        return asked[0]

    if patchable is not None and state is not None:
        from filid.scan.git_index import start_unstaged_anywhere

        # Both the proof and the computation it may fall back to ask it: git runs while
        # the proof parses.
        pending.append(start_unstaged_anywhere(root))
        # An import edit that changes no finding: proven without listing the project.
        try:
            edited = _patchable(state, patchable)
            if edited is not None:
                listed = state.file_list()

                def clean() -> bool:
                    found = differing()
                    return found is not None and found.isdisjoint(listed)

                proven = _patch(
                    root, cache_dir, config, state, edited, patchable, listed, clean, read
                )
                if proven is not None:
                    cached = answer(state, *proven)
                    if cached is not None:
                        return cached
        except SealedSectionError:  # the state file was replaced or damaged meanwhile
            resolved_by = None
    if pending:
        differing()  # started for the proof: wait for it (and reuse it below)
    if head is not None:
        tree: str | None = head.tree
        against: list[StagedChange] | None = head.changes
    else:
        tree = head_tree(root)
        against = staged_changes(root, tree) if tree is not None else None
    universe = list_project_universe(root, config, index=True)
    if len(universe.ids) != len(universe.files) or not universe.files or against is None:
        return work_tree()  # not a git work tree: nothing is staged, check the files
    if asked and asked[0] is not None:
        unstaged: frozenset[str] | None = asked[0] & frozenset(universe.files)
    else:
        unstaged = unstaged_paths(root, dict(zip(universe.files, universe.ids, strict=True)))
    if unstaged is None or unstaged:
        return work_tree()
    assert tree is not None
    # a source file of the commit that the clone never fetched (a sparse, partial clone's
    # ``--skip-worktree`` entry) is listed, never read
    universe = with_unfetched_sources(root, universe)
    resolutions: object = None
    if resolved_by is not None and cache_dir is not None:
        resolutions = load_resolutions(cache_dir, resolved_by)
    return _compute(
        root, config_path, config, rule_ids, files, use_cache, progress, universe, annotate,
        (cache_dir, key, (tree, against)) if cache_dir is not None else None, resolutions,
    )  # fmt: skip


def _compute(
    root: Path,
    config_path: Path | None,
    config: Config,
    rule_ids: Sequence[str] | None,
    files: Sequence[str] | None,
    use_cache: bool,
    progress: Any,
    universe: Universe,
    annotate: Annotate | None,
    store: tuple[Path, str, tuple[str, list[StagedChange]]] | None,
    resolutions: object,
) -> ValidationResult:
    from filid.check.scoping import restrict

    project, full = evaluate_afresh(
        root, config_path, config, rule_ids, use_cache, progress, universe, annotate, resolutions
    )
    if store is not None:
        cache_dir, key, (tree, against) = store
        # The index must not have moved while the result was computed (a `git add` meanwhile).
        if staged_changes(root, tree) == against:
            from filid.check.project import gc_paused
            from filid.check.staged_summary import graph_summary
            from filid.model.report import Regime

            with gc_paused():
                summary = graph_summary(
                    universe.files,
                    project.facts,
                    project.test_files,
                    project.module_graph,
                    project.regime is Regime.DECLARED,
                    project.tree,
                )
            store_state(
                cache_dir,
                key,
                (tree, against),
                universe,
                project.fact_digests,
                full,
                project.resolver.memo_data(),
                summary,
            )
    return restrict(full, rule_ids=rule_ids, files=files)
