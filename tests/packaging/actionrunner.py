"""A small stand-in for the GitHub Actions runner: executes action.yml's composite steps.

It does what the runner does for this action and nothing more: resolves ``${{ inputs.x }}``
and ``${{ steps.id.outputs.k }}`` in ``env:`` blocks and ``if:`` conditions, gives every step
a fresh ``GITHUB_OUTPUT`` file, runs ``run:`` steps with ``bash --noprofile --norc -eo
pipefail`` (the runner's ``shell: bash``), stops at the first failing step, and records
``uses:`` steps (which it cannot run) together with whether their condition held.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_COMPARISON = re.compile(r"^(\S+)\s*(==|!=)\s*(\S+)$")


@dataclass
class StepRun:
    """One executed (or skipped) step."""

    name: str
    ran: bool
    returncode: int = 0
    stdout: str = ""
    stderr: str = ""
    outputs: dict[str, str] = field(default_factory=dict)
    uses: str | None = None
    with_: dict[str, str] = field(default_factory=dict)


@dataclass
class ActionRun:
    """The result of running the whole composite action."""

    steps: list[StepRun]
    outputs: dict[str, str]

    @property
    def failed(self) -> bool:
        return any(step.ran and step.returncode != 0 for step in self.steps)

    @property
    def exit_code(self) -> int:
        for step in self.steps:
            if step.ran and step.returncode != 0:
                return step.returncode
        return 0

    @property
    def stdout(self) -> str:
        return "".join(step.stdout for step in self.steps)

    def step(self, name: str) -> StepRun:
        return next(step for step in self.steps if step.name == name)


class _Context:
    def __init__(self, inputs: Mapping[str, str], steps: Mapping[str, dict[str, str]]) -> None:
        self.inputs = inputs
        self.steps = steps

    def value(self, reference: str) -> str:
        if reference.startswith("'") and reference.endswith("'"):
            return reference[1:-1]
        parts = reference.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            return self.inputs[parts[1]]
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return self.steps.get(parts[1], {}).get(parts[3], "")
        raise ValueError(f"expression not supported by the test runner: {reference}")

    def substitute(self, text: str) -> str:
        return _EXPR.sub(lambda match: self.value(match.group(1)), text)

    def condition(self, expression: str) -> bool:
        expression = _EXPR.sub(lambda match: match.group(1), expression.strip())
        for clause in expression.split("&&"):
            match = _COMPARISON.match(clause.strip())
            if match is None:
                raise ValueError(f"condition not supported by the test runner: {clause}")
            left, operator, right = match.groups()
            equal = self.value(left) == self.value(right)
            if equal != (operator == "=="):
                return False
        return True


def _read_outputs(path: Path) -> dict[str, str]:
    outputs: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, separator, value = line.partition("=")
        assert separator, f"GITHUB_OUTPUT line without '=': {line!r}"
        outputs[key] = value
    return outputs


def run_action(
    action_dir: Path,
    workspace: Path,
    inputs: Mapping[str, str],
    base_env: Mapping[str, str],
) -> ActionRun:
    """Run the composite action in ``action_dir`` with ``inputs`` from ``workspace``."""
    definition: dict[str, Any] = yaml.safe_load((action_dir / "action.yml").read_text("utf-8"))
    declared = definition["inputs"]
    unknown = set(inputs) - set(declared)
    assert not unknown, f"inputs not declared in action.yml: {unknown}"
    values = {name: inputs.get(name, spec.get("default", "")) for name, spec in declared.items()}
    step_outputs: dict[str, dict[str, str]] = {}
    context = _Context(values, step_outputs)
    runner_temp = workspace.parent / "runner-temp"
    runner_temp.mkdir(exist_ok=True)
    runs: list[StepRun] = []
    for index, step in enumerate(definition["runs"]["steps"]):
        name = step.get("name", f"step {index}")
        if runs and runs[-1].ran and runs[-1].returncode != 0:
            break
        if "if" in step and not context.condition(step["if"]):
            runs.append(StepRun(name=name, ran=False, uses=step.get("uses")))
            continue
        if "uses" in step:
            with_ = {key: context.substitute(str(value)) for key, value in step["with"].items()}
            runs.append(StepRun(name=name, ran=True, uses=step["uses"], with_=with_))
            continue
        assert step["shell"] == "bash"
        output_file = runner_temp / f"output-{index}"
        output_file.write_text("", encoding="utf-8")
        env = dict(base_env)
        env.update(
            GITHUB_ACTION_PATH=str(action_dir),
            GITHUB_OUTPUT=str(output_file),
            GITHUB_WORKSPACE=str(workspace),
            RUNNER_TEMP=str(runner_temp),
        )
        env.update({key: context.substitute(str(value)) for key, value in step["env"].items()})
        script = runner_temp / f"step-{index}.sh"
        script.write_text(step["run"], encoding="utf-8")
        completed = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        outputs = _read_outputs(output_file)
        if "id" in step:
            step_outputs[step["id"]] = outputs
        runs.append(
            StepRun(
                name=name,
                ran=True,
                returncode=completed.returncode,
                stdout=completed.stdout,
                stderr=completed.stderr,
                outputs=outputs,
            )
        )
    action_outputs = {
        name: context.substitute(spec["value"]) for name, spec in definition["outputs"].items()
    }
    return ActionRun(steps=runs, outputs=action_outputs)


def runner_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The process environment for a step (the test's own, plus ``extra``)."""
    env = dict(os.environ)
    env.pop("GITHUB_STEP_SUMMARY", None)
    env.pop("GITHUB_OUTPUT", None)
    if extra:
        env.update(extra)
    return env
