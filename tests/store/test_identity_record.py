"""A wheel install's code identity follows RECORD's hashes, not modification times."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from filid.store.identity import recorded_identity


def install(site: Path, files: dict[str, bytes]) -> Path:
    """A fake wheel install of a package ``filid`` with a RECORD as pip writes it."""
    lines = []
    for name, content in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_bytes(content)
        hashed = hashlib.sha256(content).hexdigest()
        lines.append(f"{name},sha256={hashed},{len(content)}")
    info = site / "filid-0.1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("\n".join([*lines, "filid-0.1.0.dist-info/RECORD,,", ""]))
    return site / "filid"


FILES = {"filid/__init__.py": b"__version__ = '0.1.0'\n", "filid/rules/a.py": b"A = 1\n"}


def test_a_reinstall_with_new_times_keeps_the_identity(tmp_path: Path) -> None:
    first = recorded_identity(install(tmp_path / "one", FILES))
    package = install(tmp_path / "two", FILES)
    os.utime(package / "rules/a.py", (1_600_000_000, 1_600_000_000))
    assert first is not None
    assert recorded_identity(package) == first


def test_other_code_or_a_hand_edit_changes_or_drops_it(tmp_path: Path) -> None:
    first = recorded_identity(install(tmp_path / "one", FILES))
    other = recorded_identity(install(tmp_path / "two", {**FILES, "filid/rules/a.py": b"A=2\n"}))
    assert other is not None and other != first
    package = install(tmp_path / "three", FILES)
    (package / "rules/a.py").write_bytes(b"A = 22\n")  # edited in place: RECORD is stale
    assert recorded_identity(package) is None


def test_an_editable_install_has_no_recorded_identity(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "filid").mkdir(parents=True)
    (site / "filid/__init__.py").write_text("")
    info = site / "filid-0.1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("__editable__.filid-0.1.0.pth,sha256=x,18\n")
    assert recorded_identity(site / "filid") is None
