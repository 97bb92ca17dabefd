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
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tree_sitter

import filid
from filid.model.facts import FileFacts
from filid.parse.encoding import FACTS_FORMAT, decode_facts, encode_facts
from filid.parse.grammar import GRAMMAR_VERSION
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
    # facts_digest(encoded): equal digests, equal facts (the result snapshot's early cutoff).
    facts_digest: str = ""


@dataclass(frozen=True, slots=True)
class LoadedCache:
    """Cache entries plus when the run that wrote them started (for the racy check)."""

    entries: dict[str, CacheEntry]
    checked_ns: int

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


def cache_file(cache_dir: Path) -> Path:
    """The cache file for this filid, Python and grammar version and facts format."""
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    name = (
        f"{_PREFIX}filid{filid.__version__}-py{python}-ts{tree_sitter.__version__}"
        f"-tsts{GRAMMAR_VERSION}-f{FACTS_FORMAT}-c{_LAYOUT}.marshal"
    )
    return cache_dir / name


def load_cache(cache_dir: Path) -> LoadedCache:
    """Read the cache; anything absent, unsigned or malformed yields an empty cache."""
    data = read_sealed(cache_file(cache_dir))
    if not isinstance(data, dict):
        return EMPTY
    checked_ns = data.get("checked_ns")
    raw_entries = data.get("entries")
    if not isinstance(checked_ns, int) or not isinstance(raw_entries, dict):
        return EMPTY
    entries: dict[str, CacheEntry] = {}
    try:
        for path, item in raw_entries.items():
            if not (isinstance(path, str) and isinstance(item, list) and len(item) == 5):
                return EMPTY
            mtime_ns, size, digest, facts, fdigest = item
            if not (
                isinstance(mtime_ns, int)
                and isinstance(size, int)
                and isinstance(digest, str)
                and isinstance(fdigest, str)
            ):
                return EMPTY
            entries[path] = CacheEntry(mtime_ns, size, digest, decode_facts(facts), facts, fdigest)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        return EMPTY
    return LoadedCache(entries, checked_ns)


def store_cache(cache_dir: Path, entries: dict[str, CacheEntry], checked_ns: int) -> None:
    """Write the sealed cache atomically; remove caches of other versions.

    ``checked_ns`` is when this run started, before it stat'ed any file. Raises OSError when
    the file cannot be written.
    """
    target = cache_file(cache_dir)
    payload: dict[str, Any] = {
        "checked_ns": checked_ns,
        "entries": {path: _stored(e) for path, e in sorted(entries.items())},
    }
    write_sealed(target, payload)
    for other in cache_dir.glob(f"{_PREFIX}*"):
        if other != target:
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
        entry.facts_digest or facts_digest(encoded),
    ]
