"""The CLI as users run it: exit codes, bad input, formats, and every rule on examples/."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from filid.cli import cli
from filid.rules.catalogue import runs_by_default
from filid.rules.registry import RULES
from tests.conftest import EXAMPLES, ProjectFactory

DOC = "# M\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"
# A DETAIL.md that meets the FCA 1.0 contract (detail-document-contract).
DETAIL = (
    "# M\n\n## Requirements\n- r\n\n## API Contracts\n- c\n\n## Acceptance Criteria\n"
    "### AC-m — Works\n- w\n\n## Last Updated\n2026-01-01\n"
)
# Rules whose showcase needs verification records or a legacy ledger, which examples/ does
# not hold: their documented examples run in tests/rules/test_examples.py.
NOT_IN_EXAMPLES = {
    "entry-point-surface",
    "spec-document-case-cap",
    "test-record-case-cap",
    "spec-fragmentation",
    "spec-contract-link",
    "legacy-criteria-ledger",
}
CLEAN = {
    "package.json": '{"name": "clean"}\n',
    "src/auth/INTENT.md": DOC,
    "src/auth/DETAIL.md": DETAIL,
    "src/auth/index.ts": "export { login } from './auth';\n",
    "src/app/INTENT.md": DOC,
    "src/app/DETAIL.md": DETAIL,
    "src/auth/auth.ts": "export function login(user: string): string {\n  return user;\n}\n",
    "src/app/index.ts": "export { start } from './app';\n",
    "src/app/app.ts": (
        "import { login } from '../auth';\nexport const start = (): string => login('x');\n"
    ),
}


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    runner = CliRunner()
    result = runner.invoke(cli, list(args), env=env, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    target = tmp_path / "examples"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns("cache"))
    return target


def test_every_rule_fires_on_examples(examples: Path) -> None:
    code, out, _ = run("check", str(examples), "--format", "json", "--no-cache")
    assert code == 1
    report = json.loads(out)
    fired = {v["ruleId"] for v in report["result"]["violations"]}
    # Every rule a declared project runs by default; filid's opt-in claims beside upstream's
    # rules (SPEC §0) fire in their own documented examples (tests/rules/test_examples.py).
    default = {r.meta.id for r in RULES if runs_by_default(r.meta.id, declared=True)}
    assert fired == default - NOT_IN_EXAMPLES


def test_clean_project_exits_zero(make_project: ProjectFactory) -> None:
    code, out, _ = run("check", str(make_project(CLEAN)), "--no-cache")
    assert code == 0, out
    assert "All checks passed!" in out


def test_text_output_is_ruff_like_and_uncoloured_off_tty(examples: Path) -> None:
    code, out, _ = run("check", str(examples), "--no-cache")
    assert code == 1
    assert "src/app/app.ts:1:1: error external-import-boundary [*] deep import" in out
    assert "\x1b[" not in out
    assert "Found " in out and "fixable with --fix" in out
    assert "error: " in out and "warning: " in out
    # the fix markers are explained once, under the summary
    assert "[*] fixable with --fix, [~] fixable with --unsafe-fixes" in out


def test_a_file_that_does_not_exist_is_a_usage_error(examples: Path, tmp_path: Path) -> None:
    code, _, err = run("check", str(examples), str(tmp_path / "nonexistent.ts"), "--no-cache")
    assert code == 2
    assert "no such file" in err and "nonexistent.ts" in err


def test_a_staged_deletion_is_a_known_file(make_project: ProjectFactory) -> None:
    root = make_project(
        {
            "src/a/index.ts": "export const a = 1;\n",
            "src/a/gone.ts": "x;\n",
            "src/a/INTENT.md": DOC,
            "src/a/DETAIL.md": DETAIL,
        }
    )
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "base"], cwd=root, check=True)
    subprocess.run([*git, "rm", "-q", "src/a/gone.ts"], cwd=root, check=True)
    code, _, err = run("check", str(root), str(root / "src/a/gone.ts"), "--no-cache")
    assert code == 0, err


def test_fail_on_and_exit_zero(make_project: ProjectFactory) -> None:
    only_warnings = make_project({"src/a/CLAUDE.md": DOC, "src/a/a.ts": "export const a = 1;\n"})
    assert run("check", str(only_warnings), "--no-cache")[0] == 0
    assert run("check", str(only_warnings), "--no-cache", "--fail-on", "warning")[0] == 1
    assert run("check", str(only_warnings), "--no-cache", "--fail-on", "never")[0] == 0
    assert (
        run("check", str(only_warnings), "--no-cache", "--fail-on", "warning", "--exit-zero")[0]
        == 0
    )


def test_json_report_shape(examples: Path) -> None:
    _, out, _ = run("check", str(examples), "--format", "json", "--no-cache")
    report = json.loads(out)
    assert set(report) >= {"root", "result", "config", "timestamp"}
    assert report["root"] == str(examples.resolve())
    assert report["config"]["configPath"] == ".filid/config.json"
    result = report["result"]
    assert set(result) >= {"path", "violations", "passed", "failed", "warnings"}
    first = result["violations"][0]
    assert set(first) >= {"ruleId", "severity", "message", "path", "location"}
    assert set(first["location"]) >= {"file", "line", "column"}
    keys = [(v["path"], v["ruleId"], v["location"]["line"]) for v in result["violations"]]
    assert keys == sorted(keys)
    assert all(not v["location"]["file"].startswith("/") for v in result["violations"])
    # The seed's ValidationReport types rulesApplied/rulesSkipped as numbers; ids beside them.
    config = report["config"]
    assert config["rulesApplied"] == len(config["rulesAppliedIds"]) > 0
    assert config["rulesSkipped"] == len(config["rulesSkippedIds"])


def test_output_file_and_rules_selection(examples: Path, tmp_path: Path) -> None:
    target = tmp_path / "out" / "report.json"
    code, out, _ = run(
        "check",
        str(examples),
        "--no-cache",
        "--rules",
        "max-depth",
        "--format",
        "json",
        "--output",
        str(target),
    )
    assert code == 1 and out == ""
    violations = json.loads(target.read_text())["result"]["violations"]
    assert {v["ruleId"] for v in violations} == {"max-depth"}


@pytest.mark.parametrize(
    ("files", "args", "message"),
    [
        (None, ["check", "{root}/missing"], "no such directory"),
        ({"a.ts": ""}, ["check", "{root}/a.ts"], "not a directory"),
        ({".filid/config.json": "{oops"}, ["check", "{root}"], "invalid JSON"),
        (
            {".filid/config.json": '{"structure": {"maxDepth": "x"}}'},
            ["check", "{root}"],
            "structure.maxDepth",
        ),
        (
            {".filid/config.json": '{"rules": {"max-dept": {}}}'},
            ["check", "{root}"],
            "did you mean 'max-depth'",
        ),
        ({}, ["check", "{root}", "--rules", "nope"], "unknown rule id 'nope'"),
        ({}, ["check", "{root}", "--config", "{root}/none.json"], "none.json"),
        (
            {"tsconfig.json": "{ broken", "src/a.ts": "export {};\n"},
            ["check", "{root}"],
            "tsconfig.json",
        ),
        ({}, ["rules", "get", "nope"], "unknown rule id"),
        ({}, ["lca", "src/x", "src/y", "--root", "{root}"], "src/x"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    make_project: ProjectFactory, files: dict[str, str] | None, args: list[str], message: str
) -> None:
    root = make_project(files or {"src/a/index.ts": "export {};\n"})
    argv = [a.format(root=root) for a in args]
    code, out, err = run(*argv)
    assert code == 2, (out, err)
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_non_utf8_content_is_a_note_not_a_crash(make_project: ProjectFactory) -> None:
    root = make_project(
        {
            "src/a/index.ts": b"export const a = '\xff';\n",
            "src/a/INTENT.md": DOC,
            "src/a/DETAIL.md": DETAIL,
            "src/b/b.ts": "export {};\n",
        }
    )
    code, out, _ = run("check", str(root), "--no-cache", "-v")
    assert code == 0
    assert "src/a/index.ts: skipped, not valid UTF-8" in out


def test_scan_text_and_json(examples: Path) -> None:
    code, out, _ = run("scan", str(examples), "--no-cache")
    assert code == 0
    assert "auth/ [fractal]" in out and "utils/ [organ]" in out and "math/ [pure-function]" in out
    code, out, _ = run("scan", str(examples), "--format", "json", "--modules", "--no-cache")
    data = json.loads(out)
    assert isinstance(data["duration"], int)  # milliseconds, as the seed's ScanReport
    nodes = data["tree"]["nodes"]
    assert nodes["src/components"]["type"] == "hybrid"
    assert nodes["src/auth"]["hasClaudeMd"] is True and nodes["src/auth"]["organs"] == [
        "src/auth/utils"
    ]
    assert {m["path"] for m in data["modules"]} >= {"src/auth", "src/billing", "src/app"}
    auth = next(m for m in data["modules"] if m["path"] == "src/auth")
    assert auth["exportCount"] == 3


def test_rules_list_get_check(examples: Path) -> None:
    code, out, _ = run("rules", "list", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["total"] == len(RULES) == data["catalogueTotal"]
    assert data["filtered"] is False
    code, out, _ = run("rules", "list", "--category", "dependency", "--format", "json")
    assert {r["id"] for r in json.loads(out)["rules"]} == {
        "circular-dependency",
        "pure-function-isolation",
        "external-import-boundary",
        "unresolved-import",
        "unpublished-package-import",
    }
    narrowed = json.loads(out)
    assert narrowed["filtered"] is True and narrowed["total"] == len(narrowed["rules"]) == 5
    code, out, _ = run("rules", "get", "organ-no-intentmd", "--format", "json")
    detail = json.loads(out)
    assert detail["id"] == "organ-no-claudemd" and detail["examples"]["invalid"]
    code, out, _ = run("rules", "check", "src/orders", "--root", str(examples), "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["path"] == "src/orders"
    assert {v["ruleId"] for v in data["violations"]} == {
        "module-entry-point",
        "intent-document-contract",
        "detail-document-contract",
    }


def test_init_writes_a_config_that_loads(make_project: ProjectFactory) -> None:
    root = make_project(
        {"src/a/index.ts": "export {};\n", "src/a/INTENT.md": DOC, "src/a/DETAIL.md": DETAIL}
    )
    code, _, _ = run("init", str(root))
    assert code == 0 and (root / ".filid/config.json").is_file()
    assert run("init", str(root))[0] == 2
    assert run("check", str(root), "--no-cache")[0] == 0


def test_init_looks_at_the_repository_and_says_what_it_chose(
    make_project: ProjectFactory,
) -> None:
    deep = "import { login } from '../auth/login';\nexport const a = login;\n"
    root = make_project(
        {
            "src/auth/INTENT.md": "# Auth\n",
            "src/auth/index.ts": "export { login } from './login';\n",
            "src/auth/login.ts": "export const login = 1;\n",
            "src/app/index.ts": deep,
            # generated code and an example that break the rules
            "src/generated/api/index.ts": deep.replace("../auth", "../../auth"),
            "examples/basic/index.ts": deep.replace("../auth", "../../src/auth"),
        }
    )
    code, out, _ = run("init", str(root), "--no-progress")
    assert code == 0, out
    assert "FCA documents: 1 INTENT.md" in out
    assert "left out (structure.generatedPaths): src/generated" in out
    assert "(structure.additionalExcludedDirectories: examples): examples" in out
    config = json.loads((root / ".filid/config.json").read_text(encoding="utf-8"))
    # Each choice once, nothing else: every rule stays at its default.
    assert config["rules"] == {}
    assert config["structure"] == {
        "additionalExcludedDirectories": ["examples"],
        "generatedPaths": ["src/generated/**"],
    }
    # Only src/app's deep import remains: the generated and example ones are left out.
    code, out, _ = run("check", str(root), "--no-cache", "--format", "json")
    paths = [v["path"] for v in json.loads(out)["result"]["violations"]]
    assert "src/app/index.ts" in paths
    assert not [p for p in paths if p.startswith(("src/generated", "examples"))]

    # --write-baseline keeps the config and records what remains as known.
    code, out, _ = run("init", str(root), "--write-baseline", "--no-progress")
    assert code == 0 and "exists: kept" in out
    baseline = str(root / ".filid/baseline.json")
    assert run("check", str(root), "--no-cache", "--baseline", baseline)[0] == 0


def test_init_never_leaves_out_a_route_folder_and_leaves_out_scaffold_templates(
    make_project: ProjectFactory,
) -> None:
    root = make_project(
        {
            "package.json": '{"name": "web", "dependencies": {"next": "14.2.0"}}\n',
            # a Next.js route: its name is a URL, the project's own code
            "app/sandbox/page.tsx": "export default function Page() { return null; }\n",
            "tools/sandbox/run.ts": "export const run = 1;\n",
            "packages/create/templates/basic/index.ts": "export {};\n",
        }
    )
    code, out, _ = run("init", str(root), "--no-progress")
    assert code == 0, out
    config = json.loads((root / ".filid/config.json").read_text(encoding="utf-8"))
    assert config["structure"] == {"additionalExcludedDirectories": ["templates"]}
    assert "checked, although named like examples: app/sandbox, tools/sandbox" in out
    assert "route of a file-routing framework: app" in out


def test_color_only_on_a_tty_and_never_with_no_color(examples: Path) -> None:
    script = (
        "import pty, os, sys\n"
        "pid, fd = pty.fork()\n"
        "if pid == 0:\n"
        "    argv = ['-m', 'filid', 'check', sys.argv[1], '--no-cache']\n"
        "    os.execv(sys.executable, [sys.executable, *argv])\n"
        "out = b''\n"
        "while True:\n"
        "    try:\n"
        "        chunk = os.read(fd, 65536)\n"
        "    except OSError:\n"
        "        break\n"
        "    if not chunk:\n"
        "        break\n"
        "    out += chunk\n"
        "os.waitpid(pid, 0)\n"
        "sys.stdout.write(out.decode('utf-8', 'replace'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    coloured = subprocess.run(
        [sys.executable, "-c", script, str(examples)], capture_output=True, text=True, env=env
    ).stdout
    # NO_COLOR forbids colour (SGR sequences); the progress line's erase-line sequence, which
    # a slow parse may show on a terminal, is cursor control and stays allowed.
    sgr = re.compile(r"\x1b\[[0-9;]*m")
    assert sgr.search(coloured)
    plain = subprocess.run(
        [sys.executable, "-c", script, str(examples)],
        capture_output=True,
        text=True,
        env={**env, "NO_COLOR": "1"},
    ).stdout
    assert not sgr.search(plain) and "external-import-boundary" in plain


def test_python_dash_m_runs_the_cli(examples: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "filid", "check", str(examples), "--format", "json", "--no-cache"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert json.loads(done.stdout)["result"]["violations"]


def test_plain_check_imports_no_mcp_sarif_or_pydantic(examples: Path) -> None:
    # Start-up counts on every pre-commit run: heavy libraries load only when a format needs them.
    (examples / ".filid" / "config.json").unlink()
    script = (
        "import sys\n"
        "from filid.cli import main\n"
        "sys.argv = ['filid', 'check', sys.argv[1], '--no-cache', '-q', '--exit-zero']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "names = ('mcp', 'sarif_om', 'pydantic', 'jsonschema')\n"
        "heavy = sorted(m for m in names if m in sys.modules)\n"
        "print('HEAVY', heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(examples)], capture_output=True, text=True, check=True
    )
    assert "HEAVY []" in done.stdout


@pytest.mark.parametrize(
    "command",
    [
        ["drift", "{p}"],
        ["scan", "{p}"],
        ["graph", "{p}"],
        ["lca", "src/app", "src/auth", "--root", "{p}"],
        ["rules", "list"],
    ],
)
def test_every_command_takes_no_progress(examples: Path, command: list[str]) -> None:
    code, _, err = run(*[c.format(p=examples) for c in command], "--no-progress")
    assert code in (0, 1), err
    assert "No such option" not in err


def test_the_progress_line_updates_at_most_ten_times_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    from filid.cli import terminal

    clock = iter([0.0] + [0.6 + i * 0.001 for i in range(2000)])
    monkeypatch.setattr(terminal.time, "monotonic", lambda: next(clock))
    stream = io.StringIO()
    stream.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr(terminal.sys, "stderr", stream)
    bar = terminal.Progress(True)
    for done in range(1, 1001):
        bar(done, 1000)  # 1,000 files parsed within one second
    writes = stream.getvalue().count("\r")
    assert 2 <= writes <= 12
    assert stream.getvalue().endswith("1000/1000 files")
