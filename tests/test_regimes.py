"""SPEC §0: declared and undeclared projects, and the false patterns of issue 23.

Each layout is a minimal copy of what the issue met in public monorepos that do not use FCA
(an SDK whose ``src/<area>/index.ts`` is a slice of the npm API, a Next.js app whose
``lib/stripe/index.ts`` is the Stripe client, a NestJS ``usecases/index.ts`` registry, vitest
type tests, interfaces imported without ``type``, numbered MDX docs folders, scaffold
templates).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.cli import cli
from filid.model.report import Regime
from filid.rules.catalogue import RULE_IDS, UNDECLARED_RULE_IDS, runs_by_default
from tests.conftest import ProjectFactory

DECLARED: dict[str, object] = {"version": "2.0"}
HEADINGS = "# m\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"

# Pattern 1: an SDK package whose `src/<area>/index.ts` publishes a slice on purpose; the
# internal helper is reachable only by its path.
SDK = {
    "package.json": '{"name": "sdk-root", "private": true, "workspaces": ["packages/*"]}\n',
    "packages/ai/package.json": '{"name": "ai", "exports": {".": "./src/index.ts"}}\n',
    "packages/ai/src/index.ts": "export { generateText } from './generate-text';\n",
    "packages/ai/src/generate-text/index.ts": ("export { generateText } from './generate-text';\n"),
    "packages/ai/src/generate-text/generate-text.ts": (
        "import { prepareRetries } from '../util/prepare-retries';\n"
        "export const generateText = () => prepareRetries();\n"
    ),
    "packages/ai/src/util/index.ts": "export { delay } from './delay';\n",
    "packages/ai/src/util/delay.ts": "export const delay = 1;\n",
    "packages/ai/src/util/prepare-retries.ts": "export const prepareRetries = () => 1;\n",
}

# Pattern 2: implementation and registry `index.*` files (Next.js app, NestJS api).
APP = {
    "apps/web/lib/stripe/index.ts": (
        "import Stripe from 'stripe';\nexport const stripe = new Stripe('k');\n"
    ),
    "apps/web/lib/stripe/client.ts": "export const getStripe = () => 1;\n",
    "apps/web/app/page.tsx": (
        "import { getStripe } from '../lib/stripe/client';\nexport default getStripe;\n"
    ),
    "apps/api/src/app/user/usecases/index.ts": (
        "import { CreateUser } from './create-user/create-user.usecase';\n"
        "export const USE_CASES = [CreateUser];\n"
    ),
    "apps/api/src/app/user/usecases/create-user/create-user.usecase.ts": (
        "export class CreateUser {}\n"
    ),
    "apps/api/src/app/user/user.controller.ts": (
        "import { CreateUser } from './usecases/create-user/create-user.usecase';\n"
        "export const controller = CreateUser;\n"
    ),
    "apps/api/src/app/events/index.ts": "export { send } from './send';\n",
    "apps/api/src/app/events/send.ts": (
        "import { USE_CASES } from '../user/usecases';\nexport const send = USE_CASES;\n"
    ),
}


def _violations(root: Path, rules: list[str] | None = None) -> list[tuple[str, str]]:
    result = evaluate(load_project(root, use_cache=False), rule_ids=rules)
    return [(v.rule_id, v.path) for v in result.violations]


# -- the regime itself ------------------------------------------------------------------


AGENT_TEMPLATE = (
    "# AI Agent Guidelines for acme\n\n## Your Role\n\nYou maintain acme.\n\n## Boundaries\n\n"
    "### \u2705 Always Do\n- Run `npm test`\n\n### \u26a0\ufe0f Ask First\n- New dependencies\n\n"
    "### \U0001f6ab Never Do\n- Commit secrets\n\n## Commands\n\n- `npm test`\n"
)


@pytest.mark.parametrize(
    ("files", "config", "regime", "declared_by"),
    [
        ({"src/a.ts": "export const a = 1;\n"}, None, Regime.UNDECLARED, None),
        ({"src/a.ts": "export const a = 1;\n"}, DECLARED, Regime.DECLARED, ".filid/config.json"),
        (
            {"src/a.ts": "export const a = 1;\n", "src/INTENT.md": "# a\n"},
            None,
            Regime.DECLARED,
            "src/INTENT.md",
        ),
        (
            {"src/a.ts": "export const a = 1;\n", "src/m/DETAIL.md": "# m\n"},
            None,
            Regime.DECLARED,
            "src/m/DETAIL.md",
        ),
        # A Claude Code memory file is not a boundary document.
        (
            {"src/a.ts": "export const a = 1;\n", "CLAUDE.md": "# Notes\nuse pnpm\n"},
            None,
            Regime.UNDECLARED,
            None,
        ),
        (
            {"src/a.ts": "export const a = 1;\n", "src/CLAUDE.md": HEADINGS},
            None,
            Regime.DECLARED,
            "src/CLAUDE.md",
        ),
        # The agent-guidelines template (auth0/auth0-spa-js's root CLAUDE.md): its tiers only
        # contain the words, so intent-document-contract would call them missing; no
        # declaration either.
        (
            {"src/a/index.ts": "export const a = 1;\n", "CLAUDE.md": AGENT_TEMPLATE},
            None,
            Regime.UNDECLARED,
            None,
        ),
    ],
)
def test_regime_is_detected_from_config_or_boundary_documents(
    make_project: ProjectFactory,
    files: dict[str, str],
    config: object,
    regime: Regime,
    declared_by: str | None,
) -> None:
    root = make_project(files, config)
    result = evaluate(load_project(root, use_cache=False))
    assert (result.regime, result.declared_by) == (regime, declared_by)


def test_the_undeclared_gate_is_an_allow_list() -> None:
    # A rule another change adds later is off in an undeclared project until listed.
    assert not runs_by_default("some-future-rule", declared=False)
    assert runs_by_default("some-future-rule", declared=True)
    off = {r for r in RULE_IDS if not runs_by_default(r, declared=False)}
    assert "external-import-boundary" in off and "naming-convention" in off
    assert set(RULE_IDS) >= UNDECLARED_RULE_IDS


def test_undeclared_runs_only_the_allowed_claims(make_project: ProjectFactory) -> None:
    root = make_project({**SDK, **APP})
    result = evaluate(load_project(root, use_cache=False))
    assert result.regime is Regime.UNDECLARED
    assert set(result.rules_applied) == UNDECLARED_RULE_IDS
    assert result.violations == ()


def test_config_wins_a_rule_it_enables_runs_and_one_it_disables_does_not(
    make_project: ProjectFactory,
) -> None:
    files = {"src/a.ts": "import { b } from './gone';\nexport const a = b;\n"}
    root = make_project(files, {"rules": {"unresolved-import": {"enabled": True}}})
    assert _violations(root) == [("unresolved-import", "src/a.ts")]
    root = make_project(files)
    assert _violations(root) == [("unresolved-import", "src/a.ts")]
    root = make_project(files, {"rules": {"unresolved-import": {"enabled": False}}})
    assert _violations(root) == []
    # Declared without enabling it: filid's own claims stay opt-in beside upstream's rules.
    root = make_project(files, DECLARED)
    assert _violations(root) == []


# -- pattern 1: an index that is a slice of the public API ------------------------------


def test_sdk_deep_import_of_an_unexported_internal_is_no_claim_when_undeclared(
    make_project: ProjectFactory,
) -> None:
    assert _violations(make_project(SDK)) == []


def test_declared_deep_import_of_an_unexported_name_states_the_public_surface(
    make_project: ProjectFactory,
) -> None:
    root = make_project(SDK, DECLARED)
    result = evaluate(load_project(root, use_cache=False), rule_ids=["external-import-boundary"])
    [violation] = [v for v in result.violations if v.path.endswith("generate-text.ts")]
    assert violation.message.startswith(
        "`prepareRetries` is not part of module `packages/ai/src/util`'s public surface: "
    )
    assert "bypasses" not in violation.message
    assert violation.suggestion == (
        "export `prepareRetries` from packages/ai/src/util/index.ts, or move "
        "'packages/ai/src/generate-text/generate-text.ts' inside 'packages/ai/src/util'"
    )
    assert violation.fix is not None and violation.fix.risk.value == "risky"
    runner = CliRunner()
    text = runner.invoke(
        cli, ["check", str(root), "--no-cache", "--rules", "external-import-boundary"]
    )
    assert "[*]" not in text.output and "import it from the module's entry point" not in text.output


def test_declared_deep_import_of_an_exported_name_keeps_the_safe_rewrite(
    make_project: ProjectFactory,
) -> None:
    files = {
        **SDK,
        "packages/ai/src/generate-text/generate-text.ts": (
            "import { delay } from '../util/delay';\nexport const generateText = () => delay;\n"
        ),
    }
    root = make_project(files, DECLARED)
    result = evaluate(load_project(root, use_cache=False), rule_ids=["external-import-boundary"])
    [violation] = result.violations
    assert "bypasses the entry point" in violation.message
    assert violation.suggestion == (
        "import it from the module's entry point packages/ai/src/util/index.ts"
    )
    assert violation.fix is not None and violation.fix.risk.value == "safe"


def test_fix_marker_only_on_fixes_the_planner_accepts(make_project: ProjectFactory) -> None:
    from filid.model.violations import FixInfo, Location, Risk, Severity, SyncActionKind, Violation
    from filid.report.text import render_violation

    violation = Violation(
        rule_id="external-import-boundary",
        severity=Severity.ERROR,
        message="m",
        path="a.ts",
        location=Location(file="a.ts"),
        node=".",
        fix=FixInfo(SyncActionKind.REWRITE_IMPORT, Risk.SAFE, "d", "b/index.ts"),
        fingerprint="f1",
    )
    assert "[*]" in render_violation(violation)
    assert "[*]" not in render_violation(violation, refused=frozenset({"f1"}))


# -- pattern 2: implementation and registry index files ---------------------------------


def test_implementation_and_registry_index_files_are_no_boundary_when_undeclared(
    make_project: ProjectFactory,
) -> None:
    root = make_project(APP)
    project = load_project(root, use_cache=False)
    # Classification is one tree in both regimes: the folders are still fractal there.
    assert project.tree.nodes["apps/web/lib/stripe"].category.value == "fractal"
    assert project.tree.nodes["apps/api/src/app/user/usecases"].category.value == "fractal"
    assert evaluate(project).violations == ()
    # Declared, with each app a documented module (a relative import from a file no declared
    # module owns crosses no boundary, §0 upstream semantics), both deep imports are reported.
    documented = {**APP, "apps/web/INTENT.md": HEADINGS, "apps/api/INTENT.md": HEADINGS}
    declared = evaluate(load_project(make_project(documented, DECLARED), use_cache=False))
    assert sorted(
        v.path for v in declared.violations if v.rule_id == "external-import-boundary"
    ) == ["apps/api/src/app/user/user.controller.ts", "apps/web/app/page.tsx"]


# -- pattern 3: vitest type tests -------------------------------------------------------


TYPE_TEST_CYCLE = {
    "src/a/index.ts": "export { a } from './a';\n",
    "src/a/a.ts": "export const a = 1;\n",
    "src/b/index.ts": "import { a } from '../a';\nexport const b = a;\n",
}


@pytest.mark.parametrize(
    "test_file",
    ["src/a/a.test-d.ts", "src/a/types.spec-d.tsx", "src/a/__tests__/b.ts"],
)
def test_vitest_type_tests_are_test_files_and_close_no_cycle(
    make_project: ProjectFactory, test_file: str
) -> None:
    files = {**TYPE_TEST_CYCLE, test_file: "import { b } from '../b';\nexport const t = b;\n"}
    if "__tests__" in test_file:
        files[test_file] = "import { b } from '../../b';\nexport const t = b;\n"
    for config in (None, DECLARED):
        project = load_project(make_project(files, config), use_cache=False)
        assert test_file in project.test_files
        assert not evaluate(project, rule_ids=["circular-dependency"]).violations


def test_vitest_config_typecheck_include_declares_test_files(make_project: ProjectFactory) -> None:
    files = {
        **TYPE_TEST_CYCLE,
        "vitest.config.ts": (
            "import { defineConfig } from 'vitest/config';\n"
            "export default defineConfig({\n"
            "  test: { typecheck: { enabled: true, include: ['src/**/*.types.{ts,tsx}'] } },\n"
            "});\n"
        ),
        "src/a/check.types.ts": "import { b } from '../b';\nexport const t = b;\n",
        "src/a/other.ts": "import { b } from '../b';\nexport const t = b;\n",
    }
    project = load_project(make_project(files, DECLARED), use_cache=False)
    assert "src/a/check.types.ts" in project.test_files
    assert "src/a/other.ts" not in project.test_files  # still closes the cycle
    cycles = evaluate(project, rule_ids=["circular-dependency"]).violations
    assert [v.members for v in cycles] == [("src/a", "src/b")]
    assert all("check.types.ts" not in r.file for v in cycles for r in v.related)


def test_a_computed_typecheck_include_is_not_guessed(make_project: ProjectFactory) -> None:
    files = {
        "vitest.config.ts": (
            "const globs = ['src/**/*.ts'];\n"
            "export default { test: { typecheck: { include: globs } } };\n"
        ),
        "src/a.ts": "export const a = 1;\n",
    }
    project = load_project(make_project(files), use_cache=False)
    assert "src/a.ts" not in project.test_files


# -- pattern 4: imports whose every binding is a type ------------------------------------


def _type_cycle(props: str) -> dict[str, str]:
    return {
        "src/button/index.ts": "export * from './types';\nexport { Button } from './button';\n",
        "src/button/types.ts": props,
        "src/button/button.ts": (
            "import { theme } from '../theme';\nexport const Button = () => theme;\n"
        ),
        "src/theme/index.ts": (
            "import { ButtonProps } from '../button';\n"
            "export const theme = 1;\nexport const use = (p: ButtonProps) => p;\n"
        ),
    }


@pytest.mark.parametrize("config", [None, DECLARED])
@pytest.mark.parametrize(
    "props",
    [
        "export interface ButtonProps { size: number }\n",
        "export type ButtonProps = { size: number };\n",
        "export declare type ButtonProps = string;\n",
    ],
)
def test_import_of_types_only_without_type_keyword_closes_no_cycle(
    make_project: ProjectFactory, props: str, config: object
) -> None:
    root = make_project(_type_cycle(props), config)
    assert _violations(root, ["circular-dependency"]) == []


def _class_cycle(use: str, tsconfig: str | None = None) -> dict[str, str]:
    """A cycle whose closing hop imports a class; ``use`` is how the importer uses it."""
    files = _type_cycle("export class ButtonProps {}\n")
    files["src/theme/index.ts"] = (
        f"import {{ ButtonProps }} from '../button';\nexport const theme = 1;\n{use}\n"
    )
    if tsconfig is not None:
        files["tsconfig.json"] = tsconfig
    return files


@pytest.mark.parametrize("config", [None, DECLARED])
@pytest.mark.parametrize(
    "use",
    [
        "export const make = () => new ButtonProps();",
        "export { ButtonProps };",
        "export const kinds = { ButtonProps };",
    ],
)
def test_import_of_a_value_still_closes_the_cycle(
    make_project: ProjectFactory, config: object, use: str
) -> None:
    root = make_project(_class_cycle(use), config)
    assert _violations(root, ["circular-dependency"]) == [("circular-dependency", "src/button")]


@pytest.mark.parametrize("config", [None, DECLARED])
@pytest.mark.parametrize(
    "use",
    [
        "export const use = (p: ButtonProps): ButtonProps => p;",
        "export type Kind = typeof ButtonProps;",
    ],
)
def test_a_class_read_only_in_type_positions_is_elided_and_closes_no_cycle(
    make_project: ProjectFactory, config: object, use: str
) -> None:
    # TypeScript drops `import { ButtonProps }` at emit: nothing of it is read at run time
    root = make_project(_class_cycle(use), config)
    assert _violations(root, ["circular-dependency"]) == []


@pytest.mark.parametrize(
    "options",
    [
        '"verbatimModuleSyntax": true',
        '"preserveValueImports": true, "isolatedModules": true',
        '"importsNotUsedAsValues": "preserve"',
    ],
)
def test_a_tsconfig_that_keeps_imports_keeps_the_cycle(
    make_project: ProjectFactory, options: str
) -> None:
    tsconfig = f'{{"compilerOptions": {{{options}}}}}\n'
    use = "export const use = (p: ButtonProps): ButtonProps => p;"
    root = make_project(_class_cycle(use, tsconfig))
    assert _violations(root, ["circular-dependency"]) == [("circular-dependency", "src/button")]


# -- pattern 5: folders without source files ---------------------------------------------


def test_folders_without_source_are_no_nodes_for_naming_and_depth(
    make_project: ProjectFactory,
) -> None:
    deep = "templates/a/b/c/d/e/f/g/h/i/j/k"
    files = {
        "docs/01-overview/index.mdx": "# Overview\n",
        "src/Bad_Name/x.ts": "export const x = 1;\n",
        f"{deep}/component.tsx.hbs": "export const {{name}} = 1;\n",
        # A scaffold with source: its depth is the generated project's (Next.js routes).
        "packages/cli/src/init/templates/app/ts/app/api/novu/deep/route.ts": "export {};\n",
        # Code that mirrors a URL below a dynamic segment (outside any route folder).
        "apps/web/modules/api/v2/surveys/[surveyId]/contact-links/contacts/[id]/route.ts": (
            "export {};\n"
        ),
        "src/a/b/c/d/e/f/g/h/i/j/deep.ts": "export const d = 1;\n",
    }
    config = {"rules": {"naming-convention": {"enabled": True}}}
    found = _violations(make_project(files, config), ["naming-convention", "max-depth"])
    assert ("naming-convention", "docs/01-overview") not in found
    assert ("naming-convention", "src/Bad_Name") in found
    assert not any("templates" in path or "[" in path for _, path in found)
    assert ("max-depth", "src/a/b/c/d/e/f/g/h/i/j") in found
    undeclared = _violations(make_project(files), None)
    assert [v for v in undeclared if v[0] == "max-depth"] == [
        ("max-depth", "src/a/b/c/d/e/f/g/h/i/j")
    ]


@pytest.mark.parametrize(
    ("config", "severity"),
    [
        (None, "warning"),  # no depth policy adopted: the claim is advice
        (DECLARED, "error"),
        ({"rules": {"max-depth": {"severity": "error"}}}, "error"),  # config wins
    ],
)
def test_max_depth_is_a_warning_where_no_depth_policy_was_adopted(
    make_project: ProjectFactory, config: object, severity: str
) -> None:
    root = make_project({"src/a/b/c/d/e/f/g/h/i/j/deep.ts": "export const d = 1;\n"}, config)
    result = evaluate(load_project(root, use_cache=False), rule_ids=["max-depth"])
    assert [(v.path, v.severity.value) for v in result.violations] == [
        ("src/a/b/c/d/e/f/g/h/i/j", severity)
    ]


# -- the undeclared claims ----------------------------------------------------------------


def test_package_cycles_and_runtime_barrel_cycles_are_claimed_when_undeclared(
    make_project: ProjectFactory,
) -> None:
    files = {
        "package.json": '{"private": true, "workspaces": ["packages/*"]}\n',
        "packages/a/package.json": '{"name": "a", "main": "src/index.ts"}\n',
        "packages/a/src/index.ts": "import { b } from 'b';\nexport const a = () => b;\n",
        "packages/b/package.json": '{"name": "b", "main": "src/index.ts"}\n',
        "packages/b/src/index.ts": "import { a } from 'a';\nexport const b = () => a;\n",
        # A deep import loop between folders is no barrel loop: not claimed there.
        "packages/a/src/x/index.ts": "export { x } from './x';\n",
        "packages/a/src/x/x.ts": "import { y } from '../y/y';\nexport const x = () => y;\n",
        "packages/a/src/y/index.ts": "export { y } from './y';\n",
        "packages/a/src/y/y.ts": "import { x } from '../x/x';\nexport const y = () => x;\n",
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    assert [(v.rule_id, v.members) for v in result.violations] == [
        ("circular-dependency", ("packages/a", "packages/b"))
    ]
    assert "2 workspace packages" in result.violations[0].message


def test_unpublished_package_file_is_claimed_and_published_paths_are_not(
    make_project: ProjectFactory,
) -> None:
    files = {
        "package.json": '{"private": true, "workspaces": ["packages/*"]}\n',
        "packages/ui/package.json": (
            '{"name": "@acme/ui", "exports": {".": "./src/index.ts", "./button": '
            '"./src/button.ts"}}\n'
        ),
        "packages/ui/src/index.ts": "export const ui = 1;\n",
        "packages/ui/src/button.ts": "export const button = 1;\n",
        "packages/ui/src/internal.ts": "export const secret = 1;\n",
        "packages/legacy/package.json": '{"name": "legacy", "main": "src/index.ts"}\n',
        "packages/legacy/src/index.ts": "export const l = 1;\n",
        "packages/legacy/src/deep.ts": "export const deep = 1;\n",
        "packages/app/package.json": '{"name": "app"}\n',
        "packages/app/src/a.ts": (
            "import { ui } from '@acme/ui';\n"
            "import { button } from '@acme/ui/button';\n"
            "import { secret } from '@acme/ui/src/internal';\n"
            "import { deep } from 'legacy/src/deep';\n"
            "export const all = [ui, button, secret, deep];\n"
        ),
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    assert [(v.rule_id, v.location.line) for v in result.violations] == [
        ("unpublished-package-import", 3)
    ]
    assert "packages/ui/package.json" in result.violations[0].message


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def test_unresolved_import_of_a_git_ignored_generated_file_is_not_claimed(
    make_project: ProjectFactory,
) -> None:
    root = make_project(
        {
            ".gitignore": "/src/generated\n/src/*.output.ts\n",
            "src/a.ts": (
                "import { r } from './generated/router';\n"
                "import { o } from './list.output';\n"
                "import { g } from './gone';\n"
                "export const a = [r, o, g];\n"
            ),
        }
    )
    _git(root, "init", "-q")
    result = evaluate(load_project(root, use_cache=False))
    assert [(v.rule_id, v.location.line) for v in result.violations] == [("unresolved-import", 3)]


def test_unresolved_import_of_a_file_outside_the_universe_is_not_claimed(
    make_project: ProjectFactory,
) -> None:
    # Dokploy keeps a component in `components/…/build/show.tsx`: `build` folders are left out
    # of the universe (SPEC §1), but the file exists and the compiler resolves the import.
    root = make_project(
        {
            "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./*"]}}}',
            "components/app/build/show.tsx": "export const Show = 1;\n",
            "components/app/build/bundle.ts": "export const bundle = 1;\n",
            "components/app/general/show.tsx": (
                "import { Show } from '@/components/app/build/show';\n"
                "import { Gone } from '@/components/app/gone';\n"
                "import { bundle } from '../build/bundle.js';\n"
                "export const all = [Show, Gone, bundle];\n"
            ),
        }
    )
    result = evaluate(load_project(root, use_cache=False))
    assert [(v.rule_id, v.location.line) for v in result.violations] == [("unresolved-import", 2)]


# -- every report says which regime ran --------------------------------------------------


def test_every_report_names_the_regime_and_how_to_adopt(make_project: ProjectFactory) -> None:
    root = make_project({"src/a.ts": "import { b } from './gone';\nexport const a = b;\n"})
    runner = CliRunner()
    summary = root.parent / "summary.md"
    text = runner.invoke(
        cli, ["check", str(root), "--no-cache", "--github-summary", str(summary)]
    ).output
    assert "Undeclared project" in text and "filid init" in text
    assert "filid init" in summary.read_text(encoding="utf-8")
    data = json.loads(runner.invoke(cli, ["check", str(root), "--format", "json"]).output)
    assert data["regime"] == "undeclared" and "filid init" in data["regimeNote"]
    sarif = json.loads(runner.invoke(cli, ["check", str(root), "--format", "sarif"]).output)
    run = sarif["runs"][0]
    assert run["properties"]["filid/regime"] == "undeclared"
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert any("filid init" in n["message"]["text"] for n in notes)
    github = runner.invoke(cli, ["check", str(root), "--format", "github"]).output
    assert github.startswith("::notice title=filid::Undeclared project")
    declared = make_project({"src/a.ts": "export const a = 1;\n"}, DECLARED)
    data = json.loads(runner.invoke(cli, ["check", str(declared), "--format", "json"]).output)
    assert data["regime"] == "declared"
    assert data["config"]["declaredBy"] == ".filid/config.json"


def test_unresolved_import_claims_only_paths_and_aliases_filid_can_judge(
    make_project: ProjectFactory,
) -> None:
    files = {
        "package.json": '{"private": true, "workspaces": ["apps/*", "packages/*"]}\n',
        "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./apps/web/src/*"]}}}\n',
        # A workspace package that shares its name with the npm one the app really uses.
        "packages/storybook/package.json": '{"name": "storybook"}\n',
        "packages/storybook/index.ts": "export {};\n",
        "apps/web/package.json": '{"name": "web"}\n',
        "apps/web/src/global.css": "body {}\n",
        "apps/web/src/a.ts": (
            "import { fn } from 'storybook/test';\n"
            "import css from '@/global.css?inline';\n"
            "import { gone } from '@/gone';\n"
            "export const a = [fn, css, gone];\n"
        ),
        # React Router typegen: `./+types/x` resolves through tsconfig rootDirs.
        "apps/remix/tsconfig.json": (
            '{"compilerOptions": {"rootDirs": [".", "./.react-router/types"]}}\n'
        ),
        "apps/remix/app/routes/home.tsx": (
            "import type { Route } from './+types/home';\nexport const r = (p: Route) => p;\n"
        ),
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    assert [(v.rule_id, v.path, v.location.line) for v in result.violations] == [
        ("unresolved-import", "apps/web/src/a.ts", 3)
    ]


def test_a_stylesheet_read_by_path_closes_no_package_cycle(make_project: ProjectFactory) -> None:
    files = {
        "package.json": '{"private": true, "workspaces": ["apps/*", "packages/*"]}\n',
        "apps/web/package.json": '{"name": "web"}\n',
        "apps/web/src/editor.css": "p {}\n",
        "apps/web/src/a.ts": "import { v } from 'surveys';\nexport const a = v;\n",
        "packages/surveys/package.json": '{"name": "surveys", "main": "src/index.ts"}\n',
        "packages/surveys/src/index.ts": (
            "import css from '../../../apps/web/src/editor.css?inline';\nexport const v = css;\n"
        ),
    }
    assert _violations(make_project(files)) == []
    files["packages/surveys/src/index.ts"] = (
        "import { a } from '../../../apps/web/src/a';\nexport const v = a;\n"
    )
    assert _violations(make_project(files)) == [("circular-dependency", "apps/web")]


def test_undeclared_barrel_loop_needs_a_file_level_runtime_cycle(
    make_project: ProjectFactory,
) -> None:
    # langfuse's shape: `src/db.ts` (kept out of the package index) imports the `server`
    # barrel, a server file imports the package index: two folders, but no file-level cycle.
    files = {
        "src/index.ts": "export { scope } from './scope';\n",
        "src/scope.ts": "export const scope = 1;\n",
        "src/db.ts": "import { logger } from './server';\nexport const db = logger;\n",
        "src/server/index.ts": "export { logger } from './logger';\n",
        "src/server/logger.ts": "import { scope } from '../';\nexport const logger = scope;\n",
    }
    assert _violations(make_project(files)) == []
    # The package index re-exports the server barrel: now loading either loads the other.
    files["src/index.ts"] += "export * from './server';\n"
    assert [rule for rule, _ in _violations(make_project(files))] == ["circular-dependency"]
    # A lazy `import()` loads nothing at import time.
    files["src/server/logger.ts"] = (
        "export const logger = () => import('../').then((m) => m.scope);\n"
    )
    assert _violations(make_project(files)) == []


# An undeclared monorepo's `apps/docs` is an application like any other: its cycle is real.
DOCS_APP = {
    "package.json": '{"name": "repo", "private": true, "workspaces": ["apps/*"]}\n',
    "apps/docs/package.json": '{"name": "docs"}\n',
    "apps/docs/content/index.ts": "export { a } from './a';\n",
    "apps/docs/content/a.ts": "import { b } from '../nav';\nexport const a = 1;\nb;\n",
    "apps/docs/nav/index.ts": "import { a } from '../content';\nexport const b = 2;\na;\n",
}


def test_upstream_skipped_folders_are_kept_in_an_undeclared_project(
    make_project: ProjectFactory,
) -> None:
    project = load_project(make_project(DOCS_APP), use_cache=False)
    assert project.regime is Regime.UNDECLARED
    assert "apps/docs/content/index.ts" in project.tree.files
    cycles = [v for v in evaluate(project).violations if v.rule_id == "circular-dependency"]
    assert [v.path for v in cycles] == ["apps/docs/content"]


@pytest.mark.parametrize("declaration", ["config", "document"])
def test_upstream_skipped_folders_are_left_out_of_a_declared_project(
    make_project: ProjectFactory, declaration: str
) -> None:
    files = dict(DOCS_APP)
    if declaration == "document":
        files["apps/INTENT.md"] = "# apps\n## Always do\n## Ask first\n## Never do\n"
    project = load_project(make_project(files, declared=declaration == "config"), use_cache=False)
    assert project.regime is Regime.DECLARED
    assert not [f for f in project.tree.files if f.startswith("apps/docs/")]


def test_rules_list_decides_the_regime_as_check_does(make_project: ProjectFactory) -> None:
    # An INTENT.md only under docs/ (an upstream skipped folder) declares nothing: `check`
    # treats the project as undeclared, and so must `filid rules`.
    from filid.rules.query import rule_states

    root = make_project({"docs/guide/INTENT.md": "# guide\n", "src/a.ts": "export const a = 1;\n"})
    assert load_project(root, use_cache=False).regime is Regime.UNDECLARED
    enabled = {meta.id for meta, on in rule_states(root, None) if on}
    assert enabled == set(UNDECLARED_RULE_IDS)
