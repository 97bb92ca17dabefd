"""Sectioned sealed cache files: each section is read alone and decoded only when its bytes
are the ones the signed table names."""

from __future__ import annotations

from pathlib import Path

import pytest

import filid.store.sealed
from filid.store.sealed import (
    SealedSectionError,
    read_sealed,
    read_sealed_sections,
    write_sealed_sections,
)

SECTIONS = [{"a": [1, 2, 3]}, "x" * 5000, ("tuple", b"bytes", None), [], "last"]


def _written(tmp_path: Path, private_cache_root: Path) -> Path:
    path = private_cache_root / "state.marshal"
    write_sealed_sections(path, {"head": "value"}, SECTIONS)
    return path


def test_each_section_reads_back_alone(tmp_path: Path, private_cache_root: Path) -> None:
    path = _written(tmp_path, private_cache_root)
    sealed = read_sealed_sections(path)
    assert sealed is not None
    assert sealed.head == {"head": "value"}
    assert len(sealed) == len(SECTIONS)
    for number in reversed(range(len(SECTIONS))):
        assert sealed.section(number) == SECTIONS[number]
    # not a plain sealed file: the one-value reader does not take it
    assert read_sealed(path) is None


def test_a_section_reads_its_own_bytes_only(
    tmp_path: Path, private_cache_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _written(tmp_path, private_cache_root)
    sealed = read_sealed_sections(path)
    assert sealed is not None
    reads: list[tuple[int, int]] = []
    original = filid.store.sealed.read_regular_range

    def counted(path: Path, offset: int, length: int, cap: int) -> bytes:
        reads.append((offset, length))
        return original(path, offset, length, cap)

    monkeypatch.setattr(filid.store.sealed, "read_regular_range", counted)
    assert sealed.section(4) == "last"
    assert len(reads) == 1 and reads[0][1] < 64, reads


def test_a_damaged_section_is_never_decoded(tmp_path: Path, private_cache_root: Path) -> None:
    path = _written(tmp_path, private_cache_root)
    data = path.read_bytes()
    at = data.rindex(b"x" * 100)  # inside section 1
    path.write_bytes(data[:at] + b"y" + data[at + 1 :])
    sealed = read_sealed_sections(path)
    assert sealed is not None  # the table is intact
    assert sealed.section(0) == SECTIONS[0]
    with pytest.raises(SealedSectionError):
        sealed.section(1)
    # truncated after the table was read: the missing sections are errors, not guesses
    path.write_bytes(data[: len(data) - 10])
    with pytest.raises(SealedSectionError):
        sealed.section(4)
    assert sealed.section(0) == SECTIONS[0]


def test_a_forged_table_is_no_file(tmp_path: Path, private_cache_root: Path) -> None:
    path = _written(tmp_path, private_cache_root)
    data = path.read_bytes()
    at = data.index(b"value")
    path.write_bytes(data[:at] + b"V" + data[at + 1 :])
    assert read_sealed_sections(path) is None
    for forged in (data[:30], b"garbage", b""):
        path.write_bytes(forged)
        assert read_sealed_sections(path) is None
    path.unlink()
    assert read_sealed_sections(path) is None
