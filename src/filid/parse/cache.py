"""The on-disk parse cache: one file mapping path → (mtime_ns, size, sha256, facts).

The payload is plain data (dicts, lists, strings, numbers) serialized with ``marshal``, not
pickle: loading it never runs code, so a cache file planted in a repository cannot either,
and it loads several times faster than JSON (a warm run reads it whole). The file name
carries filid's version, the Python version (marshal's format may change between them), the
grammar version and the facts format, so an upgrade starts from an empty cache. A missing,
corrupt or unreadable cache is ignored.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tree_sitter

import filid
from filid.model.facts import FileFacts
from filid.parse.encoding import FACTS_FORMAT, decode_facts, encode_facts
from filid.parse.grammar import GRAMMAR_VERSION

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


@dataclass(frozen=True, slots=True)
class LoadedCache:
    """Cache entries plus the time they were written (for the racy-timestamp check)."""

    entries: dict[str, CacheEntry]
    written_ns: int

    def is_fresh(self, entry: CacheEntry, mtime_ns: int, size: int) -> bool:
        """Whether stat data alone proves the file unchanged since it was cached."""
        return (
            entry.mtime_ns == mtime_ns
            and entry.size == size
            and mtime_ns < self.written_ns - RACY_WINDOW_NS
        )


EMPTY = LoadedCache({}, 0)


def cache_file(cache_dir: Path) -> Path:
    """The cache file for this filid, Python and grammar version and facts format."""
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    name = (
        f"{_PREFIX}filid{filid.__version__}-py{python}-ts{tree_sitter.__version__}"
        f"-tsts{GRAMMAR_VERSION}-f{FACTS_FORMAT}.marshal"
    )
    return cache_dir / name


def load_cache(cache_dir: Path) -> LoadedCache:
    """Read the cache; anything unreadable or malformed yields an empty cache."""
    try:
        raw = cache_file(cache_dir).read_bytes()
        data = marshal.loads(raw)
        if not isinstance(data, dict):
            return EMPTY
        written_ns = data["written_ns"]
        if not isinstance(written_ns, int):
            return EMPTY
        entries: dict[str, CacheEntry] = {}
        for path, (mtime_ns, size, digest, facts) in data["entries"].items():
            if not (
                isinstance(mtime_ns, int) and isinstance(size, int) and isinstance(digest, str)
            ):
                return EMPTY
            entries[path] = CacheEntry(mtime_ns, size, digest, decode_facts(facts), facts)
        return LoadedCache(entries, written_ns)
    except (OSError, EOFError, ValueError, TypeError, KeyError, AttributeError, IndexError):
        return EMPTY


def store_cache(cache_dir: Path, entries: dict[str, CacheEntry]) -> None:
    """Write the cache atomically (temporary file + rename); remove caches of other versions.

    Raises OSError when the directory or file cannot be written.
    """
    cache_dir.mkdir(parents=True, exist_ok=True)
    target = cache_file(cache_dir)
    payload: dict[str, Any] = {
        "written_ns": time.time_ns(),
        "entries": {
            path: [
                e.mtime_ns,
                e.size,
                e.digest,
                e.encoded if e.encoded is not None else encode_facts(e.facts),
            ]
            for path, e in sorted(entries.items())
        },
    }
    data = marshal.dumps(payload)
    handle, temporary = tempfile.mkstemp(prefix=".parse-", suffix=".tmp", dir=cache_dir)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    for other in cache_dir.glob(f"{_PREFIX}*"):
        if other != target:
            with contextlib.suppress(OSError):
                other.unlink()
