"""What a fix may touch: framework routes, migrations, declared entries and configured files
are refused with a reason; a rename carries every file of its folder."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.fix.planner import plan_fixes
from filid.fix.run import run_fix
from filid.model.violations import FixInfo, Location, Risk, Severity, SyncActionKind, Violation
from tests.conftest import write_files

# naming-convention and index-barrel-pattern run only where the config enables them
STYLE_RULES_ON = {
    ".filid/config.json": '{"rules": {"naming-convention": {"enabled": true},'
    ' "index-barrel-pattern": {"enabled": true}}}\n'
}
NEXT = '{"name": "web", "private": true, "dependencies": {"next": "14.0.0"}}\n'


def _skips(root: Path, rules: list[str]) -> dict[str, str]:
    """The reasons the planner gives for not fixing ``rules``' violations (it fixes none)."""
    project = load_project(root, use_cache=False)
    result = evaluate(project, rule_ids=rules)
    plan = plan_fixes(project, result.violations, max_risk=Risk.MODERATE)
    assert not plan.fixes, [f.violation.path for f in plan.fixes]
    return {s.violation.path: s.reason for s in plan.skipped}


def test_next_routes_are_never_moved_or_given_an_index(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "package.json": NEXT,
            "pages/_app.tsx": "export default function App() { return null; }\n",
            "pages/about.tsx": "export default function About() { return null; }\n",
            "app/UserProfile/page.tsx": "export default function Page() { return null; }\n",
        },
    )
    project = load_project(root, use_cache=False)

    def proposal(rule: str, path: str, action: SyncActionKind, target: str) -> Violation:
        fix = FixInfo(action, Risk.MODERATE, "proposed", target)
        location = Location(file=path)
        return Violation(rule, Severity.WARNING, rule, path, location, path, fix=fix)

    # What an unguarded planner would do: move _app.tsx into its own folder, give pages/ an
    # index (a new page), rename a route segment.
    proposals = [
        proposal("zero-peer-file", "pages/_app.tsx", SyncActionKind.MOVE, "pages/app/_app.tsx"),
        proposal("module-entry-point", "pages", SyncActionKind.CREATE_INDEX, "pages/index.ts"),
        proposal("naming-convention", "app/UserProfile", SyncActionKind.RENAME, "app/user-profile"),
    ]
    plan = plan_fixes(project, proposals, max_risk=Risk.MODERATE)
    assert not plan.fixes
    reasons = {s.violation.path: s.reason for s in plan.skipped}
    assert reasons == {
        "pages/_app.tsx": "pages/_app.tsx is in the route tree pages/ (its names are URLs)",
        "pages": "pages/index.ts is in the route tree pages/ (its names are URLs)",
        "app/UserProfile": "app/UserProfile is in the route tree app/ (its names are URLs)",
    }
    # Nor do the rules themselves propose anything there.
    result = evaluate(project, rule_ids=["zero-peer-file", "naming-convention"])
    assert not [v for v in result.violations if v.fix is not None]


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("prisma/migrations/20240101120000_Init/migration.ts", "migration"),
        ("src/api/[...nextauth]/handler.ts", "route segment"),
        ("src/routes/(auth)/login.ts", "route segment"),
        ("versioned_docs/Version1/intro.ts", "documentation site"),
    ],
)
def test_framework_significant_paths_are_refused(tmp_path: Path, path: str, expected: str) -> None:
    from filid.fix.protected import Protection

    root = write_files(tmp_path, {"package.json": '{"name": "x"}\n', path: "export {};\n"})
    project = load_project(root, use_cache=False)
    reason = Protection(root, project.tree.files, project.resolver).reason([path])
    assert reason is not None and expected in reason


def test_a_file_a_bundler_config_lists_is_not_moved(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "package.json": '{"name": "cli", "private": true}\n',
            "tsdown.config.ts": "export default { entry: ['src/cli.ts', './src/worker'] };\n",
            "src/index.ts": "export { run } from './cli';\n",
            "src/cli.ts": "export const run = 1;\n",
            "src/worker.ts": "export const work = 1;\n",
            "src/other.ts": "export const other = 1;\n",
        },
    )
    from filid.fix.protected import Protection

    project = load_project(root, use_cache=False)
    protection = Protection(root, project.tree.files, project.resolver)
    assert "tsdown.config.ts" in (protection.reason(["src/cli.ts"]) or "")
    assert "tsdown.config.ts" in (protection.reason(["src/worker.ts"]) or "")
    assert protection.reason(["src/other.ts"]) is None
    # A longer path that ends the same way does not name a root file.
    assert protection.reason(["cli.ts"]) is None


def test_a_rename_carries_dot_files_and_ignored_files(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            **STYLE_RULES_ON,
            "package.json": '{"name": "ui", "private": true}\n',
            ".gitignore": "generated.ts\n",
            "src/UserCard/index.ts": "export { card } from './card';\n",
            "src/UserCard/card.ts": "export const card = 1;\n",
            "src/UserCard/.eslintrc.json": "{}\n",
            "src/UserCard/generated.ts": "export const generated = 1;\n",
            "src/app/index.ts": "import { card } from '../UserCard';\nexport const a = card;\n",
        },
    )
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    run = run_fix(root, max_risk=Risk.MODERATE, rule_ids=["naming-convention"], use_cache=False)
    assert "src/user-card/index.ts" in run.changed_files or (root / "src/user-card").is_dir()
    assert not (root / "src/UserCard").exists()
    for name in ("index.ts", "card.ts", ".eslintrc.json", "generated.ts"):
        assert (root / "src/user-card" / name).is_file(), name
    assert (root / "src/app/index.ts").read_text() == (
        "import { card } from '../user-card';\nexport const a = card;\n"
    )


def test_a_rename_of_a_folder_holding_a_symlink_is_refused(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            **STYLE_RULES_ON,
            "package.json": '{"name": "ui", "private": true}\n',
            "src/UserCard/index.ts": "export const card = 1;\n",
        },
    )
    (root / "src/UserCard/link.ts").symlink_to(root / "package.json")
    skips = _skips(root, ["naming-convention"])
    assert "symbolic link" in skips["src/UserCard"]


def test_a_split_leaves_no_unused_import_under_no_unused_locals(
    tmp_path: Path, tsc: Path
) -> None:
    from tests.fix.conftest import type_check

    root = write_files(
        tmp_path,
        {
            **STYLE_RULES_ON,
            "package.json": '{"name": "m", "private": true}\n',
            "tsconfig.json": '{"compilerOptions": {"strict": true, "noUnusedLocals": true,'
            ' "module": "esnext", "moduleResolution": "bundler", "noEmit": true}}\n',
            "src/billing/INTENT.md": "# Billing\n",
            "src/app/index.ts": "import { total } from '../billing';\nexport const t = total();\n",
            "src/billing/x.ts": "export const a = 1;\nexport const b = 2;\ntype N = number;\n"
            "export type T = N;\n",
            "src/billing/y.ts": "export const c = 3;\nexport default 4;\n",
            "src/billing/index.ts": (
                "import { a, b, type T } from './x';\n"
                "import d, { c } from './y';\n"
                "\n"
                "export function total(): T {\n  return a + c;\n}\n"
                "export const both = b + d;\n"
                "export { b };\n"
            ),
        },
    )
    type_check(tsc, root)
    run = run_fix(
        root, max_risk=Risk.MODERATE, rule_ids=["index-barrel-pattern"], use_cache=False
    )
    assert run.changed_files, run.result.notes
    index = (root / "src/billing/index.ts").read_text()
    assert "import { b } from './x';" in index and "./y" not in index
    type_check(tsc, root)  # noUnusedLocals: an unused import would fail here


def test_imports_made_equal_by_the_fix_merge_into_one(tmp_path: Path, tsc: Path) -> None:
    from tests.fix.conftest import type_check

    root = write_files(
        tmp_path,
        {
            "package.json": '{"name": "m", "private": true}\n',
            "tsconfig.json": '{"compilerOptions": {"strict": true, "noEmit": true,'
            ' "module": "esnext", "moduleResolution": "bundler"}}\n',
            "src/auth/INTENT.md": "# Auth\n",
            "src/auth/index.ts": "export { login } from './login';\n"
            "export { session, type Session } from './session';\n",
            "src/auth/login.ts": "export const login = 1;\n",
            "src/auth/session.ts": "export const session = 2;\nexport type Session = number;\n",
            "src/app/index.ts": (
                "import { login } from '../auth/login';\n"
                "import { session } from '../auth/session';\n"
                "import type { Session } from '../auth/session';\n"
                "\n"
                "export const s: Session = login + session;\n"
            ),
        },
    )
    run = run_fix(root, rule_ids=["external-import-boundary"], use_cache=False)
    assert "src/app/index.ts" in run.changed_files, run.result.notes
    assert (root / "src/app/index.ts").read_text() == (
        "import { login, session } from '../auth';\n"
        "import type { Session } from '../auth';\n"
        "\n"
        "export const s: Session = login + session;\n"
    )
    type_check(tsc, root)


def test_after_a_fix_run_refused_fixes_are_not_counted_and_changed_files_are_named(
    tmp_path: Path,
) -> None:
    import sys

    root = write_files(
        tmp_path,
        {
            **STYLE_RULES_ON,
            "package.json": '{"name": "ui", "private": true}\n',
            "src/UserCard/index.ts": "export const card = 1;\n",
            "src/auth/INTENT.md": "# Auth\n",
            "src/auth/index.ts": "export { login } from './login';\n",
            "src/auth/login.ts": "export const login = 1;\n",
            "src/app/index.ts": "import { login } from '../auth/login';\nexport const a = login;\n",
        },
    )
    (root / "src/UserCard/link.ts").symlink_to(root / "package.json")
    done = subprocess.run(
        [sys.executable, "-m", "filid", "check", ".", "--unsafe-fixes", "--no-progress",
         "--rules", "naming-convention,external-import-boundary"],
        cwd=root, capture_output=True, text=True, check=False,
    )  # fmt: skip
    out = done.stdout
    assert "Changed 1 file:\n  src/app/index.ts\n" in out, out
    assert "1 proposed fix(es) cannot be applied" in out
    assert "fixable with" not in out  # the refused rename is not offered again
    assert "symbolic link" in out  # the note says why


def test_re_exports_made_equal_by_the_fix_merge_into_one() -> None:
    from filid.fix.actions import Edit
    from filid.fix.merge_imports import merge_equal_specifiers

    source = (
        b'export { a } from "./body/a.js";\n'
        b'export { b, c as d } from "./body/b.js";\n'
        b'export type { T } from "./body/types.js";\n'
        b'export * from "./body/star.js";\n'
    )

    def at(text: str) -> Edit:
        start = source.index(text.encode())
        return Edit(start, start + len(text), "./body/index.js")

    edits = [at("./body/a.js"), at("./body/b.js"), at("./body/types.js")]
    merged = merge_equal_specifiers("src/index.ts", source, edits)
    text = source.decode()
    for edit in sorted(merged, key=lambda e: e.start_byte, reverse=True):
        text = text[: edit.start_byte] + edit.replacement + text[edit.end_byte :]
    assert text == (
        'export { a, b, c as d } from "./body/index.js";\n'
        'export type { T } from "./body/index.js";\n'
        'export * from "./body/star.js";\n'
    )


def test_a_rename_is_refused_when_a_file_spells_the_folder_as_a_path(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            **STYLE_RULES_ON,
            "package.json": '{"name": "ui", "private": true}\n',
            "src/UserCard/index.ts": "export const UserCard = 1;\n",
            "src/app/index.ts": "import { UserCard } from '../UserCard';\n"
            "export const a = <const>[UserCard];\n",
            "src/app/gen.ts": "import path from 'node:path';\n"
            "export const dir = path.resolve(__dirname, '../UserCard');\n",
        },
    )
    skips = _skips(root, ["naming-convention"])
    assert skips["src/UserCard"] == (
        "'UserCard' is spelled in src/app/gen.ts (line 2) outside an import, "
        "which a rename does not rewrite"
    )
    # Without that spelling the rename goes ahead (the identifier UserCard is no path).
    (root / "src/app/gen.ts").unlink()
    project = load_project(root, use_cache=False)
    result = evaluate(project, rule_ids=["naming-convention"])
    plan = plan_fixes(project, result.violations, max_risk=Risk.MODERATE)
    assert [f.result_path for f in plan.fixes] == ["src/user-card"]


def test_a_split_under_nodenext_spells_the_js_extension(tmp_path: Path, tsc: Path) -> None:
    from tests.fix.conftest import type_check

    root = write_files(
        tmp_path,
        {
            **STYLE_RULES_ON,
            # The project's majority is extensionless; this package's tsconfig is NodeNext.
            "tsconfig.json": '{"compilerOptions": {"strict": true, "noEmit": true,'
            ' "module": "esnext", "moduleResolution": "bundler"}}\n',
            "package.json": '{"name": "root", "private": true}\n',
            "web/a.ts": "import { b } from './b';\nexport const a = b;\n",
            "web/b.ts": "export const b = 1;\n",
            "lib/package.json": '{"name": "lib", "private": true, "type": "module"}\n',
            "lib/tsconfig.json": '{"compilerOptions": {"strict": true, "noEmit": true,'
            ' "module": "NodeNext", "moduleResolution": "NodeNext", "types": []}}\n',
            "lib/server/INTENT.md": "# Server\n",
            "lib/server/index.ts": "export function route(): number {\n  return 1;\n}\n",
            "lib/app/index.ts": "import { route } from '../server/index.js';\n"
            "export const r = route();\n",
        },
    )
    run = run_fix(
        root, max_risk=Risk.MODERATE, rule_ids=["index-barrel-pattern"], use_cache=False
    )
    assert "lib/server/index.ts" in run.changed_files, run.result.notes
    assert (root / "lib/server/index.ts").read_text() == "export { route } from './server.js';\n"
    type_check(tsc, root / "lib")


def test_moves_out_of_a_tsconfig_include_or_named_by_their_js_twin_are_refused(
    tmp_path: Path,
) -> None:
    from filid.fix.protected import Protection

    root = write_files(
        tmp_path,
        {
            "www/package.json": '{"name": "www", "private": true}\n',
            "www/tsconfig.json": '{"include": ["src", "*.ts"]}\n',
            "www/docusaurus.config.ts": "export default { sidebarPath: "
            "require.resolve('./sidebars.js') };\n",
            "www/sidebars.ts": "export default {};\n",
            "www/helpers.ts": "export const h = 1;\n",
            "www/src/a.ts": "export const a = 1;\n",
        },
    )
    project = load_project(root, use_cache=False)
    protection = Protection(root, project.tree.files, project.resolver)
    assert "docusaurus.config.ts" in (protection.reason(["www/sidebars.ts"]) or "")
    assert protection.reason(["www/helpers.ts"]) is None
    # "*.ts" takes root files only: a move into a folder drops it from the program.
    assert "'include'" in (
        protection.include_change("www/helpers.ts", "www/helpers/helpers.ts") or ""
    )
    assert protection.include_change("www/src/a.ts", "www/src/a/a.ts") is None


def test_fixes_apply_in_a_project_its_enclosing_repository_ignores(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text("out/\n")
    root = write_files(
        tmp_path / "out" / "shop",
        {
            "package.json": '{"name": "shop", "private": true}\n',
            "src/auth/INTENT.md": "# Auth\n",
            "src/auth/login.ts": "export const login = 1;\n",
        },
    )
    run = run_fix(root, rule_ids=["module-entry-point"], use_cache=False)
    # The new index is not "ignored by git": the whole project is outside git's view.
    assert run.changed_files == ("src/auth/index.ts",), run.result.notes


def test_a_plain_check_counts_only_the_safe_fixes_the_planner_accepts(tmp_path: Path) -> None:
    import os
    import sys

    root = write_files(
        tmp_path,
        {
            "package.json": '{"name": "m", "private": true}\n',
            "src/auth/INTENT.md": "# Auth\n",
            "src/auth/index.ts": "export { login } from './login';\n",
            "src/auth/login.ts": "export const login = 1;\n",
            "src/app/index.ts": "import { login } from '../auth/login';\nexport const a = login;\n",
            "src/shop/index.ts":
            "import { login } from '../auth/login';\nexport const b = login;\n",
        },
    )
    os.chmod(root / "src/shop/index.ts", 0o444)  # --fix refuses to rewrite a read-only file

    def check() -> str:
        return subprocess.run(
            [sys.executable, "-m", "filid", "check", ".", "--no-progress",
             "--rules", "external-import-boundary"],
            cwd=root, capture_output=True, text=True, check=False,
        ).stdout  # fmt: skip

    first, again = check(), check()  # computed, then from the result snapshot
    for out in (first, again):
        assert "1 fixable with --fix." in out, out
        assert "1 proposed fix(es) cannot be applied" in out
        assert "src/shop/index.ts: it is read-only" in out
