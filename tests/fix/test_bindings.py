"""rewrite-import is planned only when the entry point exports the very binding the deep
module does (minimal copies of vercel/ai's ``generate-text`` case and its relatives)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from filid.check.project import load_project
from filid.fix.apply import apply_plan
from filid.fix.bindings import _read_located, _read_module
from filid.fix.planner import plan_fixes
from filid.model.violations import FixInfo, Location, Risk, Severity, SyncActionKind, Violation
from filid.parse import parse_source

TSCONFIG = '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n'

OUTPUT = (
    "export interface Output<T = unknown> {\n  parse(text: string): T;\n}\n"
    "export const text = (): Output<string> => ({ parse: value => value });\n"
)


def _write(root: Path, files: dict[str, str]) -> Path:
    for path, content in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)
    return root


def _rewrite(importer: str, entry: str, line: int = 1) -> Violation:
    return Violation(
        rule_id="external-import-boundary",
        severity=Severity.ERROR,
        message="deep import",
        path=importer,
        location=Location(file=importer, line=line, column=1),
        node=importer,
        fix=FixInfo(SyncActionKind.REWRITE_IMPORT, Risk.SAFE, "rewrite", entry),
    )


def _plan(root: Path, importer: str, entry: str = "src/generate-text/index.ts") -> list[str]:
    """The reasons the rewrite of ``importer``'s first import was skipped ([] if planned)."""
    project = load_project(root, use_cache=False)
    plan = plan_fixes(project, [_rewrite(importer, entry)], max_risk=Risk.SAFE)
    assert len(plan.fixes) + len(plan.skipped) == 1
    return [s.reason for s in plan.skipped]


def test_a_namespace_re_export_of_the_same_name_is_another_binding(tmp_path: Path) -> None:
    # vercel/ai packages/ai/src/generate-text/index.ts: rewriting the interface import to
    # the folder made it the namespace (tsc: TS2709 Cannot use namespace 'Output' as a type).
    root = _write(
        tmp_path,
        {
            "tsconfig.json": TSCONFIG,
            "src/generate-text/output.ts": OUTPUT,
            "src/generate-text/index.ts": (
                "export * as Output from './output';\n"
                "export type { Output as OutputInterface } from './output';\n"
            ),
            "src/agent/agent.ts": (
                "import type { Output } from '../generate-text/output';\n"
                "export type Parsed = Output<string>;\n"
            ),
        },
    )
    assert _plan(root, "src/agent/agent.ts") == [
        "src/generate-text/index.ts exports another Output than src/generate-text/output.ts"
    ]


def test_the_same_binding_through_a_chain_of_re_exports_is_rewritten(
    tmp_path: Path, tsc: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "tsconfig.json": TSCONFIG,
            "src/generate-text/output.ts": OUTPUT,
            "src/generate-text/types.ts": "export type { Output as Renamed } from './output';\n",
            "src/generate-text/all.ts": "export * from './types';\n",
            "src/generate-text/index.ts": (
                "import { text } from './output';\nexport { text };\n"
                "export type { Renamed as Output } from './all';\n"
            ),
            "src/agent/agent.ts": (
                "import type { Output } from '../generate-text/output';\n"
                "export type Parsed = Output<string>;\n"
            ),
            "src/agent/run.ts": (
                "import { text } from '../generate-text/output';\nexport const run = text();\n"
            ),
        },
    )
    assert _plan(root, "src/agent/agent.ts") == []
    assert _plan(root, "src/agent/run.ts") == []
    project = load_project(root, use_cache=False)
    plan = plan_fixes(
        project,
        [
            _rewrite("src/agent/agent.ts", "src/generate-text/index.ts"),
            _rewrite("src/agent/run.ts", "src/generate-text/index.ts"),
        ],
        max_risk=Risk.SAFE,
    )
    apply_plan(plan)
    assert (
        (root / "src/agent/agent.ts")
        .read_text()
        .startswith("import type { Output } from '../generate-text';")
    )
    done = subprocess.run([str(tsc), "-p", str(root)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize(
    ("entry", "importer", "reason"),
    [
        pytest.param(
            "export { default as thing } from './thing';\n",
            "import { thing } from '../lib/thing';\nexport const t = thing;\n",
            "src/lib/index.ts exports another thing than src/lib/thing.ts",
            id="default-vs-named",
        ),
        pytest.param(
            "import * as thing from './thing';\nexport { thing };\n",
            "import { thing } from '../lib/thing';\nexport const t = thing;\n",
            "src/lib/index.ts exports another thing than src/lib/thing.ts",
            id="imported-namespace",
        ),
        pytest.param(
            "export type { Thing } from './thing';\n",
            "import { Thing } from '../lib/thing';\nexport const t = new Thing();\n",
            "src/lib/index.ts exports Thing as a type only; this import takes a value",
            id="type-only-for-a-value",
        ),
        pytest.param(
            "export * from './thing';\nexport * from './other';\n",
            "import { thing } from '../lib/thing';\nexport const t = thing;\n",
            "cannot tell what src/lib/index.ts exports as thing",
            id="ambiguous-stars",
        ),
    ],
)
def test_another_binding_of_the_same_name_is_not_rewritten(
    tmp_path: Path, entry: str, importer: str, reason: str
) -> None:
    root = _write(
        tmp_path,
        {
            "tsconfig.json": TSCONFIG,
            "src/lib/thing.ts": (
                "export default 1;\nexport const thing = 2;\nexport class Thing {}\n"
            ),
            "src/lib/other.ts": "export const thing = 3;\n",
            "src/lib/index.ts": entry,
            "src/app/app.ts": importer,
        },
    )
    assert _plan(root, "src/app/app.ts", "src/lib/index.ts") == [reason]


def test_a_type_only_import_may_go_through_a_type_only_re_export(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "tsconfig.json": TSCONFIG,
            "src/lib/thing.ts": "export class Thing {}\n",
            "src/lib/index.ts": "export type { Thing } from './thing';\n",
            "src/app/app.ts": (
                "import { type Thing } from '../lib/thing';\nexport let t: Thing | undefined;\n"
            ),
        },
    )
    assert _plan(root, "src/app/app.ts", "src/lib/index.ts") == []


# Each source's import bindings, read from its located statements, against the whole-file
# parse: aliases, inline `type` specifiers, namespace and default imports, re-exports, a
# missing semicolon, a type-position `import('x')`, comments and non-ASCII text between.
_LOCATED = [
    "import a, { b as c, type d } from './x';\nexport { e as f, type g } from './y';\n",
    "import * as ns from './x'\nimport type { T } from './t'\nconst v = 1\nexport { v }\n",
    "// é\nimport { a } from './x'; let t: typeof import('./y').Z;\nexport * from './z';\n",
    "import './side';\nimport x = require('./r');\nexport type { T } from './t';\n"
    "export * as ns from './n';\nconst f = () => import('./lazy');\n",
    "const s = `é ${1}`;\nimport {\n  a, // a\n  type b,\n} from './x';\nexport type { Q };\n",
]


@pytest.mark.parametrize("source", _LOCATED)
def test_bindings_from_located_statements_equal_the_whole_file_parse(source: str) -> None:
    data = source.encode("utf-8")
    facts = parse_source("src/a.ts", data, full=False)
    located = _read_located("src/a.ts", facts, data)
    whole = _read_module("src/a.ts", data)
    assert located is not None
    assert (located.imports, located.statements, located.type_exports) == (
        whole.imports,
        whole.statements,
        whole.type_exports,
    )


def test_a_file_with_a_syntax_error_or_changed_since_parsed_is_read_whole() -> None:
    broken = b"import { a } from './x';\nconst = ;\n"
    assert _read_located("src/a.ts", parse_source("src/a.ts", broken), broken) is None
    parsed = b"import { a } from './x';\n"
    changed = b"// a new first line\nimport { a } from './x';\n"
    assert _read_located("src/a.ts", parse_source("src/a.ts", parsed), changed) is None
