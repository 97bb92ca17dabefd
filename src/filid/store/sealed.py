"""Sealed cache files: a per-user secret signs what filid writes; nothing else is decoded.

A cache file is ``MAGIC + HMAC-SHA256(secret, payload) + payload``. The secret (32 random
bytes, mode 0600) lives in the cache root, which no repository can write. :func:`unseal`
checks the size cap and the signature *before* the payload is decoded, so bytes that filid did
not write itself — a planted file, a truncated one, a bit flip — never reach ``marshal``
(whose decoder can crash the interpreter on malformed input) and are reported as a miss.

A large cache whose readers need a few parts of it is written in sections
(:func:`write_sealed_sections`): ``SECTIONS_MAGIC + HMAC(secret, table) + <table length, 8
bytes little-endian> + table + sections``, where the table (marshalled) holds a small head
value and each section's offset, length and SHA-256. :func:`read_sealed_sections` checks the
table's signature; each section is read alone when asked for (:meth:`SealedSections.section`)
and decoded only when its digest is the signed one. Reading one section of a cache of many
megabytes costs that section, not the file: a pre-commit run of one file reads the few
sections that file needs.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import marshal
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from filid.store.files import (
    UnsafePathError,
    read_regular_file,
    read_regular_file_with_stat,
    read_regular_range,
    write_file_atomically,
)
from filid.store.location import cache_root, cache_root_trusted, is_private_file

__all__ = [
    "MAX_CACHE_BYTES",
    "SealedSectionError",
    "SealedSections",
    "read_sealed",
    "read_sealed_sections",
    "write_sealed",
    "write_sealed_sections",
]

MAGIC = b"filid-sealed-1\n"
SECTIONS_MAGIC = b"filid-sealed-sections-1\n"
_LENGTH_BYTES = 8
# The first read of a sectioned file: its table is usually smaller.
_FIRST_READ = 1 << 16
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


class SealedSectionError(ValueError):
    """A section of a sectioned cache file that cannot be read back as written (the file
    was replaced or damaged since its table was read)."""


class SealedSections:
    """A sectioned cache file whose signed table was read (:func:`read_sealed_sections`):
    its ``head`` value, and each section on demand."""

    __slots__ = ("_path", "_start", "_table", "head")

    def __init__(
        self, path: Path, head: Any, table: Sequence[tuple[int, int, bytes]], start: int
    ) -> None:
        self._path = path
        self.head = head
        self._table = table
        self._start = start

    def __len__(self) -> int:
        return len(self._table)

    def section(self, number: int) -> Any:
        """The value of section ``number``, read now; raises :class:`SealedSectionError`
        when the file no longer holds the bytes its signed table names."""
        offset, length, digest = self._table[number]
        try:
            data = read_regular_range(self._path, self._start + offset, length, MAX_CACHE_BYTES)
        except (OSError, UnsafePathError):
            raise SealedSectionError(f"{self._path}: section {number} unreadable") from None
        if len(data) != length or not hmac.compare_digest(hashlib.sha256(data).digest(), digest):
            raise SealedSectionError(f"{self._path}: section {number} changed")
        try:
            return marshal.loads(data)
        except (EOFError, ValueError, TypeError):  # signed, so never: filid wrote it
            raise SealedSectionError(f"{self._path}: section {number} undecodable") from None


def write_sealed_sections(path: Path, head: Any, sections: Sequence[Any]) -> None:
    """Sign and write ``head`` and ``sections`` (plain data each) atomically as one
    sectioned file (see the module docstring). Raises ``OSError`` as :func:`write_sealed`."""
    secret = _secret(True)
    if secret is None:
        raise OSError("no cache secret")
    blobs = [marshal.dumps(section) for section in sections]
    table: list[tuple[int, int, bytes]] = []
    at = 0
    for blob in blobs:
        table.append((at, len(blob), hashlib.sha256(blob).digest()))
        at += len(blob)
    index = marshal.dumps((head, table))
    size = len(index).to_bytes(_LENGTH_BYTES, "little")
    data = b"".join([SECTIONS_MAGIC, _signature(secret, index), size, index, *blobs])
    try:
        write_file_atomically(path, data, mode=0o600)
    except UnsafePathError as error:
        raise OSError(str(error)) from None


def read_sealed_sections(path: Path) -> SealedSections | None:
    """The sectioned file written by :func:`write_sealed_sections` with its table read, or
    ``None`` when it is absent, too large, not a regular file, or its table is not signed
    with this user's secret."""
    secret = _secret(False)
    if secret is None:
        return None
    fixed = len(SECTIONS_MAGIC) + 32 + _LENGTH_BYTES
    try:
        data = read_regular_range(path, 0, _FIRST_READ, MAX_CACHE_BYTES)
        if len(data) < fixed or not data.startswith(SECTIONS_MAGIC):
            return None
        size = int.from_bytes(data[fixed - _LENGTH_BYTES : fixed], "little")
        if size > MAX_CACHE_BYTES:
            return None
        if len(data) < fixed + size:
            data = read_regular_range(path, 0, fixed + size, MAX_CACHE_BYTES)
    except (OSError, UnsafePathError):
        return None
    index = memoryview(data)[fixed : fixed + size]
    signature = data[len(SECTIONS_MAGIC) : len(SECTIONS_MAGIC) + 32]
    if len(index) != size or not hmac.compare_digest(signature, _signature(secret, index)):
        return None
    try:
        head, table = marshal.loads(index)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(table, list) or not all(
        isinstance(entry, tuple)
        and len(entry) == 3
        and type(entry[0]) is int
        and type(entry[1]) is int
        and isinstance(entry[2], bytes)
        for entry in table
    ):
        return None
    return SealedSections(path, head, table, fixed + size)
