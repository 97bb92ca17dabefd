"""The composite GitHub Action: valid for GitHub, and its steps behave as a runner runs them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES, write_files
from tests.packaging.actionrunner import ActionRun, run_action, runner_env
from tests.packaging.checkout import copy_checkout

REPO = Path(__file__).resolve().parents[2]
ACTION = REPO / "action.yml"
BIN = Path(sys.executable).parent

CONTRACT = "# {name}\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"

# A module with a boundary document but no entry point: a warning (module-entry-point) only.
WARNING_ONLY = {
    "package.json": '{"name": "shop", "private": true}\n',
    "tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
    "CLAUDE.md": CONTRACT.format(name="Shop"),
    "src/billing/CLAUDE.md": CONTRACT.format(name="Billing"),
    "src/billing/billing.ts": "export function charge(): number {\n  return 1;\n}\n",
}
CLEAN = {
    **WARNING_ONLY,
    "src/billing/index.ts": "export { charge } from './billing';\n",
}

Runner = Callable[..., ActionRun]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "workspace"
    path.mkdir()
    return path


@pytest.fixture
def run(workspace: Path) -> Runner:
    """Run the action with the filid of this test environment (FILID_ACTION_SKIP_INSTALL=1)."""

    def runner(inputs: Mapping[str, str], *, summary: bool = True) -> ActionRun:
        extra = {"FILID_ACTION_SKIP_INSTALL": "1", "PATH": f"{BIN}:{runner_env()['PATH']}"}
        if summary:
            extra["GITHUB_STEP_SUMMARY"] = str(workspace.parent / "summary.md")
        return run_action(REPO, workspace, inputs, runner_env(extra))

    return runner


def reports(workspace: Path) -> Path:
    """Where the action puts relative report paths: $RUNNER_TEMP/filid (out of the checkout)."""
    return workspace.parent / "runner-temp" / "filid"


def _sarif_results(path: Path) -> list[dict[str, Any]]:
    log = json.loads(path.read_text(encoding="utf-8"))
    return [result for run in log["runs"] for result in run["results"]]


def test_action_yml_is_valid_for_github() -> None:
    completed = subprocess.run(
        [str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.github-actions", str(ACTION)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_inputs_reach_shell_steps_only_through_env() -> None:
    definition = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert definition["runs"]["using"] == "composite"
    run_steps = [step for step in definition["runs"]["steps"] if "run" in step]
    assert run_steps
    for step in run_steps:
        assert step["shell"] == "bash", step["name"]
        assert "${{" not in step["run"], step["name"]
        script = step["run"].split('"$GITHUB_ACTION_PATH/')[1].split('"')[0]
        assert (REPO / script).is_file(), script
    assert set(definition["inputs"]) >= {"path", "args", "fail-on", "sarif-file", "junit-file"}
    assert set(definition["outputs"]) >= {"violations", "sarif-file"}


def test_violations_give_annotations_outputs_reports_and_exit_1(
    run: Runner, workspace: Path
) -> None:
    shutil.copytree(EXAMPLES, workspace / "examples")
    result = run({"path": "examples", "junit-file": "reports/filid.xml", "upload-sarif": "true"})

    sarif = reports(workspace) / "filid.sarif"
    results = _sarif_results(sarif)
    assert results, "examples/ breaks every rule, so the SARIF must have results"
    check = result.step("Run filid check")
    assert check.returncode == 0, check.stderr
    assert check.outputs["violations"] == str(len(results))
    assert check.outputs["sarif-file"] == str(sarif)
    assert result.outputs["violations"] == str(len(results))
    assert result.outputs["sarif-file"] == str(sarif)
    assert not (workspace / "filid.sarif").exists()

    # Annotations: workflow commands on stdout, pointing at files under the project root.
    annotations = [line for line in check.stdout.splitlines() if line.startswith("::error file=")]
    assert annotations
    assert any(line.startswith("::warning file=") for line in check.stdout.splitlines())

    summary = (workspace.parent / "summary.md").read_text(encoding="utf-8")
    assert "| " in summary and "---" in summary  # a Markdown table
    assert any(r["ruleId"] in summary for r in results)

    junit = ET.parse(reports(workspace) / "reports" / "filid.xml").getroot()
    assert junit.tag == "testsuites"
    assert junit.findall(".//failure")

    # The upload runs although violations were found, with the SARIF path; then the job fails.
    upload = result.step("Upload SARIF to code scanning")
    assert upload.ran
    assert upload.uses is not None and upload.uses.startswith("github/codeql-action/upload-sarif@")
    assert upload.with_["sarif_file"] == str(sarif)
    finish = result.steps[-1]
    assert finish.ran and finish.returncode == 1
    assert result.exit_code == 1


def test_fail_on_never_reports_but_passes(run: Runner, workspace: Path) -> None:
    shutil.copytree(EXAMPLES, workspace / "examples")
    result = run({"path": "examples", "fail-on": "never"})
    assert int(result.outputs["violations"]) > 0
    assert result.outputs["exit-code"] == "0"
    assert not result.step("Upload SARIF to code scanning").ran  # upload-sarif defaults to false
    assert not result.failed


@pytest.mark.parametrize(("fail_on", "expected"), [("error", 0), ("warning", 1), ("info", 1)])
def test_exit_code_follows_fail_on(
    run: Runner, workspace: Path, fail_on: str, expected: int
) -> None:
    write_files(workspace, WARNING_ONLY)
    result = run({"fail-on": fail_on})
    results = _sarif_results(reports(workspace) / "filid.sarif")
    assert results and {r["level"] for r in results} == {"warning"}
    assert result.outputs["violations"] == str(len(results))
    assert result.exit_code == expected


def test_clean_project_passes_with_zero_violations(run: Runner, workspace: Path) -> None:
    write_files(workspace, CLEAN)
    result = run({"junit-file": "filid.xml"})
    assert result.outputs["violations"] == "0"
    assert _sarif_results(reports(workspace) / "filid.sarif") == []
    assert not [line for line in result.stdout.splitlines() if line.startswith("::error")]
    assert ET.parse(reports(workspace) / "filid.xml").getroot().tag == "testsuites"
    assert not result.failed


def test_empty_sarif_file_input_keeps_no_sarif_but_still_counts(
    run: Runner, workspace: Path
) -> None:
    write_files(workspace, WARNING_ONLY)
    result = run({"sarif-file": "", "upload-sarif": "true", "fail-on": "never"})
    assert int(result.outputs["violations"]) > 0
    assert result.outputs["sarif-file"] == ""
    assert not list(workspace.rglob("*.sarif"))
    assert not list((workspace.parent / "runner-temp").glob("*.sarif"))
    assert not result.step("Upload SARIF to code scanning").ran


def test_args_are_split_like_a_shell_without_expansion(run: Runner, workspace: Path) -> None:
    shutil.copytree(EXAMPLES, workspace / "examples")
    result = run({"path": "examples", "args": "--rules 'module-entry-point,max-depth' --exit-zero"})
    rule_ids = {r["ruleId"] for r in _sarif_results(reports(workspace) / "filid.sarif")}
    assert rule_ids == {"module-entry-point", "max-depth"}
    assert not result.failed  # --exit-zero

    marker = workspace / "injected"
    run({"path": "examples", "args": f"$(touch {marker}) `touch {marker}` --exit-zero"})
    assert not marker.exists()


def test_usage_error_fails_the_check_step_with_exit_2(run: Runner, workspace: Path) -> None:
    write_files(workspace, CLEAN)
    result = run({"args": "--rules no-such-rule"})
    check = result.step("Run filid check")
    assert check.returncode == 2
    assert "no-such-rule" in check.stderr
    assert "::error title=filid::" in check.stdout
    assert result.steps[-1] is check  # nothing runs after a failed step


def test_install_refuses_an_old_python(workspace: Path) -> None:
    fake = workspace.parent / "python3.10"
    fake.write_text(
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Python 3.10.12'; exit 0; fi\nexit 1\n"
    )
    fake.chmod(0o755)
    result = run_action(REPO, workspace, {"python": str(fake)}, runner_env())
    install = result.step("Install filid")
    assert install.returncode == 2
    assert "Python >= 3.11" in install.stdout and "3.10.12" in install.stdout
    assert len(result.steps) == 1


@pytest.mark.slow
def test_real_install_from_the_action_path(workspace: Path) -> None:
    """No shortcut: the install step builds filid from the action checkout into a venv."""
    write_files(workspace, WARNING_ONLY)
    action_checkout = copy_checkout(workspace.parent / "action-checkout")
    result = run_action(action_checkout, workspace, {"fail-on": "warning"}, runner_env())
    install = result.step("Install filid")
    assert install.returncode == 0, install.stdout + install.stderr
    filid = Path(install.outputs["filid"])
    assert filid.is_file() and filid.is_relative_to(workspace.parent / "runner-temp")
    assert result.outputs["violations"] == str(
        len(_sarif_results(reports(workspace) / "filid.sarif"))
    )
    assert result.exit_code == 1
