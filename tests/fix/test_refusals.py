"""Read-only and hard-linked files are refused and reported, never replaced, and one file
that cannot be fixed does not stop the independent fixes."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from filid.fix.run import run_fix
from filid.model.violations import Risk

from .conftest import FIXTURES


def _project(tmp_path: Path) -> Path:
    """rewrite-import (a safe import rewrite in src/app/app.ts) plus create-index's billing
    module (a safe index creation): two independent fixes."""
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "rewrite-import" / "before", root)
    shutil.copytree(FIXTURES / "create-index" / "before" / "src" / "billing", root / "src/billing")
    return root


def _notes(run_notes: tuple[str, ...]) -> str:
    return "\n".join(run_notes)


def test_both_fixes_apply_when_nothing_is_in_the_way(tmp_path: Path) -> None:
    project = _project(tmp_path)
    run = run_fix(project, max_risk=Risk.SAFE, use_cache=False)
    assert "src/app/app.ts" in run.changed_files
    assert "src/billing/index.ts" in run.changed_files


def test_a_read_only_file_is_refused_and_the_other_fix_still_applies(tmp_path: Path) -> None:
    project = _project(tmp_path)
    app = project / "src/app/app.ts"
    content = app.read_bytes()
    os.chmod(app, 0o444)

    run = run_fix(project, max_risk=Risk.SAFE, use_cache=False)

    assert app.read_bytes() == content
    assert stat.S_IMODE(app.stat().st_mode) == 0o444
    assert run.changed_files == ("src/billing/index.ts",)
    assert "refusing to rewrite src/app/app.ts: it is read-only" in _notes(run.result.notes)
    assert any(
        not item.success and item.violation.location.file == "src/app/app.ts"
        for item in run.result.fixed
    )


def test_a_hard_linked_file_is_refused_and_both_names_keep_their_content(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    app = project / "src/app/app.ts"
    other = tmp_path / "elsewhere.ts"
    os.link(app, other)
    content = app.read_bytes()

    run = run_fix(project, max_risk=Risk.SAFE, use_cache=False)

    assert app.read_bytes() == content
    assert os.path.samefile(app, other)
    assert run.changed_files == ("src/billing/index.ts",)
    assert "refusing to rewrite src/app/app.ts: it has 2 hard links" in _notes(run.result.notes)


def test_a_read_only_file_in_a_moved_folder_blocks_only_that_move(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "rename" / "before", project)
    shutil.copytree(
        FIXTURES / "create-index" / "before" / "src" / "billing", project / "src/billing"
    )
    card = project / "src/ui/UserCard/card.ts"
    os.chmod(card, 0o444)

    run = run_fix(project, max_risk=Risk.MODERATE, use_cache=False)

    assert card.exists() and (project / "src/ui/UserCard/title.ts").exists()
    assert not (project / "src/ui/user-card").exists()
    assert "src/billing/index.ts" in run.changed_files
    assert "refusing to rewrite src/ui/UserCard/card.ts: it is read-only" in _notes(
        run.result.notes
    )
