"""Shared fixtures for fix tests: fixture projects copied to tmp_path, and the real tsc."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "fix"
NODE_DIR = Path(__file__).resolve().parents[1] / "node"
TSC = NODE_DIR / "node_modules" / ".bin" / "tsc"


@pytest.fixture(scope="session")
def tsc() -> Path:
    """The TypeScript compiler from tests/node, installed with npm when missing.

    Skips (with the reason) only when npm itself is unavailable.
    """
    if not TSC.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip(
                "npm is not available, so tsc cannot be installed (npm install --prefix tests/node)"
            )
        subprocess.run(
            [npm, "install", "--prefix", str(NODE_DIR), "--no-audit", "--no-fund"],
            check=True,
            capture_output=True,
            timeout=600,
        )
    assert TSC.exists(), f"npm install did not provide {TSC}"
    return TSC


def type_check(tsc: Path, project: Path) -> None:
    """Run ``tsc --noEmit -p project`` and fail with its output when it reports errors."""
    done = subprocess.run(
        [str(tsc), "--noEmit", "-p", str(project)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"tsc failed on {project}:\n{done.stdout}{done.stderr}"


def copy_fixture(name: str, destination: Path) -> Path:
    """Copy ``tests/fixtures/fix/<name>/before`` to ``destination`` and return it."""
    shutil.copytree(FIXTURES / name / "before", destination)
    return destination


def tree_of(root: Path) -> dict[str, str]:
    """Every file under ``root`` (text), skipping dot directories such as ``.filid``."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        found[rel.as_posix()] = path.read_text(encoding="utf-8")
    return found
