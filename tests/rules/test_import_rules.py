"""The import rules on small projects: boundary cases a-d and their allowed counterparts,
cycles (three modules, type-only), pure-function isolation, and barrel detection."""

from __future__ import annotations

import pytest

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.model.violations import Violation
from tests.conftest import ProjectFactory

AUTH = {
    "src/auth/index.ts": "export { login } from './auth';\n",
    "src/auth/auth.ts": "import { hash } from './utils/hash';\nexport const login = hash;\n",
    "src/auth/utils/hash.ts": "export const hash = (s: string): string => s;\n",
}


def boundary(
    make_project: ProjectFactory, extra: dict[str, str], config: object | None = None
) -> list[Violation]:
    project = load_project(make_project({**AUTH, **extra}, config, declared=True), use_cache=False)
    return list(evaluate(project, rule_ids=["external-import-boundary"]).violations)


@pytest.mark.parametrize(
    ("case", "files", "path", "line", "fragment"),
    [
        (
            "a: organ used from outside its owner",
            {"src/app/index.ts": "import { hash } from '../auth/utils/hash';\nexport { hash };\n"},
            "src/app/index.ts",
            1,
            "from organ 'src/auth/utils' of module 'src/auth'",
        ),
        (
            "b: deep import past the entry point",
            {"src/app/index.ts": "\nimport { login } from '../auth/auth';\nexport { login };\n"},
            "src/app/index.ts",
            2,
            "bypasses the entry point of module 'src/auth'",
        ),
        (
            "c: sub-module importing its parent's file",
            {
                "src/auth/session/index.ts": (
                    "import { login } from '../auth';\nexport const s = login;\n"
                ),
            },
            "src/auth/session/index.ts",
            1,
            "sub-module 'src/auth/session' imports 'src/auth/auth.ts' directly",
        ),
        (
            "d: a module importing its own barrel",
            {"src/auth/extra.ts": "import { login } from './index';\nexport const e = login;\n"},
            "src/auth/extra.ts",
            1,
            "imports its own module's barrel",
        ),
    ],
)
def test_each_boundary_case_fires_at_the_import(
    make_project: ProjectFactory,
    case: str,
    files: dict[str, str],
    path: str,
    line: int,
    fragment: str,
) -> None:
    found = boundary(make_project, files)
    assert len(found) == 1, (case, found)
    assert (found[0].path, found[0].location.file, found[0].location.line) == (path, path, line)
    assert fragment in found[0].message, case


@pytest.mark.parametrize(
    ("case", "files"),
    [
        ("through the entry point", {"src/app/index.ts": "export { login } from '../auth';\n"}),
        (
            "an organ used inside its owner",
            {"src/auth/more.ts": "import { hash } from './utils/hash';\nexport const m = hash;\n"},
        ),
        (
            "a deep import into a pure-function folder",
            {
                "src/math/add.ts": "export const add = (a: number): number => a + 1;\n",
                "src/app/index.ts": "import { add } from '../math/add';\nexport const x = add;\n",
            },
        ),
        (
            "the entry point importing its own files",
            {
                "src/auth/index.ts": (
                    "export { login } from './auth';\nexport * from './utils/hash';\n"
                )
            },
        ),
        (
            "test files are not checked",
            {"src/app/app.test.ts": "import { login } from '../auth/auth';\nlogin('x');\n"},
        ),
    ],
)
def test_allowed_counterparts_do_not_fire(
    make_project: ProjectFactory, case: str, files: dict[str, str]
) -> None:
    assert boundary(make_project, files) == [], case


def test_safe_rewrite_only_when_the_entry_point_exports_the_names(
    make_project: ProjectFactory,
) -> None:
    found = boundary(
        make_project,
        {
            "src/auth/auth.ts": "export const login = 1;\nexport const secret = 2;\n",
            "src/app/index.ts": (
                "import { login } from '../auth/auth';\nimport { secret } from '../auth/auth';\n"
                "export { login, secret };\n"
            ),
        },
    )
    risks = {v.location.line: v.fix.risk.value for v in found if v.fix}
    assert risks == {1: "safe", 2: "risky"}


CYCLE3 = {
    "src/a/index.ts": "export { a } from './a';\n",
    "src/a/a.ts": "import { b } from '../b';\nexport const a = (): number => b();\n",
    "src/b/index.ts": "export { b } from './b';\n",
    "src/b/b.ts": "\nimport { c } from '../c';\nexport const b = (): number => c();\n",
    "src/c/index.ts": "export { c } from './c';\n",
    "src/c/c.ts": "import { a } from '../a';\nexport const c = (): number => a() + 1;\n",
}


def test_three_module_cycle_names_members_and_evidence_per_hop(
    make_project: ProjectFactory,
) -> None:
    project = load_project(make_project(CYCLE3), use_cache=False)
    [cycle] = evaluate(project, rule_ids=["circular-dependency"]).violations
    assert cycle.path == "src/a"
    assert cycle.members == ("src/a", "src/b", "src/c")
    # Undeclared: the route is the whole runtime loop, through each barrel it passes.
    assert [(r.file, r.line) for r in cycle.related] == [
        ("src/a/a.ts", 1),
        ("src/b/index.ts", 1),
        ("src/b/b.ts", 2),
        ("src/c/index.ts", 1),
        ("src/c/c.ts", 1),
        ("src/a/index.ts", 1),
    ]
    assert "src/a -> src/b -> src/c -> src/a" in cycle.message
    assert cycle.suggestion == "move the shared part to src/shared"


TYPE_CYCLE = {
    "src/a/index.ts": "import type { B } from '../b';\nexport interface A { b?: B }\n",
    "src/b/index.ts": "import type { A } from '../a';\nexport interface B { a?: A }\n",
}


def test_type_only_cycle_is_ignored_unless_configured(make_project: ProjectFactory) -> None:
    plain = load_project(make_project(TYPE_CYCLE), use_cache=False)
    assert evaluate(plain, rule_ids=["circular-dependency"]).violations == ()
    config = {"rules": {"circular-dependency": {"options": {"includeTypeImports": True}}}}
    typed = load_project(make_project(TYPE_CYCLE, config), use_cache=False)
    [cycle] = evaluate(typed, rule_ids=["circular-dependency"]).violations
    assert cycle.members == ("src/a", "src/b")


@pytest.mark.parametrize(
    ("index", "fires"),
    [
        ("export { a } from './a';\nexport * from './b';\nexport * as ns from './b';\n", False),
        ("import { a } from './a';\nexport { a };\nexport default a;\nexport {};\n", False),
        ("import type { T } from './a';\nexport type { T };\n", False),
        ("export const x = 1;\n", True),
        ("import { a } from './a';\nexport default { a };\n", True),
        ("export { a } from './a';\nif (Math.random()) { console.log('x'); }\n", True),
        ("const local = 1;\nexport { local };\n", True),
    ],
)
def test_barrel_detection(make_project: ProjectFactory, index: str, fires: bool) -> None:
    files = {
        "src/app/index.ts": "import * as m from '../m';\nexport { m };\n",  # uses it as a barrel
        "src/m/index.ts": index,
        "src/m/a.ts": "export const a = 1;\nexport type T = number;\n",
        "src/m/b.ts": "export const b = 1;\n",
    }
    config = {"rules": {"index-barrel-pattern": {"enabled": True}}}  # off unless enabled
    project = load_project(make_project(files, config), use_cache=False)
    found = evaluate(project, rule_ids=["index-barrel-pattern"]).violations
    assert bool(found) is fires


def test_pure_function_isolation_at_each_import(make_project: ProjectFactory) -> None:
    files = {
        "src/billing/index.ts": "export const rate = 2;\n",
        "src/math/add.ts": (
            "import { rate } from '../billing';\nimport { one } from '../consts/one';\n"
            "export const add = (a: number): number => a + rate + one;\n"
        ),
        "src/consts/one.ts": "export const one = 1;\n",
    }
    declared = {"structure": {"pureFunctionPaths": ["src/math", "src/consts"]}}
    project = load_project(make_project(files, declared), use_cache=False)
    found = evaluate(project, rule_ids=["pure-function-isolation"]).violations
    assert [(v.path, v.location.line) for v in found] == [("src/math/add.ts", 1)]
    assert project.tree.nodes["src/math"].category.value == "pure-function"


def test_a_glob_specifier_is_a_pattern_not_an_unresolved_path(
    make_project: ProjectFactory,
) -> None:
    # adobe/react-spectrum: Parcel's glob resolver (and babel's transform-glob-import) turn
    # `'../../intl/tree/*.json'` into one import per locale file (102 false errors).
    files = {
        "package.json": '{"name": "spectrum", "private": true}\n',
        "packages/react-aria/intl/tree/ar-AE.json": '{"a": "b"}\n',
        "packages/react-aria/intl/tree/en-US.json": '{"a": "b"}\n',
        "packages/react-aria/src/tree/useTreeItem.ts": (
            "import intlMessages from '../../intl/tree/*.json';\n"
            "import other from '../../intl/{menu,tree}/*.json';\n"
            "import { gone } from './gone';\n"
            "export const messages = [intlMessages, other, gone];\n"
        ),
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    unresolved = [v.message for v in result.violations if v.rule_id == "unresolved-import"]
    assert unresolved == ["'./gone' resolves to no file of the project"]
