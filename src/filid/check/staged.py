"""``check --staged``: the result for what is being committed, keyed by staged blob ids.

A pre-commit run checks the index, not the work tree. The file set and each file's content
identity come from ``git ls-files --stage`` (``list_project_universe(..., index=True)``):
no ``stat`` of the work tree and no scan for untracked files (an untracked file is not part
of the commit, so a cycle or an import through one is not either). A blob id names its
content exactly, so unlike the work-tree snapshot (``filid.check.snapshot``) no racy window
of timestamps applies.

The staged state is a sealed file in the per-user cache folder, beside the work-tree
snapshot and independent of it (:class:`StagedState`): the key (``check.snapshot.base_key``
plus ``-staged``), the tree the index was compared with (HEAD's) and every path whose staged
blob differed from it, the universe with each file's facts digests, what the fix planner
read and searched for, and the full result. A later run asks git only what the index holds
against that tree (``git diff-index --cached``: git compares its cached tree, so this costs
what changed, not what the repository holds), reads the changed blobs (``git cat-file
--batch``) and answers from the state when the file set is the same and every changed file
passes the early cutoff of the work-tree snapshot (``check.snapshot`` explains it): a source
file whose staged content parses to the same facts, or to facts of the same shape while the
result mentions the file nowhere, that the fix planner neither read nor would find a searched
folder name in, and that is not a vitest config. The re-verified files go to a small delta.

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

import bisect
import contextlib
import marshal
import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filid.check.incremental import Annotate, check_project
from filid.check.result_codec import decode_result, encode_result
from filid.check.snapshot import MAX_REPARSED, base_key
from filid.model.report import ValidationResult
from filid.scan.git_index import StagedChange, head_tree, staged_changes, unstaged_paths
from filid.store.sealed import read_sealed, write_sealed

if TYPE_CHECKING:
    from filid.config.model import Config
    from filid.scan.universe import Universe

__all__ = ["check_staged"]

_NAME = "staged-snapshot.marshal"
_DELTA = "staged-snapshot-delta.marshal"
_RESOLUTIONS = "staged-snapshot-resolutions.marshal"


@dataclass(frozen=True, slots=True)
class StagedState:
    """What the last computed staged run saw.

    ``tree`` is the tree the index was compared with (HEAD's then) and ``diverged`` every path
    whose staged entry differed from it: path → (blob in the tree, blob in the index), None
    for absent or not a regular file. Every other staged path held the tree's blob.
    ``files`` is the universe (sorted), NUL-led and NUL-joined (``"\0a\0b\0"``), and
    ``digests`` each file's facts digests (``"<facts> <shape>"``, spaces for a file without)
    at ``DIGEST_WIDTH`` characters per file, so neither is split into 50,000 strings.
    ``result`` is the encoded result without its violations; ``violations`` holds each
    encoded violation marshalled alone, found through ``touches`` (see :func:`_touch_index`).
    ``delta`` holds the files re-verified since: path → (blob in the index, blob in the
    tree, digests).
    """

    token: str
    tree: str
    diverged: dict[str, tuple[str | None, str | None]]
    files: str
    digests: str
    fix_inputs: frozenset[str]
    fix_needles: frozenset[str]
    result: dict[str, Any]
    violations: list[bytes]
    touches: tuple[str, list[int], str, list[int]]
    delta: dict[str, tuple[str, str | None, str]]

    def index_of(self, name: str) -> int | None:
        """The universe index of ``name``, or None when it is not a universe file."""
        at = self.files.find(f"\0{name}\0")
        return None if at < 0 else self.files.count("\0", 0, at)

    def digest_at(self, index: int) -> str | None:
        """The facts digests of the universe file at ``index`` (None: not a source file)."""
        digest = self.digests[index * DIGEST_WIDTH : (index + 1) * DIGEST_WIDTH]
        return digest if digest.strip() else None

    def violations_touching(self, files: frozenset[str] | None) -> list[Any]:
        """The encoded violations ``scoping.restrict`` keeps for ``files`` (all for None)."""
        chosen: Iterable[int]
        if files is None:
            chosen = range(len(self.violations))
        else:
            by_file, file_starts, by_path, path_starts = self.touches
            directories = frozenset(f.rpartition("/")[0] or "." for f in files)
            found: set[int] = set()
            for text, starts, keys in (
                (by_file, file_starts, files),
                (by_path, path_starts, directories),
            ):
                for key in keys:
                    needle = f"\1{key}\1"
                    at = text.find(needle)
                    while at >= 0:
                        found.add(bisect.bisect_right(starts, at) - 1)
                        at = text.find(needle, at + 1)
            chosen = sorted(found)
        return [marshal.loads(self.violations[i]) for i in chosen]

    def mentions(self, name: str) -> bool:
        """Whether the result names ``name`` anywhere (a violation, a note, a message)."""
        if name in repr(self.result):
            return True
        encoded = name.encode("utf-8")
        return any(encoded in blob for blob in self.violations)


# ``"<32 hex> <32 hex>"`` (parse.cache.digest_pair).
DIGEST_WIDTH = 65


def _touch_index(violations: Sequence[Any]) -> tuple[str, list[int], str, list[int]]:
    """Where each encoded violation is found by the files of a pre-commit run, as
    ``scoping.restrict`` decides: by its path, location file or a related file (``by_file``),
    or by its path alone being a folder of those files (``by_path``). Each is one string of
    ``"\1key\1key\1"`` segments, one per violation, with each segment's start: a key is
    found with ``str.find``, not by decoding every violation."""
    by_file: list[str] = []
    by_path: list[str] = []
    file_starts: list[int] = []
    path_starts: list[int] = []
    file_at = path_at = 0
    for data in violations:
        path, location, related = data[3], data[4], data[8]
        keys = sorted({path, location[0], *(r[0] for r in related)})
        segment = "\1" + "\1".join(keys) + "\1\0"
        file_starts.append(file_at)
        by_file.append(segment)
        file_at += len(segment)
        segment = f"\1{path}\1\0"
        path_starts.append(path_at)
        by_path.append(segment)
        path_at += len(segment)
    return "".join(by_file), file_starts, "".join(by_path), path_starts


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("not a list of strings")
    return value


def _ints(value: Any, count: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) == count
        and set(map(type, value)) <= {int}
        and value == sorted(value)
    )


def _blob(value: Any) -> str | None:
    if not isinstance(value, str):
        raise ValueError("not a blob id")
    return value or None


def load_staged_state(cache_dir: Path, key: str) -> StagedState | None:
    """The stored staged state for ``key`` with its delta applied, or None (absent, another
    key, unsigned or malformed: the cache folder's content is never trusted)."""
    data = read_sealed(cache_dir / _NAME)
    try:
        if not isinstance(data, dict) or data.get("key") != key:
            return None
        # One string per column, one bytes per violation: marshal loads them far faster than
        # 50,000 strings or 10,000 nested tuples.
        token, tree, result, diverged = (
            data["token"],
            data["tree"],
            data["result"],
            data["diverged"],
        )
        files, digests, violations = data["files"], data["digests"], data["violations"]
        by_file, file_starts, by_path, path_starts = data["touches"]
        if not (
            isinstance(token, str)
            and isinstance(tree, str)
            and isinstance(result, dict)
            and isinstance(diverged, dict)
            and isinstance(files, str)
            and isinstance(digests, str)
            and files.startswith("\0")
            and files.endswith("\0")
            and len(digests) == files.count("\0", 1) * DIGEST_WIDTH
            and isinstance(violations, list)
            and set(map(type, violations)) <= {bytes}
            and isinstance(by_file, str)
            and isinstance(by_path, str)
            and _ints(file_starts, len(violations))
            and _ints(path_starts, len(violations))
        ):
            return None
        return StagedState(
            token,
            tree,
            {_path(name): (_blob(item[0]), _blob(item[1])) for name, item in diverged.items()},
            files,
            digests,
            frozenset(_strings(data["fixInputs"])),
            frozenset(_strings(data["fixNeedles"])),
            result,
            violations,
            (by_file, file_starts, by_path, path_starts),
            _load_delta(cache_dir, token),
        )
    except (ValueError, TypeError, KeyError, IndexError):
        return None


def _path(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("not a path")
    return value


def _load_delta(cache_dir: Path, token: str) -> dict[str, tuple[str, str | None, str]]:
    data = read_sealed(cache_dir / _DELTA)
    if not isinstance(data, dict) or data.get("base") != token:
        return {}
    entries = data.get("entries")
    if not isinstance(entries, dict):
        return {}
    delta: dict[str, tuple[str, str | None, str]] = {}
    for name, item in entries.items():
        if not (
            isinstance(name, str)
            and isinstance(item, list)
            and len(item) == 3
            and all(isinstance(x, str) for x in item)
            and item[0]
        ):
            return {}
        delta[name] = (item[0], item[1] or None, item[2])
    return delta


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
    root: Path, state: StagedState, changed: Sequence[Changed]
) -> dict[str, tuple[str, str | None, str]] | None:
    """The changed files with their new (blob, tree blob, digests) when none of the changes
    can alter the result (the early cutoff, on staged content); None when it must be
    recomputed."""
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
    blobs = read_blobs(root, [blob for _, _, blob, _ in changed], MAX_FILE_BYTES)
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


def _store_state(
    cache_dir: Path,
    key: str,
    against: tuple[str, list[StagedChange]],
    universe: Universe,
    digests: Mapping[str, str],
    result: ValidationResult,
    resolutions: object,
) -> None:
    """Write the staged state of a computed run (and drop its delta); a cache, so a failure
    to write is not an error."""
    token = secrets.token_hex(16)
    tree, diverged = against
    encoded = encode_result(result)
    violations = encoded.pop("violations")
    payload = {
        "key": key,
        "token": token,
        "tree": tree,
        "diverged": {name: [before or "", after or ""] for name, before, after in diverged},
        "files": "".join(f"\0{name}" for name in universe.files) + "\0",
        "digests": "".join(_fixed(digests.get(name)) for name in universe.files),
        "fixInputs": sorted(result.fix_inputs),
        "fixNeedles": sorted(result.fix_needles),
        "result": encoded,
        "violations": [marshal.dumps(v) for v in violations],
        "touches": list(_touch_index(violations)),
    }
    with contextlib.suppress(OSError):
        (cache_dir / _DELTA).unlink(missing_ok=True)
        (cache_dir / _RESOLUTIONS).unlink(missing_ok=True)
        write_sealed(cache_dir / _NAME, payload)
        if resolutions is not None:
            write_sealed(cache_dir / _RESOLUTIONS, {"base": token, "memo": resolutions})


def _fixed(digest: str | None) -> str:
    """``digest`` at ``DIGEST_WIDTH`` characters; spaces for none (or one of another width:
    that file then never passes the early cutoff, it is recomputed)."""
    return digest if digest is not None and len(digest) == DIGEST_WIDTH else " " * DIGEST_WIDTH


def _store_delta(
    cache_dir: Path, state: StagedState, verified: Mapping[str, tuple[str, str | None, str]]
) -> None:
    entries = {
        name: [blob, tree or "", digests] for name, (blob, tree, digests) in state.delta.items()
    }
    entries.update({name: [blob, tree or "", d] for name, (blob, tree, d) in verified.items()})
    with contextlib.suppress(OSError):
        write_sealed(cache_dir / _DELTA, {"base": state.token, "entries": entries})


def _load_resolutions(cache_dir: Path, token: str) -> object:
    data = read_sealed(cache_dir / _RESOLUTIONS)
    if not isinstance(data, dict) or data.get("base") != token:
        return None
    return data.get("memo")


def check_staged(
    path: str | os.PathLike[str],
    *,
    config_path: Path | None = None,
    rule_ids: Sequence[str] | None = None,
    files: Sequence[str] | None = None,
    use_cache: bool = True,
    progress: Any = None,
    annotate: Annotate | None = None,
) -> ValidationResult:
    """``filid check --staged`` without fixes: the result for the staged files (see the
    module docstring), restricted to ``rule_ids`` and ``files`` as ``check_project`` does.

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
    resolutions: object = None
    if cache_dir is not None and state is not None:
        # What git's index holds against the state's tree: costs what changed, no listing.
        changes = staged_changes(root, state.tree)
        changed = _changed(state, changes) if changes is not None else None
        if changed is not None:
            verified = _reverified(root, state, changed)
            if verified is not None:
                from filid.check.scoping import normalize_files, restrict, timestamp

                wanted = None if files is None else normalize_files(root, files)
                try:
                    data = {**state.result, "violations": state.violations_touching(wanted)}
                    cached = decode_result(root, data, timestamp(), wanted)
                except (ValueError, TypeError, KeyError, IndexError, AttributeError, EOFError):
                    cached = None
                if cached is not None:
                    if verified:
                        _store_delta(cache_dir, state, verified)
                    return restrict(cached, rule_ids=rule_ids, files=files)
            elif all(is_source_file(name) for name, _, _, _ in changed):
                # Same files, same tsconfigs and manifests: specifiers resolve as before.
                resolutions = _load_resolutions(cache_dir, state.token)
    tree = head_tree(root)
    against = staged_changes(root, tree) if tree is not None else None
    universe = list_project_universe(root, config, index=True)
    if len(universe.ids) != len(universe.files) or not universe.files or against is None:
        return work_tree()  # not a git work tree: nothing is staged, check the files
    unstaged = unstaged_paths(root, dict(zip(universe.files, universe.ids, strict=True)))
    if unstaged is None or unstaged:
        return work_tree()
    assert tree is not None
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
    from filid.check.engine import evaluate
    from filid.check.project import load_project
    from filid.check.scoping import restrict, select_rules

    select_rules(rule_ids)  # a bad --rules is a usage error before any work
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
    if annotate is not None:
        full = annotate(project, full)
    if store is not None:
        cache_dir, key, (tree, against) = store
        # The index must not have moved while the result was computed (a `git add` meanwhile).
        if staged_changes(root, tree) == against:
            _store_state(
                cache_dir,
                key,
                (tree, against),
                universe,
                project.fact_digests,
                full,
                project.resolver.memo_data(),
            )
    return restrict(full, rule_ids=rule_ids, files=files)
