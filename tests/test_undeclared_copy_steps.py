"""A missing import target that a documented copy step writes (SPEC §0, ``check.copy_steps``).
Layout: blind judge H1's PRQL, a minimal copy. The CodeMirror demo imports ``./prql-lezer``,
which the CI job that builds it copies in from the Lezer grammar's build output; the folder
is neither committed nor ignored. Every test keeps a stale import (``./gone``) beside it."""

from __future__ import annotations

import json

from tests.claims import claims
from tests.conftest import ProjectFactory

DEMO = "web/prql-codemirror-demo"
PRQL_TS = f"{DEMO}/src/lang-prql/prql.ts"
COPY = (
    "mkdir src/lang-prql/prql-lezer\n"
    "cp ../../grammars/prql-lezer/dist/* src/lang-prql/prql-lezer/\n"
)


def _workflow(run: str, working_directory: str | None = f"{DEMO}/") -> str:
    step: dict[str, str] = {"name": "Copy Lezer grammar into demo", "run": run}
    if working_directory is not None:
        step["working-directory"] = working_directory
    job = {
        "runs-on": "ubuntu-24.04",
        "steps": [
            {"uses": "actions/checkout@v4"},
            step,
            {"working-directory": f"{DEMO}/", "run": "bun run build"},
        ],
    }
    return json.dumps({"name": "build-web", "on": "push", "jobs": {"demo": job}})  # YAML ⊃ JSON


PRQL = {
    "package.json": json.dumps({"name": "prql", "private": True}),
    "grammars/prql-lezer/package.json": json.dumps(
        {"name": "prql-lezer", "scripts": {"build": "lezer-generator src/prql.grammar -o dist"}}
    ),
    f"{DEMO}/package.json": json.dumps(
        {"name": "prql-codemirror-demo", "private": True, "scripts": {"build": "tsc && vite build"}}
    ),
    f"{DEMO}/tsconfig.json": json.dumps({"include": ["src"]}),
    f"{DEMO}/index.html": '<script type="module" src="/src/main.ts"></script>\n',
    f"{DEMO}/src/main.ts": "import { prql } from './lang-prql/prql';\nconsole.log(prql);\n",
    PRQL_TS: (
        "import { parser } from './prql-lezer';\n"
        "import { gone } from './gone';\n"
        "export const prql = [parser, gone];\n"
    ),
    ".github/workflows/build-web.yaml": _workflow(COPY),
}
GONE = [f"unresolved-import {PRQL_TS}:2"]
BOTH = [f"unresolved-import {PRQL_TS}:1", *GONE]


def test_a_target_a_ci_step_copies_in_is_no_claim(make_project: ProjectFactory) -> None:
    assert claims(make_project(PRQL)) == GONE


def test_without_the_step_the_import_is_claimed(make_project: ProjectFactory) -> None:
    bare = {k: v for k, v in PRQL.items() if not k.startswith(".github/")}
    assert claims(make_project(bare)) == BOTH


def test_the_step_writes_relative_to_its_working_directory(make_project: ProjectFactory) -> None:
    # run from the repository root, the same commands write `src/lang-prql/prql-lezer`
    at_root = {**PRQL, ".github/workflows/build-web.yaml": _workflow(COPY, None)}
    assert claims(make_project(at_root)) == BOTH
    # a literal `cd` is followed
    cd = f"cd {DEMO} && mkdir -p src/lang-prql/prql-lezer\n"
    followed = {**PRQL, ".github/workflows/build-web.yaml": _workflow(cd, None)}
    assert claims(make_project(followed)) == GONE


def test_a_package_script_copies_in_as_a_ci_step_does(make_project: ProjectFactory) -> None:
    script = (
        "mkdir -p src/lang-prql/prql-lezer && "
        "cp ../../grammars/prql-lezer/dist/* src/lang-prql/prql-lezer/"
    )
    manifest = json.dumps(
        {"name": "prql-codemirror-demo", "scripts": {"prebuild": script, "build": "vite build"}}
    )
    layout = {k: v for k, v in PRQL.items() if not k.startswith(".github/")}
    assert claims(make_project({**layout, f"{DEMO}/package.json": manifest})) == GONE


def test_a_copy_into_a_folder_the_repository_holds_excuses_only_its_file(
    make_project: ProjectFactory,
) -> None:
    # `src/lang-prql/` exists: the step writes `parser.js` there, nothing else
    step = "cp ../../grammars/prql-lezer/dist/parser.js src/lang-prql/\n"
    layout = {
        **PRQL,
        PRQL_TS: (
            "import { parser } from './parser.js';\n"
            "import { gone } from './gone';\n"
            "export const prql = [parser, gone];\n"
        ),
        ".github/workflows/build-web.yaml": _workflow(step),
    }
    assert claims(make_project(layout)) == GONE


def test_an_expansion_names_no_destination(make_project: ProjectFactory) -> None:
    step = "mkdir $OUT/prql-lezer\ncp ../../grammars/prql-lezer/dist/* $OUT/prql-lezer/\n"
    layout = {**PRQL, ".github/workflows/build-web.yaml": _workflow(step)}
    assert claims(make_project(layout)) == BOTH
