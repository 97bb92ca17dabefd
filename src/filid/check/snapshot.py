"""The result snapshot: a whole check result reused while no change can alter it.

filid's rules are cross-file (a cycle can close anywhere), so results cannot be cached per
file as ruff and eslint do. Instead the full result of the last run (every enabled rule, no
scope) is stored with what it was computed from: a key made of filid's version and the config
file's bytes, and the path, size, modification time and parsed-facts digests of every file in
the universe, plus what the fix planner read for the refused-fix marks. A later run lists and
``stat``-s the files and answers from the snapshot, without resolving or evaluating anything,
when

- nothing changed, or
- the file set is the same and each changed file is a source file whose facts, re-parsed
  alone, equal the stored ones (a comment or whitespace edit at the end), or differ only in
  positions while the result mentions the file nowhere (an edit inside a function body of a
  file without findings), and that the fix planner neither read nor would find a searched
  folder name in (see :func:`reverified`). This is the early cutoff: a pre-commit run
  after such an edit costs the listing plus one parse. The re-verified files' new stat data
  go to a small delta file, so the next run trusts them without parsing them again.

When stat data cannot answer (a fresh clone or a checkout gave files new modification
times), the files git vouches for as equal to their staged blob (``filid.scan.clean_files``)
are compared by blob id instead (:func:`changed_by_blobs`), then the same two cases apply; an
answer found that way rewrites the snapshot with the new stat data (:func:`restamp_state`).
A blob id is recorded only for a file the computing run saw vouched for and whose stat data
stayed the listing's through the run (:func:`still_proven`), so it names the parsed content.

Anything else runs the pipeline (with its per-file parse cache) and stores a new snapshot.
``--rules`` and pre-commit file lists are derived from the full result (``scoping.restrict``).
A file modified within two seconds of when it was recorded is never trusted by its stat data
(timestamp granularity): it counts as changed and is re-parsed. The snapshot is a sealed file
in the per-user cache folder (``store``): never in the work tree, never decoded unless this
user's filid signed it. Deciding per call whether to reuse it is ``filid.check.incremental``;
the result's encoding is ``filid.check.result_codec``.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import secrets
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filid.check.result_codec import encode_result, string_list
from filid.model.errors import FilidError
from filid.model.report import ValidationResult
from filid.scan.documents import has_legacy_ledger
from filid.store.files import UnsafePathError, read_regular_file
from filid.store.identity import code_identity
from filid.store.sealed import read_sealed, write_sealed

if TYPE_CHECKING:
    from array import array  # loaded where stat data are packed (not on the staged path)

    from filid.scan.universe import Universe

# 2: precision semantics; 3: refused fixes; 4: per-file state (cutoff); 5: regime; 6: blob ids;
# 7: compact (joined paths and digests, packed stat data, the result marshalled apart)
SNAPSHOT_FORMAT = 7
RACY_WINDOW_NS = 2_000_000_000
# Beyond this many changed source files, re-parsing them one by one to prove their facts
# unchanged costs more than the parse cache's parallel run: recompute instead.
MAX_REPARSED = 64
_NAME = "result-snapshot.marshal"
_DELTA = "result-snapshot-delta.marshal"
# Every (folder, specifier) → resolution of the run that wrote the snapshot: reused by the
# next computed run while the file set and every non-source file are unchanged.
_RESOLUTIONS = "result-snapshot-resolutions.marshal"


def base_key(config_path: Path | None, root: Path) -> str:
    """The digest of what every result depends on besides the files: filid, Python, the
    snapshot format, the config file's bytes and whether ``root`` holds the legacy criteria
    ledger (a dot path, outside the universe). Raises OSError when the config is unreadable."""
    digest = hashlib.sha256()
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    digest.update(f"filid {code_identity()} py{python} f{SNAPSHOT_FORMAT}\0".encode())
    if has_legacy_ledger(root):
        digest.update(b"legacy-ledger\0")
    if config_path is not None:
        digest.update(b"config\0" + read_regular_file(config_path, 4 * 1024 * 1024) + b"\0")
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class State:
    """What the last full run saw, plus the files re-verified since (the delta).

    Kept as the snapshot stores it, compact, because a warm run holds it at its memory peak
    (a 50,000-file state as lists of strings and integers took about 35 MB, as here about
    18): ``joined_files`` is the universe's paths, NUL-joined; ``sizes``/``mtimes`` are
    parallel to it; ``joined_digests`` holds each source file's ``"<facts digest> <shape
    digest>"`` ("" for other files and skipped ones), NUL-joined; ``joined_ids`` each file's
    blob id when the run proved it equal to its staged blob ("" otherwise; all "" when none is
    recorded), NUL-joined (see :func:`changed_by_blobs`); ``encoded_result`` the marshalled
    result, decoded only when a run answers from it. ``checked_ns`` is when that run stat'ed
    the files; a delta entry (size, mtime_ns, digests, checked_ns) carries its own.
    ``fix_inputs``/``fix_needles`` are what the fix planner read and searched for
    (``ValidationResult``).
    """

    token: str
    joined_files: str
    sizes: array[int]
    mtimes: array[int]
    joined_digests: str
    checked_ns: int
    fix_inputs: frozenset[str]
    fix_needles: frozenset[str]
    encoded_result: bytes
    delta: dict[str, tuple[int, int, str, int]]
    joined_ids: str = ""

    @property
    def files(self) -> list[str]:
        """The universe's paths (a new list on every call)."""
        return self.joined_files.split("\0") if self.joined_files else []

    @property
    def digests(self) -> list[str | None]:
        """Each file's digests, None for none (a new list on every call)."""
        return [item or None for item in self.joined_digests.split("\0")]

    @property
    def ids(self) -> list[str]:
        """Each file's recorded blob id, "" for none (a new list on every call)."""
        ids = self.joined_ids.split("\0") if self.joined_ids else []
        return ids if len(ids) == len(self.sizes) else [""] * len(self.sizes)

    @property
    def has_ids(self) -> bool:
        """Whether any file was recorded with its blob id."""
        return self.joined_ids.count("\0") != len(self.joined_ids)  # not only separators

    def digests_at(self, indexes: Sequence[int]) -> dict[int, str | None]:
        """The digests of the files at ``indexes`` (None for none), without splitting all."""
        text = self.joined_digests
        found: dict[int, str | None] = {}
        start = position = 0
        for index in sorted(set(indexes)):
            while position < index:
                start = text.index("\0", start) + 1
                position += 1
            end = text.find("\0", start)
            found[index] = text[start : len(text) if end < 0 else end] or None
        return found

    def same_files(self, files: Sequence[str]) -> bool:
        """Whether ``files`` are the stored paths, in the same order."""
        return len(files) == len(self.sizes) and "\0".join(files) == self.joined_files

    def result(self) -> dict[str, Any]:
        """The stored result as plain data (``result_codec``); raises when malformed."""
        data = marshal.loads(self.encoded_result)
        if not isinstance(data, dict):
            raise ValueError("not a stored result")
        return data


def load_state(cache_dir: Path, key: str) -> State | None:
    """The stored state for ``key`` (with its delta applied), or None (absent, other key,
    unsigned, malformed)."""
    data = read_sealed(cache_dir / _NAME)
    try:
        if not isinstance(data, dict) or data.get("key") != key:
            return None
        files, digests, ids = data["files"], data["digests"], data["ids"]
        checked, token, result = data["checked_ns"], data["token"], data["result"]
        if not (
            isinstance(checked, int)
            and isinstance(token, str)
            and isinstance(result, bytes)
            and all(isinstance(x, str) for x in (files, digests, ids))
        ):
            return None
        sizes, mtimes = _integers(data["sizes"]), _integers(data["mtimes"])
        count = files.count("\0") + 1 if files else 0
        if not len(sizes) == len(mtimes) == count or (
            digests.count("\0") != count - 1 if count else digests != ""
        ):
            return None
        return State(
            token,
            files,
            sizes,
            mtimes,
            digests,
            checked,
            frozenset(string_list(data["fixInputs"])),
            frozenset(string_list(data["fixNeedles"])),
            result,
            _load_delta(cache_dir, token),
            ids,
        )
    except (ValueError, TypeError, KeyError):
        return None


def _integers(value: object) -> array[int]:
    """The signed 64-bit integers ``value`` (bytes) holds; ValueError when it holds none."""
    from array import array

    if not isinstance(value, bytes):
        raise ValueError("not packed integers")
    packed = array("q")
    packed.frombytes(value)
    return packed


def _load_delta(cache_dir: Path, token: str) -> dict[str, tuple[int, int, str, int]]:
    data = read_sealed(cache_dir / _DELTA)
    if not isinstance(data, dict) or data.get("base") != token:
        return {}
    entries = data.get("entries")
    if not isinstance(entries, dict):
        return {}
    delta: dict[str, tuple[int, int, str, int]] = {}
    for name, item in entries.items():
        if not (
            isinstance(name, str)
            and isinstance(item, list)
            and len(item) == 4
            and all(isinstance(x, int) for x in (item[0], item[1], item[3]))
            and isinstance(item[2], str)
        ):
            return {}
        delta[name] = (item[0], item[1], item[2], item[3])
    return delta


def changed_indexes(
    state: State, files: Sequence[str], stats: Sequence[tuple[int, int]]
) -> list[int] | None:
    """The indexes of the files changed since ``state`` (by stat data, or racy), or None when
    the file set itself changed."""
    return changed_by_blobs(state, files, stats, {})


def changed_by_blobs(
    state: State,
    files: Sequence[str],
    stats: Sequence[tuple[int, int]],
    proven: Mapping[str, str],
) -> list[int] | None:
    """:func:`changed_indexes`, where a file that git proves equal to its staged blob now
    (``proven``: path → blob id, ``filid.scan.clean_files``) and that ``state`` recorded with
    a blob id is changed exactly when the ids differ, whatever its stat data: a fresh clone or
    a checkout rewrites files (new modification times) without changing their content. Every
    other file is judged by its stat data."""
    if not state.same_files(files):
        return None
    delta = state.delta
    ids = state.ids if proven else None  # the stat-data path never splits them
    sizes, mtimes = state.sizes, state.mtimes
    limit = state.checked_ns - RACY_WINDOW_NS
    changed: list[int] = []
    for index, (size, mtime) in enumerate(stats):
        stored = ids[index] if ids is not None else ""
        if stored:
            blob = proven.get(files[index])
            if blob is not None:
                if blob != stored:
                    changed.append(index)
                continue
        if mtime < limit and size == sizes[index] and mtime == mtimes[index]:
            continue
        known = delta.get(files[index])
        if (
            known is not None
            and size == known[0]
            and mtime == known[1]
            and mtime < known[3] - RACY_WINDOW_NS
        ):
            continue
        changed.append(index)
    return changed


def still_proven(
    root: Path,
    files: Sequence[str],
    stats: Sequence[tuple[int, int]],
    proven: Mapping[str, str],
    checked_ns: int,
) -> dict[str, str]:
    """The entries of ``proven`` (a proof taken after the listing that gave ``stats``) whose
    file still has the listing's stat data, older than the racy window before
    ``checked_ns``: under the rule the snapshot already lives by (same stat data, not racy,
    same content), such a file held the proven blob through the whole run, so the facts the
    run parsed are that blob's. Any other file is recorded without an id."""
    import os

    limit = checked_ns - RACY_WINDOW_NS
    prefix = f"{root}/"
    kept: dict[str, str] = {}
    for name, (size, mtime) in zip(files, stats, strict=True):
        blob = proven.get(name)
        if blob is None or mtime >= limit:
            continue
        try:
            info = os.lstat(prefix + name)
        except OSError:
            continue
        if info.st_size == size and info.st_mtime_ns == mtime:
            kept[name] = blob
    return kept


def reverified(
    root: Path, state: State, files: Sequence[str], changed: Sequence[int]
) -> dict[str, tuple[int, int, str]] | None:
    """The files changed since ``state`` with their new (size, mtime_ns, digests), when none
    of the changes can alter the result; None when the result must be recomputed.

    Every stage reads a source file only through its parsed facts, and the fix planner (the
    refused-fix marks) reads the files it lists plus any file spelling a folder name it
    searched for. So a change cannot alter the result when the file set is the same and
    every changed file is a source file that

    - parses to the same facts (an edit to comments or whitespace at the end), or to facts
      of the same shape (positions aside: an edit inside a function body) while the result
      mentions the file nowhere (no violation, related location, message or note, so no
      position of it is shown), and
    - was not read by the fix planner and does not spell a folder name it searched for, and
    - is not a vitest config (its literal ``typecheck.include`` names test files).

    A file whose stat data is within the racy window of when it was recorded counts as
    changed (its content is verified, not its timestamp).
    """
    if len(changed) > MAX_REPARSED:
        return None
    if not changed:
        return {}
    delta = state.delta
    from filid.parse.cache import digest_pair
    from filid.parse.files import process_file
    from filid.parse.vitest import is_vitest_config
    from filid.scan.universe import is_source_file

    needles = [needle.encode("utf-8") for needle in sorted(state.fix_needles)]
    mentions: str | None = None
    verified: dict[str, tuple[int, int, str]] = {}
    recorded = state.digests_at(changed)
    for index in changed:
        name = files[index]
        stored = recorded[index]
        if stored is None or not is_source_file(name) or name in state.fix_inputs:
            return None
        if is_vitest_config(name):
            return None  # its `typecheck.include` strings decide test files, not its facts
        known = delta.get(name)
        if known is not None:
            stored = known[2]
        outcome = process_file(root, name)
        if outcome.note is not None or outcome.encoded is None:
            return None
        digests = digest_pair(outcome.encoded)
        if digests != stored:
            if digests.split(" ")[1] != stored.split(" ")[1]:
                return None
            if mentions is None:
                try:
                    mentions = repr(state.result())
                except (EOFError, ValueError, TypeError):
                    return None
            if name in mentions:
                return None
        if needles and _spells_any(root, name, needles):
            return None
        verified[name] = (outcome.size, outcome.mtime_ns, digests)
    return verified


def _spells_any(root: Path, name: str, needles: Sequence[bytes]) -> bool:
    """Whether the file's text holds any of ``needles`` (unreadable: True, to be safe)."""
    try:
        content = read_regular_file(root / name, 1 << 20)
    except (OSError, UnsafePathError):
        return True
    return any(needle in content for needle in needles)


def store_state(
    cache_dir: Path,
    key: str,
    checked_ns: int,
    files: Sequence[str],
    stats: Sequence[tuple[int, int]],
    digests: Mapping[str, str],
    result: ValidationResult,
    resolutions: list[Any] | None = None,
    ids: Mapping[str, str] | str | None = None,
) -> None:
    """Write the state of a full run (and drop its delta) and the run's resolutions; a
    failure to write is not an error (it is a cache). ``checked_ns`` is when the files were
    stat'ed; ``ids`` the blob ids of the files proven equal to them (:func:`still_proven`),
    or already NUL-joined in the order of ``files``."""
    from array import array

    token = secrets.token_hex(16)
    payload = {
        "key": key,
        "token": token,
        "checked_ns": checked_ns,
        "files": "\0".join(files),
        "sizes": array("q", [size for size, _ in stats]).tobytes(),
        "mtimes": array("q", [mtime for _, mtime in stats]).tobytes(),
        "digests": "\0".join(digests.get(name) or "" for name in files),
        "ids": ids
        if isinstance(ids, str)
        else "\0".join((ids or {}).get(name, "") for name in files),
        "fixInputs": sorted(result.fix_inputs),
        "fixNeedles": sorted(result.fix_needles),
        "result": marshal.dumps(encode_result(result)),
    }
    with contextlib.suppress(OSError):
        (cache_dir / _DELTA).unlink(missing_ok=True)
        (cache_dir / _RESOLUTIONS).unlink(missing_ok=True)
        write_sealed(cache_dir / _NAME, payload)
        if resolutions is not None:
            write_sealed(cache_dir / _RESOLUTIONS, {"base": token, "memo": resolutions})


def load_resolutions(cache_dir: Path, token: str) -> object:
    """The resolutions stored with the state ``token`` (None when absent or another's)."""
    data = read_sealed(cache_dir / _RESOLUTIONS)
    if not isinstance(data, dict) or data.get("base") != token:
        return None
    return data.get("memo")


def reusable_resolutions(root: Path, config_path: Path | None, universe: Universe) -> object:
    """The specifier resolutions stored with the last check's state, when ``universe`` (a
    fresh listing of ``root``) has the same files and no tsconfig, manifest or other
    non-source file changed since (then every specifier resolves as it did); else None.

    ``load_project(..., resolutions=…)`` takes them instead of resolving again (the Claude
    Code structure guard, which must answer quickly, uses them).
    """
    from filid.scan.universe import is_source_file
    from filid.store.location import project_cache_dir

    cache_dir = project_cache_dir(root)
    if cache_dir is None:
        return None
    try:
        from filid.config.load import find_config_file

        state = load_state(cache_dir, base_key(find_config_file(root, config_path), root))
    except (OSError, FilidError):
        return None
    if state is None:
        return None
    changed = changed_indexes(state, universe.files, list(universe.stats))
    if changed is None or any(not is_source_file(universe.files[i]) for i in changed):
        return None
    return load_resolutions(cache_dir, state.token)


def store_delta(
    cache_dir: Path, state: State, checked_ns: int, verified: Mapping[str, tuple[int, int, str]]
) -> None:
    entries = {name: list(item) for name, item in state.delta.items()}
    for name, (size, mtime, digest) in verified.items():
        entries[name] = [size, mtime, digest, checked_ns]
    with contextlib.suppress(OSError):
        write_sealed(cache_dir / _DELTA, {"base": state.token, "entries": entries})


def restamp_state(
    cache_dir: Path,
    key: str,
    state: State,
    checked_ns: int,
    stats: Sequence[tuple[int, int]],
    proven: Mapping[str, str],
    kept: Mapping[str, str],
    verified: Mapping[str, tuple[int, int, str]],
) -> None:
    """Rewrite ``state`` (same result, same token, so its resolutions stay attached) with
    this run's stat data and blob ids, after a run answered from it by blob ids: the next
    run is answered by stat data again (once the files are older than the racy window).

    A file whose proven blob (``proven``) is the one ``state`` recorded keeps it and its
    digests (that content is what the digests describe, however recent the file); any
    other file gets the id :func:`still_proven` kept for it (``kept``), if any.
    ``verified`` are the files this run re-parsed (their digests replace the stored ones).
    The delta is folded in and removed first (nothing is written when it cannot be)."""
    from array import array

    stored = state.ids
    old = state.digests
    digests: list[str] = []
    ids: list[str] = []
    for index, name in enumerate(state.files):
        same = bool(stored[index]) and proven.get(name) == stored[index]
        ids.append(stored[index] if same else kept.get(name, ""))
        if name in verified:
            digests.append(verified[name][2])
        elif same:
            digests.append(old[index] or "")  # the content the full run parsed
        elif name in state.delta:
            digests.append(state.delta[name][2])
        else:
            digests.append(old[index] or "")
    data = {
        "key": key,
        "token": state.token,
        "checked_ns": checked_ns,
        "files": state.joined_files,
        "sizes": array("q", [size for size, _ in stats]).tobytes(),
        "mtimes": array("q", [mtime for _, mtime in stats]).tobytes(),
        "digests": "\0".join(digests),
        "ids": "\0".join(ids),
        "fixInputs": sorted(state.fix_inputs),
        "fixNeedles": sorted(state.fix_needles),
        "result": state.encoded_result,
    }
    with contextlib.suppress(OSError):
        (cache_dir / _DELTA).unlink(missing_ok=True)
        write_sealed(cache_dir / _NAME, data)
