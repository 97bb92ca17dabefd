"""Sealed cache files: a per-user secret signs what filid writes; nothing else is decoded.

A cache file is ``MAGIC + HMAC-SHA256(secret, payload) + payload``. The secret (32 random
bytes, mode 0600) lives in the cache root, which no repository can write. :func:`unseal`
checks the size cap and the signature *before* the payload is decoded, so bytes that filid did
not write itself — a planted file, a truncated one, a bit flip — never reach ``marshal``
(whose decoder can crash the interpreter on malformed input) and are reported as a miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import marshal
import os
import secrets
from pathlib import Path
from typing import Any

from filid.store.files import (
    UnsafePathError,
    read_regular_file,
    read_regular_file_with_stat,
    write_file_atomically,
)
from filid.store.location import cache_root, cache_root_trusted, is_private_file

__all__ = ["MAX_CACHE_BYTES", "read_sealed", "write_sealed"]

MAGIC = b"filid-sealed-1\n"
MAX_CACHE_BYTES = 512 * 1024 * 1024
_SECRET_NAME = "secret"


def _secret(create: bool) -> bytes | None:
    """This user's signing secret; None when the cache root is not a trusted folder (see
    :mod:`filid.store.location`) or the secret there is not a 0600 file of this user."""
    if not cache_root_trusted(create=create):
        return None
    path = cache_root() / _SECRET_NAME
    with contextlib.suppress(OSError, UnsafePathError):
        data, info = read_regular_file_with_stat(path, 64)
        if not is_private_file(info):
            return None  # not written by filid for this user: never sign or trust with it
        if len(data) == 32:
            return data
    if not create:
        return None
    fresh = secrets.token_bytes(32)
    try:
        handle = os.open(
            path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600
        )
    except FileExistsError:
        return _secret(False)
    except OSError:
        return None
    try:
        os.write(handle, fresh)
    finally:
        os.close(handle)
    return fresh


def _signature(secret: bytes, payload: bytes | memoryview) -> bytes:
    return hmac.new(secret, payload, hashlib.sha256).digest()


def write_sealed(path: Path, value: Any) -> None:
    """Sign and write ``value`` (plain data: dict, list, str, int, bool, None) atomically.

    Raises ``OSError`` when it cannot be written (callers treat a cache as optional).
    """
    secret = _secret(True)
    if secret is None:
        raise OSError("no cache secret")
    payload = marshal.dumps(value)
    try:
        write_file_atomically(path, MAGIC + _signature(secret, payload) + payload, mode=0o600)
    except UnsafePathError as error:
        raise OSError(str(error)) from None


def read_sealed(path: Path) -> Any:
    """The value stored by :func:`write_sealed`, or ``None`` when the file is absent, too
    large, not a regular file, or not signed with this user's secret."""
    secret = _secret(False)
    if secret is None:
        return None
    try:
        data = read_regular_file(path, MAX_CACHE_BYTES)
    except (OSError, UnsafePathError):
        return None
    head = len(MAGIC) + 32
    if len(data) < head or not data.startswith(MAGIC):
        return None
    payload = memoryview(data)[head:]  # no copy of a cache of many megabytes
    if not hmac.compare_digest(data[len(MAGIC) : head], _signature(secret, payload)):
        return None
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
