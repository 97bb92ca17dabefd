"""Benchmark of the parse stage (run by hand from the repository root:
``python -m tests.parse.bench_parse [count]``).

Prints the bare tree-sitter parse time of a generated corpus, the time of parse + extraction,
their ratio, and the cold / parallel / warm-cache times of ``parse_files``. CPU time is used
for the in-process figures so that other load on the machine disturbs them less.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from filid.parse import parse_files, parse_source
from filid.parse.grammar import toolkit_for
from tests.parse.corpus import write_corpus


def _best(action: Callable[[], object], *, rounds: int = 5, clock: str = "process") -> float:
    timer = time.process_time if clock == "process" else time.perf_counter
    best = float("inf")
    for _ in range(rounds):
        start = timer()
        action()
        best = min(best, timer() - start)
    return best


def main(count: int) -> None:
    """Generate ``count`` files and print timings."""
    root = Path(tempfile.mkdtemp(prefix="filid-bench-"))
    try:
        paths = write_corpus(root, count)
        data = [(path, (root / path).read_bytes()) for path in paths]
        size = sum(len(source) for _, source in data)
        print(f"{count} files, {size / count:.0f} bytes on average")

        def bare() -> None:
            for path, source in data:
                toolkit_for(path).parser.parse(source)

        def extract() -> None:
            for path, source in data:
                parse_source(path, source)

        bare_time = min(_best(bare), _best(bare))
        full_time = _best(extract)
        print(f"bare parse      {bare_time:.3f} s")
        print(f"parse + extract {full_time:.3f} s  ratio {full_time / bare_time:.2f}")
        serial = _best(lambda: parse_files(root, paths, cache_dir=None, jobs=1), clock="wall")
        print(f"parse_files serial, no cache   {serial:.3f} s wall")
        parallel = _best(lambda: parse_files(root, paths, cache_dir=None), clock="wall")
        print(f"parse_files parallel, no cache {parallel:.3f} s wall")
        cache = root / ".filid" / "cache"
        start = time.perf_counter()
        parse_files(root, paths, cache_dir=cache)
        print(f"parse_files cold, writing cache {time.perf_counter() - start:.3f} s wall")
        time.sleep(2.1)  # leave the racy-timestamp window so stat alone proves freshness
        parse_files(root, paths, cache_dir=cache)  # re-stamp the cache
        warm = _best(lambda: parse_files(root, paths, cache_dir=cache), clock="wall")
        result = parse_files(root, paths, cache_dir=cache)
        print(f"parse_files warm cache {warm:.3f} s wall (parsed {result.parsed})")
        for n in (100, 200, 300, 500, 800):
            subset = paths[:n]
            one = _best(partial(parse_files, root, subset, cache_dir=None, jobs=1), clock="wall")
            many = _best(partial(parse_files, root, subset, cache_dir=None), clock="wall")
            print(f"  {n:4d} files: serial {one:.3f} s, parallel {many:.3f} s (wall)")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
