"""test-record-case-cap, spec-document-case-cap, spec-fragmentation and spec-contract-link,
with the upstream plugin's own cases (vincent-kk/ogham ``verificationPolicy.spec.ts``,
``verificationAdapter.spec.ts``) as small projects."""

from __future__ import annotations

from collections.abc import Mapping

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.model.violations import Severity, Violation
from tests.conftest import ProjectFactory

CASE = "it('case', () => {});\n"
INTENT = "# F\n## Always do\n- a\n## Ask first\n- b\n## Never do\n- c\n"


def detail(*groups: str) -> str:
    body = "".join(f"### {g} — {g} behaviour\n- observable\n" for g in groups)
    return (
        "# F\n## Requirements\n- r\n## API Contracts\n- c\n## Acceptance Criteria\n"
        f"{body}## Last Updated\n2026-07-26\n"
    )


def feature(*groups: str, **files: str) -> dict[str, str]:
    return {
        "feature/INTENT.md": INTENT,
        "feature/DETAIL.md": detail(*groups),
        "feature/index.ts": "export {};\n",
        **{f"feature/{name.replace('_', '.')}": text for name, text in files.items()},
    }


def spec(cases: int, *groups: str) -> str:
    return "".join(f"// filid:contract {g}\n" for g in groups) + CASE * cases


def run(make_project: ProjectFactory, rule: str, files: Mapping[str, str]) -> list[Violation]:
    root = make_project(dict(files))
    result = evaluate(load_project(root, use_cache=False), rule_ids=[rule])
    return [v for v in result.violations if v.rule_id == rule]


def test_a_spec_document_may_hold_15_cases(make_project: ProjectFactory) -> None:
    files = feature(create_spec_ts=CASE * 15)
    assert run(make_project, "spec-document-case-cap", files) == []


def test_a_spec_document_with_16_cases_is_an_error(make_project: ProjectFactory) -> None:
    found = run(make_project, "spec-document-case-cap", feature(create_spec_ts=CASE * 16))
    assert [(v.path, v.severity) for v in found] == [("feature/create.spec.ts", Severity.ERROR)]
    assert found[0].message == "spec-document has 16 semantic cases; the per-file cap is 15"


def test_16_static_rows_count_as_16_cases(make_project: ProjectFactory) -> None:
    rows = ", ".join(str(i) for i in range(16))
    files = feature(create_spec_ts=f"it.each([{rows}])('row %s', () => {{}});\n")
    assert len(run(make_project, "spec-document-case-cap", files)) == 1


def test_a_test_record_may_hold_32_cases_and_not_33(make_project: ProjectFactory) -> None:
    assert run(make_project, "test-record-case-cap", feature(a_test_ts=CASE * 32)) == []
    found = run(make_project, "test-record-case-cap", feature(a_test_ts=CASE * 33))
    assert [v.message for v in found] == [
        "test-record has 33 semantic cases; the per-file cap is 32"
    ]


def test_there_is_no_total_cap_across_test_records(make_project: ProjectFactory) -> None:
    files = feature(a_test_ts=CASE * 32, b_test_ts=CASE * 32)
    assert run(make_project, "test-record-case-cap", files) == []


def test_an_inexact_count_is_a_warning_that_says_why(make_project: ProjectFactory) -> None:
    files = feature(a_test_ts="it.each(loadRows())('row', () => {});\n")
    found = run(make_project, "test-record-case-cap", files)
    assert [(v.path, v.severity) for v in found] == [("feature/a.test.ts", Severity.WARNING)]
    assert "uses a dynamic table" in found[0].message


def test_a_candidate_without_cases_is_no_verification_record(
    make_project: ProjectFactory,
) -> None:
    impostor = "export const notATest = 1;\n"
    files = feature(impostor_test_ts=impostor + CASE * 0, x_spec_ts=impostor)
    assert run(make_project, "test-record-case-cap", files) == []
    assert run(make_project, "spec-contract-link", {**files, "feature/y.spec.ts": CASE}) == []


def test_the_cap_is_an_option(make_project: ProjectFactory) -> None:
    root = make_project(
        feature(a_test_ts=CASE * 5),
        {"rules": {"test-record-case-cap": {"options": {"maxCases": 4}}}},
    )
    result = evaluate(load_project(root, use_cache=False), rule_ids=["test-record-case-cap"])
    assert [v.path for v in result.violations] == ["feature/a.test.ts"]


def test_specs_linked_to_distinct_declared_groups_pass(make_project: ProjectFactory) -> None:
    files = feature(
        "AC-create",
        "AC-delete",
        create_spec_ts=spec(3, "AC-create"),
        delete_spec_ts=spec(4, "AC-delete"),
    )
    assert run(make_project, "spec-contract-link", files) == []
    assert run(make_project, "spec-fragmentation", files) == []


def test_overlapping_groups_are_fragmentation(make_project: ProjectFactory) -> None:
    files = feature(
        "AC-shared",
        part_one_spec_ts=spec(8, "AC-shared"),
        part_two_spec_ts=spec(8, "AC-shared"),
    )
    found = run(make_project, "spec-fragmentation", files)
    assert [(v.path, v.severity) for v in found] == [("feature/part.two.spec.ts", Severity.ERROR)]
    assert "split across feature/part.one.spec.ts and feature/part.two.spec.ts" in found[0].message
    assert run(make_project, "spec-contract-link", files) == []


def test_a_spec_without_a_link_among_several(make_project: ProjectFactory) -> None:
    files = feature("AC-delete", create_spec_ts=spec(3), delete_spec_ts=spec(4, "AC-delete"))
    found = run(make_project, "spec-contract-link", files)
    assert [(v.path, v.severity) for v in found] == [("feature/create.spec.ts", Severity.ERROR)]


def test_a_link_to_an_undeclared_group(make_project: ProjectFactory) -> None:
    files = feature(
        "AC-create",
        create_spec_ts=spec(3, "AC-create"),
        delete_spec_ts=spec(4, "AC-missing"),
    )
    found = run(make_project, "spec-contract-link", files)
    assert [v.path for v in found] == ["feature/delete.spec.ts"]
    assert found[0].message == 'contract group "AC-missing" is not declared by feature/DETAIL.md'


def test_a_single_spec_needs_no_link(make_project: ProjectFactory) -> None:
    files = feature(create_spec_ts=spec(3), other_test_ts=CASE)
    assert run(make_project, "spec-contract-link", files) == []


def test_specs_belong_to_the_owner_of_their_folder(make_project: ProjectFactory) -> None:
    # Specs under __tests__ (an organ) belong to the fractal that owns it, with its DETAIL.md.
    files = {
        **feature("AC-a", "AC-b"),
        "feature/__tests__/a.spec.ts": spec(1, "AC-a"),
        "feature/__tests__/b.spec.ts": spec(1, "AC-b"),
        "feature/sub/index.ts": "export {};\n",
        "feature/sub/c.spec.ts": spec(1, "AC-a"),
    }
    assert run(make_project, "spec-fragmentation", files) == []
    assert run(make_project, "spec-contract-link", files) == []
