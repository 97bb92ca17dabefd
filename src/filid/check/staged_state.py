"""The staged state ``check --staged`` keeps between runs (see ``filid.check.staged``): its
sealed file, the delta of re-verified files and the stored resolutions, read back without
trusting anything the repository could have planted (types and sizes are checked)."""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import itertools
import marshal
import secrets
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from filid.check.result_codec import encode_result
from filid.check.staged_summary import GraphSummary, fix_involved
from filid.model.report import ValidationResult
from filid.store.sealed import (
    SealedSectionError,
    read_sealed,
    read_sealed_sections,
    write_sealed,
    write_sealed_sections,
)

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

# The state file's sections (``store.sealed.write_sealed_sections``): the result without its
# violations and evaluated nodes, the evaluated nodes, then the universe in buckets of
# ``FILES_PER_BUCKET`` files, the encoded violations in chunks of ``VIOLATIONS_PER_CHUNK``,
# and the index of which violations a file touches, in ``touch_buckets`` hash buckets. A
# one-file run reads the head, the result, the evaluated nodes, one bucket of files and what
# the touch index names: what the file count does not change much.
FILES_PER_BUCKET = 512
VIOLATIONS_PER_CHUNK = 256
_KEYS_PER_TOUCH_BUCKET = 512
_RESULT, _EVALUATED, _FIRST_BUCKET = 0, 1, 2


class _Sections(Protocol):
    """Where a state's sections come from: its sealed file, or memory (tests)."""

    def section(self, number: int) -> Any: ...


class _InMemory:
    """Sections held in memory (:meth:`StagedState.of`)."""

    def __init__(self, sections: Sequence[Any]) -> None:
        self._sections = sections

    def section(self, number: int) -> Any:
        return self._sections[number]


class StagedState:
    """What the last computed staged run saw.

    ``tree`` is the tree the index was compared with (HEAD's then) and ``diverged`` every path
    whose staged entry differed from it: path → (blob in the tree, blob in the index), None
    for absent or not a regular file. Every other staged path held the tree's blob. The
    universe (sorted) and each file's facts digests (``"<facts> <shape>"``, spaces for a file
    without, ``DIGEST_WIDTH`` characters per file) are kept in buckets of sorted files, each
    NUL-led and NUL-joined (``"\0a\0b\0"``), read when a file of theirs is asked for
    (:meth:`index_of`, :meth:`digest_at`). ``result`` is the encoded result without its
    violations; :attr:`violations` each encoded violation marshalled alone, in chunks, found
    for a set of files through a hash index of the paths each touches
    (:meth:`violations_touching`). ``delta`` holds the files re-verified since: path → (blob
    in the index, blob in the tree, digests). ``pair_overrides`` are the module edge counts
    (and style tallies) the patch path's proofs changed since (``check.staged_summary``),
    whose summary of the run is a file of its own (:func:`load_graph`): the early cutoff
    never reads it.

    A section that cannot be read back raises ``store.sealed.SealedSectionError`` (a
    ``ValueError``): the caller then treats the state as absent.
    """

    __slots__ = (
        "_buckets",
        "_chunks",
        "_core",
        "_evaluated",
        "_firsts",
        "_sections",
        "_touch",
        "count",
        "delta",
        "diverged",
        "fix_inputs",
        "fix_needles",
        "memo",
        "pair_overrides",
        "token",
        "touch_buckets",
        "tree",
        "violation_count",
    )

    def __init__(
        self,
        head: Mapping[str, Any],
        sections: _Sections,
        delta: dict[str, tuple[str, str | None, str]],
        pair_overrides: dict[str, int],
    ) -> None:
        """A state from its validated ``head`` (:func:`_head`) and its ``sections``."""
        self.token: str = head["token"]
        self.tree: str = head["tree"]
        self.diverged: dict[str, tuple[str | None, str | None]] = head["diverged"]
        self.fix_inputs: frozenset[str] = head["fixInputs"]
        self.fix_needles: frozenset[str] = head["fixNeedles"]
        self.count: int = head["count"]
        self.violation_count: int = head["violations"]
        self.touch_buckets: int = head["touchBuckets"]
        self._firsts: list[str] = head["firsts"]
        self._sections = sections
        self.delta = delta
        self.pair_overrides = pair_overrides
        self.memo: dict[str, str | bytes] = {}
        self._buckets: dict[int, tuple[str, str]] = {}
        self._chunks: dict[int, list[bytes]] = {}
        self._touch: dict[int, dict[str, list[int]]] = {}
        self._core: dict[str, Any] | None = None
        self._evaluated: tuple[list[str], list[tuple[str, int]]] | None = None

    @classmethod
    def of(
        cls,
        token: str,
        tree: str,
        diverged: Mapping[str, tuple[str | None, str | None]],
        files: Sequence[str],
        digests: Sequence[str | None],
        fix_inputs: Iterable[str],
        fix_needles: Iterable[str],
        result: Mapping[str, Any],
        violations: Sequence[Any],
        delta: dict[str, tuple[str, str | None, str]] | None = None,
    ) -> StagedState:
        """A state held in memory, as :func:`load_staged_state` would read it back after
        :func:`store_state` wrote these (``result`` encoded, without its violations;
        ``violations`` encoded)."""
        head, sections = _encode(
            "", token, tree, diverged, files, digests, fix_inputs, fix_needles, result, violations
        )
        checked = _head(marshal.loads(marshal.dumps(head)), "")
        assert checked is not None
        return cls(checked, _InMemory(marshal.loads(marshal.dumps(sections))), delta or {}, {})

    def _bucket(self, number: int) -> tuple[str, str]:
        """Bucket ``number`` of the universe: its files and their digests (checked)."""
        found = self._buckets.get(number)
        if found is None:
            files, digests = self._sections.section(_FIRST_BUCKET + number)
            size = min(FILES_PER_BUCKET, self.count - number * FILES_PER_BUCKET)
            if not (
                isinstance(files, str)
                and isinstance(digests, str)
                and files.startswith("\0")
                and files.endswith("\0")
                and files.count("\0") == size + 1
                and len(digests) == size * DIGEST_WIDTH
            ):
                raise SealedSectionError(f"malformed bucket {number}")
            found = self._buckets[number] = (files, digests)
        return found

    def index_of(self, name: str) -> int | None:
        """The universe index of ``name``, or None when it is not a universe file."""
        if not self.count or "\0" in name:
            return None
        number = bisect.bisect_right(self._firsts, name) - 1
        if number < 0:
            return None
        files, _ = self._bucket(number)
        at = files.find(f"\0{name}\0")
        return None if at < 0 else number * FILES_PER_BUCKET + files.count("\0", 0, at)

    def digest_at(self, index: int) -> str | None:
        """The facts digests of the universe file at ``index`` (None: not a source file)."""
        number, at = divmod(index, FILES_PER_BUCKET)
        digests = self._bucket(number)[1]
        digest = digests[at * DIGEST_WIDTH : (at + 1) * DIGEST_WIDTH]
        return digest if digest.strip() else None

    def file_list(self) -> list[str]:
        """Every universe file, in order (reads every bucket)."""
        listed: list[str] = []
        for number in range(len(self._firsts)):
            listed += self._bucket(number)[0][1:-1].split("\0")
        return listed

    @property
    def result(self) -> dict[str, Any]:
        """The encoded result without its violations (with its evaluated nodes)."""
        evaluated = {rule: list(nodes) for rule, nodes in self.evaluated().items()}
        return {**self.core(), "evaluated": evaluated}

    def core(self) -> dict[str, Any]:
        """The encoded result without its violations and evaluated nodes."""
        if self._core is None:
            core = self._sections.section(_RESULT)
            if not isinstance(core, dict):
                raise SealedSectionError("malformed result")
            self._core = core
        return self._core

    def evaluated(self) -> Mapping[str, tuple[str, ...]]:
        """The nodes each rule evaluated: read now, split into paths when first used."""
        if self._evaluated is None:
            data = self._sections.section(_EVALUATED)
            if not (
                isinstance(data, tuple)
                and len(data) == 2
                and isinstance(data[0], list)
                and all(isinstance(item, str) for item in data[0])
                and isinstance(data[1], list)
                and all(
                    isinstance(item, tuple)
                    and len(item) == 2
                    and isinstance(item[0], str)
                    and type(item[1]) is int
                    and 0 <= item[1] < len(data[0])
                    for item in data[1]
                )
            ):
                raise SealedSectionError("malformed evaluated nodes")
            self._evaluated = data
        return _Evaluated(*self._evaluated)

    @property
    def violations(self) -> list[bytes]:
        """Every encoded violation, marshalled alone (reads every chunk)."""
        found: list[bytes] = []
        for number in range(-(-self.violation_count // VIOLATIONS_PER_CHUNK)):
            found += self._chunk(number)
        return found

    def _chunk(self, number: int) -> list[bytes]:
        found = self._chunks.get(number)
        if found is None:
            first = _FIRST_BUCKET + len(self._firsts)
            found = self._sections.section(first + number)
            size = min(VIOLATIONS_PER_CHUNK, self.violation_count - number * VIOLATIONS_PER_CHUNK)
            if not (
                isinstance(found, list) and len(found) == size and set(map(type, found)) <= {bytes}
            ):
                raise SealedSectionError(f"malformed violations {number}")
            self._chunks[number] = found
        return found

    def _touching(self, key: str) -> list[int]:
        """The violations the touch index lists under ``key``."""
        number = _touch_bucket(key, self.touch_buckets)
        found = self._touch.get(number)
        if found is None:
            chunks = -(-self.violation_count // VIOLATIONS_PER_CHUNK)
            first = _FIRST_BUCKET + len(self._firsts) + chunks
            found = self._sections.section(first + number)
            if not isinstance(found, dict):
                raise SealedSectionError(f"malformed touch index {number}")
            self._touch[number] = found
        indices = found.get(key, [])
        if not (
            isinstance(indices, list)
            and set(map(type, indices)) <= {int}
            and all(0 <= i < self.violation_count for i in indices)
        ):
            raise SealedSectionError(f"malformed touch index entry {key!r}")
        return indices

    def violations_touching(self, files: frozenset[str] | None) -> list[Any]:
        """The encoded violations ``scoping.restrict`` keeps for ``files`` (all for None)."""
        if files is None:
            return [marshal.loads(blob) for blob in self.violations]
        directories = frozenset(f.rpartition("/")[0] or "." for f in files)
        found: set[int] = set()
        for name in files:
            found.update(self._touching("f" + name))
        for directory in directories:
            found.update(self._touching("d" + directory))
        chosen = sorted(found)
        return [
            marshal.loads(self._chunk(i // VIOLATIONS_PER_CHUNK)[i % VIOLATIONS_PER_CHUNK])
            for i in chosen
        ]

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
        notes = self.core().get("notes")
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
            core = self.core()
            if part == "notes":
                value: Any = core.get("notes")
            else:
                value = {k: v for k, v in core.items() if k not in {"notes", "evaluated"}}
            strings: list[str] = []
            _strings_of(value, strings)
            if part == "all":
                self.evaluated()
                assert self._evaluated is not None
                lists, rules = self._evaluated
                strings += [rule for rule, _ in rules]
                strings += lists
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


class _Evaluated(Mapping[str, tuple[str, ...]]):
    """The stored evaluated nodes: each distinct list of nodes NUL-joined once, and each
    rule's list by number; a list is split into paths when first read (a pre-commit run
    that prints text never reads them)."""

    __slots__ = ("_lists", "_rules", "_split")

    def __init__(self, lists: list[str], rules: list[tuple[str, int]]) -> None:
        self._lists = lists
        self._rules = dict(rules)
        self._split: dict[int, tuple[str, ...]] = {}

    def __getitem__(self, rule: str) -> tuple[str, ...]:
        number = self._rules[rule]
        found = self._split.get(number)
        if found is None:
            joined = self._lists[number]
            found = self._split[number] = tuple(joined[1:-1].split("\0")) if joined else ()
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)


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


def _touch_bucket(key: str, buckets: int) -> int:
    """The touch index bucket of ``key`` (a stable hash: written by one run, read by another)."""
    return zlib.crc32(key.encode("utf-8", "surrogatepass")) % buckets


def _touch_index(violations: Sequence[Any]) -> list[dict[str, list[int]]]:
    """Where each encoded violation is found by the files of a pre-commit run, as
    ``scoping.restrict`` decides: by its path, location file or a related file (key ``"f"``
    + the path), or by its path alone being a folder of those files (key ``"d"`` + the
    path); each key lists its violations, in hash buckets (:func:`_touch_bucket`)."""
    index: dict[str, list[int]] = {}
    for number, data in enumerate(violations):
        path, location, related = data[3], data[4], data[8]
        for key in sorted({path, location[0], *(r[0] for r in related)}):
            index.setdefault("f" + key, []).append(number)
        index.setdefault("d" + path, []).append(number)
    count = max(1, -(-len(index) // _KEYS_PER_TOUCH_BUCKET))
    buckets: list[dict[str, list[int]]] = [{} for _ in range(count)]
    for key, numbers in index.items():
        buckets[_touch_bucket(key, count)][key] = numbers
    return buckets


def _encode(
    key: str,
    token: str,
    tree: str,
    diverged: Mapping[str, tuple[str | None, str | None]],
    files: Sequence[str],
    digests: Sequence[str | None],
    fix_inputs: Iterable[str],
    fix_needles: Iterable[str],
    result: Mapping[str, Any],
    violations: Sequence[Any],
) -> tuple[dict[str, Any], list[Any]]:
    """The state file's head and sections (see ``FILES_PER_BUCKET``). The universe must be
    sorted for its buckets to be searched by their first file: when it is not, it is kept
    as one bucket."""
    core = {k: v for k, v in result.items() if k not in {"violations", "evaluated"}}
    lists: list[str] = []
    numbered: dict[tuple[str, ...], int] = {}
    rules: list[tuple[str, int]] = []
    for rule, nodes in result.get("evaluated", {}).items():
        at = numbered.setdefault(tuple(nodes), len(lists))
        if at == len(lists):
            lists.append("\0" + "\0".join(nodes) + "\0" if nodes else "")
        rules.append((rule, at))
    ordered = all(a < b for a, b in itertools.pairwise(files))
    size = FILES_PER_BUCKET if ordered else max(1, len(files))
    buckets: list[tuple[str, str]] = []
    firsts: list[str] = []
    for start in range(0, len(files), size):
        part = files[start : start + size]
        firsts.append(part[0] if start else "")
        joined = "".join(f"\0{name}" for name in part) + "\0"
        buckets.append((joined, "".join(_fixed(d) for d in digests[start : start + size])))
    encoded = [marshal.dumps(v) for v in violations]
    chunks = [
        encoded[start : start + VIOLATIONS_PER_CHUNK]
        for start in range(0, len(encoded), VIOLATIONS_PER_CHUNK)
    ]
    touches = _touch_index(violations)
    head = {
        "key": key,
        "token": token,
        "tree": tree,
        "diverged": {
            name: [before or "", after or ""] for name, (before, after) in diverged.items()
        },
        "fixInputs": sorted(fix_inputs),
        "fixNeedles": sorted(fix_needles),
        "count": len(files),
        "firsts": firsts,
        "bucketSize": size,
        "violations": len(encoded),
        "touchBuckets": len(touches),
    }
    return head, [core, (lists, rules), *buckets, *chunks, *touches]


def _head(data: Any, key: str) -> dict[str, Any] | None:
    """The state's head, checked and with its values typed as :class:`StagedState` keeps
    them; None when it is another key's or malformed."""
    try:
        if not isinstance(data, dict) or data.get("key") != key:
            return None
        token, tree, diverged = data["token"], data["tree"], data["diverged"]
        count, firsts, size = data["count"], data["firsts"], data["bucketSize"]
        violations, touches = data["violations"], data["touchBuckets"]
        if not (
            isinstance(token, str)
            and isinstance(tree, str)
            and isinstance(diverged, dict)
            and type(count) is int
            and type(size) is int
            and type(violations) is int
            and type(touches) is int
            and count >= 0
            and violations >= 0
            and touches >= 1
            and (size == FILES_PER_BUCKET or size == max(1, count))
        ):
            return None
        firsts = _strings(firsts)
        if len(firsts) != -(-count // size) or firsts[:1] not in ([], [""]):
            return None
        if firsts != sorted(firsts):
            return None
        if size != FILES_PER_BUCKET and len(firsts) > 1:
            return None
        return {
            "token": token,
            "tree": tree,
            "diverged": {
                _path(name): (_blob(item[0]), _blob(item[1])) for name, item in diverged.items()
            },
            "fixInputs": frozenset(_strings(data["fixInputs"])),
            "fixNeedles": frozenset(_strings(data["fixNeedles"])),
            "count": count,
            "firsts": firsts,
            "violations": violations,
            "touchBuckets": touches,
        }
    except (ValueError, TypeError, KeyError, IndexError):
        return None


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("not a list of strings")
    return value


def _blob(value: Any) -> str | None:
    if not isinstance(value, str):
        raise ValueError("not a blob id")
    return value or None


def load_staged_state(cache_dir: Path, key: str) -> StagedState | None:
    """The stored staged state for ``key`` with its delta applied, or None (absent, another
    key, unsigned or malformed: the cache folder's content is never trusted). Only its head
    is read here: each section is read (and checked) when first used."""
    sealed = read_sealed_sections(cache_dir / _NAME)
    if sealed is None:
        return None
    head = _head(sealed.head, key)
    if head is None:
        return None
    chunks = -(-head["violations"] // VIOLATIONS_PER_CHUNK)
    if len(sealed) != _FIRST_BUCKET + len(head["firsts"]) + chunks + head["touchBuckets"]:
        return None
    delta, pairs = _load_delta(cache_dir, head["token"])
    return StagedState(head, sealed, delta, pairs)


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
    head, sections = _encode(
        key,
        token,
        tree,
        {name: (before, after) for name, before, after in diverged},
        universe.files,
        [digests.get(name) for name in universe.files],
        result.fix_inputs,
        result.fix_needles,
        encoded,
        violations,
    )
    with contextlib.suppress(OSError):
        (cache_dir / _DELTA).unlink(missing_ok=True)
        (cache_dir / _RESOLUTIONS).unlink(missing_ok=True)
        (cache_dir / _GRAPH).unlink(missing_ok=True)
        write_sealed_sections(cache_dir / _NAME, head, sections)
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
    graph = GraphSummary.decode(data.get("graph"), state.count)
    if graph is not None and state.pair_overrides:
        graph = dataclasses.replace(graph, pairs={**graph.pairs, **state.pair_overrides})
    return graph
