"""Every command of the README runs, as written, on a fresh clone and in a scratch repository.

The README's ``sh`` blocks are extracted in order and run line by line with bash. A block
preceded by ``<!-- readme-test: clone -->`` runs at the root of a fresh clone of this
checkout (tagged ``v0.1.0``, with an ``origin`` remote); every other block runs at the root
of a scratch git repository holding a copy of ``examples/`` (someone else's TypeScript
project). The README's two placeholders are replaced as it explains them: ``/path/to/filid``
by the clone, ``OWNER/filid`` by the clone too (``git+https://github.com/OWNER/filid@v0.1.0``
becomes ``git+file://<clone>@v0.1.0``, whose tag exists). ``pip`` is a fresh virtual
environment's, pipx and uv are the ones the test extras install (with scratch homes), and
``claude`` is Claude Code from ``tests/node`` (scratch ``HOME``). filid commands may exit 1
(violations remain) but never 2 or 3; every other command must exit 0.

The test-suite command is not run here (it would run this test again): it must equal the
command ``.ci/run`` runs, which CI does run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.packaging.checkout import copy_checkout

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
CLAUDE = REPO / "tests" / "node" / "node_modules" / ".bin" / "claude"
_BLOCK = re.compile(r"(?:<!-- readme-test: (\w+) -->\n)?```(\w*)\n(.*?)```", re.S)
TEST_COMMAND = (
    'python3 -m venv .venv && .venv/bin/pip install -e ".[test]" && '
    "npm install --prefix tests/node && .venv/bin/pytest"
)


@dataclass(frozen=True)
class Block:
    """A fenced block of the README: where it runs, its language and text."""

    place: str
    language: str
    text: str


def blocks(language: str) -> list[Block]:
    """The README's fenced blocks of ``language``, in order."""
    found = [Block(m[1] or "project", m[2], m[3]) for m in _BLOCK.finditer(README)]
    return [b for b in found if b.language == language]


def test_the_test_command_is_the_one_ci_runs() -> None:
    commands = [b.text.strip() for b in blocks("sh")]
    assert TEST_COMMAND in commands
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert (
        '.venv/bin/pip install -e ".[test]" && npm install --prefix tests/node && '
        ".venv/bin/pytest" in ci
    )


def test_every_sh_block_says_where_it_runs_and_every_json_block_parses() -> None:
    for block in blocks("sh"):
        assert block.place in ("clone", "project"), block
    for block in blocks("json"):
        json.loads(block.text)


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("readme")
    env = _env(base)
    clone = copy_checkout(base / "filid")
    for stale in (".venv", "tests/node/node_modules"):
        shutil.rmtree(clone / stale, ignore_errors=True)
    git = ["git", "-c", "init.defaultBranch=main"]
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["commit", "-q", "--no-gpg-sign", "-m", "snapshot"],
        ["tag", "v0.1.0"],
        ["remote", "add", "origin", str(clone)],
        ["fetch", "-q", "origin"],
    ):
        subprocess.run([*git, *args], cwd=clone, env=env, check=True, capture_output=True)
    project = base / "shop"
    shutil.copytree(REPO / "examples", project)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "--no-gpg-sign", "-m", "shop"]):
        subprocess.run([*git, *args], cwd=project, env=env, check=True, capture_output=True)
    return {"clone": clone, "project": project, "base": base}


def _env(base: Path) -> dict[str, str]:
    home = base / "home"
    home.mkdir(exist_ok=True)
    gitconfig = home / ".gitconfig"
    gitconfig.touch()
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE_"))},
        "HOME": str(home),
        "GIT_AUTHOR_NAME": "filid tests",
        "GIT_AUTHOR_EMAIL": "tests@filid.invalid",
        "GIT_COMMITTER_NAME": "filid tests",
        "GIT_COMMITTER_EMAIL": "tests@filid.invalid",
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "GIT_CONFIG_NOSYSTEM": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }


def _substitute(line: str, clone: Path) -> str:
    line = line.replace("git+https://github.com/OWNER/filid@", f"git+file://{clone}@")
    line = line.replace("https://github.com/OWNER/filid", str(clone))
    line = line.replace("OWNER/filid", str(clone))
    return line.replace("/path/to/filid", str(clone))


def _is_filid(line: str) -> bool:
    return bool(re.search(r"(^|[\s/&])filid (check|drift|scan|graph|lca|rules|init)\b", line))


@pytest.mark.slow
def test_every_readme_command_runs(places: dict[str, Path]) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    base, clone = places["base"], places["clone"]
    env = _env(base)
    environment = base / "env"
    venv.create(environment, with_pip=True)
    tools = Path(sys.executable).parent  # pipx, uv, pre-commit of the test extras
    env.update(
        PIPX_HOME=str(base / "pipx"),
        PIPX_BIN_DIR=str(base / "pipx-bin"),
        UV_TOOL_DIR=str(base / "uv-tools"),
        UV_TOOL_BIN_DIR=str(base / "uv-bin"),
        UV_CACHE_DIR=str(base / "uv-cache"),
        PATH=os.pathsep.join(
            [
                str(environment / "bin"),
                str(base / "pipx-bin"),
                str(base / "uv-bin"),
                str(CLAUDE.parent),
                str(tools),
                env["PATH"],
            ]
        ),
    )
    ran: list[str] = []
    for block in blocks("sh"):
        if block.text.strip() == TEST_COMMAND:
            continue
        for raw in block.text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("claude ") and not CLAUDE.exists():
                pytest.skip("Claude Code is not installed in tests/node")
            command = _substitute(line, clone)
            done = subprocess.run(
                ["bash", "-c", command],
                cwd=places[block.place],
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            shown = f"{line}\n--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}"
            assert "Traceback" not in done.stderr, shown
            assert "internal error" not in done.stderr, shown
            allowed = (0, 1) if _is_filid(line) else (0,)
            assert done.returncode in allowed, shown
            if done.returncode == 1 and "--output" not in line:
                # a report says why, never a failed install before filid ran
                assert done.stdout.strip(), shown
            ran.append(line)
    # the first command, and the ones a new user copies first
    assert any("filid check examples/" in line for line in ran)
    assert any(line.startswith("pipx install") for line in ran)
    assert any(line.startswith("uv tool install") for line in ran)
    assert (places["project"] / ".filid" / "config.json").is_file()


@pytest.mark.slow
def test_readme_pre_commit_configs_are_valid(places: dict[str, Path]) -> None:
    clone = places["clone"]
    configs = [b.text for b in blocks("yaml") if b.text.startswith("repos:")]
    assert len(configs) >= 2  # the plain hook and the baseline variant
    for number, text in enumerate(configs):
        path = places["base"] / f"pre-commit-{number}.yaml"
        path.write_text(_substitute(text, clone), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "pre_commit", "validate-config", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, text + done.stdout + done.stderr
