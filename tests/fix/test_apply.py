"""The transaction layer: preconditions, confinement to the root, atomic writes, rollback."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from filid.fix.actions import (
    CreateFile,
    Edit,
    EditFile,
    FixPlan,
    MoveFile,
    RemoveDirIfEmpty,
    SyncAction,
    digest,
)
from filid.fix.apply import apply_plan, check_path, preview_diff
from filid.model.errors import FixError


def _plan(root: Path, *operations: SyncAction) -> FixPlan:
    return FixPlan(root=root, fixes=(), skipped=(), operations=tuple(operations))


def _snapshot(root: Path) -> dict[str, bytes | str]:
    """Every file (content) and directory (marker) under ``root``."""
    found: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        found[rel] = path.read_bytes() if path.is_file() else "<dir>"
    return found


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "src" / "a").mkdir(parents=True)
    (root / "src" / "a" / "x.ts").write_text("import { y } from './y';\nexport const x = y;\n")
    (root / "src" / "a" / "y.ts").write_text("export const y = 1;\n")
    (root / "src" / "b.ts").write_text("import { x } from './a/x';\n")
    os.chmod(root / "src" / "a" / "y.ts", 0o755)
    return root


def _multi_file_plan(root: Path) -> FixPlan:
    x = (root / "src/a/x.ts").read_bytes()
    y = (root / "src/a/y.ts").read_bytes()
    b = (root / "src/b.ts").read_bytes()
    return _plan(
        root,
        CreateFile("src/a/index.ts", "export { x } from './x';\n"),
        MoveFile("src/a/y.ts", "src/c/y.ts", digest(y)),
        EditFile("src/a/x.ts", digest(x), (Edit(19, 22, "../c/y"),)),
        EditFile("src/b.ts", digest(b), (Edit(19, 24, "./a"),)),
        RemoveDirIfEmpty("src/a"),
    )


def test_applies_every_operation_and_keeps_the_mode(project: Path) -> None:
    changed = apply_plan(_multi_file_plan(project))

    assert changed == ("src/a/index.ts", "src/a/x.ts", "src/a/y.ts", "src/b.ts", "src/c/y.ts")
    assert (
        project / "src/a/x.ts"
    ).read_text() == "import { y } from '../c/y';\nexport const x = y;\n"
    assert (project / "src/b.ts").read_text() == "import { x } from './a';\n"
    assert (project / "src/a/index.ts").read_text() == "export { x } from './x';\n"
    assert not (project / "src/a/y.ts").exists()
    assert (project / "src/c/y.ts").read_text() == "export const y = 1;\n"
    assert stat.S_IMODE((project / "src/c/y.ts").stat().st_mode) == 0o755
    # No temporary files are left behind.
    assert not [p for p in project.rglob("*filid-tmp*")]


def test_a_write_failing_midway_leaves_every_file_byte_identical(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _snapshot(project)
    real_replace = os.replace
    calls = {"n": 0}

    def flaky_replace(src: str, dst: str) -> None:
        calls["n"] += 1
        # The third write, after src/a/index.ts was created and src/a/x.ts edited.
        if calls["n"] == 3:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", flaky_replace)
    with pytest.raises(FixError, match="rolled back"):
        apply_plan(_multi_file_plan(project))

    assert calls["n"] > 3  # the rollback itself wrote src/a/x.ts back
    assert _snapshot(project) == before
    assert stat.S_IMODE((project / "src/a/y.ts").stat().st_mode) == 0o755


def test_a_failure_after_the_moves_rolls_back_moves_and_new_directories(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _snapshot(project)
    real_unlink = Path.unlink

    def failing_unlink(self: Path, missing_ok: bool = False) -> None:
        if self.name == "y.ts" and "/a/" in self.as_posix():
            raise PermissionError(13, "Permission denied")
        real_unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", failing_unlink)
    with pytest.raises(FixError):
        apply_plan(_multi_file_plan(project))
    monkeypatch.undo()
    assert _snapshot(project) == before
    assert not (project / "src/c").exists()


def test_a_file_edited_after_planning_is_refused_before_any_write(project: Path) -> None:
    plan = _multi_file_plan(project)
    (project / "src/b.ts").write_text("import { x } from './a/x';\n// edited by a person\n")
    before = _snapshot(project)

    with pytest.raises(FixError, match=r"^src/b\.ts changed since the fix was planned$"):
        apply_plan(plan)
    assert _snapshot(project) == before


def test_a_created_path_that_appeared_meanwhile_is_refused(project: Path) -> None:
    plan = _multi_file_plan(project)
    (project / "src/a/index.ts").write_text("export {};\n")
    before = _snapshot(project)
    with pytest.raises(FixError, match="already exists"):
        apply_plan(plan)
    assert _snapshot(project) == before


@pytest.mark.parametrize(
    "path",
    ["../outside.ts", "src/../../outside.ts", "/etc/passwd", "src/./x.ts", "", "src//x.ts"],
)
def test_paths_that_leave_the_root_are_refused(project: Path, path: str) -> None:
    with pytest.raises(FixError, match="refusing"):
        check_path(project, path)
    with pytest.raises(FixError, match="refusing"):
        apply_plan(_plan(project, CreateFile(path, "x")))


def test_a_symlink_pointing_out_of_the_project_is_never_written_through(
    project: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.ts").write_text("export const secret = 1;\n")
    (project / "src" / "linked").symlink_to(outside, target_is_directory=True)
    (project / "src" / "link.ts").symlink_to(outside / "secret.ts")
    secret = (outside / "secret.ts").read_bytes()
    before = _snapshot(outside)

    for operation in (
        CreateFile("src/linked/new.ts", "export {};\n"),
        EditFile("src/linked/secret.ts", digest(secret), (Edit(0, 6, "//"),)),
        EditFile("src/link.ts", digest(secret), (Edit(0, 6, "//"),)),
        MoveFile("src/b.ts", "src/linked/b.ts", digest((project / "src/b.ts").read_bytes())),
    ):
        with pytest.raises(FixError, match="refusing"):
            apply_plan(_plan(project, operation))
    assert _snapshot(outside) == before
    assert (project / "src/b.ts").exists()


def test_preview_diff_shows_creations_edits_and_renames_and_writes_nothing(project: Path) -> None:
    before = _snapshot(project)
    diff = preview_diff(_multi_file_plan(project))

    assert _snapshot(project) == before
    assert "--- /dev/null\n+++ b/src/a/index.ts\n@@ -0,0 +1 @@\n+export { x } from './x';\n" in diff
    assert "--- a/src/b.ts\n+++ b/src/b.ts\n" in diff
    assert "-import { x } from './a/x';\n+import { x } from './a';\n" in diff
    assert (
        "diff --git a/src/a/y.ts b/src/c/y.ts\nrename from src/a/y.ts\nrename to src/c/y.ts\n"
        in diff
    )
    # The moved file's source is not also shown as a deletion.
    assert "+++ /dev/null" not in diff


def test_preview_diff_marks_a_missing_final_newline(project: Path) -> None:
    (project / "src/b.ts").write_bytes(b"import { x } from './a/x';")
    b = (project / "src/b.ts").read_bytes()
    diff = preview_diff(_plan(project, EditFile("src/b.ts", digest(b), (Edit(19, 24, "./a"),))))
    assert "\\ No newline at end of file\n" in diff


def test_overlapping_edits_are_rejected(project: Path) -> None:
    b = (project / "src/b.ts").read_bytes()
    before = _snapshot(project)
    plan = _plan(project, EditFile("src/b.ts", digest(b), (Edit(0, 10, "a"), Edit(5, 12, "b"))))
    with pytest.raises(FixError, match="overlapping"):
        apply_plan(plan)
    assert _snapshot(project) == before
