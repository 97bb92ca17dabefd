"""Copy this checkout as git would commit it, so installs never write into the work tree.

``pip install <dir>`` builds in place (``build/``, ``src/*.egg-info``), and pre-commit only
installs hook repositories from git; both get a throw-away copy of the tracked and untracked
files that .gitignore does not exclude.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def copy_checkout(destination: Path) -> Path:
    """Copy the files git would see in this checkout (minus ignored ones) to ``destination``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for rel in filter(None, listed.split("\0")):
        source = REPO / rel
        if source.is_file():  # skips files deleted in the working tree
            target = destination / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination
