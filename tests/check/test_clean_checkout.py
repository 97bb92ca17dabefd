"""A whole-repository check keys files git proves unchanged by blob id, not by timestamps.

Real git repositories and the CLI in-process: a fresh clone (every file rewritten, new
modification times) with the cache folder carried over answers from the stored result
without parsing a file, and every work tree git cannot vouch for (a modified tracked file, an
untracked source file, an ignored one, a submodule, a symbolic link, a bit that hides a file
from git) gives exactly what a run without the cache gives.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import filid.check.incremental
import filid.check.project
import filid.parse.files
from filid.cli import cli
from filid.scan.clean_files import start_clean_blobs
from tests.conftest import write_files

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
PROJECT = {
    ".filid/config.json": '{"version": "2.0", "rules": {"unresolved-import": {"enabled": true}}}',
    ".gitignore": "generated/\n",
    "package.json": '{"name": "shop", "private": true}\n',
    "src/app/app.ts": (
        "import { a } from './a';\nimport { b } from './b';\nexport const app = a + b;\n"
    ),
    "src/app/a.ts": "// a\nexport const a = 1;\n",
    "src/app/b.ts": "// b\nexport const b = 2;\n",
    "src/cart/index.ts": "export { cart } from './cart';\n",
    "src/cart/cart.ts": "import { shop } from '../shop';\nexport const cart = shop;\n",
    "src/shop/index.ts": "export { shop } from './shop';\n",
    "src/shop/shop.ts": "export const shop = 1;\n",
    # More files than check.incremental.ASK_GIT_ABOVE: a handful of new stat data is an edit.
    **{f"src/util/u{n}.ts": f"export const u{n} = {n};\n" for n in range(6)},
}
OLD = [1_600_000_000]  # seconds: older than any racy window, and new for each checkout


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        [*GIT, *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def age(root: Path) -> None:
    """Backdate every file of the work tree (as a job started a while after its checkout), to
    a time no earlier call used: each checkout has its own modification times."""
    OLD[0] += 1000
    when = OLD[0]
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in names:
            os.utime(os.path.join(folder, name), (when, when), follow_symlinks=False)


def origin(tmp_path: Path) -> Path:
    root = tmp_path / "origin"
    write_files(root, PROJECT)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


def clone(source: Path, target: Path) -> Path:
    """A fresh clone at ``target`` (replacing what is there: the same path, as a CI job's
    checkout is), its files backdated."""
    shutil.rmtree(target, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", str(source), str(target)], check=True)
    age(target)
    return target


class Counted:
    """Counts the runs that computed a result and the files parsed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.runs = 0
        self.parsed = 0
        load, parse = filid.check.project.load_project, filid.parse.files.parse_source

        def counted_load(*args: Any, **kwargs: Any) -> Any:
            self.runs += 1
            return load(*args, **kwargs)

        def counted_parse(*args: Any, **kwargs: Any) -> Any:
            self.parsed += 1
            return parse(*args, **kwargs)

        monkeypatch.setattr(filid.check.project, "load_project", counted_load)
        monkeypatch.setattr(filid.parse.files, "parse_source", counted_parse)


def check(root: Path, *extra: str) -> dict[str, Any]:
    args = ["check", str(root), *extra, "--format", "json", "--fail-on", "never"]
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 0, f"{args}: {done.stderr}\n{done.exception!r}"
    report: dict[str, Any] = json.loads(done.stdout)
    report.pop("timestamp")
    return report


def paths(report: dict[str, Any], rule: str) -> list[str]:
    return sorted(v["path"] for v in report["result"]["violations"] if v["ruleId"] == rule)


def test_a_fresh_clone_with_the_cache_carried_over_parses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = origin(tmp_path)
    work = clone(source, tmp_path / "ci")
    first = check(work)
    assert paths(first, "unresolved-import") == []
    clone(source, work)  # the next job: a new checkout, every file rewritten
    counted = Counted(monkeypatch)
    assert check(work) == first
    assert (counted.runs, counted.parsed) == (0, 0)
    asked: list[Path] = []
    monkeypatch.setattr(
        filid.check.incremental, "start_clean_blobs", lambda root: asked.append(root) or None
    )
    assert check(work) == first  # restamped: answered by stat data again, git not asked
    assert (counted.runs, counted.parsed, asked) == (0, 0, [])


def test_a_fresh_clone_of_a_later_commit_reparses_only_what_the_commit_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = origin(tmp_path)
    work = clone(source, tmp_path / "ci")
    check(work)
    write_files(source, {"src/app/b.ts": "// b, reworded\nexport const b = 2;\n"})
    git(source, "commit", "-qam", "comment")
    clone(source, work)
    counted = Counted(monkeypatch)
    assert check(work) == check(work, "--no-cache")
    assert counted.runs == 1  # the --no-cache run only
    assert counted.parsed == len([p for p in PROJECT if p.endswith(".ts")]) + 1


def test_a_file_git_does_not_vouch_for_is_judged_by_its_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = origin(tmp_path)
    work = clone(source, tmp_path / "ci")
    first = check(work)
    clone(source, work)
    git(work, "update-index", "--assume-unchanged", "src/app/a.ts")  # git stops looking at it
    counted = Counted(monkeypatch)
    assert check(work) == first
    assert (counted.runs, counted.parsed) == (0, 1)  # its new stat data: parsed again


def _edit_modified(root: Path) -> None:
    write_files(root, {"src/app/a.ts": "import { z } from './nowhere';\nexport const a = z;\n"})


def _edit_untracked(root: Path) -> None:
    # Closes a cycle cart → shop → cart through a file git does not track.
    write_files(root, {"src/shop/shop.ts": "export { cart as shop } from '../cart';\n"})
    git(root, "update-index", "--assume-unchanged", "src/shop/shop.ts")
    git(root, "update-index", "--no-assume-unchanged", "src/shop/shop.ts")
    git(root, "checkout", "--", "src/shop/shop.ts")
    write_files(
        root, {"src/shop/extra.ts": "import { cart } from '../cart';\nexport const e = cart;\n"}
    )


def _edit_ignored(root: Path) -> None:
    write_files(root, {"generated/g.ts": "import { q } from './missing';\nexport const g = q;\n"})


def _edit_symlink(root: Path) -> None:
    (root / "src/app/b.ts").unlink()
    (root / "src/app/b.ts").symlink_to("a.ts")


def _edit_untracked_symlink(root: Path) -> None:
    (root / "src/app/c.ts").symlink_to("a.ts")


def _edit_deleted(root: Path) -> None:
    (root / "src/shop/shop.ts").unlink()


def _edit_hidden(root: Path) -> None:
    _edit_modified(root)
    git(root, "update-index", "--assume-unchanged", "src/app/a.ts")


def _edit_sparse(root: Path) -> None:
    git(root, "update-index", "--skip-worktree", "src/shop/shop.ts")
    (root / "src/shop/shop.ts").unlink()


def _edit_submodule(root: Path) -> None:
    inner = root.parent / "inner"
    write_files(inner, {"lib.ts": "export const lib = 1;\n"})
    git(inner, "init", "-q", "-b", "main")
    git(inner, "add", "-A")
    git(inner, "commit", "-qm", "inner")
    git(
        root,
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        str(inner),
        "vendor/inner",
    )
    git(root, "commit", "-qm", "submodule")
    write_files(root, {"vendor/inner/lib.ts": "import { w } from './w';\nexport const lib = w;\n"})


@pytest.mark.parametrize(
    "edit",
    [
        _edit_modified,
        _edit_untracked,
        _edit_ignored,
        _edit_symlink,
        _edit_untracked_symlink,
        _edit_deleted,
        _edit_hidden,
        _edit_sparse,
        _edit_submodule,
    ],
    ids=lambda edit: edit.__name__.removeprefix("_edit_"),
)
def test_what_git_cannot_vouch_for_gives_the_work_tree_result(tmp_path: Path, edit: Any) -> None:
    source = origin(tmp_path)
    work = clone(source, tmp_path / "ci")
    check(work)  # the stored result, with every file's blob id
    edit(work)
    age(work)  # new stat data for every file: the blob ids decide
    cached = check(work)
    assert cached == check(work, "--no-cache")
    assert check(work) == cached


def test_git_answers_outside_a_work_tree_prove_nothing(tmp_path: Path) -> None:
    write_files(tmp_path / "plain", {"a.ts": "export const a = 1;\n"})
    assert start_clean_blobs(tmp_path / "plain")() is None


def test_only_ordinary_unchanged_entries_are_proven(tmp_path: Path) -> None:
    source = origin(tmp_path)
    work = clone(source, tmp_path / "ci")
    (work / "src/app/link.ts").symlink_to("a.ts")
    git(work, "add", "src/app/link.ts")
    _edit_modified(work)
    git(work, "update-index", "--skip-worktree", "src/cart/cart.ts")
    git(work, "update-index", "--assume-unchanged", "src/cart/index.ts")
    proven = start_clean_blobs(work)()
    assert proven is not None
    tracked = {p for p in PROJECT if not p.startswith(".filid")} | {".filid/config.json"}
    assert set(proven) == tracked - {"src/app/a.ts", "src/cart/cart.ts", "src/cart/index.ts"}
    assert proven["src/app/b.ts"] == git(work, "rev-parse", "HEAD:src/app/b.ts").strip()


def test_an_edit_keeps_the_other_files_ids_without_asking_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = origin(tmp_path)
    work = clone(source, tmp_path / "ci")
    check(work)
    _edit_modified(work)  # an import edit: the pipeline runs again
    asked: list[Path] = []
    start = filid.check.incremental.start_clean_blobs

    def counted(root: Path) -> Any:
        asked.append(root)
        return start(root)

    monkeypatch.setattr(filid.check.incremental, "start_clean_blobs", counted)
    edited = check(work)
    assert asked == []  # the unchanged files keep their ids, the edited one has none
    assert paths(edited, "unresolved-import") == ["src/app/a.ts"]
    clone(source, work)  # a.ts as committed again; the others by their kept ids
    counter = Counted(monkeypatch)
    assert check(work) == check(work, "--no-cache")
    assert paths(check(work), "unresolved-import") == []
    assert counter.runs == 2  # a.ts's facts differ from what the stored result saw
    assert asked == [work.resolve()]


def test_a_project_in_a_sub_folder_of_the_clone_is_keyed_by_blob_ids_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "origin"
    write_files(source / "web", PROJECT)
    write_files(source, {"README.md": "outside the project\n"})
    git(source, "init", "-q", "-b", "main")
    git(source, "add", "-A")
    git(source, "commit", "-qm", "base")
    work = clone(source, tmp_path / "ci")
    first = check(work / "web")
    clone(source, work)
    counted = Counted(monkeypatch)
    assert check(work / "web") == first
    assert (counted.runs, counted.parsed) == (0, 0)
