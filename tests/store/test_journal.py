"""The fix journal: a fix that dies half-way is undone by the next filid command.

A real death is simulated in a subprocess: ``os.replace`` is patched to call ``os._exit`` at
its N-th call, i.e. after a temporary file was written and before it is renamed — the worst
moment, as with SIGKILL (no ``finally`` runs, no rollback). The benchmark and
``tests/fix/test_kill.py`` do it with real SIGKILLs.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from filid.cli import cli
from filid.fix.run import run_fix
from filid.model.errors import FixError, FixLocked
from filid.model.violations import Risk
from filid.scan.universe import resolve_root
from filid.store.journal import JOURNAL_NAME, fix_transaction, recover_interrupted_fix
from filid.store.location import project_cache_path
from tests.fix.conftest import FIXTURES

_DIE_AT_REPLACE = """
import os, sys
from pathlib import Path
from filid.fix.run import run_fix
from filid.model.violations import Risk

real_replace = os.replace
calls = {"n": 0}

def dying_replace(src, dst):
    calls["n"] += 1
    if calls["n"] == int(sys.argv[2]):
        os._exit(9)  # like SIGKILL: no rollback, the temporary file stays
    real_replace(src, dst)

os.replace = dying_replace
run_fix(Path(sys.argv[1]), max_risk=Risk.MODERATE, use_cache=False)
sys.exit(0)
"""


def _everything(root: Path) -> dict[str, tuple[str, bytes, int]]:
    """Every file (with mode), folder and link below ``root``, dot files included."""
    found: dict[str, tuple[str, bytes, int]] = {}
    for folder, dirs, names in os.walk(root):
        for name in dirs + names:
            path = Path(folder, name)
            rel = path.relative_to(root).as_posix()
            mode = path.lstat().st_mode & 0o7777
            if path.is_symlink():
                found[rel] = ("link", os.readlink(path).encode(), 0)
            elif path.is_dir():
                found[rel] = ("dir", b"", mode)
            else:
                found[rel] = ("file", path.read_bytes(), mode)
    return found


def _project(tmp_path: Path, *cases: str) -> Path:
    """The ``before`` trees of several fix fixtures side by side under one root."""
    root = tmp_path / "project"
    for case in cases:
        shutil.copytree(FIXTURES / case / "before", root / case)
    # the rename and split fixes belong to rules that run only where the config enables them
    config = root / ".filid" / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        '{"rules": {"naming-convention": {"enabled": true},'
        ' "index-barrel-pattern": {"enabled": true}}}\n'
    )
    return root


def _die_during_fix(project: Path, at_replace: int) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _DIE_AT_REPLACE, str(project), str(at_replace)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode


def _journal(project: Path) -> Path:
    directory = project_cache_path(project.resolve())
    assert directory is not None
    return directory / JOURNAL_NAME


@pytest.mark.parametrize("at_replace", [1, 2, 4, 7])
def test_a_fix_killed_mid_write_is_undone_by_the_next_command(
    tmp_path: Path, at_replace: int, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path, "rename", "zero-peer", "split")
    before = _everything(project)

    assert _die_during_fix(project, at_replace) == 9
    assert _journal(project).exists()
    half = _everything(project)
    assert half != before  # the dead run left a half-applied tree and a temporary file
    assert any(".filid-tmp" in path for path in half)

    resolve_root(project)  # what every command does first

    assert _everything(project) == before
    assert not _journal(project).exists()
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"filid: restored {project.resolve()} to its state before")
    # Nothing left to do the second time.
    assert recover_interrupted_fix(project.resolve()) is None


def test_after_the_restore_the_fix_reaches_the_uninterrupted_result(tmp_path: Path) -> None:
    clean = _project(tmp_path / "clean", "rename", "zero-peer")
    run_fix(clean, max_risk=Risk.MODERATE, use_cache=False)
    project = _project(tmp_path, "rename", "zero-peer")

    assert _die_during_fix(project, 3) == 9
    run_fix(project, max_risk=Risk.MODERATE, use_cache=False)

    assert _everything(project) == _everything(clean)


def test_every_command_restores_first_and_says_so_once(tmp_path: Path) -> None:
    runner = CliRunner()
    for command in (["check"], ["drift"], ["scan"], ["graph"], ["init"]):
        project = _project(tmp_path / command[0], "rename")
        before = _everything(project)
        assert _die_during_fix(project, 2) == 9
        result = runner.invoke(cli, [*command, str(project)])
        assert "restored" in result.stderr, (command, result.stderr)
        assert result.stderr.count("restored") == 1
        after = _everything(project)
        for tree in (before, after):
            tree.pop(".filid", None)
            tree.pop(".filid/config.json", None)  # rewritten by init, after the restore
        assert after == before, command


def test_lca_restores_the_root_it_is_given(tmp_path: Path) -> None:
    project = _project(tmp_path, "rename")
    before = _everything(project)
    assert _die_during_fix(project, 2) == 9
    result = CliRunner().invoke(
        cli, ["lca", "rename/src/app", "rename/src", "--root", str(project)]
    )
    assert "restored" in result.stderr
    assert _everything(project) == before


def test_the_mcp_structure_validate_tool_restores_first(tmp_path: Path) -> None:
    from filid.mcp import tools
    from filid.mcp.server import call_tool

    project = _project(tmp_path, "rename")
    before = _everything(project)
    assert _die_during_fix(project, 2) == 9
    result = call_tool(
        "structure-validate",
        {"path": str(project)},
        roots=[tmp_path.resolve()],
        cwd=tmp_path.resolve(),
        context=tools.ToolContext(locks=tools.RootLocks(), plans=tools.PlanRegistry()),
    )
    assert not result.is_error
    assert _everything(project) == before
    assert not _journal(project).exists()
    # The agent reading the answer learns it too, not only stderr.
    data = result.structured_content
    assert isinstance(data, dict) and list(data)[:2] == ["summary", "restored"]
    restored = data["restored"]
    assert restored["files"] and "interrupted" in restored["reason"]


def test_a_file_edited_after_the_crash_is_left_alone_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path, "zero-peer", "rename")
    before = _everything(project)
    assert _die_during_fix(project, 6) == 9
    changed = [
        p
        for p, (kind, content, _m) in _everything(project).items()
        if kind == "file" and p in before and before[p][1] != content
    ]
    assert changed
    edited = project / changed[0]
    edited.write_text("// someone worked here after the crash\n")

    resolve_root(project)

    assert edited.read_text() == "// someone worked here after the crash\n"
    err = capsys.readouterr().err
    assert f"{changed[0]} changed after the interrupted fix; left as it is" in err
    rest = {p: v for p, v in _everything(project).items() if p != changed[0]}
    assert rest == {p: v for p, v in before.items() if p != changed[0]}


def test_a_torn_journal_tail_is_ignored(tmp_path: Path) -> None:
    project = _project(tmp_path, "rename")
    before = _everything(project)
    assert _die_during_fix(project, 2) == 9
    with _journal(project).open("ab") as stream:
        stream.write(b'0123 {"t": "file", "path": "rename/src/app/index.ts", "bef')

    resolve_root(project)

    assert _everything(project) == before


def test_a_live_fix_is_not_taken_for_an_interrupted_one(tmp_path: Path) -> None:
    project = _project(tmp_path, "rename").resolve()
    target = project / "rename/src/app/app.ts"
    with fix_transaction(project) as journal:
        from filid.store.journal import FileChange

        journal.record([FileChange("rename/src/app/app.ts", target.read_bytes(), 0o644, None)])
        target.unlink()
        # Another fix on the same project is refused while this one runs…
        with (
            pytest.raises(FixLocked, match="another filid fix is running"),
            fix_transaction(project),
        ):
            pass
        # …and a command in this process does not undo the running fix.
        assert recover_interrupted_fix(project) is None
        assert not target.exists()
    assert not target.exists()  # committed


def test_an_exception_inside_the_transaction_restores_every_pass(tmp_path: Path) -> None:
    project = _project(tmp_path, "rename").resolve()
    before = _everything(project)
    target = project / "rename/src/app/app.ts"
    with pytest.raises(FixError, match="rolled back: boom"), fix_transaction(project) as journal:
        from filid.store.journal import FileChange

        journal.record([FileChange("rename/src/app/app.ts", target.read_bytes(), 0o644, None)])
        target.unlink()
        new = hashlib.sha256(b"new\n").hexdigest()
        journal.record([FileChange("rename/new.ts", None, 0o644, new)], created_dirs=[])
        (project / "rename/new.ts").write_text("new\n")
        raise RuntimeError("boom")
    assert _everything(project) == before
    assert not _journal(project).exists()


def test_no_fix_without_a_place_for_the_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, "rename")
    monkeypatch.setenv("FILID_CACHE_DIR", str(project / ".cache"))
    before = _everything(project)
    with pytest.raises(FixError, match="no fix journal can be kept"):
        run_fix(project, max_risk=Risk.MODERATE, use_cache=False)
    assert _everything(project) == before
