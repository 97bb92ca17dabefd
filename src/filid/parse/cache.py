"""The parse cache: one sealed file mapping path → (mtime_ns, size, sha256, facts).

It lives in the per-user cache folder (``store.location``), never in the work tree, and is
signed with a per-user secret (``store.sealed``): a cache a repository planted or forged is
never decoded. The payload is plain data serialized with ``marshal`` (fast to load on every
warm run), and every field is type-checked when decoded; anything malformed yields an empty
cache. The file name carries filid's version, the Python version (marshal's format may change
between them), the grammar version and the facts format, so an upgrade starts afresh.

``checked_ns`` is when the run that wrote the cache started, before it stat'ed or read any
file: a file modified within two seconds of that moment may have been rewritten again within
one timestamp tick without changing size, so its stat data alone never proves it unchanged.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import stat
import sys
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tree_sitter

import filid
from filid.model.facts import FileFacts
from filid.parse.encoding import FACTS_FORMAT, IMPORT_SPAN, decode_facts, encode_facts
from filid.parse.grammar import GRAMMAR_VERSION
from filid.store.identity import code_identity
from filid.store.sealed import read_sealed, write_sealed

_PREFIX = "parse-"
# A file modified this close to when the cache was written may have changed again within the
# file system's timestamp granularity without changing size: check its hash, not just stat.
RACY_WINDOW_NS = 2_000_000_000


@dataclass(frozen=True, slots=True)
class CacheEntry:
    """What the cache remembers about one file."""

    mtime_ns: int
    size: int
    digest: str
    facts: FileFacts
    # The facts as stored (plain data), kept from loading or from a worker so that rewriting
    # the cache after a one-file change does not re-encode every other file.
    encoded: Any = field(default=None, compare=False)
    # digest_pair(encoded): the facts' digest and their shape's (the result snapshot's early
    # cutoff compares them).
    facts_digest: str = ""


@dataclass(frozen=True, slots=True)
class LoadedCache:
    """Cache entries plus when the run that wrote them started (for the racy check)."""

    entries: dict[str, CacheEntry]
    checked_ns: int
    # The full file's token and how many entries it holds (a delta file names its base).
    token: str = ""
    base_size: int = 0
    delta_size: int = 0

    def is_fresh(self, entry: CacheEntry, mtime_ns: int, size: int) -> bool:
        """Whether stat data alone proves the file unchanged since it was cached."""
        return (
            entry.mtime_ns == mtime_ns
            and entry.size == size
            and mtime_ns < self.checked_ns - RACY_WINDOW_NS
        )


EMPTY = LoadedCache({}, 0)
_LAYOUT = 2  # 2: entries carry their facts digest


def facts_digest(encoded: Any) -> str:
    """A digest of encoded facts (plain lists, strings, numbers): equal facts, equal digest.

    ``repr`` of that plain data is deterministic, unlike ``marshal`` output (which depends on
    object sharing and interning), so a fresh parse and a cached entry compare equal.
    """
    return hashlib.blake2b(repr(encoded).encode("utf-8"), digest_size=16).hexdigest()


def shape_digest(encoded: Any) -> str:
    """:func:`facts_digest` of the facts without positions (lines, columns, byte offsets).

    Two versions of a file with equal shapes differ only in where things are (an edit inside
    a function body moves the declarations after it): they import, export, declare and state
    the same things in the same order, so they resolve and classify alike.
    """
    (
        path,
        imports,
        exports,
        declarations,
        statements,
        bindings,
        free,
        has_error,
        _,
        cases,
        typed,
        generated,
        silenced,
        bundle,
    ) = encoded
    return facts_digest(
        [
            path,
            # value use (and thunk-only use) decides whether an import is a runtime edge, a
            # guarded call whether an unresolved one is claimed; the row's length says whether
            # the specifier is a string literal (it has a span)
            [[*row[:IMPORT_SPAN], len(row)] for row in imports],
            [[name, k, t, source, local] for name, k, t, source, local, _ in exports],
            [row[:3] for row in declarations],
            [row[:3] for row in statements],
            bindings,
            free,
            has_error,
            cases,
            typed,
            generated,
            silenced,
            bundle,
        ]
    )


def digest_pair(encoded: Any) -> str:
    """``"<facts digest> <shape digest>"`` of encoded facts."""
    return f"{facts_digest(encoded)} {shape_digest(encoded)}"


def cache_file(cache_dir: Path) -> Path:
    """The cache file for this filid (version and code, ``code_identity``), Python and grammar
    version and facts format."""
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    name = (
        f"{_PREFIX}filid{filid.__version__}-{code_identity()}-py{python}-ts{tree_sitter.__version__}"
        f"-tsts{GRAMMAR_VERSION}-f{FACTS_FORMAT}-c{_LAYOUT}.marshal"
    )
    return cache_dir / name


def delta_file(cache_dir: Path) -> Path:
    """The file holding the entries changed since the full cache file was written."""
    full = cache_file(cache_dir)
    return full.with_name(full.name.replace(".marshal", ".delta.marshal"))


def load_cache(cache_dir: Path) -> LoadedCache:
    """Read the cache (the full file, then the delta written since); anything absent,
    unsigned or malformed yields an empty cache (a bad delta: the full file alone)."""
    data = read_sealed(cache_file(cache_dir))
    if not isinstance(data, dict):
        return EMPTY
    checked_ns, token = data.get("checked_ns"), data.get("token")
    entries = _decode_entries(data.get("entries"))
    if not isinstance(checked_ns, int) or not isinstance(token, str) or entries is None:
        return EMPTY
    base_size = len(entries)
    delta = read_sealed(delta_file(cache_dir))
    if isinstance(delta, dict) and delta.get("base") == token:
        changed = _decode_entries(delta.get("entries"))
        removed, delta_checked = delta.get("removed"), delta.get("checked_ns")
        if (
            changed is not None
            and isinstance(removed, list)
            and all(isinstance(path, str) for path in removed)
            and isinstance(delta_checked, int)
        ):
            # Every entry the delta's run did not re-verify was fresh by stat in that run
            # (older than its start minus the racy window), so its start applies to all.
            for path in removed:
                entries.pop(path, None)
            entries.update(changed)
            checked_ns = delta_checked
            return LoadedCache(entries, checked_ns, token, base_size, len(changed) + len(removed))
    return LoadedCache(entries, checked_ns, token, base_size)


def _decode_entries(raw_entries: Any) -> dict[str, CacheEntry] | None:
    if not isinstance(raw_entries, dict):
        return None
    entries: dict[str, CacheEntry] = {}
    try:
        for path, item in raw_entries.items():
            if not (isinstance(path, str) and isinstance(item, list) and len(item) == 5):
                return None
            mtime_ns, size, digest, facts, fdigest = item
            if not (
                isinstance(mtime_ns, int)
                and isinstance(size, int)
                and isinstance(digest, str)
                and isinstance(fdigest, str)
            ):
                return None
            entries[path] = CacheEntry(mtime_ns, size, digest, decode_facts(facts), facts, fdigest)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        return None
    return entries


def store_cache(
    cache_dir: Path,
    entries: dict[str, CacheEntry],
    checked_ns: int,
    *,
    previous: LoadedCache = EMPTY,
    verified: Collection[str] = (),
) -> None:
    """Write the sealed cache atomically; remove caches of other versions.

    ``checked_ns`` is when this run started, before it stat'ed any file. When ``previous``
    (the cache this run loaded) is a full file and the run changed few entries, only those
    go to the delta file (``verified``: every path this run read again, changed or not; the
    rest of the entries must be ``previous``'s); the full file is rewritten once the delta
    would hold more than a tenth of it. Raises OSError when a file cannot be written.
    """
    target = cache_file(cache_dir)
    if previous.token:
        removed = sorted(path for path in previous.entries if path not in entries)
        changed = {
            path: entries[path]
            for path in entries
            if path in verified or path not in previous.entries
        }
        size = len(changed) + len(removed)
        if size + previous.delta_size <= max(64, previous.base_size // 10):
            _store_delta(cache_dir, previous, entries, changed, removed, checked_ns)
            return
    payload: dict[str, Any] = {
        "checked_ns": checked_ns,
        "token": secrets.token_hex(16),
        "entries": {path: _stored(e) for path, e in sorted(entries.items())},
    }
    with contextlib.suppress(FileNotFoundError):
        os.unlink(delta_file(cache_dir))
    write_sealed(target, payload)
    for other in cache_dir.glob(f"{_PREFIX}*"):
        if other != target and other != delta_file(cache_dir):
            with contextlib.suppress(OSError):
                if stat.S_ISREG(os.lstat(other).st_mode):
                    other.unlink()


def _stored(entry: CacheEntry) -> list[Any]:
    encoded = entry.encoded if entry.encoded is not None else encode_facts(entry.facts)
    return [
        entry.mtime_ns,
        entry.size,
        entry.digest,
        encoded,
        entry.facts_digest or digest_pair(encoded),
    ]


def _store_delta(
    cache_dir: Path,
    previous: LoadedCache,
    entries: dict[str, CacheEntry],
    changed: dict[str, CacheEntry],
    removed: list[str],
    checked_ns: int,
) -> None:
    """Write the delta relative to the full file: what this run changed or removed plus
    what the previous delta held, as this run's ``entries`` have it now."""
    old = read_sealed(delta_file(cache_dir)) if previous.delta_size else None
    carried: dict[str, CacheEntry] = {}
    gone: set[str] = set(removed)
    if isinstance(old, dict):
        for path in old.get("entries") or {}:
            if isinstance(path, str) and path in entries:
                carried[path] = entries[path]
        for path in old.get("removed") or []:
            if isinstance(path, str) and path not in entries:
                gone.add(path)
    carried.update(changed)
    payload = {
        "base": previous.token,
        "checked_ns": checked_ns,
        "entries": {path: _stored(e) for path, e in sorted(carried.items())},
        "removed": sorted(gone),
    }
    write_sealed(delta_file(cache_dir), payload)
