"""The Action on a pull request: only what the pull request introduced, from a shallow checkout.

The layout is what GitHub gives a ``pull_request`` job: an ``origin`` with the base branch,
the pull request's head and the merge commit ``refs/pull/1/merge``; the workspace fetched
only that merge commit at depth 1, as ``actions/checkout`` does by default; the event payload
names the base commit. The Action's own scripts run through the composite-step stand-in.
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from tests.conftest import write_files
from tests.packaging.actionrunner import ActionRun, run_action, runner_env

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]

MODULES = {
    ".filid/config.json": '{"version": "2.0"}\n',  # declares FCA (SPEC §0)
    "package.json": '{"name": "shop", "private": true}\n',
    **{f"src/{m}/index.ts": f"export {{ {m} }} from './{m}';\n" for m in ("auth", "shop", "cart")},
    **{f"src/{m}/{m}.ts": f"export const {m} = 1;\n" for m in ("auth", "shop", "cart")},
}
# Two deep imports on the base branch (legacy findings).
LEGACY = {
    "src/app/index.ts": "import { auth } from '../auth/auth';\nexport const a = auth;\n",
    "src/app/old.ts": "import { shop } from '../shop/shop';\nexport const o = shop;\n",
}
# The pull request fixes one of them and adds one deep import on its third line.
PULL_REQUEST = {
    "src/app/old.ts": "import { shop } from '../shop';\nexport const o = shop;\n",
    "src/app/new.ts": "// new\nexport const n = cart;\nimport { cart } from '../cart/cart';\n",
}


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        [*GIT, *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout.strip()


def _pull_request(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """An origin with a base branch and a pull request; a depth-1 checkout of its merge."""
    origin = tmp_path / "origin"
    write_files(origin, {**MODULES, **LEGACY})
    git(origin, "init", "-q", "-b", "main")
    git(origin, "config", "uploadpack.allowAnySHA1InWant", "true")
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "base with two legacy deep imports")
    for number in range(3):  # some history below the base
        write_files(origin, {f"docs/note{number}.md": f"{number}\n"})
        git(origin, "add", "-A")
        git(origin, "commit", "-qm", f"docs {number}")
    base = git(origin, "rev-parse", "HEAD")
    git(origin, "checkout", "-qb", "feature")
    write_files(origin, PULL_REQUEST)
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "the pull request")
    head = git(origin, "rev-parse", "HEAD")
    git(origin, "checkout", "-q", "--detach", base)
    git(origin, "merge", "-q", "--no-ff", "-m", "Merge head into base", head)
    merge = git(origin, "rev-parse", "HEAD")
    git(origin, "update-ref", "refs/pull/1/merge", merge)
    git(origin, "checkout", "-q", "main")

    workspace = tmp_path / "work" / "shop"
    workspace.mkdir(parents=True)
    git(workspace, "init", "-q")
    git(workspace, "remote", "add", "origin", origin.as_uri())
    git(workspace, "fetch", "-q", "--no-tags", "--depth=1", "origin",
        f"+{merge}:refs/remotes/pull/1/merge")  # fmt: skip
    git(workspace, "checkout", "-q", "--detach", merge)
    assert git(workspace, "rev-parse", "--is-shallow-repository") == "true"
    event = {
        "action": "synchronize",
        "number": 1,
        "pull_request": {"number": 1, "base": {"sha": base}, "head": {"sha": head}},
    }
    return workspace, event


def _run(workspace: Path, event: dict[str, Any], inputs: dict[str, str]) -> ActionRun:
    inputs = {"args": "--rules external-import-boundary,circular-dependency", **inputs}
    event_file = workspace.parent / "event.json"
    event_file.write_text(json.dumps(event), encoding="utf-8")
    env = runner_env(
        {
            "FILID_ACTION_SKIP_INSTALL": "1",
            "PATH": f"{BIN}:{runner_env()['PATH']}",
            "GITHUB_STEP_SUMMARY": str(workspace.parent / "summary.md"),
            "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_EVENT_PATH": str(event_file),
        }
    )
    return run_action(REPO, workspace, inputs, env)


def test_a_pull_request_sees_only_its_own_finding_in_every_output(tmp_path: Path) -> None:
    workspace, event = _pull_request(tmp_path)
    result = _run(workspace, event, {"junit-file": "filid.xml"})
    check = result.step("Run filid check")
    assert check.returncode == 0, check.stderr

    annotations = [line for line in check.stdout.splitlines() if line.startswith("::")]
    assert len(annotations) == 1, check.stdout
    assert annotations[0].startswith("::error file=src/app/new.ts,line=3,")
    assert "title=external-import-boundary" in annotations[0]

    reports = tmp_path / "work" / "runner-temp" / "filid"
    sarif = json.loads((reports / "filid.sarif").read_text(encoding="utf-8"))
    results = sarif["runs"][0]["results"]
    assert [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["baselineState"]) for r in results] == [
        ("src/app/index.ts", "unchanged"), ("src/app/new.ts", "new")]  # fmt: skip
    assert (
        sarif["runs"][0]["properties"]["filid/newSince"]["mergeBase"]
        == event["pull_request"]["base"]["sha"]
    )
    assert check.outputs["violations"] == "1"

    junit = ET.parse(reports / "filid.xml").getroot()
    assert len(junit.findall(".//failure")) == 1

    summary = (workspace.parent / "summary.md").read_text(encoding="utf-8")
    assert "**1 new**, 1 fixed, 1 unchanged" in summary
    assert result.exit_code == 1
    # The work tree is as checked out (no base files written into it).
    assert git(workspace, "status", "--porcelain") == ""


def test_new_since_off_checks_the_whole_repository(tmp_path: Path) -> None:
    workspace, event = _pull_request(tmp_path)
    result = _run(workspace, event, {"new-since": "off"})
    check = result.step("Run filid check")
    assert check.outputs["violations"] == "2", check.stdout + check.stderr
    assert "new, " not in (workspace.parent / "summary.md").read_text(encoding="utf-8")


def test_a_push_event_checks_the_whole_repository(tmp_path: Path) -> None:
    workspace, _ = _pull_request(tmp_path)
    result = _run(workspace, {"ref": "refs/heads/main", "after": "0" * 40}, {})
    assert result.step("Run filid check").outputs["violations"] == "2"


def test_a_hostile_base_sha_in_the_payload_is_ignored(tmp_path: Path) -> None:
    workspace, _ = _pull_request(tmp_path)
    event = {"pull_request": {"base": {"sha": "--upload-pack=touch /tmp/x"}}}
    result = _run(workspace, event, {})
    check = result.step("Run filid check")
    assert check.returncode == 0, check.stderr
    assert check.outputs["violations"] == "2"  # not a commit id: the whole repository


def test_new_cycles_are_drawn_in_the_summary(tmp_path: Path) -> None:
    workspace, event = _pull_request(tmp_path)
    # The pull request also closes a cycle between two modules.
    origin = tmp_path / "origin"
    git(origin, "checkout", "-q", "feature")
    write_files(
        origin,
        {
            "src/auth/auth.ts": "import { shop } from '../shop';\nexport const auth = shop;\n",
            "src/shop/shop.ts": "import { auth } from '../auth';\nexport const shop = auth;\n",
        },
    )
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "a cycle")
    head = git(origin, "rev-parse", "HEAD")
    base = event["pull_request"]["base"]["sha"]
    git(origin, "checkout", "-q", "--detach", base)
    git(origin, "merge", "-q", "--no-ff", "-m", "merge", head)
    merge = git(origin, "rev-parse", "HEAD")
    git(workspace, "fetch", "-q", "--no-tags", "--depth=1", "origin", merge)
    git(workspace, "checkout", "-q", "--detach", merge)

    result = _run(workspace, event, {})
    check = result.step("Run filid check")
    assert "circular-dependency" in check.stdout, check.stdout + check.stderr
    summary = (workspace.parent / "summary.md").read_text(encoding="utf-8")
    assert "```mermaid" in summary
    assert "src/auth" in summary and "src/shop" in summary
