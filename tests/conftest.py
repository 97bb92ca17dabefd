"""Shared fixtures: build real fixture projects on disk from {path: content} mappings."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

ProjectFactory = Callable[..., Path]

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# The smallest config: it declares the project (SPEC §0), so the FCA rules run on it.
DECLARED_CONFIG: dict[str, object] = {"version": "2.0"}


def write_files(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Write ``files`` (root-relative path → text or bytes) below ``root``."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


@pytest.fixture(autouse=True)
def private_cache_root(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test (and every filid it starts) keeps its caches in its own per-user folder."""
    root = tmp_path_factory.mktemp("filid-cache")
    monkeypatch.setenv("FILID_CACHE_DIR", str(root))
    return root


@pytest.fixture
def make_project(tmp_path: Path) -> ProjectFactory:
    """Create a project directory from a mapping; ``config`` becomes .filid/config.json.

    Without ``config`` the project is undeclared (SPEC §0: only the claims any TypeScript
    project holds run); ``declared=True`` writes a minimal config, so the FCA rules run.
    """
    counter = iter(range(1000))

    def make(
        files: Mapping[str, str | bytes], config: object | None = None, *, declared: bool = False
    ) -> Path:
        root = tmp_path / f"project{next(counter)}"
        root.mkdir()
        write_files(root, files)
        if config is None and declared:
            config = DECLARED_CONFIG
        if config is not None:
            write_files(root, {".filid/config.json": json.dumps(config)})
        return root

    return make
