"""The result snapshot: reused only while nothing changed; subsets equal a fresh evaluation."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import filid.check.project
from filid.check.engine import evaluate
from filid.check.incremental import check_project
from filid.check.project import load_project
from filid.model.report import ValidationResult
from filid.store.location import project_cache_dir
from tests.conftest import EXAMPLES

OLD = 1_600_000_000  # seconds: far outside the racy window


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "examples"
    shutil.copytree(EXAMPLES, root, ignore=shutil.ignore_patterns("cache"))
    for dirpath, _, names in os.walk(root):
        for name in names:
            os.utime(Path(dirpath) / name, (OLD, OLD))
    return root


def comparable(result: ValidationResult) -> tuple[object, ...]:
    return (
        result.violations,
        dict(result.evaluated),
        result.rules_applied,
        result.rules_skipped,
        result.notes,
    )


class PipelineRan(Exception):
    pass


def forbid_pipeline(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise PipelineRan

    monkeypatch.setattr(filid.check.project, "load_project", refuse)


def test_unchanged_project_is_answered_from_the_snapshot(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = check_project(project)
    forbid_pipeline(monkeypatch)
    second = check_project(project)
    assert comparable(second) == comparable(first)
    assert second.violations


@pytest.mark.parametrize(
    "change",
    [
        "edit a file",
        "add a file",
        "delete a file",
        "edit the config",
        "edit a boundary document",
        "add the legacy criteria ledger",
    ],
)
def test_any_change_recomputes(project: Path, change: str, monkeypatch: pytest.MonkeyPatch) -> None:
    check_project(project)
    if change == "edit a file":
        target = project / "src/app/app.ts"
        target.write_text(target.read_text() + "\nexport const later = 1;\n")
    elif change == "add a file":
        (project / "src/billing/extra.ts").write_text("export const e = 1;\n")
    elif change == "delete a file":
        (project / "src/app/routes.ts").unlink()
    elif change == "edit the config":
        (project / ".filid/config.json").write_text('{"version": "2.0"}\n')
    elif change == "add the legacy criteria ledger":
        # A dot path, outside the file universe: the snapshot key must see it.
        (project / ".filid/criteria.md").write_text("# Criteria\n- a claim\n")
    else:
        (project / "src/orders/CLAUDE.md").write_text(
            "# Orders\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"
        )
    forbid_pipeline(monkeypatch)
    with pytest.raises(PipelineRan):
        check_project(project)


def test_files_modified_within_the_racy_window_are_not_trusted(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A file changed right after the snapshot, in the same timestamp tick and with the same
    # size, keeps its stat data: so a file newer than (snapshot - 2 s) is re-read, not trusted.
    target = project / "src/app/app.ts"
    target.touch()
    check_project(project)
    recorded = target.stat()
    text = target.read_text()
    assert "'./routes'" in text
    target.write_text(text.replace("'./routes'", "'./rout/s'"))  # same size, new import
    os.utime(target, ns=(recorded.st_atime_ns, recorded.st_mtime_ns))
    assert (target.stat().st_size, target.stat().st_mtime_ns) == (
        recorded.st_size,
        recorded.st_mtime_ns,
    )
    forbid_pipeline(monkeypatch)
    with pytest.raises(PipelineRan):
        check_project(project)


def test_an_edit_that_leaves_every_parsed_fact_equal_is_answered_without_the_pipeline(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = check_project(project)
    target = project / "src/app/app.ts"
    target.write_text(target.read_text() + "// a comment line, as an edit below the code\n")
    os.utime(target, (OLD + 60, OLD + 60))
    with monkeypatch.context() as patch:
        forbid_pipeline(patch)
        second = check_project(project)
    fresh = evaluate(load_project(project, use_cache=False))
    assert comparable(second) == comparable(fresh) == comparable(first)
    # The re-verified file's new stat data were kept: the next run does not parse it again.
    import filid.parse.files

    def no_parse(*args: object, **kwargs: object) -> None:
        raise PipelineRan

    monkeypatch.setattr(filid.parse.files, "process_file", no_parse)
    forbid_pipeline(monkeypatch)
    assert comparable(check_project(project)) == comparable(second)


def test_a_line_moved_in_a_file_the_result_mentions_recomputes(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = check_project(project)
    target = project / "src/app/app.ts"
    assert any(v.location.file == "src/app/app.ts" for v in first.violations)
    target.write_text("// a comment above the imports moves them\n" + target.read_text())
    os.utime(target, (OLD + 60, OLD + 60))
    with monkeypatch.context() as patch:
        forbid_pipeline(patch)
        with pytest.raises(PipelineRan):
            check_project(project)
    fresh = evaluate(load_project(project, use_cache=False))
    assert comparable(check_project(project)) == comparable(fresh) != comparable(first)


def test_a_line_moved_in_a_file_the_result_does_not_mention_is_answered_without_the_pipeline(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = check_project(project)
    rel = "src/orders/orders.ts"
    assert not any(
        rel in (v.path, v.location.file, *(r.file for r in v.related)) or rel in v.message
        for v in first.violations
    )
    target = project / rel
    target.write_text("// a comment above the imports moves them\n" + target.read_text())
    os.utime(target, (OLD + 60, OLD + 60))
    with monkeypatch.context() as patch:
        forbid_pipeline(patch)
        second = check_project(project)
    fresh = evaluate(load_project(project, use_cache=False))
    assert comparable(second) == comparable(fresh) == comparable(first)
    # A new import in that file is no longer the same shape: computed again.
    target.write_text("import { charge } from '../billing/billing';\n" + target.read_text())
    os.utime(target, (OLD + 120, OLD + 120))
    forbid_pipeline(monkeypatch)
    with pytest.raises(PipelineRan):
        check_project(project)


def test_rule_and_file_subsets_equal_a_fresh_evaluation(project: Path) -> None:
    check_project(project)
    files = [str(project / "src/app/app.ts"), str(project / "src/orders/orders.ts")]
    for rule_ids, scoped in ((["external-import-boundary", "max-depth"], None), (None, files)):
        cached = check_project(project, rule_ids=rule_ids, files=scoped)
        fresh = evaluate(load_project(project, use_cache=False), rule_ids=rule_ids, files=scoped)
        assert comparable(cached) == comparable(fresh)


def _snapshot_file(project: Path) -> Path:
    directory = project_cache_dir(project)
    assert directory is not None
    return directory / "result-snapshot.marshal"


def test_corrupt_snapshot_is_ignored(project: Path) -> None:
    first = check_project(project)
    _snapshot_file(project).write_bytes(b"\x00garbage")
    assert comparable(check_project(project)) == comparable(first)


def test_no_cache_neither_reads_nor_writes_a_snapshot(project: Path) -> None:
    check_project(project, use_cache=False)
    assert not _snapshot_file(project).exists()
    assert not (project / ".filid").exists() or not (project / ".filid/cache").exists()


class SeedSpy:
    """Records whether a computed run's resolver was seeded with stored resolutions."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from filid.graph.resolve import Resolver

        self.seeded: list[bool] = []
        original = Resolver.seed

        def seed(resolver: Resolver, data: object) -> bool:
            self.seeded.append(original(resolver, data))
            return self.seeded[-1]

        monkeypatch.setattr(Resolver, "seed", seed)


def test_a_computed_run_after_source_edits_reuses_the_resolutions_and_equals_a_fresh_one(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = check_project(project)
    spy = SeedSpy(monkeypatch)
    target = project / "src/orders/orders.ts"
    # A deep import past billing's barrel: a new external-import-boundary finding.
    target.write_text("import { charge } from '../billing/billing';\n" + target.read_text())
    os.utime(target, (OLD + 60, OLD + 60))
    cached = check_project(project)
    assert spy.seeded == [True]
    fresh = evaluate(load_project(project, use_cache=False))
    assert comparable(cached) == comparable(fresh) != comparable(first)
    assert any(v.location.file == "src/orders/orders.ts" for v in cached.violations)


def test_a_changed_tsconfig_resolves_everything_again(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_project(project)
    spy = SeedSpy(monkeypatch)
    tsconfig = project / "tsconfig.json"
    tsconfig.write_text(tsconfig.read_text().replace('"@/*": ["src/*"]', '"@/*": ["src/app/*"]'))
    os.utime(tsconfig, (OLD + 60, OLD + 60))
    cached = check_project(project)
    assert spy.seeded == []
    fresh = evaluate(load_project(project, use_cache=False))
    assert comparable(cached) == comparable(fresh)


def test_files_the_fix_planner_read_or_could_spell_a_searched_name_in_recompute(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the refused-fix marks depended on, as the CLI's annotate hook records it: a file
    # whose text decided a refusal, and a folder name searched for in every file's text.
    import dataclasses

    def annotate(_: object, result: ValidationResult) -> ValidationResult:
        return dataclasses.replace(
            result,
            fix_inputs=frozenset({"src/orders/orders.ts"}),
            fix_needles=frozenset({"reports/charts"}),
        )

    check_project(project, annotate=annotate)

    def edit(rel: str, text: str, when: int) -> None:
        target = project / rel
        target.write_text(target.read_text() + text)
        os.utime(target, (when, when))

    with monkeypatch.context() as patch:
        forbid_pipeline(patch)
        edit("src/math/round.ts", "// rounding stays as it is\n", OLD + 60)
        check_project(project, annotate=annotate)  # neither read nor spelling: the cutoff
        edit("src/orders/orders.ts", "// a comment\n", OLD + 120)
        with pytest.raises(PipelineRan):
            check_project(project, annotate=annotate)
    check_project(project, annotate=annotate)
    with monkeypatch.context() as patch:
        forbid_pipeline(patch)
        edit("src/math/round.ts", "// see 'reports/charts'\n", OLD + 180)
        with pytest.raises(PipelineRan):
            check_project(project, annotate=annotate)


def test_a_vitest_typecheck_include_edit_is_never_answered_from_the_snapshot(
    project: Path,
) -> None:
    # The same facts (one string literal changed), yet a different set of test files.
    config = project / "vitest.config.ts"
    cycle = project / "src/auth/check.ts"
    config.write_text("export default { test: { typecheck: { include: ['none/**'] } } };\n")
    cycle.write_text("import { start } from '../app';\nexport const c = start;\n")
    for path in (config, cycle):
        os.utime(path, (OLD, OLD))
    first = check_project(project)
    config.write_text("export default { test: { typecheck: { include: ['src/**/check.ts'] } } };\n")
    os.utime(config, (OLD + 10, OLD + 10))
    second = check_project(project)
    fresh = evaluate(load_project(project, use_cache=False))
    assert comparable(second) == comparable(fresh)
    assert comparable(second) != comparable(first)


def test_a_result_stored_by_other_filid_code_is_not_reused(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An editable or git install keeps the version string while the rules change: the stored
    # result of the old code must not answer for the new one.
    import filid.check.snapshot

    check_project(project)
    monkeypatch.setattr(filid.check.snapshot, "code_identity", lambda: "other-code")
    forbid_pipeline(monkeypatch)
    with pytest.raises(PipelineRan):
        check_project(project)


def test_the_code_identity_follows_the_package_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import filid
    from filid.store.identity import code_identity

    package = tmp_path / "filid"
    (package / "rules").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    rule = package / "rules" / "max_depth.py"
    rule.write_text("LIMIT = 10\n")
    monkeypatch.setattr(filid, "__file__", str(package / "__init__.py"))
    compute = code_identity.__wrapped__
    first = compute()
    assert compute() == first
    rule.write_text("LIMIT = 100\n")
    assert compute() != first


def test_a_result_stored_without_the_completion_never_answers_one_that_wants_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The Claude Code SessionStart hook checks without the CLI's refused-fix marks; the next
    # `filid check` must not be answered by that unmarked result.
    check_project(project)
    forbid_pipeline(monkeypatch)
    with pytest.raises(PipelineRan):
        check_project(project, annotate=lambda project, result: result)


@pytest.mark.parametrize(
    "damage",
    [
        {"sizes": b"\0" * 8},  # stat data for one file, the state lists more
        {"mtimes": b"\0" * 7},  # not whole 64-bit integers
        {"digests": "x"},  # one digest for many files
        {"files": ["src/app/app.ts"]},  # the list of earlier formats
        {"result": {"violations": []}},  # a result not marshalled apart
        {"result": b"\xff\xff"},  # a result that does not decode
    ],
)
def test_a_signed_state_of_another_shape_is_never_used(
    project: Path, monkeypatch: pytest.MonkeyPatch, damage: dict[str, object]
) -> None:
    # Sealed by this user's filid (a state from another format or a bug): the snapshot
    # checks its own shape, and a state it cannot use costs a computed run, never a result.
    from filid.store.sealed import read_sealed, write_sealed

    first = check_project(project)
    data = read_sealed(_snapshot_file(project))
    assert isinstance(data, dict) and isinstance(data["result"], bytes)
    write_sealed(_snapshot_file(project), {**data, **damage})
    ran: list[bool] = []
    original = filid.check.project.load_project

    def spy(*args: object, **kwargs: object) -> object:
        ran.append(True)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(filid.check.project, "load_project", spy)
    assert comparable(check_project(project)) == comparable(first)
    assert ran == [True]
