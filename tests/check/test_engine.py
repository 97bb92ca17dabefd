"""The engine: config overrides (enabled, severity, exempt, options), scoping, fingerprints."""

from __future__ import annotations

import pytest

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.check.scoping import select_rules
from filid.model.errors import ConfigError, UsageError
from filid.model.violations import Severity
from filid.rules.catalogue import RULE_IDS
from tests.conftest import ProjectFactory

DOC_OK = "# M\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"

PROJECT = {
    "src/billing/CLAUDE.md": DOC_OK,
    "src/billing/billing.ts": "export const charge = (n: number): number => n;\n",
    "src/legacy/old/CLAUDE.md": DOC_OK,
    "src/legacy/old/old.ts": "export const old = 1;\n",
    "src/app/index.ts": "export { go } from './app';\n",
    "src/shop/index.ts": "export { cart } from './cart';\n",
    "src/shop/cart.ts": "export const cart = 1;\n",
    "src/app/app.ts": "import { cart } from '../shop/cart';\nexport const go = cart;\n",
}


def ids(result: object) -> list[tuple[str, str]]:
    return [(v.rule_id, v.path) for v in result.violations]  # type: ignore[attr-defined]


def test_defaults_report_every_enabled_rule(make_project: ProjectFactory) -> None:
    result = evaluate(load_project(make_project(PROJECT, declared=True), use_cache=False))
    assert ("module-entry-point", "src/billing") in ids(result)
    assert ("module-entry-point", "src/legacy/old") in ids(result)
    # filid's own claims beside upstream's rules are opt-in in a declared project (SPEC §0),
    # and the style rules upstream 1.0 removed run only when the config enables them.
    skipped = ("unresolved-import", "unpublished-package-import")
    removed = ("naming-convention", "index-barrel-pattern")
    assert result.rules_applied == tuple(r for r in RULE_IDS if r not in skipped + removed)
    assert set(result.rules_skipped) == set(skipped + removed)
    entry = next(v for v in result.violations if v.path == "src/billing")
    # a directory-level finding points at the node's boundary document, line 1
    assert (entry.location.file, entry.location.line) == ("src/billing/CLAUDE.md", 1)


@pytest.mark.parametrize(
    ("entry", "runs"),
    [({"severity": "warning"}, False), ({"enabled": True}, True), ({"enabled": False}, False)],
)
def test_removed_style_rules_run_only_when_the_config_enables_them(
    make_project: ProjectFactory, entry: dict[str, object], runs: bool
) -> None:
    files = {"src/user_profile/index.ts": "const local = 1;\nexport { local };\n"}
    files["src/app/index.ts"] = "import { local } from '../user_profile';\nexport { local };\n"
    config = {"rules": {"naming-convention": entry, "index-barrel-pattern": entry}}
    result = evaluate(load_project(make_project(files, config), use_cache=False))
    found = {v.rule_id for v in result.violations}
    assert ({"naming-convention", "index-barrel-pattern"} <= found) is runs, found
    assert not ({"naming-convention", "index-barrel-pattern"} & found) or runs


def test_severity_enabled_and_exempt_from_config(make_project: ProjectFactory) -> None:
    config = {
        "version": "2.0",
        "rules": {
            "module-entry-point": {"severity": "error", "exempt": ["src/legacy/**"]},
            "naming-convention": {"enabled": False},
        },
    }
    result = evaluate(load_project(make_project(PROJECT, config), use_cache=False))
    entry = [v for v in result.violations if v.rule_id == "module-entry-point"]
    assert [v.path for v in entry] == ["src/billing"]
    assert entry[0].severity is Severity.ERROR
    assert "naming-convention" in result.rules_skipped


def test_exempt_matches_the_importing_file_of_import_findings(make_project: ProjectFactory) -> None:
    config = {"rules": {"external-import-boundary": {"exempt": ["src/app/app.ts"]}}}
    result = evaluate(load_project(make_project(PROJECT, config), use_cache=False))
    assert not [v for v in result.violations if v.rule_id == "external-import-boundary"]


def test_rule_options_are_validated(make_project: ProjectFactory) -> None:
    bad = {"rules": {"circular-dependency": {"options": {"includeTypeImport": True}}}}
    project = load_project(make_project(PROJECT, bad), use_cache=False)
    with pytest.raises(ConfigError, match="includeTypeImport: unknown option"):
        evaluate(project)
    wrong = {"rules": {"intent-document-contract": {"options": {"maxLines": "ten"}}}}
    project = load_project(make_project(PROJECT, wrong), use_cache=False)
    with pytest.raises(ConfigError, match="maxLines"):
        evaluate(project)


def test_unknown_rule_selection_names_valid_ids() -> None:
    with pytest.raises(UsageError, match=r"valid ids: .*circular-dependency"):
        select_rules(["no-such-rule"])
    assert select_rules(["organ-no-intentmd"]) == ("organ-no-claudemd",)


def test_scope_keeps_one_subtree(make_project: ProjectFactory) -> None:
    project = load_project(make_project(PROJECT), use_cache=False)
    result = evaluate(project, scope="src/legacy")
    assert ids(result) == [("module-entry-point", "src/legacy/old")]
    assert set(result.evaluated["module-entry-point"]) == {"src/legacy/old"}


def test_files_scope_reports_violations_touching_files_or_their_directories(
    make_project: ProjectFactory,
) -> None:
    root = make_project(PROJECT)
    project = load_project(root, use_cache=False)
    only_app = evaluate(project, files=[str(root / "src/app/app.ts")])
    # src/app is a module (index.ts) of a declared project: 1.0 also asks it for documents.
    assert sorted(ids(only_app)) == [
        ("detail-document-contract", "src/app"),
        ("external-import-boundary", "src/app/app.ts"),
        ("intent-document-contract", "src/app"),
    ]
    billing = evaluate(project, files=[str(root / "src/billing/billing.ts")])
    assert ("module-entry-point", "src/billing") in ids(billing)
    assert all(v.path != "src/legacy/old" for v in billing.violations)
    outside = evaluate(project, files=["/definitely/elsewhere.ts"])
    assert outside.violations == ()


def test_fingerprints_survive_line_moves(make_project: ProjectFactory) -> None:
    root = make_project(PROJECT)
    before = evaluate(load_project(root, use_cache=False))
    app = root / "src/app/app.ts"
    app.write_text("// moved down\n\n" + app.read_text())
    after = evaluate(load_project(root, use_cache=False))
    deep_before = next(v for v in before.violations if v.rule_id == "external-import-boundary")
    deep_after = next(v for v in after.violations if v.rule_id == "external-import-boundary")
    assert deep_before.location.line + 2 == deep_after.location.line
    assert deep_before.fingerprint == deep_after.fingerprint
    assert len({v.fingerprint for v in after.violations}) == len(after.violations)


def test_pass_fail_counts_are_over_rule_node_pairs(make_project: ProjectFactory) -> None:
    result = evaluate(load_project(make_project(PROJECT), use_cache=False))
    assert result.failed_pairs == len({(v.rule_id, v.node) for v in result.violations})
    assert result.passed_pairs + result.failed_pairs == result.total_pairs
