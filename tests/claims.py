"""What the undeclared-regime layout tests read from a check: the errors (or every finding) as
``"<rule> <file>:<line>"``, and a project made a git repository (for `.gitignore` answers)."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path

from filid.check.engine import evaluate
from filid.check.project import load_project
from tests.conftest import ProjectFactory


def claims(root: Path, *, errors_only: bool = True) -> list[str]:
    """The findings of a fresh check of ``root`` (errors only unless told), sorted."""
    result = evaluate(load_project(root, use_cache=False))
    return sorted(
        f"{v.rule_id} {v.location.file}:{v.location.line}"
        for v in result.violations
        if not errors_only or v.severity.value == "error"
    )


def git_project(files: Mapping[str, str], make_project: ProjectFactory) -> Path:
    """A project of ``files`` in a fresh git repository."""
    root = make_project(files)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, capture_output=True)
    return root
