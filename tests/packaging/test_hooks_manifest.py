"""The pre-commit manifest: valid for pre-commit, and its ``files`` regex picks what filid reads."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
MANIFEST = REPO / ".pre-commit-hooks.yaml"


def _hooks() -> dict[str, dict[str, Any]]:
    data = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    return {hook["id"]: hook for hook in data}


def test_manifest_validates_with_pre_commit() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(MANIFEST)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_both_hooks_run_filid_check_serially_on_the_project_root() -> None:
    hooks = _hooks()
    assert set(hooks) == {"filid", "filid-fix"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["require_serial"] is True
        assert hook["pass_filenames"] is True
        # PATH (the project root) comes first, then pre-commit appends the staged files.
        assert hook["args"] == [".", "--"]
        assert hook["entry"].split()[:2] == ["filid", "check"]
        assert "--no-progress" in hook["entry"].split()
    assert "--fix" not in hooks["filid"]["entry"].split()
    assert "--fix" in hooks["filid-fix"]["entry"].split()


@pytest.mark.parametrize(
    "path",
    [
        "src/a.ts",
        "src/a.tsx",
        "src/a.mts",
        "src/a.cts",
        "src/types.d.ts",
        "lib/a.js",
        "lib/a.jsx",
        "lib/a.mjs",
        "lib/a.cjs",
        "tsconfig.json",
        "tsconfig.base.json",
        "packages/web/tsconfig.build.json",
        "jsconfig.json",
        "package.json",
        "apps/web/package.json",
        "CLAUDE.md",
        "src/billing/CLAUDE.md",
        "src/billing/INTENT.md",
        "src/billing/SPEC.md",
        "src/billing/DETAIL.md",
    ],
)
def test_files_regex_selects_what_filid_reads(path: str) -> None:
    for hook in _hooks().values():
        # pre-commit applies the pattern with re.search to the repository-relative path.
        assert re.search(hook["files"], path), (hook["id"], path)


@pytest.mark.parametrize(
    "path",
    [
        "README.md",
        "x.py",
        "docs/NOTCLAUDE.md.txt",
        "src/MYCLAUDE.md",
        "package-lock.json",
        "src/a.ts.snap",
        "tsconfig.json/readme.txt",
        "styles/a.css",
    ],
)
def test_files_regex_skips_other_files(path: str) -> None:
    for hook in _hooks().values():
        assert not re.search(hook["files"], path), (hook["id"], path)
