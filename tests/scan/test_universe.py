"""The file universe (SPEC §1): git-aware listing, exclusions, symlinks, bad roots."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.model.errors import InputError
from filid.scan.universe import is_source_file, list_universe, resolve_root


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


BASE = {
    "src/a/index.ts": "export {};\n",
    "src/a/.hidden/x.ts": "",
    "node_modules/pkg/index.js": "",
    "dist/out.js": "",
    "build/x.js": "",
    "coverage/lcov.js": "",
    "out/y.js": "",
    "src/generated/z.ts": "",
    ".github/workflows/ci.yml": "",
    "README.md": "",
}


def test_walk_excludes_dot_and_build_segments_and_configured_dirs(tmp_path: Path) -> None:
    write(tmp_path, BASE)
    universe = list_universe(tmp_path, ["generated"])
    assert universe.files == ("README.md", "src/a/index.ts")
    assert not universe.from_git


def test_git_listing_respects_gitignore_and_deleted_files(tmp_path: Path) -> None:
    write(tmp_path, {**BASE, ".gitignore": "ignored/\n", "ignored/a.ts": "", "gone.ts": ""})
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=tmp_path, check=True)
    (tmp_path / "gone.ts").unlink()
    (tmp_path / "untracked.ts").write_text("")
    universe = list_universe(tmp_path)
    assert universe.from_git
    assert universe.files == ("README.md", "src/a/index.ts", "src/generated/z.ts", "untracked.ts")


def test_a_tracked_asset_the_work_tree_lacks_is_still_a_file_of_the_project(
    tmp_path: Path,
) -> None:
    # typebot.io's landing page imports `./assets/real-time-result.mp4`; in a sparse checkout
    # (or a partial clone that never fetched the large blob) git tracks it and the work tree
    # lacks it. A tracked source file the work tree lacks was deleted there: still broken.
    write(
        tmp_path,
        {
            "package.json": '{"name": "app"}\n',
            "src/page.tsx": (
                "import video from './assets/intro.mp4';\n"
                "import { helper } from './helper';\n"
                "export const Page = () => [video, helper];\n"
            ),
            "src/assets/intro.mp4": "binary",
            "src/helper.ts": "export const helper = 1;\n",
        },
    )
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=tmp_path, check=True)
    subprocess.run(
        ["git", "update-index", "--skip-worktree", "src/assets/intro.mp4"], cwd=tmp_path, check=True
    )
    (tmp_path / "src/assets/intro.mp4").unlink()
    (tmp_path / "src/helper.ts").unlink()
    universe = list_universe(tmp_path)
    assert "src/assets/intro.mp4" in universe.files
    assert "src/helper.ts" not in universe.files
    assert any("1 tracked asset file(s) absent" in note for note in universe.notes)
    result = evaluate(load_project(tmp_path, use_cache=False))
    unresolved = [v.message for v in result.violations if v.rule_id == "unresolved-import"]
    assert len(unresolved) == 1 and "'./helper'" in unresolved[0], unresolved


def test_a_tracked_file_whose_blob_the_clone_lacks_counts_as_present(tmp_path: Path) -> None:
    # js-joda's `require('./data/unpacked/latest')` and grats' worker `ts.worker.mjs`: git
    # tracks the file, but the clone never fetched its blob (a partial clone, a mirror without
    # large blobs), so the work tree lacks it. Nothing says it is gone: an import of it is no
    # claim, be it a data or a source file (judge N1 O1). A file deleted in the work tree (its
    # blob still in the clone) stays broken.
    write(
        tmp_path,
        {
            "package.json": '{"name": "tz"}\n',
            "src/build.ts": (
                "import latest from './data/latest.json';\n"
                "const raw = require('./data/latest');\n"
                "import { run } from './worker.mjs';\n"
                "import { gone } from './gone';\n"
                "export const all = [latest, raw, run, gone];\n"
            ),
            "src/data/latest.json": '{"zones": []}\n',
            "src/worker.mjs": "export const run = () => 1;\n",
            "src/gone.ts": "export const gone = 2;\n",
        },
    )
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=tmp_path, check=True)
    for name in ("src/data/latest.json", "src/worker.mjs"):
        blob = (
            subprocess.run(
                ["git", "rev-parse", f"HEAD:{name}"], cwd=tmp_path, check=True, capture_output=True
            )
            .stdout.decode()
            .strip()
        )
        (tmp_path / ".git/objects" / blob[:2] / blob[2:]).unlink()  # the clone lacks it
        (tmp_path / name).unlink()
    (tmp_path / "src/gone.ts").unlink()  # deleted in the work tree: its blob is still there
    universe = list_universe(tmp_path)
    assert "src/data/latest.json" in universe.files
    # a source file the clone lacks is listed, never read (``Universe.absent``)
    assert "src/worker.mjs" in universe.files and "src/gone.ts" not in universe.files
    assert universe.absent == {"src/data/latest.json", "src/worker.mjs"}
    assert any(
        "2 tracked file(s) absent from the work tree whose content this clone lacks" in note
        for note in universe.notes
    ), universe.notes
    result = evaluate(load_project(tmp_path, use_cache=False))
    unresolved = sorted(v.message for v in result.violations if v.rule_id == "unresolved-import")
    assert len(unresolved) == 1 and "'./gone'" in unresolved[0], unresolved


def test_a_file_whose_checkout_failed_for_want_of_its_blob_counts_as_present(
    tmp_path: Path,
) -> None:
    # ultimate-react-course's `@/public/bg.png`, tfjs-examples' model shards: cloned from a
    # mirror without their blobs, the checkout leaves them out of the index as well (a deletion
    # staged against HEAD). A deletion someone staged (`git rm`, the blob still in the clone)
    # stays a deletion: an import of it is claimed.
    write(
        tmp_path,
        {
            "package.json": '{"name": "site"}\n',
            "app/page.ts": (
                "import bg from './bg.json';\n"
                "import { old } from './old';\n"
                "export const page = [bg, old];\n"
            ),
            "app/bg.json": '{"width": 1}\n',
            "app/old.ts": "export const old = 2;\n",
        },
    )
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=tmp_path, check=True)
    blob = subprocess.run(
        ["git", "rev-parse", "HEAD:app/bg.json"], cwd=tmp_path, check=True, capture_output=True
    ).stdout.decode()
    subprocess.run(["git", "rm", "-q", "app/bg.json", "app/old.ts"], cwd=tmp_path, check=True)
    (tmp_path / ".git/objects" / blob[:2] / blob[2:].strip()).unlink()
    universe = list_universe(tmp_path)
    assert "app/bg.json" in universe.files and "app/old.ts" not in universe.files
    result = evaluate(load_project(tmp_path, use_cache=False))
    unresolved = [v.message for v in result.violations if v.rule_id == "unresolved-import"]
    assert len(unresolved) == 1 and "'./old'" in unresolved[0], unresolved


def test_git_listing_from_a_subdirectory_is_relative_to_it(tmp_path: Path) -> None:
    write(tmp_path, {"app/src/x.ts": "", "other/y.ts": ""})
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    universe = list_universe(tmp_path / "app")
    assert universe.files == ("src/x.ts",)


def test_symlinks_are_not_followed(tmp_path: Path) -> None:
    write(tmp_path, {"src/a.ts": "", "elsewhere/b.ts": ""})
    (tmp_path / "src" / "link").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "src" / "loop").symlink_to(tmp_path / "src")
    (tmp_path / "src" / "file-link.ts").symlink_to(tmp_path / "src" / "a.ts")
    universe = list_universe(tmp_path)
    assert universe.files == ("elsewhere/b.ts", "src/a.ts")


def test_non_utf8_file_name_is_skipped_with_a_note(tmp_path: Path) -> None:
    write(tmp_path, {"src/a.ts": ""})
    (tmp_path / os.fsdecode(b"src/bad-\xff.ts")).write_text("")
    universe = list_universe(tmp_path)
    assert universe.files == ("src/a.ts",)
    assert any("not valid UTF-8" in note for note in universe.notes)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing", "no such directory"),
        (lambda p: ((p / "f.ts").write_text("") and p / "f.ts") or p / "f.ts", "not a directory"),
    ],
)
def test_bad_roots_raise_input_error(tmp_path: Path, make: object, message: str) -> None:
    target = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(InputError, match=message):
        resolve_root(target)


def test_root_symlink_loop_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(InputError, match="cannot open"):
        resolve_root(tmp_path / "a")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("a.ts", True),
        ("a.tsx", True),
        ("a.mts", True),
        ("a.cts", True),
        ("a.js", True),
        ("a.jsx", True),
        ("a.mjs", True),
        ("a.cjs", True),
        ("a.d.ts", False),
        ("a.d.mts", False),
        ("a.d.cts", False),
        ("a.json", False),
        ("a.css", False),
    ],
)
def test_source_file_extensions(name: str, expected: bool) -> None:
    assert is_source_file(name) is expected


def test_a_project_in_a_folder_its_repository_ignores_is_read_from_disk(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text("out/\n")
    project = tmp_path / "out" / "generated"
    (project / "src").mkdir(parents=True)
    (project / "src" / "a.ts").write_text("export const a = 1;\n")
    # git lists nothing under an ignored folder; the project's files are still its files
    assert list_universe(project.resolve()).files == ("src/a.ts",)


def test_upstream_default_skipped_folders_are_left_out_at_any_depth(tmp_path: Path) -> None:
    """scripts/, docs/, next/ and bridge/ are not scanned (the upstream plugin's default scan
    exclusions): a dev preview script reaching into organs is not judged, its folder is no
    node. The skip list is a config default an undeclared project's regime can clear."""
    import dataclasses

    from filid.config.model import Config

    banner = "import { Banner } from '../ui/components/banner';\n"
    from filid.check.engine import evaluate
    from filid.check.project import load_project

    files = {
        "src/INTENT.md": "# S\n",
        "src/index.ts": "export { Banner } from './ui';\n",
        "src/ui/INTENT.md": "# U\n",
        "src/ui/index.ts": "export { Banner } from './components/banner';\n",
        "src/ui/components/banner.tsx": "export const Banner = 1;\n",
        "src/scripts/dev-ui.tsx": f"{banner}void Banner;\n",
        "src/docs/example.ts": f"{banner}void Banner;\n",
        "packages/app/next/page.ts": "export const p = 1;\n",
        "plugins/x/bridge/server.cjs": "module.exports = 1;\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    project = load_project(tmp_path, use_cache=False)
    assert not any(
        seg in ("scripts", "docs", "next", "bridge")
        for path in project.tree.nodes
        for seg in path.split("/")
    ), sorted(project.tree.nodes)
    assert evaluate(project, rule_ids=["external-import-boundary"]).violations == ()

    structure = dataclasses.replace(Config().structure, skipped_directories=())
    kept = load_project(
        tmp_path, config=dataclasses.replace(Config(), structure=structure), use_cache=False
    )
    assert {"src/scripts", "src/docs", "packages/app/next", "plugins/x/bridge"} <= set(
        kept.tree.nodes
    )
    found = evaluate(kept, rule_ids=["external-import-boundary"]).violations
    assert sorted(v.path for v in found) == ["src/docs/example.ts", "src/scripts/dev-ui.tsx"]
