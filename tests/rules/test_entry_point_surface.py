"""entry-point-surface: filid follows `export *` through its own resolution (upstream gives up
at any `export *`; on ogham all 33 of its findings are local re-exports filid enumerates)."""

from __future__ import annotations

from collections.abc import Mapping

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.model.violations import Severity, Violation
from tests.conftest import ProjectFactory


def run(make_project: ProjectFactory, files: Mapping[str, str]) -> list[Violation]:
    # Declared (SPEC §0): an undeclared project gets none of the FCA rules, this one included.
    root = make_project(dict(files), declared=True)
    result = evaluate(load_project(root, use_cache=False), rule_ids=["entry-point-surface"])
    return list(result.violations)


def test_named_exports_and_local_star_reexports_are_enumerable(
    make_project: ProjectFactory,
) -> None:
    files = {
        "core/index.ts": "export * from './a/index.js';\nexport * as b from './b';\n"
        "export default 1;\nexport const c = 1;\n",
        "core/a/index.ts": "export * from './x';\n",
        "core/a/x.ts": "export const x = 1;\n",
        "core/b.ts": "export const b = 1;\n",
    }
    assert run(make_project, files) == []


def test_a_star_reexport_of_an_external_package(make_project: ProjectFactory) -> None:
    files = {
        "package.json": '{"name": "app", "dependencies": {"zod": "3"}}\n',
        "core/index.ts": "export { a } from './a';\nexport * from 'zod';\n",
        "core/a.ts": "export const a = 1;\n",
    }
    found = run(make_project, files)
    assert [(v.path, v.severity, v.location.line) for v in found] == [
        ("core/index.ts", Severity.WARNING, 2)
    ]
    assert "indeterminate" in found[0].message and "'zod'" in found[0].message


def test_a_chain_that_ends_outside_the_project(make_project: ProjectFactory) -> None:
    files = {
        "core/index.ts": "export * from './reexports';\n",
        "core/reexports.ts": "export * from 'react';\n",
    }
    found = run(make_project, files)
    assert [v.path for v in found] == ["core/index.ts"]
    assert "core/reexports.ts" in found[0].message


def test_one_finding_per_entry_point(make_project: ProjectFactory) -> None:
    files = {"core/index.ts": "export * from 'a-pkg';\nexport * from 'b-pkg';\n"}
    assert len(run(make_project, files)) == 1


def test_main_files_are_entry_points_and_organs_are_not_checked(
    make_project: ProjectFactory,
) -> None:
    files = {
        "cli/INTENT.md": "# cli\n",
        "cli/main.ts": "export * from 'commander';\n",
        "cli/utils/index.ts": "export * from 'lodash';\n",
    }
    assert [v.path for v in run(make_project, files)] == ["cli/main.ts"]
