"""Fuzz filid's cache readers: no input may crash the interpreter or raise out of a run.

    python benchmarks/fuzz_cache.py --seconds 180 [--seed 1]

Runs in a child process (so a segfault would show as a signal, not vanish), in a private
cache folder. Each round builds a real sealed parse cache and result snapshot for a small
project, then feeds the readers (``parse.cache.load_cache``, ``snapshot.load_snapshot``):

- unsigned inputs: bit flips, truncations, splices and random bytes written over the sealed
  files, and marshal streams known to upset marshal (they must be refused by the signature
  before ``marshal.loads`` ever runs);
- signed inputs with the right envelope but wrong shapes: random nested plain data signed
  with this user's secret, to exercise the type checks after decoding (random *bytes* are
  never signed: only a holder of the secret could plant them).

Prints the number of cases per kind and exits 0 when every case was handled (an empty
cache or no snapshot), 1 when a case raised, and the child's signal when it crashed.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    kinds = ["int", "str", "bytes", "none", "bool", "float"]
    if depth < 4:
        kinds += ["list", "dict", "tuple"]
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.choice([0, -1, 1, 2**63, rng.randrange(-(10**6), 10**6)])
    if kind == "str":
        return rng.choice(["", "src/a.ts", "x" * rng.randrange(50), "\x00", "default"])
    if kind == "bytes":
        return rng.randbytes(rng.randrange(8))
    if kind == "none":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "float":
        return rng.random()
    if kind == "list":
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    if kind == "tuple":
        return tuple(_random_value(rng, depth + 1) for _ in range(rng.randrange(5)))
    return {_random_value(rng, 4): _random_value(rng, depth + 1) for _ in range(rng.randrange(5))}


def _child(seconds: float, seed: int) -> int:
    from filid.check.engine import evaluate
    from filid.check.incremental import check_project
    from filid.check.project import load_project
    from filid.check.snapshot import base_key, load_state
    from filid.parse.cache import cache_file, load_cache
    from filid.parse.cache import delta_file as parse_delta_file
    from filid.store.location import project_cache_dir
    from filid.store.sealed import write_sealed

    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="filid-fuzz-"))
    os.environ["FILID_CACHE_DIR"] = str(work / "cache")
    root = work / "project"
    for rel, text in {
        "src/auth/index.ts": "export { login } from './login';\n",
        "src/auth/login.ts": "export const login = 1;\n",
        "src/app/index.ts": "import { login } from '../auth/login';\nexport { login };\n",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    expected = [v.fingerprint for v in evaluate(load_project(root, use_cache=False)).violations]
    old = time.time() - 3600
    for path in root.rglob("*.ts"):
        os.utime(path, (old, old))
    check_project(root)
    # A comment-only edit is answered from the snapshot and leaves a delta file: fuzz it too.
    login = root / "src/auth/login.ts"
    login.write_text(login.read_text(encoding="utf-8") + "// edited\n", encoding="utf-8")
    os.utime(login, (old + 60, old + 60))
    check_project(root)
    # An import edit: a computed run that reuses the stored resolutions and writes a parse
    # cache delta; then the comment edit above again, for the snapshot's delta.
    app = root / "src/app/index.ts"
    app.write_text("import { login as again } from '../auth';\n" + app.read_text("utf-8"))
    os.utime(app, (old + 90, old + 90))
    check_project(root)
    login.write_text(login.read_text(encoding="utf-8") + "// again\n", encoding="utf-8")
    os.utime(login, (old + 120, old + 120))
    check_project(root)
    expected = [v.fingerprint for v in evaluate(load_project(root, use_cache=False)).violations]
    directory = project_cache_dir(root)
    assert directory is not None
    parse_file = cache_file(directory)
    originals = {
        path: path.read_bytes()
        for path in (
            parse_file,
            parse_delta_file(directory),
            directory / "result-snapshot.marshal",
            directory / "result-snapshot-delta.marshal",
            directory / "result-snapshot-resolutions.marshal",
        )
    }
    counts: Counter[str] = Counter()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        target = rng.choice(list(originals))
        data = bytearray(originals[target])
        kind = rng.choice(["flip", "truncate", "splice", "random", "marshal-bomb", "signed-shape"])
        if kind == "flip":
            for _ in range(rng.randrange(1, 8)):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            target.write_bytes(bytes(data))
        elif kind == "truncate":
            target.write_bytes(bytes(data[: rng.randrange(len(data))]))
        elif kind == "splice":
            start = rng.randrange(len(data))
            target.write_bytes(bytes(data[:start]) + rng.randbytes(rng.randrange(64)))
        elif kind == "random":
            target.write_bytes(rng.randbytes(rng.randrange(512)))
        elif kind == "marshal-bomb":
            # a huge declared length and a deep nesting, as a planted file would carry them
            target.write_bytes(
                rng.choice([b"[\xff\xff\xff\x7f", b"(" * 146, b"\xdb" + b"\xff" * 5])
            )
        else:
            write_sealed(target, _random_value(rng))
        counts[kind] += 1
        load_cache(directory)
        load_state(directory, "key")
        load_state(directory, base_key(None, root))
        got = [v.fingerprint for v in check_project(root).violations]
        if got != expected:
            print(f"wrong result after a {kind} case", file=sys.stderr)
            return 1
        target.write_bytes(originals[target])
    total = sum(counts.values())
    print(f"{total} cases in {seconds:.0f} s, no crash, no exception, results unchanged")
    for kind, count in sorted(counts.items()):
        print(f"  {kind}: {count}")
    return 0


def main() -> int:
    """Run the fuzz loop in a child process and report how it ended."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return _child(args.seconds, args.seed)
    done = subprocess.run(
        [
            sys.executable,
            __file__,
            "--child",
            "--seconds",
            str(args.seconds),
            "--seed",
            str(args.seed),
        ],
        check=False,
    )
    if done.returncode < 0:
        print(f"the fuzzed reader crashed the interpreter (signal {-done.returncode})")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
