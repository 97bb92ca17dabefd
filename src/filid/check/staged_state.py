"""The staged state ``check --staged`` keeps between runs (see ``filid.check.staged``): its
sealed file, the delta of re-verified files and the stored resolutions, read back without
trusting anything the repository could have planted (types and sizes are checked)."""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import marshal
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filid.check.result_codec import encode_result
from filid.check.staged_summary import GraphSummary, fix_involved
from filid.model.report import ValidationResult
from filid.store.sealed import read_sealed, write_sealed

if TYPE_CHECKING:
    from filid.scan.git_index import StagedChange
    from filid.scan.universe import Universe

__all__ = [
    "DIGEST_WIDTH",
    "StagedState",
    "load_delta",
    "load_graph",
    "load_resolutions",
    "load_staged_state",
    "store_delta",
    "store_state",
]

_NAME = "staged-snapshot.marshal"
_DELTA = "staged-snapshot-delta.marshal"
_RESOLUTIONS = "staged-snapshot-resolutions.marshal"
_GRAPH = "staged-snapshot-graph.marshal"


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
    tree, digests). ``pair_overrides`` are the module edge counts (and style tallies) the
    patch path's proofs changed since (``check.staged_summary``), whose summary of the run is
    a file of its own (:func:`load_graph`): the early cutoff never reads it. ``memo`` keeps
    what :meth:`mentions` joined for the next file asked.
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
    pair_overrides: dict[str, int] = dataclasses.field(default_factory=dict)
    memo: dict[str, str | bytes] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )

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
        return (
            name in self._text("all")
            or name in self._text("notes")
            or name.encode("utf-8") in self._violation_bytes()
        )

    def mentions_beyond_refusals(self, name: str) -> bool:
        """:meth:`mentions`, not counting the notes that say why another file's fix is
        refused (``fix not possible: <rule> at <path>: <reason>``, with ``<path>`` not
        ``name``): such a note follows from that violation and the planner's reading,
        which the patch path checks apart (``check.staged_patch``). Nor the folders each
        rule evaluated: they are the tree's nodes a rule applies to (no file is a node), and
        the patch path proves the tree unchanged."""
        if name in self._text("named"):
            return True
        notes = self.result.get("notes")
        if name in self._text("notes") and isinstance(notes, list):
            for note in notes:
                if not isinstance(note, str):
                    if _names(note, name):
                        return True
                    continue
                if name not in note:
                    continue
                if not note.startswith("fix not possible: "):
                    return True
                subject = note.partition(": ")[2].partition(": ")[0]  # "<rule> at <path>"
                if subject.partition(" at ")[2] == name:
                    return True
        elif name in self._text("notes"):
            return True
        return name.encode("utf-8") in self._violation_bytes()

    def _text(self, part: str) -> str:
        """Every string of the result but its violations (``"all"``: but its notes too;
        ``"notes"``: its notes alone; ``"named"``: neither its notes nor the nodes each rule
        evaluated), NUL-joined (no path holds a NUL): a name is mentioned when it is found
        in one of them. Kept for the next file asked."""
        found = self.memo.get(part)
        if found is None:
            if part == "notes":
                value: Any = self.result.get("notes")
            else:
                left_out = {"notes", "evaluated"} if part == "named" else {"notes"}
                value = {k: v for k, v in self.result.items() if k not in left_out}
            strings: list[str] = []
            _strings_of(value, strings)
            found = self.memo[part] = "\0".join(strings)
        assert isinstance(found, str)
        return found

    def _violation_bytes(self) -> bytes:
        """The encoded violations, NUL-joined (marshal writes a string as its UTF-8)."""
        found = self.memo.get("violations")
        if found is None:
            found = self.memo["violations"] = b"\0".join(self.violations)
        assert isinstance(found, bytes)
        return found


def _strings_of(value: Any, out: list[str]) -> None:
    """Append every string in ``value`` (dict keys and values, list and tuple items, at any
    depth) to ``out``; a list of strings alone is appended joined."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _strings_of(key, out)
            _strings_of(item, out)
    elif isinstance(value, list | tuple):
        try:
            out.append("\0".join(value))  # a list of paths: joined at C speed
        except TypeError:
            for item in value:
                _strings_of(item, out)


def _names(value: Any, name: str) -> bool:
    """Whether a string in ``value`` holds ``name``."""
    strings: list[str] = []
    _strings_of(value, strings)
    return any(name in text for text in strings)


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
        delta, pairs = _load_delta(cache_dir, token)
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
            delta,
            pairs,
        )
    except (ValueError, TypeError, KeyError, IndexError):
        return None


def _path(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("not a path")
    return value


def load_delta(cache_dir: Path, token: str) -> dict[str, tuple[str, str | None, str]]:
    """The files re-verified since the state ``token`` was stored."""
    return _load_delta(cache_dir, token)[0]


def _load_delta(
    cache_dir: Path, token: str
) -> tuple[dict[str, tuple[str, str | None, str]], dict[str, int]]:
    """The delta's files, and the module edge counts the patch path changed since."""
    data = read_sealed(cache_dir / _DELTA)
    if not isinstance(data, dict) or data.get("base") != token:
        return {}, {}
    pairs = data.get("pairs", {})
    if not isinstance(pairs, dict) or not all(
        isinstance(k, str) and type(v) is int for k, v in pairs.items()
    ):
        return {}, {}
    return _entries(data.get("entries")), pairs


def _entries(entries: Any) -> dict[str, tuple[str, str | None, str]]:
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


def store_state(
    cache_dir: Path,
    key: str,
    against: tuple[str, list[StagedChange]],
    universe: Universe,
    digests: Mapping[str, str],
    result: ValidationResult,
    resolutions: object,
    graph: GraphSummary | None = None,
) -> None:
    """Write the staged state of a computed run (and drop its delta); a cache, so a failure
    to write is not an error. ``graph`` is the patch path's summary of the run."""
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
        (cache_dir / _GRAPH).unlink(missing_ok=True)
        write_sealed(cache_dir / _NAME, payload)
        if graph is not None:
            # What fixes the planner would plan read: the proof asks it of every run.
            involved = "\0".join(sorted(fix_involved(violations)))
            graph = dataclasses.replace(graph, involved=involved)
            write_sealed(cache_dir / _GRAPH, {"base": token, "graph": graph.encode()})
        if resolutions is not None:
            write_sealed(cache_dir / _RESOLUTIONS, {"base": token, "memo": resolutions})


def _fixed(digest: str | None) -> str:
    """``digest`` at ``DIGEST_WIDTH`` characters; spaces for none (or one of another width:
    that file then never passes the early cutoff, it is recomputed)."""
    return digest if digest is not None and len(digest) == DIGEST_WIDTH else " " * DIGEST_WIDTH


def store_delta(
    cache_dir: Path,
    state: StagedState,
    verified: Mapping[str, tuple[str, str | None, str]],
    pairs: Mapping[str, int] | None = None,
) -> None:
    """Record ``verified`` files (and the module edge counts ``pairs`` a patch proof
    changed) beside the state; a cache, so a failure to write is not an error."""
    entries = {
        name: [blob, tree or "", digests] for name, (blob, tree, digests) in state.delta.items()
    }
    entries.update({name: [blob, tree or "", d] for name, (blob, tree, d) in verified.items()})
    payload: dict[str, Any] = {"base": state.token, "entries": entries}
    if state.pair_overrides or pairs:
        # Every module edge count changed since the state was stored.
        payload["pairs"] = {**state.pair_overrides, **(pairs or {})}
    with contextlib.suppress(OSError):
        write_sealed(cache_dir / _DELTA, payload)


def load_resolutions(cache_dir: Path, token: str) -> object:
    data = read_sealed(cache_dir / _RESOLUTIONS)
    if not isinstance(data, dict) or data.get("base") != token:
        return None
    return data.get("memo")


def load_graph(cache_dir: Path, state: StagedState) -> GraphSummary | None:
    """The patch path's summary of the run that stored ``state``, with the counts changed
    since applied; None when absent, another state's or malformed."""
    data = read_sealed(cache_dir / _GRAPH)
    if not isinstance(data, dict) or data.get("base") != state.token:
        return None
    graph = GraphSummary.decode(data.get("graph"), len(state.digests) // DIGEST_WIDTH)
    if graph is not None and state.pair_overrides:
        graph = dataclasses.replace(graph, pairs={**graph.pairs, **state.pair_overrides})
    return graph
