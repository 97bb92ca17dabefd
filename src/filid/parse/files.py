"""Parsing a project's source files: size and encoding guards, the cache, parallel workers."""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import marshal
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filid.model.facts import FileFacts
from filid.parse.cache import (
    EMPTY,
    RACY_WINDOW_NS,
    CacheEntry,
    LoadedCache,
    digest_pair,
    load_cache,
    store_cache,
)
from filid.parse.encoding import decode_facts, encode_facts
from filid.parse.extract import parse_source
from filid.store.files import UnsafePathError, read_regular_file_with_stat

MAX_FILE_BYTES = 1 << 20
# Below this many files to parse, starting worker processes costs more than it saves
# (measured: see tests/parse/bench_parse.py).
PARALLEL_THRESHOLD = 300
_CHUNKS_PER_WORKER = 4
# At most this many files per chunk: when one worker finishes its last chunk, the other's
# remainder runs alone (one core idle), and the last chunk's facts are decoded after the
# workers are done. 50k files in chunks of 400 leave a fraction of a second of either.
_MAX_CHUNK = 400


@dataclass(frozen=True, slots=True)
class ParseResult:
    """Facts by root-relative path (files that were read and parsed or taken from the cache),
    notes for files skipped or with syntax errors, how many files were actually parsed, and
    each file's digests (:func:`filid.parse.cache.digest_pair`)."""

    facts: dict[str, FileFacts]
    notes: tuple[str, ...]
    parsed: int
    digests: dict[str, str] = field(default_factory=dict)


# (size, mtime_ns) of a file, as the caller already stat'ed it.
StatData = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What happened to one file: its facts with its stat and hash, or a note.

    Worker processes send ``encoded`` facts (plain lists pickle far faster than dataclasses),
    each outcome as the tuple of its fields; in-process parsing fills ``facts``. Neither is
    set, and no note, when the cached facts (same content hash) still apply.
    """

    path: str
    note: str | None = None
    facts: FileFacts | None = None
    encoded: list[Any] | None = None
    mtime_ns: int = 0
    size: int = 0
    digest: str = ""
    fdigest: str = ""  # digest_pair of ``encoded`` (workers compute it in parallel)


def parse_files(
    root: Path,
    files: Sequence[str],
    *,
    cache_dir: Path | None,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    borrow_dir: Path | None = None,
    stats: Mapping[str, StatData] | None = None,
    on_parsed: Callable[[str, FileFacts], None] | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> ParseResult:
    """Parse ``files`` (root-relative POSIX paths) under ``root``; never raises for one file.

    Files over 1 MiB, not valid UTF-8 or unreadable are skipped with a note. With
    ``cache_dir`` set, facts of unchanged files come from the cache (an unchanged stat, or
    else an unchanged SHA-256 of the content) and the cache is rewritten when anything
    changed; ``None`` neither reads nor writes it. Many files are parsed in worker processes
    (``jobs``, default one per CPU). ``borrow_dir`` (with ``cache_dir`` ``None``) is another
    tree's cache, only read: a file at the same path with the same SHA-256 takes its facts
    (``--new-since`` checks an old commit's tree this way without parsing it again).
    ``stats`` holds the (size, mtime_ns) the caller already took of some files, so that each
    file is stat'ed once per run. ``on_parsed`` is called with the facts of each file parsed
    in this run as soon as they are known: while worker processes parse the rest, the caller
    can start on what it will need of them (resolving their imports). ``meanwhile`` is called
    once, in this process, as soon as the worker processes have their work (before any file
    is parsed when there are none): the caller's work that needs no facts then runs while
    they parse instead of after them.
    """
    with _gc_paused():
        return _parse_files(
            root, files, cache_dir, jobs, progress, borrow_dir, stats or {}, on_parsed, meanwhile
        )


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many small objects.

    Facts hold no reference cycles, but every few hundred allocations the collector would
    scan all live objects again — which made loading and parsing several times slower.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _parse_files(
    root: Path,
    files: Sequence[str],
    cache_dir: Path | None,
    jobs: int | None,
    progress: Callable[[int, int], None] | None,
    borrow_dir: Path | None = None,
    stats: Mapping[str, StatData] | None = None,
    on_parsed: Callable[[str, FileFacts], None] | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> ParseResult:
    stats = stats or {}
    paths = sorted(set(files))
    total = len(paths)
    started_ns = time.time_ns()  # before any stat: the racy window is measured from here
    if cache_dir is not None:
        cache = load_cache(cache_dir)
    elif borrow_dir is not None:
        # Another tree's entries: stat data proves nothing here, only the content hash does.
        borrowed = load_cache(borrow_dir)
        cache = LoadedCache(borrowed.entries, checked_ns=0)
    else:
        cache = EMPTY
    facts: dict[str, FileFacts] = {}
    notes: dict[str, str] = {}
    entries: dict[str, CacheEntry] = {}
    todo: list[tuple[str, str | None]] = []
    done = 0
    prefix = f"{root}/"
    for path in paths:
        known = stats.get(path)
        if known is None:
            try:
                info = os.stat(prefix + path)
            except OSError as error:
                notes[path] = f"{path}: skipped, cannot be read ({error.strerror or error})"
                done += 1
                continue
            known = (info.st_size, info.st_mtime_ns)
        size, mtime_ns = known
        if size > MAX_FILE_BYTES:
            notes[path] = f"{path}: skipped, larger than 1 MiB"
            done += 1
            continue
        entry = cache.entries.get(path)
        if entry is not None and cache.is_fresh(entry, mtime_ns, size):
            facts[path] = entry.facts
            entries[path] = entry
            done += 1
            continue
        todo.append((path, entry.digest if entry is not None else None))
    if progress is not None:
        progress(done, total)

    parsed = 0
    keep_entries = cache_dir is not None
    # Each outcome as the tuple of its fields (``_run``), unpacked: no object per file.
    for path, note, outcome_facts, encoded, mtime_ns, size, digest, fdigest in _run(
        root, todo, jobs, digests=cache_dir is not None, meanwhile=meanwhile
    ):
        done += 1
        if note is not None:
            notes[path] = note
        else:
            # ``fdigest``: from a worker; else computed below when needed
            if outcome_facts is not None:
                file_facts = outcome_facts
                parsed += 1
                if on_parsed is not None:
                    on_parsed(path, file_facts)
            elif encoded is not None:
                file_facts = decode_facts(encoded)
                parsed += 1
                if on_parsed is not None:
                    on_parsed(path, file_facts)
            else:  # content unchanged: the cached facts still hold
                cached = cache.entries[path]
                file_facts, encoded = cached.facts, cached.encoded
                fdigest = cached.facts_digest
            facts[path] = file_facts
            if keep_entries:  # only a parse cache (written below) keeps them
                entries[path] = CacheEntry(mtime_ns, size, digest, file_facts, encoded, fdigest)
        if progress is not None:
            progress(done, total)

    for path, file_facts in facts.items():
        if file_facts.has_syntax_error:
            notes[path] = (
                f"{path}: syntax error at line {file_facts.syntax_error_line} "
                "(facts may be partial)"
            )
    ordered_notes = [notes[key] for key in sorted(notes)]
    digests: dict[str, str] = {}
    if cache_dir is not None:  # the result snapshot keeps them (never with --no-cache)
        for path in facts:
            entry = entries[path]
            if not entry.facts_digest:
                encoded = entry.encoded if entry.encoded is not None else encode_facts(entry.facts)
                entry = dataclasses.replace(
                    entry, encoded=encoded, facts_digest=digest_pair(encoded)
                )
                entries[path] = entry
            digests[path] = entry.facts_digest
    if cache_dir is not None:
        _keep_other_entries(root, cache, entries, set(paths))
        # Rewrite only when something differs: a warm run then costs no write at all.
        if todo or entries.keys() != cache.entries.keys():
            try:
                store_cache(
                    cache_dir,
                    entries,
                    started_ns,
                    previous=cache,
                    verified={path for path, _ in todo},
                )
            except OSError as error:
                ordered_notes.append(f"parse cache not written: {error.strerror or error}")
    return ParseResult(
        facts={path: facts[path] for path in paths if path in facts},  # `paths` are sorted
        notes=tuple(ordered_notes),
        parsed=parsed,
        digests=digests,
    )


def _keep_other_entries(
    root: Path, cache: LoadedCache, entries: dict[str, CacheEntry], requested: set[str]
) -> None:
    """Carry over cache entries of files not asked for this time, if they still exist.

    An entry that was within the racy window when cached is dropped: it was not verified in
    this run, and the cache written now is trusted from this run's start.
    """
    limit = cache.checked_ns - RACY_WINDOW_NS
    for path, entry in cache.entries.items():
        if path not in requested and entry.mtime_ns < limit and (root / path).is_file():
            entries[path] = entry


def _run(
    root: Path,
    todo: list[tuple[str, str | None]],
    jobs: int | None,
    *,
    digests: bool,
    meanwhile: Callable[[], None] | None = None,
) -> Iterator[tuple[Any, ...]]:
    """Process ``todo`` in this process, or in chunks across worker processes; ``meanwhile``
    runs once the workers have their chunks (first, without workers). Each file's
    :class:`Outcome` comes as the tuple of its fields, as the workers send it."""
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers <= 1 or len(todo) < PARALLEL_THRESHOLD:
        if meanwhile is not None:
            meanwhile()
        for path, digest in todo:
            yield _fields(_process(root, path, digest, encode=False, digests=digests))
        return
    size = min(_MAX_CHUNK, max(16, -(-len(todo) // (workers * _CHUNKS_PER_WORKER))))
    chunks = [todo[index : index + size] for index in range(0, len(todo), size)]
    with ProcessPoolExecutor(
        max_workers=min(workers, len(chunks)),
        mp_context=_context(),
        initializer=_exit_with_parent,
        initargs=(os.getpid(),),
    ) as pool:
        futures = [pool.submit(_process_chunk, str(root), chunk, digests) for chunk in chunks]
        if meanwhile is not None:
            try:
                meanwhile()
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
        completed = as_completed(futures)
        # as_completed lets go of each future it hands on: without this list's references,
        # a chunk's rows are freed once decoded instead of all staying until the end
        del futures
        for future in completed:
            yield from marshal.loads(future.result())


def _context() -> multiprocessing.context.BaseContext:
    """Fork when it is safe (no other threads) — it skips re-importing the grammar."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _exit_with_parent(parent: int) -> None:
    """Worker initializer: end the worker when filid itself dies.

    A SIGKILLed filid (a CI timeout, an editor killing a hook) cannot shut its pool down;
    without this its workers wait for work forever, keeping the caller's pipes open.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="filid-parent-watch", daemon=True).start()


def _process_chunk(root: str, chunk: list[tuple[str, str | None]], digests: bool = True) -> bytes:
    """Worker entry point: process one chunk of files; each Outcome as the tuple of its
    fields, the list of them marshalled (plain values only: ``marshal`` writes them in
    about half ``pickle``'s time; the parent, the same interpreter, reads them back)."""
    base = Path(root)
    return marshal.dumps(
        [
            _fields(_process(base, path, digest, encode=True, digests=digests))
            for path, digest in chunk
        ]
    )


def _fields(outcome: Outcome) -> tuple[Any, ...]:
    return (
        outcome.path,
        outcome.note,
        outcome.facts,
        outcome.encoded,
        outcome.mtime_ns,
        outcome.size,
        outcome.digest,
        outcome.fdigest,
    )


def is_entry_file(path: str) -> bool:
    """``index.*`` or ``main.*``: the only files whose statements anything reads.

    Only entry files are checked statement by statement (index-barrel-pattern, the split fix);
    parsing every other file in lean mode skips building their declarations and statements,
    which would otherwise triple what the cache stores and what every run rebuilds.
    """
    name = path.rpartition("/")[2]
    return name.rsplit(".", 1)[0] in ("index", "main")


def process_file(root: Path, path: str) -> Outcome:
    """Read, check and parse one file in this process: its encoded facts with the ``fstat``
    size and mtime of what was read, or a note (skipped: unreadable, too large, not UTF-8)."""
    return _process(root, path, None, encode=True)


def process_source(path: str, source: bytes) -> Outcome:
    """:func:`process_file` on content already read (a staged blob): its encoded facts and
    digests (size, no mtime), or a note (too large, not UTF-8)."""
    if len(source) > MAX_FILE_BYTES:
        return Outcome(path, note=f"{path}: skipped, larger than 1 MiB")
    try:
        source.decode("utf-8")
    except UnicodeDecodeError:
        return Outcome(path, note=f"{path}: skipped, not valid UTF-8")
    encoded = encode_facts(parse_source(path, source, full=is_entry_file(path)))
    digest = hashlib.sha256(source).hexdigest()
    return Outcome(path, None, None, encoded, 0, len(source), digest, digest_pair(encoded))


def _process(
    root: Path, path: str, cached_digest: str | None, *, encode: bool, digests: bool = True
) -> Outcome:
    """Read, check and parse one file (or confirm the cached facts by content hash).

    ``digests`` false (no parse cache this run): neither the content hash (unless there is a
    ``cached_digest`` to compare) nor the facts digests are computed."""
    try:
        source, stat = read_regular_file_with_stat(f"{root}/{path}", MAX_FILE_BYTES)
    except UnsafePathError as error:
        reason = (
            "larger than 1 MiB" if "larger than" in str(error) else str(error).rpartition(": ")[2]
        )
        return Outcome(path, note=f"{path}: skipped, {reason}")
    except OSError as error:
        return Outcome(path, note=f"{path}: skipped, cannot be read ({error.strerror or error})")
    if not source.isascii():  # ASCII is UTF-8: no need to decode it to know
        try:
            source.decode("utf-8")
        except UnicodeDecodeError:
            return Outcome(path, note=f"{path}: skipped, not valid UTF-8")
    # The content hash keys the parse cache: a run that neither reads nor writes one (and has
    # no cached digest to compare) does not need it.
    digest = hashlib.sha256(source).hexdigest() if digests or cached_digest is not None else ""
    if digest == cached_digest:
        return Outcome(path, None, None, None, stat.st_mtime_ns, stat.st_size, digest)
    facts = parse_source(path, source, full=is_entry_file(path))
    if encode:
        encoded = encode_facts(facts)
        return Outcome(
            path,
            None,
            None,
            encoded,
            stat.st_mtime_ns,
            len(source),
            digest,
            digest_pair(encoded) if digests else "",
        )
    return Outcome(path, None, facts, None, stat.st_mtime_ns, len(source), digest)
