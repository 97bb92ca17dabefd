"""``check --new-since REF`` in a real git repository: only what the change introduced."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import write_files

FILID = [sys.executable, "-m", "filid"]
EIB = ["--rules", "external-import-boundary"]
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
MODULES = {
    f"src/{m}/index.ts": f"export {{ {m} }} from './{m}';\n" for m in ("auth", "shop", "cart")
}
MODULES.update({f"src/{m}/{m}.ts": f"export const {m} = 1;\n" for m in ("auth", "shop", "cart")})
MODULES[".filid/config.json"] = '{"version": "2.0"}\n'  # declares FCA (SPEC §0)


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        [*GIT, *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def test_new_since_reports_only_what_the_change_introduced(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    legacy = {
        "src/app/index.ts": "import { auth } from '../auth/auth';\nexport const a = auth;\n",
        "src/app/old.ts": "import { shop } from '../shop/shop';\nexport const o = shop;\n",
    }
    write_files(root, {**MODULES, **legacy})
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base with two legacy deep imports")
    git(root, "checkout", "-qb", "feature")
    write_files(
        root,
        {
            # fixes one legacy violation, keeps the other, adds a new one
            "src/app/old.ts": "import { shop } from '../shop';\nexport const o = shop;\n",
            "src/app/new.ts": "import { cart } from '../cart/cart';\nexport const n = cart;\n",
        },
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "the pull request")
    plain = subprocess.run(
        [*FILID, "check", ".", "--format", "json", "--no-cache", *EIB],
        cwd=root, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert len(json.loads(plain.stdout)["result"]["violations"]) == 2
    done = subprocess.run(
        [*FILID, "check", ".", "--format", "json", "--new-since", "main", "--no-cache",
         "--sarif", str(tmp_path / "out.sarif"), *EIB],
        cwd=root, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert [v["path"] for v in report["result"]["violations"]] == ["src/app/new.ts"]
    since = report["newSince"]
    assert (since["new"], since["fixed"], since["unchanged"]) == (1, 1, 1)
    assert since["mergeBase"] == git(root, "rev-parse", "main").strip()
    sarif = json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8"))
    results = sarif["runs"][0]["results"]
    # SARIF keeps the full picture for code scanning, each result marked.
    assert [
        (r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["baselineState"])
        for r in results
    ] == [("src/app/index.ts", "unchanged"), ("src/app/new.ts", "new")]
    text = subprocess.run(
        [*FILID, "check", ".", "--new-since", "main", "--no-cache", *EIB],
        cwd=root, capture_output=True, text=True, check=False,
    ).stdout  # fmt: skip
    assert "1 new, 1 fixed, 1 unchanged" in text
    # The work tree was not touched.
    assert git(root, "status", "--porcelain") == ""


def test_new_since_a_bad_revision_is_a_usage_error(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_files(root, MODULES)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    done = subprocess.run(
        [*FILID, "check", ".", "--new-since", "no-such-ref"],
        cwd=root, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("filid: --new-since") and len(done.stderr.splitlines()) == 1


def test_changed_lines_are_read_from_git_diff(tmp_path: Path) -> None:
    from filid.check.new_since import changed_lines

    root = tmp_path / "repo"
    write_files(root, {"src/a.ts": "1\n2\n3\n4\n", "src/gone.ts": "x\n", "src/b c.ts": "1\n"})
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    base = git(root, "rev-parse", "HEAD").strip()
    write_files(root, {"src/a.ts": "1\ntwo\n3\n4\n5\n", "src/new.ts": "a\nb\n", "src/b c.ts": ""})
    (root / "src" / "gone.ts").unlink()
    git(root, "add", "-A")
    assert changed_lines(root, base) == {
        "src/a.ts": frozenset({2, 5}),
        "src/new.ts": frozenset({1, 2}),
        "src/b c.ts": frozenset({1}),
    }
    assert changed_lines(root, "not-a-commit") == {}


def test_the_base_run_borrowing_the_parse_cache_equals_a_run_without_it(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_files(root, {**MODULES, "src/app/index.ts": "import { a } from '../auth';\n"})
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    git(root, "checkout", "-qb", "feature")
    # Same paths, other contents: the borrowed facts must not be taken for them.
    write_files(
        root,
        {
            "src/app/index.ts": "import { auth } from '../auth/auth';\n",
            "src/auth/index.ts": "export const auth = 2;\n",
            "src/shop/index.ts": "import { cart } from '../cart/cart';\nexport const s = cart;\n",
        },
    )
    git(root, "commit", "-qam", "pr")

    def since(*extra: str) -> dict[str, object]:
        done = subprocess.run(
            [*FILID, "check", ".", "--format", "json", "--new-since", "main", *extra],
            cwd=root, capture_output=True, text=True, check=False,
        )  # fmt: skip
        report = json.loads(done.stdout)
        return {"violations": report["result"]["violations"], "since": report["newSince"]}

    subprocess.run([*FILID, "check", ".", "--no-progress"], cwd=root, check=False)  # fill it
    assert since() == since("--no-cache")
