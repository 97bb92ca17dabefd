"""What identifies the filid code that wrote a cache or a stored result.

``filid.__version__`` alone does not: an install from a git checkout or an editable install
keeps the version string while the rules, the parser's extraction or the resolver change, and
a result stored by the old code would then be served as if the new code had computed it. The
identity also covers every file of the installed ``filid`` package (its path, size and
modification time): a stat per file, once per process, is far cheaper than one wrong answer.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

import filid

__all__ = ["code_identity"]

_SUFFIXES = (".py", ".scm", ".json", ".md")


@functools.cache
def code_identity() -> str:
    """A short digest of filid's version and the files of the installed package."""
    digest = hashlib.sha256(f"filid {filid.__version__}\0".encode())
    package = Path(filid.__file__).resolve().parent
    entries: list[tuple[str, int, int]] = []
    for folder, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in files:
            if not name.endswith(_SUFFIXES):
                continue
            path = Path(folder) / name
            try:
                info = path.stat()
            except OSError:
                continue
            entries.append((path.relative_to(package).as_posix(), info.st_size, info.st_mtime_ns))
    for rel, size, mtime in sorted(entries):
        digest.update(f"{rel}\0{size}\0{mtime}\0".encode())
    return digest.hexdigest()[:16]
