"""End to end: each fixable rule fixes a real fixture project, which still type-checks.

Each fixture under tests/fixtures/fix/<case> has ``before/`` (copied to tmp_path and fixed) and
``after/`` (the exact expected result). After the fix the fixed violations are gone, no new one
appears, a second run changes nothing, and ``tsc --noEmit`` accepts the project.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.fix.apply import apply_plan
from filid.fix.planner import plan_fixes, risk_allows
from filid.fix.run import run_fix
from filid.model.errors import FixError
from filid.model.violations import Risk, Violation

from .conftest import FIXTURES, copy_fixture, tree_of, type_check


@dataclass(frozen=True)
class Case:
    name: str
    rule: str
    risk: Risk


CASES = [
    Case("create-index", "module-entry-point", Risk.SAFE),
    Case("create-index-nodenext", "module-entry-point", Risk.SAFE),
    Case("rewrite-import", "external-import-boundary", Risk.SAFE),
    Case("rename", "naming-convention", Risk.MODERATE),
    Case("split", "index-barrel-pattern", Risk.MODERATE),
    Case("zero-peer", "zero-peer-file", Risk.MODERATE),
]


def _key(violation: Violation) -> tuple[str, str, int]:
    return (violation.rule_id, violation.path, violation.location.line)


def _violations(project: Path, rule: str) -> tuple[Violation, ...]:
    return evaluate(load_project(project, use_cache=False), rule_ids=[rule]).violations


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fix_produces_the_expected_tree_that_type_checks(
    case: Case, tmp_path: Path, tsc: Path
) -> None:
    project = copy_fixture(case.name, tmp_path / "project")
    before = _violations(project, case.rule)
    fixable = [v for v in before if v.fix is not None and risk_allows(v.fix.risk, case.risk)]
    assert fixable, "the fixture must exercise the fix"

    run = run_fix(project, max_risk=case.risk, rule_ids=[case.rule], use_cache=False)

    assert tree_of(project) == tree_of(FIXTURES / case.name / "after")
    after = _violations(project, case.rule)
    # Every fixed violation is gone, and nothing new appeared.
    unfixed = {_key(v) for v in before} - {_key(v) for v in fixable}
    assert {_key(v) for v in after} <= unfixed
    assert run.result.remaining == after
    assert run.result.fixed and all(item.success for item in run.result.fixed)
    assert {_key(item.violation) for item in run.result.fixed} == {_key(v) for v in fixable}
    assert run.changed_files

    second = run_fix(project, max_risk=case.risk, rule_ids=[case.rule], use_cache=False)
    assert second.changed_files == ()
    assert tree_of(project) == tree_of(FIXTURES / case.name / "after")

    type_check(tsc, project)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_diff_writes_nothing_and_applies_to_the_same_result(case: Case, tmp_path: Path) -> None:
    project = copy_fixture(case.name, tmp_path / "project")
    before = tree_of(project)

    run = run_fix(project, max_risk=case.risk, rule_ids=[case.rule], dry_run=True, use_cache=False)

    assert tree_of(project) == before
    assert run.changed_files == ()
    assert run.diff
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not available to apply the diff")
    subprocess.run([git, "apply", "-p1", "-"], input=run.diff, text=True, cwd=project, check=True)
    assert tree_of(project) == tree_of(FIXTURES / case.name / "after")


def test_safe_fixes_do_not_apply_moderate_ones(tmp_path: Path) -> None:
    project = copy_fixture("rename", tmp_path / "project")
    before = tree_of(project)
    run = run_fix(project, max_risk=Risk.SAFE, rule_ids=["naming-convention"], use_cache=False)
    assert run.changed_files == ()
    assert tree_of(project) == before
    assert run.result.remaining and run.result.remaining[0].rule_id == "naming-convention"


def test_a_write_failing_midway_through_a_rename_leaves_every_file_identical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = copy_fixture("rename", tmp_path / "project")
    before = tree_of(project)
    real_replace = os.replace
    calls = {"n": 0}

    def flaky_replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(5, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", flaky_replace)
    with pytest.raises(FixError, match="rolled back"):
        run_fix(project, max_risk=Risk.MODERATE, rule_ids=["naming-convention"], use_cache=False)
    monkeypatch.undo()
    assert tree_of(project) == before
    assert (project / "src/ui/UserCard").is_dir()
    assert not (project / "src/ui/user-card").exists()


def test_a_file_edited_between_plan_and_apply_is_refused(tmp_path: Path) -> None:
    project = copy_fixture("rewrite-import", tmp_path / "project")
    loaded = load_project(project, use_cache=False)
    result = evaluate(loaded, rule_ids=["external-import-boundary"])
    plan = plan_fixes(loaded, result.violations, max_risk=Risk.SAFE)
    assert not plan.is_empty
    app = project / "src/app/app.ts"
    app.write_text(app.read_text() + "// a person was here\n")
    edited = tree_of(project)

    with pytest.raises(FixError) as raised:
        apply_plan(plan)
    assert str(raised.value) == "src/app/app.ts changed since the fix was planned"
    assert tree_of(project) == edited


def test_outside_specifiers_and_symlinks_never_cause_a_write_outside_the_root(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "outside"
    (outside / "shared").mkdir(parents=True)
    (outside / "shared" / "thing.ts").write_text("export const thing = 1;\n")
    project = copy_fixture("zero-peer", tmp_path / "project")
    format_ts = project / "src/cart/format.ts"
    format_ts.write_text("import '../../../outside/shared/thing';\n" + format_ts.read_text())
    (project / "src/cart/linked").symlink_to(outside / "shared", target_is_directory=True)
    outside_before = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}

    run_fix(project, max_risk=Risk.MODERATE, rule_ids=["zero-peer-file"], use_cache=False)

    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == outside_before
    assert sorted(p.name for p in outside.rglob("*")) == ["shared", "thing.ts"]
    moved = (project / "src/cart/format/format.ts").read_text()
    # The specifier that leaves the root is left exactly as written.
    assert moved.startswith("import '../../../outside/shared/thing';\n")


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_unsafe_fixes_of_every_rule_converge_add_nothing_and_type_check(
    case: Case, tmp_path: Path, tsc: Path
) -> None:
    project = copy_fixture(case.name, tmp_path / "project")
    before = evaluate(load_project(project, use_cache=False)).violations

    run = run_fix(project, max_risk=Risk.MODERATE, use_cache=False)

    # Paths move, so compare by rule: no rule gains violations, and every fix that was
    # applied removed its violation.
    def per_rule(violations: tuple[Violation, ...]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for v in violations:
            counts[v.rule_id] = counts.get(v.rule_id, 0) + 1
        return counts

    after_counts = per_rule(run.result.violations)
    before_counts = per_rule(before)
    assert all(after_counts[r] <= before_counts.get(r, 0) for r in after_counts), after_counts
    blocked = {_key(s.violation) for s in run.skipped}
    applied = [i for i in run.result.fixed if _key(i.violation) not in blocked]
    assert applied and all(item.success for item in applied)
    assert run_fix(project, max_risk=Risk.MODERATE, use_cache=False).changed_files == ()
    type_check(tsc, project)
