"""The planner refuses what it cannot do safely, and computes specifiers in the project's style."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.fix.planner import plan_fixes
from filid.fix.specifiers import file_matches_segment, relative_specifier
from filid.model.violations import (
    FixInfo,
    Location,
    Risk,
    Severity,
    SyncActionKind,
    Violation,
)
from tests.conftest import DECLARED_CONFIG

TSCONFIG = (
    '{ "compilerOptions": { "strict": true, "paths": '
    '{ "@/*": ["./src/*"], "@card/*": ["./src/ui/UserCard/*"] } } }\n'
)


def _write(root: Path, files: dict[str, str]) -> Path:
    # The fixes serve FCA rules: the projects declare FCA (SPEC §0) with a minimal config.
    files = {".filid/config.json": json.dumps(DECLARED_CONFIG), **files}
    for path, content in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)
    return root


def _violation(
    rule: str, path: str, fix: FixInfo, file: str, line: int = 1, column: int = 1
) -> Violation:
    return Violation(
        rule_id=rule,
        severity=Severity.ERROR,
        message=rule,
        path=path,
        location=Location(file=file, line=line, column=column),
        node=path,
        fix=fix,
    )


AUTH = {
    "tsconfig.json": TSCONFIG,
    "src/auth/index.ts": "export { login } from './auth';\n",
    "src/auth/auth.ts": "export function login(): void {}\nexport const secret = 1;\n",
    "src/auth/session.ts": "import { login } from './auth';\nexport const s = login;\n",
    "src/app/index.ts": "import { secret } from '../auth/auth';\nexport const x = secret;\n",
}


def _rewrite() -> FixInfo:
    return FixInfo(SyncActionKind.REWRITE_IMPORT, Risk.SAFE, "rewrite", "src/auth/index.ts")


def test_rewrite_is_refused_inside_the_target_module(tmp_path: Path) -> None:
    project = load_project(_write(tmp_path, AUTH), use_cache=False)
    violation = _violation(
        "external-import-boundary",
        "src/auth/session.ts",
        _rewrite(),
        "src/auth/session.ts",
    )
    plan = plan_fixes(project, [violation], max_risk=Risk.SAFE)
    assert plan.is_empty
    assert [s.reason for s in plan.skipped] == [
        "src/auth/session.ts is inside src/auth; it would import its own barrel"
    ]


def test_rewrite_is_refused_when_the_entry_point_lacks_a_name(tmp_path: Path) -> None:
    project = load_project(_write(tmp_path, AUTH), use_cache=False)
    # Claimed safe, but the barrel does not export `secret`: the planner checks for itself.
    violation = _violation(
        "external-import-boundary",
        "src/app/index.ts",
        _rewrite(),
        "src/app/index.ts",
    )
    plan = plan_fixes(project, [violation], max_risk=Risk.SAFE)
    assert plan.is_empty
    assert plan.skipped[0].reason == "src/auth/index.ts does not export secret"


def test_a_rewrite_of_a_specifier_written_with_escapes_is_refused_as_such(tmp_path: Path) -> None:
    # `'../auth/\\u0061uth'` names `../auth/auth` once decoded; the literal as written is not
    # the specifier, so the rewrite is refused, and the reason says why (not "changed").
    files = {
        **AUTH,
        "src/app/index.ts": (
            "import { login } from '../auth/\\u0061uth';\nexport const x = login;\n"
        ),
    }
    project = load_project(_write(tmp_path, files), use_cache=False)
    violation = _violation(
        "external-import-boundary", "src/app/index.ts", _rewrite(), "src/app/index.ts"
    )
    plan = plan_fixes(project, [violation], max_risk=Risk.SAFE)
    assert plan.is_empty
    assert [s.reason for s in plan.skipped] == [
        "the import at src/app/index.ts:1 writes its specifier with escape sequences; "
        "filid leaves it as written"
    ]


def test_risky_fixes_are_never_planned_and_moderate_only_when_allowed(tmp_path: Path) -> None:
    project = load_project(_write(tmp_path, AUTH), use_cache=False)
    risky = FixInfo(SyncActionKind.MOVE, Risk.RISKY, "move", "src/shared")
    moderate = FixInfo(SyncActionKind.RENAME, Risk.MODERATE, "rename", "src/authx")
    violations = [
        _violation("circular-dependency", "src/app", risky, "src/app/index.ts"),
        _violation("naming-convention", "src/auth", moderate, "src/auth/index.ts"),
    ]
    safe_plan = plan_fixes(project, violations, max_risk=Risk.SAFE)
    assert safe_plan.is_empty
    assert sorted(s.reason for s in safe_plan.skipped) == [
        "moderate: needs --unsafe-fixes",
        "risky: plan only",
    ]
    moderate_plan = plan_fixes(project, violations, max_risk=Risk.MODERATE)
    assert [f.violation.rule_id for f in moderate_plan.fixes] == ["naming-convention"]
    assert [s.reason for s in moderate_plan.skipped] == ["risky: plan only"]


RENAME = {
    # naming-convention runs only where the config enables it
    ".filid/config.json": '{"rules": {"naming-convention": {"enabled": true}}}\n',
    "tsconfig.json": TSCONFIG,
    "src/ui/UserCard/card.ts": "export const card = 1;\n",
    "src/app/index.ts": "import { card } from '@card/card';\nexport const x = card;\n",
}


def test_a_rename_whose_alias_cannot_be_rewritten_is_not_planned(tmp_path: Path) -> None:
    project = load_project(_write(tmp_path, RENAME), use_cache=False)
    result = evaluate(project, rule_ids=["naming-convention"])
    assert [v.path for v in result.violations] == ["src/ui/UserCard"]
    plan = plan_fixes(project, result.violations, max_risk=Risk.MODERATE)
    assert plan.is_empty
    # tsconfig.json's paths name the folder, and a fix does not rewrite tool configs.
    assert plan.skipped[0].reason == (
        "src/ui/UserCard is named in tsconfig.json ('src/ui/UserCard'), "
        "which a fix does not rewrite"
    )


def test_a_rename_onto_an_existing_directory_is_not_planned(tmp_path: Path) -> None:
    files = dict(
        RENAME, **{"src/app/index.ts": "export {};\n", "src/ui/user-card/other.ts": "export {};\n"}
    )
    project = load_project(_write(tmp_path, files), use_cache=False)
    rename = FixInfo(SyncActionKind.RENAME, Risk.MODERATE, "rename", "src/ui/user-card")
    violation = _violation(
        "naming-convention", "src/ui/UserCard", rename, "src/ui/UserCard/card.ts"
    )
    plan = plan_fixes(project, [violation], max_risk=Risk.MODERATE)
    assert plan.is_empty
    assert plan.skipped[0].reason == "src/ui/user-card already exists"


def test_a_peer_that_imports_its_siblings_is_not_moved_down(tmp_path: Path) -> None:
    files = {
        "tsconfig.json": TSCONFIG,
        "src/cart/index.ts": "export { total } from './cart';\n",
        "src/cart/cart.ts": "export const total = 1;\n",
        "src/cart/format.ts": "import { total } from './cart';\nexport const f = total;\n",
    }
    project = load_project(_write(tmp_path, files), use_cache=False)
    plan = plan_fixes(
        project, evaluate(project, rule_ids=["zero-peer-file"]).violations, max_risk=Risk.MODERATE
    )
    assert plan.is_empty
    assert plan.skipped[0].reason.startswith(
        "src/cart/format.ts imports src/cart/cart.ts beside it"
    )


def test_a_side_effect_free_peer_importing_a_module_is_not_moved_into_its_own_folder(
    tmp_path: Path,
) -> None:
    # Alone in session/, a side-effect free file would make a pure-function folder that
    # imports modules: new pure-function-isolation violations and a cycle, not a fix.
    files = {
        "tsconfig.json": TSCONFIG,
        "src/auth/index.ts": "export { login } from './session';\n",
        "src/auth/utils/hash.ts": "export const hash = (s: string): string => s;\n",
        "src/auth/session.ts": (
            "import { hash } from './utils/hash';\nexport const login = (u: string) => hash(u);\n"
        ),
        "src/auth/logger.ts": "import { hash } from './utils/hash';\nconsole.log(hash('x'));\n",
    }
    project = load_project(_write(tmp_path, files), use_cache=False)
    plan = plan_fixes(
        project, evaluate(project, rule_ids=["zero-peer-file"]).violations, max_risk=Risk.MODERATE
    )
    assert [fix.violation.path for fix in plan.fixes] == ["src/auth/logger.ts"]
    assert [s.reason for s in plan.skipped] == [
        "src/auth/session.ts is side-effect free: alone in session/ it would be a pure-function "
        "folder importing module file src/auth/utils/hash.ts"
    ]


@pytest.mark.parametrize(
    ("from_dir", "to_path", "expected"),
    [
        ("src/app", "src/auth", "../auth"),
        ("src/app", "src/app/x", "./x"),
        ("src", "src", "."),
        (".", "src/a", "./src/a"),
        ("src/a/b", ".", "../../.."),
        ("src/a", "src", ".."),
    ],
)
def test_relative_specifier(from_dir: str, to_path: str, expected: str) -> None:
    assert relative_specifier(from_dir, to_path) == expected


@pytest.mark.parametrize(
    ("segment", "name", "expected"),
    [
        ("x", "x.ts", True),
        ("x.ts", "x.ts", True),
        ("x.js", "x.ts", True),
        ("x.js", "x.tsx", True),
        ("x.mjs", "x.mts", True),
        ("x.mjs", "x.ts", False),
        ("x", "x.css", False),
        ("x.css", "x.css", True),
        ("y", "x.ts", False),
    ],
)
def test_file_matches_segment(segment: str, name: str, expected: bool) -> None:
    assert file_matches_segment(segment, name) is expected


def test_a_move_into_a_git_ignored_folder_is_not_planned(tmp_path: Path) -> None:
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not available")
    files = {
        "tsconfig.json": TSCONFIG,
        ".gitignore": "format/\n",
        "src/cart/index.ts": "export { format } from './format';\n",
        "src/cart/cart.ts": "export const total = 1;\n",
        "src/cart/format.ts": "export const format = 1;\n",
    }
    root = _write(tmp_path, files)
    subprocess.run([git, "init", "-q"], cwd=root, check=True)
    project = load_project(root, use_cache=False)
    violations = evaluate(project, rule_ids=["zero-peer-file"]).violations
    assert [v.path for v in violations] == ["src/cart/format.ts"]
    plan = plan_fixes(project, violations, max_risk=Risk.MODERATE)
    assert plan.is_empty
    assert plan.skipped[0].reason == (
        "src/cart/format/format.ts would drop out of the project: git would ignore it (.gitignore)"
    )
