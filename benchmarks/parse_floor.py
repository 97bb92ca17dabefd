"""The parse floor: tree-sitter-parse every source file of a tree once, in one process.

Usage: ``python benchmarks/parse_floor.py ROOT`` (with a Python that has ``tree_sitter`` and
``tree_sitter_typescript``, e.g. the project venv). Prints one JSON object: files, bytes,
files with syntax errors, seconds spent reading and parsing.

No extraction, no resolution, no rules: the time of this whole process is the least any
tree-sitter based full check of the tree can take on one core, so ``filid check`` (cold) is
compared with it. The file universe is the one SPEC.md §1 defines (git listing or a walk,
dot segments and build folders left out, ``*.d.ts`` left out, files over 1 MiB skipped).

``source_files`` needs only the standard library, so ``run.py`` imports it as well.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

SOURCE_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
DECLARATION_SUFFIXES = (".d.ts", ".d.mts", ".d.cts")
EXCLUDED_DIRECTORIES = frozenset({"node_modules", "dist", "build", "coverage", "out"})
TS_EXTENSIONS = (".ts", ".mts", ".cts")  # the rest take the TSX grammar (SPEC.md §3)
MAX_BYTES = 1024 * 1024


def _listed(root: Path) -> list[str]:
    """Root-relative POSIX paths from git when ``root`` is a work tree, else from a walk."""
    try:
        proc = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root,
            capture_output=True,
            check=True,
        )
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if Path(top).resolve() == root.resolve():
            return [p.decode("utf-8", "replace") for p in proc.stdout.split(b"\0") if p]
    except (OSError, subprocess.CalledProcessError):
        pass
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(
            d for d in dirnames if not d.startswith(".") and d not in EXCLUDED_DIRECTORIES
        )
        rel = os.path.relpath(dirpath, root)
        for name in filenames:
            out.append(name if rel == "." else f"{rel}/{name}".replace(os.sep, "/"))
    return out


def source_files(root: Path) -> list[str]:
    """Sorted root-relative source files of ``root`` that a full check parses."""
    files = []
    for rel in _listed(root):
        segments = rel.split("/")
        if any(s.startswith(".") or s in EXCLUDED_DIRECTORIES for s in segments):
            continue
        if not rel.endswith(SOURCE_EXTENSIONS) or rel.endswith(DECLARATION_SUFFIXES):
            continue
        files.append(rel)
    return sorted(set(files))


def parse_all(root: Path) -> dict[str, object]:
    """Read and parse every source file once; return counts and the seconds it took."""
    import tree_sitter
    import tree_sitter_typescript

    start = time.perf_counter()
    ts_parser = tree_sitter.Parser(
        tree_sitter.Language(tree_sitter_typescript.language_typescript())
    )
    tsx_parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_typescript.language_tsx()))
    parsed = 0
    total_bytes = 0
    with_errors = 0
    skipped = 0
    for rel in source_files(root):
        try:
            data = (root / rel).read_bytes()
        except OSError:
            skipped += 1
            continue
        if len(data) > MAX_BYTES:
            skipped += 1
            continue
        parser = ts_parser if rel.endswith(TS_EXTENSIONS) else tsx_parser
        tree = parser.parse(data)
        parsed += 1
        total_bytes += len(data)
        if tree.root_node.has_error:
            with_errors += 1
    return {
        "files": parsed,
        "bytes": total_bytes,
        "filesWithSyntaxErrors": with_errors,
        "skipped": skipped,
        "seconds": round(time.perf_counter() - start, 4),
    }


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: parse the tree under ROOT and print the JSON summary."""
    ap = argparse.ArgumentParser(description="tree-sitter parse floor of a source tree")
    ap.add_argument("root", type=Path)
    args = ap.parse_args(argv)
    result = parse_all(args.root.resolve())
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
