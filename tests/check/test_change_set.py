"""``check --staged`` and ``broken-import``: what a deletion breaks, in real git repositories."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import write_files

FILID = [sys.executable, "-m", "filid"]
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
PROJECT = {
    ".filid/config.json": '{"version": "2.0"}\n',  # declares FCA (SPEC §0)
    "package.json": '{"name": "shop", "private": true}\n',
    "src/auth/index.ts": "export { login } from './login';\n",
    "src/auth/login.ts": "export const login = 1;\n",
    "src/app/index.ts": "import { login } from '../auth';\nexport const a = login;\n",
    "src/app/twin.ts": "import { login } from '../auth/login.js';\nexport const t = login;\n",
    "src/app/never.ts": "import { x } from './does-not-exist';\nexport const n = x;\n",
    "src/shop/index.ts": "export const shop = 1;\n",
}


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        [*GIT, *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def filid(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*FILID, "check", ".", "--no-progress", *args],
        cwd=root, capture_output=True, text=True, check=False,
    )  # fmt: skip


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    write_files(root, PROJECT)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


def _broken(report: dict[str, object]) -> list[tuple[str, int, str]]:
    violations = report["result"]["violations"]  # type: ignore[index]
    return [
        (v["path"], v["location"]["line"], v["message"])
        for v in violations
        if v["ruleId"] == "broken-import"
    ]


def test_a_staged_deletion_reports_each_import_it_breaks(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    git(root, "rm", "-q", "src/auth/index.ts", "src/auth/login.ts")
    done = filid(root, "--staged", "--format", "json")
    assert done.returncode == 1, done.stderr
    assert _broken(json.loads(done.stdout)) == [
        ("src/app/index.ts", 1, "import '../auth' no longer resolves: "
         "this change deletes src/auth/index.ts"),
        ("src/app/twin.ts", 1, "import '../auth/login.js' no longer resolves: "
         "this change deletes src/auth/login.ts"),
    ]  # fmt: skip
    # The import that never resolved is not the change's doing.
    assert "never.ts" not in done.stdout


def test_staged_with_nothing_staged_checks_nothing(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    write_files(root, {"src/app/deep.ts": "import { login } from '../auth/login';\n"})
    done = filid(root, "--staged")
    assert done.returncode == 0, done.stdout
    assert "No staged changes to check." in done.stderr
    # FILES given with --staged are checked as usual.
    assert filid(root, "--staged", "--", "src/app/deep.ts").returncode == 1


def test_a_deletion_whose_importers_were_updated_breaks_nothing(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    git(root, "rm", "-q", "src/auth/index.ts")
    write_files(
        root, {"src/app/index.ts": "import { shop } from '../shop';\nexport const a = shop;\n"}
    )
    git(root, "add", "-A")
    done = filid(root, "--staged", "--format", "json", "--rules", "external-import-boundary")
    assert _broken(json.loads(done.stdout)) == []


def test_new_since_reports_imports_a_pull_request_broke(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    git(root, "checkout", "-qb", "feature")
    git(root, "rm", "-q", "src/auth/index.ts")
    git(root, "commit", "-qm", "drop the barrel")
    done = filid(root, "--new-since", "main", "--format", "json", "--rules", "module-entry-point")
    report = json.loads(done.stdout)
    assert [b[:2] for b in _broken(report)] == [("src/app/index.ts", 1)]
    assert report["newSince"]["new"] == 1 + len(
        [v for v in report["result"]["violations"] if v["ruleId"] != "broken-import"]
    )
