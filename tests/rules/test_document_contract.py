"""intent-document-contract, detail-document-contract and legacy-criteria-ledger, with the
upstream plugin's own test cases (vincent-kk/ogham ``documentValidator.test.ts``,
``documentValidatorDerivable.test.ts``, ``collectDocumentEvidence.test.ts``,
``legacyCriteriaLedger.spec.ts``) as small projects."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.model.violations import Severity, Violation
from tests.conftest import ProjectFactory

BOUNDARIES = "\n".join(
    [
        "## Boundaries",
        "### Always do",
        "- Test",
        "### Ask first",
        "- Review",
        "### Never do",
        "- Skip tests",
    ]
)
DETAIL = "\n".join(
    [
        "# Spec",
        "## Requirements",
        "- Feature A",
        "## API Contracts",
        "- `feature(): void`",
        "## Acceptance Criteria",
        "### AC-feature — Feature behavior",
        "- The feature is observable.",
        "## Last Updated",
        "2026-07-26",
    ]
)
INDEX = {"mod/index.ts": "export {};\n"}


def run(
    make_project: ProjectFactory,
    rule: str,
    files: Mapping[str, str],
    config: object | None = None,
) -> list[Violation]:
    root = make_project(dict(files), config)
    result = evaluate(load_project(root, use_cache=False), rule_ids=[rule])
    return [v for v in result.violations if v.rule_id == rule]


def intent(make_project: ProjectFactory, text: str, **more: str) -> list[Violation]:
    files = {"mod/INTENT.md": text, "mod/DETAIL.md": DETAIL, **INDEX, **more}
    return run(make_project, "intent-document-contract", files)


# --- intent-document-contract -------------------------------------------------------------


def test_a_valid_intent_document_passes(make_project: ProjectFactory) -> None:
    assert intent(make_project, "# Module\n" + BOUNDARIES) == []


def test_english_headings_with_other_language_content_pass(make_project: ProjectFactory) -> None:
    text = (
        "# 인증 모듈\n## Boundaries\n### Always do\n- 검증\n"
        "### Ask first\n- 변경\n### Never do\n- 평문"
    )
    assert intent(make_project, text) == []


def test_exactly_50_lines_pass_and_51_fail_as_an_error(make_project: ProjectFactory) -> None:
    head = BOUNDARIES + "\n"
    filler = 50 - head.count("\n")
    assert intent(make_project, head + "\n".join(f"Line {i}" for i in range(filler))) == []
    found = intent(make_project, head + "\n".join(f"Line {i}" for i in range(filler + 1)))
    assert [(v.severity, "51 lines" in v.message) for v in found] == [(Severity.ERROR, True)]


def test_missing_boundaries_are_one_warning_naming_them(make_project: ProjectFactory) -> None:
    found = intent(make_project, "# My Module\nSome description\n")
    assert len(found) == 1
    assert found[0].severity is Severity.WARNING
    assert "Always do, Ask first, Never do" in found[0].message
    assert found[0].location.file == "mod/INTENT.md"


def test_a_fractal_without_intent_document_is_an_error(make_project: ProjectFactory) -> None:
    found = run(make_project, "intent-document-contract", {"mod/DETAIL.md": DETAIL, **INDEX})
    assert [(v.path, v.severity) for v in found] == [("mod", Severity.ERROR)]
    assert found[0].message == "INTENT.md is required for fractal node mod"


def test_organs_and_undeclared_folders_need_no_intent_document(
    make_project: ProjectFactory,
) -> None:
    files = {"mod/utils/x.ts": "export const x = 1;\n", "lib/y.ts": "export const y = 1;\n"}
    assert run(make_project, "intent-document-contract", files) == []


def test_three_path_tokens_in_one_section_are_an_inventory(make_project: ProjectFactory) -> None:
    text = "\n".join(
        [
            "# Module",
            "## Structure",
            "| Path | Role |",
            "| --- | --- |",
            "| `src/` | source |",
            "| `skills/` | workflows |",
            "| `hooks/` | mappings |",
            BOUNDARIES,
        ]
    )
    found = intent(make_project, text)
    assert len(found) == 1
    assert found[0].severity is Severity.WARNING
    assert '"Structure" lists 3 path tokens' in found[0].message
    assert found[0].location.line == 2


@pytest.mark.parametrize(
    "section",
    [
        "- `src/index.ts` is the entry; `src/core.ts` implements it.",
        "```md\n- `a/` x\n- `b/` y\n- `c/` z\n```",
        "- `**/src/hooks/**` and `packages/*` are globs; `@ogham/cross-platform` is a package.",
        "- `version.ts`, `config.json`, `styles.css` and `main.py` are generated.",
        "- `node:fs/promises`, `https://example.com/a`, `plugins/<name>/INTENT.md` and "
        "`git diff a/b` are not paths.",
        "- `docs/a/` and `docs/a` and `utils/x.md` are two tokens.",
    ],
)
def test_what_is_not_an_inventory(make_project: ProjectFactory, section: str) -> None:
    assert intent(make_project, f"# Module\n## Conventions\n{section}\n{BOUNDARIES}") == []


def test_paths_of_any_ecosystem_count(make_project: ProjectFactory) -> None:
    text = (
        f"# Module\n## Structure\n- `src/models.py`, `src/views.py` and `migrations/`.\n"
        f"{BOUNDARIES}"
    )
    assert len(intent(make_project, text)) == 1


def test_the_preamble_is_a_section_too(make_project: ProjectFactory) -> None:
    text = f"# Module\n`a/x.md`, `b/y.md`, `c/z.md`.\n## Purpose\np\n{BOUNDARIES}"
    found = intent(make_project, text)
    assert [v.message for v in found] == [
        "section the preamble lists 3 path tokens: a derivable inventory"
    ]


ORGANS = {
    f"mod/{name}/x.ts": "export const x = 1;\n" for name in ("components", "utils", "hooks", "lib")
}


def test_a_section_naming_half_the_children_is_a_listing(make_project: ProjectFactory) -> None:
    text = f"# app\n## Conventions\n- `components/` and `utils/` do the work.\n{BOUNDARIES}"
    found = intent(make_project, text, **ORGANS)
    assert [v.message for v in found] == [
        'Section "Conventions" names 2 of this node\'s 4 children: a directory listing'
    ]
    assert found[0].severity is Severity.WARNING


def test_a_listing_replaces_the_inventory_finding_of_its_section(
    make_project: ProjectFactory,
) -> None:
    text = (
        f"# app\n## Conventions\n- `components/`, `utils/` and `hooks/` do the work.\n{BOUNDARIES}"
    )
    organs = {**ORGANS, "mod/styles/x.ts": "export const x = 1;\n"}
    found = intent(make_project, text, **organs)
    assert [v.message.split(":")[0] for v in found] == [
        'Section "Conventions" names 3 of this node\'s 5 children'
    ]


def test_other_sections_keep_their_inventory_finding(make_project: ProjectFactory) -> None:
    text = (
        "# app\n## Conventions\n- `components/` and `utils/` do the work.\n"
        f"## Rules\n- `docs/a.md`, `docs/b.md` and `docs/c.md` bind.\n{BOUNDARIES}"
    )
    found = intent(make_project, text, **ORGANS)
    assert sorted(v.message.split(" ")[1] for v in found) == ['"Conventions"', '"Rules"']


def test_children_are_what_the_fractal_owns_through_its_organs(
    make_project: ProjectFactory,
) -> None:
    # helpers/fold is a fractal inside an organ: upstream counts it among the owner's children.
    files = {
        "mod/helpers/fold/index.ts": "export {};\n",
        "mod/operations/run.ts": "export const run = 1;\n",
        "mod/types/types.ts": "export type T = 1;\n",
    }
    text = f"# m\n## Structure\n- `helpers/`, `operations/`\n{BOUNDARIES}"
    found = intent(make_project, text, **files)
    assert [v.message.split(":")[0] for v in found if v.path == "mod"] == [
        'Section "Structure" names 2 of this node\'s 4 children'
    ]


def test_a_legacy_claude_md_is_held_to_length_and_headings_only(
    make_project: ProjectFactory,
) -> None:
    text = f"# Module\n## Structure\n- `a/x.md`, `b/y.md`, `c/z.md`\n{BOUNDARIES}\n"
    files = {"mod/CLAUDE.md": text, "mod/x.ts": "export const x = 1;\n"}
    assert run(make_project, "intent-document-contract", files) == []


def test_config_severity_replaces_every_finding_severity(make_project: ProjectFactory) -> None:
    config = {"rules": {"intent-document-contract": {"severity": "info"}}}
    files = {"mod/INTENT.md": "# M\n", "mod/DETAIL.md": DETAIL, **INDEX, "b/index.ts": ""}
    found = run(make_project, "intent-document-contract", files, config)
    assert {v.path for v in found} == {"mod", "b"}
    assert {v.severity for v in found} == {Severity.INFO}


# --- detail-document-contract -------------------------------------------------------------


def detail(make_project: ProjectFactory, text: str) -> list[Violation]:
    files = {"mod/INTENT.md": "# M\n" + BOUNDARIES, "mod/DETAIL.md": text, **INDEX}
    return run(make_project, "detail-document-contract", files)


def test_a_valid_detail_document_passes(make_project: ProjectFactory) -> None:
    assert detail(make_project, DETAIL) == []


def test_a_fractal_without_detail_document_is_an_error(make_project: ProjectFactory) -> None:
    files = {"mod/INTENT.md": "# M\n" + BOUNDARIES, **INDEX}
    found = run(make_project, "detail-document-contract", files)
    assert [(v.path, v.severity, v.message) for v in found] == [
        ("mod", Severity.ERROR, "DETAIL.md is required for fractal node mod")
    ]


def test_missing_sections_are_each_an_error(make_project: ProjectFactory) -> None:
    found = detail(make_project, "# Spec\n## Requirements\n- Feature A\n")
    assert [v.message for v in found] == [
        'DETAIL.md is missing required section "## API Contracts"',
        'DETAIL.md is missing required section "## Acceptance Criteria"',
        'DETAIL.md is missing required section "## Last Updated"',
    ]
    assert {v.severity for v in found} == {Severity.ERROR}


def test_acceptance_criteria_need_one_group(make_project: ProjectFactory) -> None:
    found = detail(make_project, DETAIL.replace("### AC-feature — Feature behavior\n", ""))
    assert [v.message for v in found] == ["DETAIL.md must declare at least one acceptance group"]
    assert found[0].location.line == 6


def test_duplicate_group_ids_are_an_error(make_project: ProjectFactory) -> None:
    text = DETAIL.replace(
        "### AC-feature — Feature behavior\n",
        "### AC-feature — First behavior\n- a\n### AC-feature — Second behavior\n",
    )
    found = detail(make_project, text)
    assert [v.message for v in found] == ['duplicate acceptance group id "AC-feature"']


def test_a_group_heading_must_have_an_id_and_a_title(make_project: ProjectFactory) -> None:
    found = detail(make_project, DETAIL.replace("### AC-feature — Feature behavior", "### Feature"))
    assert sorted(v.message.split(";")[0] for v in found) == [
        "DETAIL.md must declare at least one acceptance group",
        "invalid acceptance group heading at line 7",
    ]


def _exemption(reason: str) -> str:
    return "\n".join(
        [
            "## Organ Exemptions",
            "",
            "### shared — hook bundle isolation",
            "",
            "- **Consumers**: `**/src/hooks/**`",
            "- **Direct import**: allowed",
            f"- **Reason**: {reason}",
        ]
    )


def test_an_exemption_with_a_reason_passes(make_project: ProjectFactory) -> None:
    text = DETAIL + "\n" + _exemption("The barrel drags every re-export into the bundle.")
    assert detail(make_project, text) == []


def test_an_exemption_without_a_reason_is_an_unmet_contract(make_project: ProjectFactory) -> None:
    found = detail(make_project, DETAIL + "\n" + _exemption("   "))
    assert len(found) == 1
    assert found[0].severity is Severity.ERROR
    assert "has no reason" in found[0].message
    assert found[0].location.line == DETAIL.count("\n") + 4


def test_a_legacy_claude_md_module_is_not_asked_for_a_detail_document(
    make_project: ProjectFactory,
) -> None:
    files = {"pkg/CLAUDE.md": "# P\n" + BOUNDARIES, "pkg/x.ts": "export const x = 1;\n"}
    assert run(make_project, "detail-document-contract", files) == []
    # ... even with an index (the create-index fix adds one): the legacy layout is accepted.
    files["pkg/index.ts"] = "export {};\n"
    assert run(make_project, "detail-document-contract", files) == []
    # An INTENT.md moves it to the 1.0 layout, which has a DETAIL.md.
    files["pkg/INTENT.md"] = "# P\n" + BOUNDARIES
    assert [v.path for v in run(make_project, "detail-document-contract", files)] == ["pkg"]


# --- legacy-criteria-ledger ---------------------------------------------------------------


def test_no_ledger_no_finding(make_project: ProjectFactory) -> None:
    files = {"INTENT.md": "# r\n" + BOUNDARIES, "DETAIL.md": DETAIL}
    assert run(make_project, "legacy-criteria-ledger", files) == []


def test_a_legacy_ledger_is_one_warning_pointing_at_detail(make_project: ProjectFactory) -> None:
    files = {
        "INTENT.md": "# r\n" + BOUNDARIES,
        "DETAIL.md": DETAIL,
        ".filid/criteria.md": "# Legacy criteria\n\n- preserve this claim\n",
    }
    found = run(make_project, "legacy-criteria-ledger", files)
    assert [(v.path, v.severity, v.location.file) for v in found] == [
        (".filid/criteria.md", Severity.WARNING, ".filid/criteria.md")
    ]
    assert found[0].suggestion is not None and "DETAIL.md" in found[0].suggestion
