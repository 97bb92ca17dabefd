"""The GitHub Action attacked by the pull request it checks, in a runner-like layout.

The runner keeps actions at ``<work>/_actions/OWNER/REPO/REF`` beside the workspace
``<work>/REPO/REPO``, so a pull request knows where the action's next script lies. These
tests run the action's own scripts (through the composite-step stand-in) on such a layout.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import write_files
from tests.packaging.actionrunner import run_action, runner_env
from tests.packaging.checkout import copy_checkout

BIN = Path(sys.executable).parent
DEEP = {
    ".filid/config.json": '{"version": "2.0"}\n',  # declares FCA (SPEC §0)
    "package.json": '{"name": "shop", "private": true}\n',
    "src/auth/index.ts": "export { login } from './login';\n",
    "src/auth/login.ts": "export const login = 1;\n",
    "src/app/index.ts": "import { login } from '../auth/login';\nexport { login };\n",
}

# The FCA 1.0 documents of DEEP's modules, so that in a declared project (a config) the
# deep import is its only violation.
_INTENT = "# M\n## Always do\n- a\n## Ask first\n- b\n## Never do\n- c\n"
_DETAIL = (
    "# M\n## Requirements\n- r\n## API Contracts\n- c\n## Acceptance Criteria\n"
    "### AC-m — Works\n- w\n## Last Updated\n2026-01-01\n"
)
DOCUMENTS = {
    f"src/{name}/{doc}": text
    for name in ("auth", "app")
    for doc, text in (("INTENT.md", _INTENT), ("DETAIL.md", _DETAIL))
}


def _layout(tmp_path: Path) -> tuple[Path, Path]:
    work = tmp_path / "work"
    action = copy_checkout(work / "_actions" / "owner" / "filid" / "v1")
    workspace = work / "shop" / "shop"
    workspace.mkdir(parents=True)
    return action, workspace


def _env(workspace: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    return runner_env(
        {
            "FILID_ACTION_SKIP_INSTALL": "1",
            "PATH": f"{BIN}:{runner_env()['PATH']}",
            "GITHUB_STEP_SUMMARY": str(workspace.parent / "summary.md"),
            **(extra or {}),
        }
    )


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_a_committed_sarif_symlink_and_a_command_in_a_path_run_nothing(tmp_path: Path) -> None:
    action, workspace = _layout(tmp_path)
    finish = action / "action" / "finish.sh"
    original = finish.read_bytes()
    write_files(
        workspace,
        {
            **DEEP,
            "src/m$(touch PWNED)m/index.ts": "import { login } from '../auth/login';\n"
            "export const m = login;\n",
        },
    )
    # The pull request commits filid.sarif as a link to the action's next step.
    (workspace / "filid.sarif").symlink_to("../../_actions/owner/filid/v1/action/finish.sh")
    (workspace / "reports.xml").symlink_to("../../_actions/owner/filid/v1/action/run.sh")
    result = run_action(action, workspace, {"junit-file": "reports.xml"}, _env(workspace))
    assert finish.read_bytes() == original
    assert (action / "action" / "run.sh").read_text(encoding="utf-8").startswith("#!/usr/bin/env")
    assert not list(tmp_path.rglob("PWNED"))
    check = result.step("Run filid check")
    assert check.returncode == 0, check.stderr
    sarif = Path(check.outputs["sarif-file"])
    assert sarif.is_file() and not sarif.is_symlink()
    assert workspace not in sarif.parents
    results = json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert any("$(touch PWNED)" in r["message"]["text"] for r in results)
    assert result.exit_code == 1  # the violations, reported; nothing else happened


def test_config_from_base_keeps_the_policy_out_of_the_pull_requests_reach(
    tmp_path: Path,
) -> None:
    action, workspace = _layout(tmp_path)
    write_files(workspace, {**DEEP, **DOCUMENTS, ".filid/config.json": '{"version": "2.0"}\n'})
    _git(workspace, "init", "-q")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "base")
    base = _git(workspace, "rev-parse", "HEAD")
    # The pull request switches off the rule it breaks.
    write_files(
        workspace,
        {
            ".filid/config.json": '{"version": "2.0", "rules": '
            '{"external-import-boundary": {"enabled": false}}}\n'
        },
    )
    _git(workspace, "commit", "-qam", "pr")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": base}}}), encoding="utf-8")
    env = _env(workspace, {"GITHUB_EVENT_PATH": str(event)})

    # The whole repository (new-since: off): the violation is older than the pull request.
    own = run_action(action, workspace, {"fail-on": "error", "new-since": "off"}, env)
    assert own.exit_code == 0  # the pull request's own policy hides its violation

    guarded = run_action(
        action, workspace, {"config": "base", "fail-on": "error", "new-since": "off"}, env
    )
    check = guarded.step("Run filid check")
    assert "external-import-boundary" in check.stdout
    assert guarded.exit_code == 1


def test_config_from_base_also_pins_the_detail_md_exemptions(tmp_path: Path) -> None:
    action, workspace = _layout(tmp_path)
    write_files(workspace, {**DEEP, **DOCUMENTS})
    _git(workspace, "init", "-q")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "base")
    base = _git(workspace, "rev-parse", "HEAD")
    # The pull request exempts its own deep import in a DETAIL.md instead of the config.
    write_files(
        workspace,
        {
            "src/auth/DETAIL.md": _DETAIL + "## Boundary Exemptions\n\n### login.ts — legacy\n\n"
            "- **Direct import**: allowed\n- **Consumers**: src/app/**, src/new/**\n"
            "- **Reason**: legacy\n",
            "src/new/index.ts": "import { login } from '../auth/login';\nexport const n = login;\n",
            "src/new/INTENT.md": _INTENT,
            "src/new/DETAIL.md": _DETAIL,
        },
    )
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "pr")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": base}}}), encoding="utf-8")
    env = _env(workspace, {"GITHUB_EVENT_PATH": str(event)})

    for since in ("off", "auto"):
        own = run_action(action, workspace, {"fail-on": "error", "new-since": since}, env)
        assert own.exit_code == 0  # the pull request's own DETAIL.md hides its violations
        guarded = run_action(
            action, workspace, {"config": "base", "fail-on": "error", "new-since": since}, env
        )
        check = guarded.step("Run filid check")
        assert "src/new/index.ts" in check.stdout, (since, check.stderr)
        assert guarded.exit_code == 1


def test_new_since_in_the_action_works_for_a_project_in_a_sub_folder(tmp_path: Path) -> None:
    action, workspace = _layout(tmp_path)
    write_files(workspace / "frontend", DEEP)
    _git(workspace, "init", "-q")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "base")
    base = _git(workspace, "rev-parse", "HEAD")
    write_files(
        workspace / "frontend",
        {"src/new/index.ts": "import { login } from '../auth/login';\nexport const n = login;\n"},
    )
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "pr")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": base}}}), encoding="utf-8")
    env = _env(workspace, {"GITHUB_EVENT_PATH": str(event)})
    result = run_action(action, workspace, {"path": "frontend", "fail-on": "error"}, env)
    check = result.step("Run filid check")
    assert check.returncode == 0, check.stderr
    assert "src/new/index.ts" in check.stdout and "src/app/index.ts" not in check.stdout
    assert result.exit_code == 1
