"""``check --staged`` checks the git index (what is being committed), keyed by blob ids.

Real git repositories; the CLI in-process, so that the runs that computed a result (rather
than answering from the staged state) can be counted.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import filid.check.project
from filid.cli import cli
from filid.scan.git_index import _parse_batch, read_blobs, staged_changes, unstaged_paths
from tests.conftest import write_files

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
# Declared, with unresolved-import enabled (a declared project opts into it, SPEC §0).
PROJECT = {
    ".filid/config.json": '{"version": "2.0", "rules": {"unresolved-import": {"enabled": true}}}',
    "package.json": '{"name": "shop", "private": true}\n',
    "src/app/app.ts": "import { a } from './a';\nexport const app = a;\n",
    "src/app/a.ts": "// a\nexport const a = 1;\n",
    "src/app/b.ts": "// b\nexport const b = 2;\n",
}


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        [*GIT, *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    write_files(root, PROJECT)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


class Counted:
    """Counts the runs that computed a result."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.runs = 0
        original = filid.check.project.load_project

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.runs += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(filid.check.project, "load_project", counted)


def check(root: Path, *extra: str) -> dict[str, Any]:
    args = ["check", str(root), *extra, "--format", "json", "--fail-on", "never"]
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 0, f"{args}: {done.stderr}\n{done.exception!r}"
    report: dict[str, Any] = json.loads(done.stdout)
    report.pop("timestamp")
    return report


def unresolved(report: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted(
        (v["path"], v["message"])
        for v in report["result"]["violations"]
        if v["ruleId"] == "unresolved-import"
    )


def rules(report: dict[str, Any], rule: str) -> list[str]:
    return sorted(v["path"] for v in report["result"]["violations"] if v["ruleId"] == rule)


def test_an_untracked_file_is_not_part_of_what_is_committed(tmp_path: Path) -> None:
    root = repo(tmp_path)
    # Module cart imports module shop, which imports cart back: a cycle, but shop is untracked.
    write_files(
        root,
        {
            "src/cart/index.ts": "export { cart } from './cart';\n",
            "src/cart/cart.ts": "import { shop } from '../shop';\nexport const cart = shop;\n",
            "src/shop/index.ts": "export { shop } from './shop';\n",
            "src/shop/shop.ts": "import { cart } from '../cart';\nexport const shop = cart;\n",
        },
    )
    git(root, "add", "src/cart")
    cart = str(root / "src/cart/cart.ts")
    assert rules(check(root, cart), "circular-dependency") == ["src/cart"]  # the work tree
    assert rules(check(root, "--staged", cart), "circular-dependency") == []
    git(root, "add", "src/shop")
    assert rules(check(root, "--staged", cart), "circular-dependency") == ["src/cart"]


def test_a_staged_comment_edit_is_answered_from_the_staged_blob(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = repo(tmp_path)
    b = str(root / "src/app/b.ts")
    first = check(root, "--staged", b)
    counted = Counted(monkeypatch)
    write_files(root, {"src/app/b.ts": "// b, edited\nexport const b = 2;\n"})
    git(root, "add", "src/app/b.ts")
    # Not staged: an import that resolves to nothing. The staged run checks the index.
    write_files(root, {"src/app/b.ts": "import { x } from './nowhere';\nexport const b = x;\n"})
    assert check(root, "--staged", b) == first
    assert counted.runs == 0  # one blob read and parsed, nothing computed
    assert [p for p, _ in unresolved(check(root, b))] == ["src/app/b.ts"]  # the work tree


def test_a_staged_import_edit_is_computed_and_equals_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = repo(tmp_path)
    b = str(root / "src/app/b.ts")
    check(root, "--staged", b)
    write_files(root, {"src/app/b.ts": "import { y } from './gone';\nexport const b = y;\n"})
    git(root, "add", "src/app/b.ts")
    counted = Counted(monkeypatch)
    cached = check(root, "--staged", b)
    assert counted.runs == 1
    assert cached == check(root, "--staged", b, "--no-cache")
    assert [p for p, _ in unresolved(cached)] == ["src/app/b.ts"]
    # Staged back to the committed text (the state's tree holds it): the import is gone.
    git(root, "reset", "-q", "src/app/b.ts")
    git(root, "checkout", "--", "src/app/b.ts")
    assert unresolved(check(root, "--staged", b)) == []


def test_staged_files_added_and_removed_change_the_result(tmp_path: Path) -> None:
    root = repo(tmp_path)
    app = str(root / "src/app/app.ts")
    check(root, "--staged", app)
    git(root, "rm", "-q", "src/app/a.ts")
    assert [p for p, _ in unresolved(check(root, "--staged", app))] == ["src/app/app.ts"]
    write_files(root, {"src/app/a.ts": "export const a = 3;\n"})
    git(root, "add", "src/app/a.ts")
    assert unresolved(check(root, "--staged", app)) == []


def test_outside_git_staged_checks_the_files(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    write_files(
        root, {**PROJECT, "src/app/app.ts": "import { q } from './q';\nexport const a = q;\n"}
    )
    app = str(root / "src/app/app.ts")
    assert [p for p, _ in unresolved(check(root, "--staged", app))] == ["src/app/app.ts"]


def test_git_answers_are_parsed_strictly(tmp_path: Path) -> None:
    root = repo(tmp_path)
    blob = git(root, "rev-parse", "HEAD:src/app/a.ts").strip()
    assert read_blobs(root, [blob], 1 << 20) == {blob: b"// a\nexport const a = 1;\n"}
    assert read_blobs(root, [blob], 4) == {}  # over the cap: never read
    assert read_blobs(root, ["0" * 40], 1 << 20) == {}
    # A batch answer that breaks git's format stops the parse; nothing is guessed.
    assert _parse_batch(b"abc blob 999\nshort\n", frozenset({"abc"}), 1 << 20) == {}
    assert _parse_batch(b"garbage\n", frozenset({"abc"}), 1 << 20) == {}
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    assert staged_changes(root, tree) == []
    assert staged_changes(root, "not-a-tree") is None
    write_files(root, {"src/app/a.ts": "export const a = 9;\n"})
    git(root, "add", "src/app/a.ts")
    new = git(root, "rev-parse", ":src/app/a.ts").strip()
    assert staged_changes(root, tree) == [("src/app/a.ts", blob, new)]
    # Touched but equal to the index: not unstaged; edited: unstaged.
    staged = {"src/app/a.ts": new, "src/app/b.ts": git(root, "rev-parse", ":src/app/b.ts").strip()}
    (root / "src/app/b.ts").touch()
    assert unstaged_paths(root, staged) == frozenset()
    write_files(root, {"src/app/b.ts": "export const b = 5;\n"})
    assert unstaged_paths(root, staged) == frozenset({"src/app/b.ts"})


def test_a_forged_or_truncated_staged_state_is_never_trusted(
    tmp_path: Path, private_cache_root: Path
) -> None:
    root = repo(tmp_path)
    app = str(root / "src/app/app.ts")
    check(root, "--staged", app)
    states = sorted(private_cache_root.rglob("staged-snapshot.marshal"))
    assert len(states) == 1
    write_files(root, {"src/app/app.ts": "import { z } from './zz';\nexport const app = z;\n"})
    git(root, "add", "src/app/app.ts")
    fresh = check(root, "--staged", app, "--no-cache")
    data = states[0].read_bytes()
    for forged in (data[: len(data) // 2], data[:-1] + bytes([data[-1] ^ 1]), b"garbage"):
        states[0].write_bytes(forged)
        assert check(root, "--staged", app) == fresh


def test_the_index_against_head_names_what_git_diff_names(tmp_path: Path) -> None:
    """One ``git diff-index`` gives the staged deletions (as ``git diff --cached
    --diff-filter=D`` names them) and the changes against HEAD's tree."""
    from filid.scan.git_index import head_tree, index_against_head, staged_deletions

    root = repo(tmp_path)
    write_files(root, {"src/app/new.ts": "export const n = 1;\n", "src/app/a.ts": "// a2\n"})
    git(root, "rm", "-q", "src/app/b.ts")
    (root / "src/app/app.ts").unlink()
    (root / "src/app/app.ts").symlink_to("a.ts")  # a type change: not a deletion
    git(root, "add", "-A")
    head = index_against_head(root)
    assert head is not None
    assert head.tree == head_tree(root)
    assert head.deleted == staged_deletions(root) == ("src/app/b.ts",)
    assert head.changes == staged_changes(root, head.tree)
    assert {name for name, _, _ in head.changes} == {
        "src/app/a.ts",
        "src/app/app.ts",
        "src/app/b.ts",
        "src/app/new.ts",
    }


def test_a_one_file_run_reads_a_few_sections_of_the_staged_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The staged state is read by sections: a run answering one staged file of a project of
    1,200 files (three buckets of files, violations in several chunks) reads the result, the
    evaluated nodes, the file's bucket and the touch index and violation chunks it names,
    not the whole state; its answer is the computed one."""
    import filid.store.sealed

    files = dict(PROJECT)
    for folder in range(12):
        for number in range(100):
            # an unresolved import each: many violations, in several chunks
            files[f"src/f{folder}/m{number}.ts"] = (
                f"import {{ z }} from './gone{number}';\nexport const v{number} = z;\n"
            )
    root = tmp_path / "big"
    write_files(root, files)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    one = "src/f7/m3.ts"
    check(root, "--staged", str(root / one))
    write_files(root, {one: "import { z } from './gone3';\nexport const v3 = z;\n// edited\n"})
    git(root, "add", one)
    read: list[int] = []
    original = filid.store.sealed.SealedSections.section

    def counted(self: filid.store.sealed.SealedSections, number: int) -> Any:
        read.append(number)
        return original(self, number)

    monkeypatch.setattr(filid.store.sealed.SealedSections, "section", counted)
    computed = Counted(monkeypatch)
    answered = check(root, "--staged", str(root / one))
    assert computed.runs == 0
    monkeypatch.setattr(filid.store.sealed.SealedSections, "section", original)
    assert answered == check(root, "--staged", str(root / one), "--no-cache")
    assert answered["result"]["violations"], "the file's own violations are answered"
    sealed = filid.store.sealed.read_sealed_sections(
        next(iter(private_cache(root).glob("staged-snapshot.marshal")))
    )
    assert sealed is not None and len(sealed) > 12
    assert len(set(read)) <= 6, (sorted(set(read)), len(sealed))


def private_cache(root: Path) -> Path:
    from filid.store.location import project_cache_dir

    found = project_cache_dir(root.resolve())
    assert found is not None
    return found
