"""The benchmark harness's edits and scaling verdicts (no tool is run)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


run = _load("run")
gen = _load("generate")


def test_import_edits_add_resolving_imports_that_differ_run_to_run(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    gen.generate(200, root, 2, "barrels")
    target = run.make_target("barrels-200", root, "barrels")
    plan = run.plans(target, ["filid"], sys.executable, tmp_path)["filid-one-file-imports"]
    assert plan is not None and plan.edit is not None and plan.edit_file == target.one_file
    original = (root / target.one_file).read_bytes()
    edits = [plan.edit(original, n) for n in range(3)]
    assert edits[0] != original and edits[0] != edits[1] and edits[0] == edits[2]
    for text in edits[:2]:
        added = text[len(original) :].decode()
        match = re.fullmatch(r"import \{ (\w+) as filidBenchEdit\d \} from '([^']+)';\n", added)
        assert match, added
        name, spec = match.groups()
        imported = (root / target.one_file).parent / (spec + ".ts")
        assert imported.is_file(), spec
        assert re.search(rf"^export \w+ {name}\b", imported.read_text(), re.MULTILINE)


def _results(**medians: float) -> dict[str, object]:
    return {
        tool: run.ToolResult(tool=tool, label=run.TOOL_LABELS[tool], status="ok", median_s=s)
        for tool, s in medians.items()
    }


def test_scaling_checks_one_file_growth_and_its_time_at_the_largest_size(tmp_path: Path) -> None:
    def target(key: str, files: int, layout: str) -> object:
        return run.Target(key, tmp_path, files, "a.ts", None, layout)

    collected = [
        (target("1000", 1000, "monorepo"), _results(**{"filid-one-file": 0.2})),
        (target("50000", 50000, "monorepo"), _results(**{"filid-one-file": 0.28})),
        (
            target("barrels-1000", 1000, "barrels"),
            _results(**{"filid-one-file": 0.2, "filid-one-file-imports": 0.2}),
        ),
        (
            target("barrels-4000", 4000, "barrels"),
            _results(**{"filid-one-file": 0.4, "filid-one-file-imports": 0.25}),
        ),
    ]
    text = run.scaling(collected)
    assert "### Scaling 1000 → 50000" in text and "### Scaling barrels-1000 → barrels-4000" in text
    assert "| one-file: time growth 1000 → 50000 | 1.400 | ≤ 1.5x | ok |" in text
    assert "| one-file at 50000, seconds | 0.280 | ≤ 0.3 s | ok |" in text
    assert (
        "| one-file: time growth barrels-1000 → barrels-4000 (target 1k → 50k) | 2.000 "
        "| ≤ 1.5x | MISSED |"
    ) in text
    assert (
        "| one-file at barrels-4000, seconds (target at 50k) | 0.400 | ≤ 0.3 s | MISSED |" in text
    )
    assert "| one-file, imports edited at barrels-4000, seconds (target at 50k) | 0.250 " in text
    assert "filid check, one file, imports edited" in text


def test_staged_rows_run_the_hook_command_on_a_staged_edit(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    gen.generate(200, root, 2, "monorepo")
    gen.git_commit(root)
    target = run.make_target("200", root, "monorepo")
    plans = run.plans(target, ["filid"], sys.executable, tmp_path)
    for name in ("filid-staged-one-file", "filid-staged-one-file-imports"):
        plan = plans[name]
        assert plan is not None and plan.stage and plan.prime
        assert plan.cmd[:4] == ["filid", "check", "--no-progress", "--staged"]
        assert plan.cmd[-2:] == ["--", target.one_file]
    # The edit reaches the index, and the restored file too (run_tool's clean-up).
    edited = root / target.one_file
    original = edited.read_bytes()
    edited.write_bytes(run.comment_edit(original, 0))
    run.git_add(root, target.one_file)
    staged = subprocess.run(
        ["git", "diff", "--cached", "--name-only"], cwd=root, capture_output=True, text=True
    ).stdout.split()
    assert staged == [target.one_file]
    edited.write_bytes(original)
    run.git_add(root, target.one_file)
    assert subprocess.run(["git", "diff", "--cached", "--quiet"], cwd=root).returncode == 0


def test_the_staged_imports_row_is_held_to_half_a_second_at_50k(tmp_path: Path) -> None:
    collected = [
        (
            run.Target("1000", tmp_path, 1000, "a.ts", None, "monorepo"),
            _results(**{"filid-staged-one-file": 0.1, "filid-staged-one-file-imports": 0.2}),
        ),
        (
            run.Target("50000", tmp_path, 50000, "a.ts", None, "monorepo"),
            _results(**{"filid-staged-one-file": 0.2, "filid-staged-one-file-imports": 0.45}),
        ),
    ]
    text = run.scaling(collected)
    assert "| staged one-file: time growth 1000 → 50000 | 2.000 | ≤ 1.5x | MISSED |" in text
    assert "| staged one-file at 50000, seconds | 0.200 | ≤ 0.3 s | ok |" in text
    assert "| staged one-file, imports edited at 50000, seconds | 0.450 | ≤ 0.5 s | ok |" in text
    assert "staged one-file, imports edited: time growth" not in text


def _appending(name: str, log: Path, code: int = 0) -> object:
    """A plan whose run appends ``name`` to ``log`` and exits with ``code``."""
    script = f"import sys; open({str(log)!r}, 'a').write({name!r} + ' '); sys.exit({code})"
    return run.ToolPlan(
        name,
        [sys.executable, "-c", script],
        {},
        ok=lambda sample: sample.exit_code == 0,
        note=lambda sample: f"exit {sample.exit_code}",
    )


def test_paired_tools_are_measured_in_alternation(tmp_path: Path) -> None:
    # cold and floor form a ratio target: run by run in turn, machine drift reaches both alike
    log = tmp_path / "order.txt"
    target = run.Target("t", tmp_path, 1, "a.ts", None)
    results = run.run_alternating(
        [("filid-cold", _appending("cold", log)), ("parse-floor", _appending("floor", log))],
        target,
        3,
        60.0,
    )
    assert log.read_text().split() == ["cold", "floor"] * 3
    for name in ("filid-cold", "parse-floor"):
        res = results[name]
        assert res.status == "ok" and len(res.seconds) == 3 and res.exit_codes == [0, 0, 0]
        assert res.median_s is not None and res.note == "exit 0"


def test_a_failing_paired_tool_drops_out_and_the_other_keeps_its_runs(tmp_path: Path) -> None:
    log = tmp_path / "order.txt"
    target = run.Target("t", tmp_path, 1, "a.ts", None)
    results = run.run_alternating(
        [("filid-cold", _appending("cold", log, 1)), ("parse-floor", _appending("floor", log))],
        target,
        3,
        60.0,
    )
    assert log.read_text().split() == ["cold", "floor", "floor", "floor"]
    assert results["filid-cold"].status == "error" and results["filid-cold"].median_s is None
    assert results["parse-floor"].status == "ok" and len(results["parse-floor"].seconds) == 3
