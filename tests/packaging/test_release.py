"""The release workflow builds the sdist and the wheel on a version tag, for a version the
CHANGELOG describes."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def test_release_workflow_builds_on_a_version_tag() -> None:
    workflow = yaml.safe_load((REPO / ".github/workflows/release.yml").read_text())
    # PyYAML reads the key `on` as True
    trigger = workflow.get("on", workflow.get(True))
    assert trigger == {"push": {"tags": ["v*"]}}
    runs = "\n".join(
        step.get("run", "") for job in workflow["jobs"].values() for step in job["steps"]
    )
    assert "python -m build" in runs
    assert '"v$version" = "$GITHUB_REF_NAME"' in runs
    assert "CHANGELOG.md" in runs


def test_changelog_has_a_section_for_the_package_version() -> None:
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(version)} ", changelog, re.M)
