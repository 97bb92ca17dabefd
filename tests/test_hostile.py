"""Hostile repositories: each attack from a pull request's content, and its safe outcome.

Every test builds the hostile repository in a temporary directory and runs filid as the
GitHub Action or a developer would (the CLI as a subprocess, or the engine the MCP server
calls). The GitHub Action's own scripts are attacked in tests/packaging/test_action_hostile.py
and the pre-commit option injection in tests/packaging/test_pre_commit.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.model.errors import ConfigError
from filid.model.report import ValidationResult
from filid.model.violations import Location, Severity, Violation
from filid.parse.cache import cache_file
from filid.report.junit import render_junit
from filid.report.sarif import render_sarif
from filid.store.location import project_cache_dir
from tests.conftest import ProjectFactory, write_files

FILID = [sys.executable, "-m", "filid"]
DEEP = {
    "src/auth/index.ts": "export { login } from './login';\n",
    "src/auth/login.ts": "export const login = 1;\n",
    "src/app/index.ts": "import { login } from '../auth/login';\nexport { login };\n",
}


def run_filid(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*FILID, *args], cwd=cwd, capture_output=True, text=True, check=False)


@pytest.mark.parametrize(
    "option", ["--output", "--sarif", "--junit", "--write-baseline", "--github-summary"]
)
def test_outputs_never_follow_a_committed_symlink(
    make_project: ProjectFactory, tmp_path: Path, option: str
) -> None:
    root = make_project(DEEP)
    victim = tmp_path / "next-step.sh"
    victim.write_text("echo original\n", encoding="utf-8")
    (root / "report.out").symlink_to(victim)
    done = run_filid("check", ".", option, "report.out", "--no-cache", cwd=root)
    assert done.returncode == 2, done.stderr
    assert "symbolic link" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert victim.read_text(encoding="utf-8") == "echo original\n"
    assert (root / "report.out").is_symlink()


def test_a_cache_committed_in_the_repository_is_never_read(make_project: ProjectFactory) -> None:
    # The old location of the parse cache: a forged cache there says "no imports".
    root = make_project(DEEP, declared=True)
    forged = root / ".filid" / "cache"
    forged.mkdir(parents=True)
    (forged / "result-snapshot.marshal").write_bytes(b"\xff" * 146)
    (forged / "parse-forged.marshal").write_bytes(b"\x00" * 6)
    done = run_filid("check", ".", "--format", "json", cwd=root)
    assert done.returncode == 1, done.stderr
    rules = {v["ruleId"] for v in json.loads(done.stdout)["result"]["violations"]}
    assert "external-import-boundary" in rules


def test_a_forged_or_corrupt_user_cache_is_ignored(make_project: ProjectFactory) -> None:
    root = make_project(DEEP)
    first = evaluate(load_project(root))
    directory = project_cache_dir(root)
    assert directory is not None
    target = cache_file(directory)
    assert target.is_file()
    # A cache that says "no imports", with a valid shape but no valid signature.
    forged = {"checked_ns": 10**20, "entries": {}}
    import marshal  # the format filid keeps inside the sealed envelope

    for payload in (marshal.dumps(forged), b"\x00" * 6, b"", target.read_bytes()[:-1] + b"x"):
        target.write_bytes(payload)
        again = evaluate(load_project(root))
        assert [v.fingerprint for v in again.violations] == [
            v.fingerprint for v in first.violations
        ]
    target.unlink()
    target.symlink_to("/dev/zero")
    assert [v.fingerprint for v in evaluate(load_project(root)).violations] == [
        v.fingerprint for v in first.violations
    ]


def test_no_run_writes_into_the_project(make_project: ProjectFactory) -> None:
    # An import that resolves to nothing: an error in any project (SPEC §0).
    root = make_project(
        {**DEEP, "src/app/broken.ts": "import { g } from './gone';\nexport { g };\n"}
    )
    (root / ".filid").mkdir()
    (root / ".filid" / "cache").symlink_to(root.parent / "elsewhere")
    done = run_filid("check", ".", cwd=root)
    assert done.returncode == 1, done.stderr
    assert not (root.parent / "elsewhere").exists()
    assert sorted(p.name for p in (root / ".filid").iterdir()) == ["cache"]


def test_a_tracked_file_that_is_a_symlink_is_not_read(
    make_project: ProjectFactory, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.ts"
    secret.write_text("import { token } from './SECRET-CONTENT';\n", encoding="utf-8")
    root = make_project({**DEEP})
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    # Tracked as a regular file, then replaced by a link in the work tree.
    (root / "src/auth/login.ts").unlink()
    (root / "src/auth/login.ts").symlink_to(secret)
    project = load_project(root, use_cache=False)
    assert "src/auth/login.ts" not in project.facts
    everything = json.dumps([n for n in project.notes]) + repr(project.file_graph)
    assert "SECRET-CONTENT" not in everything


def test_a_symlinked_config_is_refused_without_showing_its_target(
    make_project: ProjectFactory, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text('{"private": "SECRET-CONTENT"}', encoding="utf-8")
    root = make_project(DEEP)
    (root / ".filid").mkdir()
    (root / ".filid" / "config.json").symlink_to(outside)
    with pytest.raises(ConfigError) as info:
        load_project(root, use_cache=False)
    assert "SECRET-CONTENT" not in str(info.value)
    assert "symbolic link" in str(info.value)


def test_messages_from_repository_paths_stay_one_escaped_line(
    make_project: ProjectFactory,
) -> None:
    name = "pkg\n::add-mask::x\n::error::forged \x1b[31m\u202e"
    # the broken tsconfig governs a source file beside it: the check stops (a config nothing
    # reads would be a note, `graph.unread_configs`)
    files = {f"{name}/tsconfig.json": "{ broken", f"{name}/a.ts": "export {};\n"}
    root = make_project({**files, "src/a/index.ts": "export {};\n"})
    done = run_filid("check", ".", cwd=root)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("filid: ")
    assert "\x1b" not in done.stderr and "\u202e" not in done.stderr
    assert "\\x1b" in lines[0] and "\\u202e" in lines[0]


def test_text_output_shows_control_and_bidi_characters(make_project: ProjectFactory) -> None:
    root = make_project(
        {
            "src/auth/index.ts": "export { login } from './login';\n",
            "src/auth/login.ts": "export const login = 1;\n",
            "src/a\u202egpj.ts/index.ts": "import { login } from '../auth/login';\n"
            "export { login };\n",
        },
        declared=True,
    )
    done = run_filid("check", ".", "--no-cache", cwd=root)
    assert done.returncode == 1
    assert "\u202e" not in done.stdout
    assert "a\\u202egpj.ts" in done.stdout


def test_recursion_bombs_end_in_a_clear_answer(make_project: ProjectFactory) -> None:
    files = {f"src/a/m{i}.ts": f"export * from './m{i + 1}';\n" for i in range(1500)}
    files["src/a/m1500.ts"] = "export const x = 1;\n"
    files["src/a/index.ts"] = "export * from './m0';\n"
    files["src/b/index.ts"] = "import { x } from '../a/m7';\nexport const y = x;\n"
    files.update(
        {f"cfg/c{i}.json": json.dumps({"extends": f"./c{i + 1}.json"}) for i in range(1000)}
    )
    files["cfg/c1000.json"] = '{"compilerOptions": {}}'
    files["tsconfig.json"] = '{"extends": "./cfg/c0.json"}'
    root = make_project(files, declared=True)
    done = run_filid("check", ".", "--no-cache", "--format", "json", cwd=root)
    assert done.returncode == 1, done.stderr
    rules = {v["ruleId"] for v in json.loads(done.stdout)["result"]["violations"]}
    assert "external-import-boundary" in rules

    deep = "[" * 100_000 + "]" * 100_000
    for config in (".filid/config.json", "baseline.json"):
        bomb = make_project({**DEEP, config: deep})
        args = ["--baseline", "baseline.json"] if config == "baseline.json" else []
        done = run_filid("check", ".", "--no-cache", *args, cwd=bomb)
        assert done.returncode == 2, done.stderr
        assert config in done.stderr and "deeply" in done.stderr


def _violations(count: int) -> tuple[Violation, ...]:
    return tuple(
        Violation(
            rule_id="zero-peer-file",
            severity=Severity.ERROR if i % 10 == 0 else Severity.WARNING,
            message=f"peer {i}",
            path=f"src/m/p{i:06d}.ts",
            location=Location(file=f"src/m/p{i:06d}.ts"),
            node="src/m",
            fingerprint=f"fp{i}",
        )
        for i in range(count)
    )


def test_sarif_and_junit_are_capped_keeping_the_most_severe(tmp_path: Path) -> None:
    result = ValidationResult(
        root=tmp_path,
        scope=".",
        violations=_violations(300),
        evaluated={"zero-peer-file": ("src/m",)},
        rules_applied=("zero-peer-file",),
        rules_skipped=(),
        config_path=None,
        timestamp="2026-01-01T00:00:00Z",
    )
    log = json.loads(render_sarif(result, (), tool_version="0", max_results=50))
    run = log["runs"][0]
    assert len(run["results"]) == 50
    assert run["properties"]["filid/truncated"] == {"shown": 50, "total": 300}
    # every one of the 30 errors is kept, then the first 20 warnings, in report order
    assert sum(r["level"] == "error" for r in run["results"]) == 30
    assert run["invocations"][0]["toolExecutionNotifications"]
    junit = render_junit(result, (), max_failures=40)
    assert junit.count("<failure") == 40
    assert "260 of 300 violations left out" in junit


def test_stale_cache_differential_same_size_same_tick_rewrites(
    make_project: ProjectFactory,
) -> None:
    """50 random edits, among them same-size rewrites that keep the file's mtime (a rewrite
    within one timestamp tick of the previous edit, which the previous run read): after each,
    the cached run equals a --no-cache run."""
    import random

    rng = random.Random(13)
    modules = [f"m{i}" for i in range(6)]
    files = {f"src/{m}/index.ts": f"export const {m} = 1;\n" for m in modules}
    files.update({f"src/{m}/deep.ts": "export const d = 1;\n" for m in modules})
    root = make_project(files)
    last: Path | None = None
    kinds = []
    for step in range(50):
        source, target = rng.sample(modules, 2)
        kind = rng.choice(["deep", "entry", "same-size"]) if last else "deep"
        if kind == "same-size" and last is not None:
            before = os.stat(last)
            text = last.read_text(encoding="utf-8")
            old = text.split("'../", 1)[1][:2]
            new = rng.choice([m for m in modules if m != old])
            last.write_text(text.replace(f"'../{old}/", f"'../{new}/"), encoding="utf-8")
            os.utime(last, ns=(before.st_atime_ns, before.st_mtime_ns))
            assert os.stat(last).st_size == before.st_size
            # Only right after a real edit is an unchanged mtime plausible (the same tick);
            # an mtime set back to seconds ago is a forgery no stat-based cache can see.
            last = None
        else:
            last = root / f"src/{source}/index.ts"
            spec = f"../{target}/deep" if kind == "deep" else f"../{target}/index"
            last.write_text(
                f"import {{ d }} from '{spec}';\nexport const {source} = d;\n", encoding="utf-8"
            )
        kinds.append(kind)
        cached = run_filid("check", ".", "--format", "json", cwd=root)
        fresh = run_filid("check", ".", "--format", "json", "--no-cache", cwd=root)
        strip = lambda text: {k: v for k, v in json.loads(text).items() if k != "timestamp"}  # noqa: E731
        assert strip(cached.stdout) == strip(fresh.stdout), (step, kind)
    assert kinds.count("same-size") >= 8


def test_the_racy_window_starts_when_the_files_were_stat_ed(tmp_path: Path) -> None:
    from filid.parse import parse_files
    from filid.parse.cache import load_cache

    write_files(tmp_path, {"src/a.ts": "export const a = 1;\n"})
    cache = tmp_path / "cache"
    started = time.time_ns()
    parse_files(tmp_path, ["src/a.ts"], cache_dir=cache)
    loaded = load_cache(cache)
    assert started <= loaded.checked_ns <= time.time_ns()
    entry = loaded.entries["src/a.ts"]
    # A file modified within two seconds before the stat is never trusted by stat alone,
    # however long ago the cache was written.
    assert not loaded.is_fresh(entry, entry.mtime_ns, entry.size)


def test_cache_reader_fuzz_finds_no_crash() -> None:
    """A short run of benchmarks/fuzz_cache.py (the README's figures come from a longer one)."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "fuzz_cache.py"
    done = subprocess.run(
        [sys.executable, str(script), "--seconds", "3", "--seed", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no crash" in done.stdout
