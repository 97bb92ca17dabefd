"""What identifies the filid code that wrote a cache or a stored result.

``filid.__version__`` alone does not: an install from a git checkout or an editable install
keeps the version string while the rules, the parser's extraction or the resolver change, and
a result stored by the old code would then be served as if the new code had computed it. The
identity also covers every file of the installed ``filid`` package (its path, size and
modification time): a stat per file, once per process, is far cheaper than one wrong answer.

A wheel install (``pip install``, what the GitHub Action does in every job) writes every
file afresh, so modification times would give each job a new identity and a cache folder
carried from the previous job (``actions/cache``) would never be used. For such an install
the identity is instead each file's path, size and hash as pip recorded them in the
distribution's ``RECORD`` (content, not time), provided every file ``RECORD`` lists under
``filid/`` still has its recorded size; an editable install (whose ``RECORD`` lists no
``filid/`` file) or anything unexpected keeps the modification times.
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
    recorded = recorded_identity(package)
    if recorded is not None:
        digest.update(f"record\0{recorded}\0".encode())
        return digest.hexdigest()[:16]
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


def recorded_identity(package: Path) -> str | None:
    """A digest of the ``filid/`` entries (path, hash, size) of the one ``filid-*.dist-info/
    RECORD`` beside ``package``, when it lists ``filid/__init__.py`` and every listed file
    still has its recorded size; None otherwise (see the module docstring)."""
    site = package.parent
    try:
        infos = [n for n in os.listdir(site) if n.startswith("filid-") and n.endswith(".dist-info")]
        text = (site / infos[0] / "RECORD").read_text("utf-8") if len(infos) == 1 else ""
    except (OSError, UnicodeDecodeError):
        return None
    prefix = f"{package.name}/"
    entries: list[tuple[str, str, int]] = []
    for line in text.splitlines():
        path, _, rest = line.partition(",")
        if not path.startswith(prefix) or not path.endswith(_SUFFIXES):
            continue
        hashed, _, length = rest.partition(",")
        if not hashed or not length.isdigit():
            return None
        entries.append((path, hashed, int(length)))
    if not any(path == f"{prefix}__init__.py" for path, _, _ in entries):
        return None
    for path, _, recorded in entries:
        try:
            if os.stat(site / path).st_size != recorded:
                return None
        except OSError:
            return None
    digest = hashlib.sha256()
    for path, hashed, recorded in sorted(entries):
        digest.update(f"{path}\0{hashed}\0{recorded}\0".encode())
    return digest.hexdigest()
