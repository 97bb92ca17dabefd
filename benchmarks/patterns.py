"""Resolution time with huge pattern maps: 50,000 tsconfig `paths`, 100,000 `exports` patterns.

    python benchmarks/patterns.py [--paths 50000] [--exports 100000] [--imports 20000]

Builds the project in a temporary folder and times resolving ``--imports`` specifiers (half
through `paths`, half through a workspace package's `exports`), after the resolver is built.
Before pattern indexing every lookup scanned every pattern.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from filid.graph import build_resolver


def main() -> int:
    """Build, resolve, print the timing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paths", type=int, default=50_000)
    parser.add_argument("--exports", type=int, default=100_000)
    parser.add_argument("--imports", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        paths = {f"@p{i}/*": [f"src/p{i}/*"] for i in range(args.paths)}
        (root / "tsconfig.json").write_text(json.dumps({"compilerOptions": {"paths": paths}}))
        (root / "package.json").write_text(json.dumps({"name": "r", "workspaces": ["pkg"]}))
        (root / "pkg").mkdir()
        exports = {f"./e{i}/*": f"./src/e{i}/*.ts" for i in range(args.exports)}
        (root / "pkg/package.json").write_text(json.dumps({"name": "pkg", "exports": exports}))
        files = ["tsconfig.json", "package.json", "pkg/package.json", "app/main.ts"]
        files += [f"src/p{i}/x.ts" for i in range(0, args.paths, max(1, args.paths // 500))]
        files += [f"pkg/src/e{i}/y.ts" for i in range(0, args.exports, max(1, args.exports // 500))]
        started = time.perf_counter()
        resolver = build_resolver(root, files)
        built = time.perf_counter() - started
        step_p = max(1, args.paths // 500)
        step_e = max(1, args.exports // 500)
        specifiers = [
            f"@p{(k * step_p) % args.paths // step_p * step_p}/x"
            if k % 2
            else f"pkg/e{(k * step_e) % args.exports // step_e * step_e}/y"
            for k in range(args.imports)
        ]
        started = time.perf_counter()
        found = sum(
            resolver.resolve_from(f"dir{k % 997}", spec).target is not None
            for k, spec in enumerate(specifiers)
        )
        resolved = time.perf_counter() - started
    print(
        f"{args.paths} paths, {args.exports} exports patterns: resolver built in {built:.2f} s; "
        f"{args.imports} imports resolved in {resolved:.2f} s ({found} found)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
