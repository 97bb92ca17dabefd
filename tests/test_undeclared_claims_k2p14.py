"""A relative ``require`` written for where a package script's ``tsc`` emits the file (blind
judge K2, P14: graphql-voyager), with the true claims of the same shape kept beside it (SPEC
§0: a project that declares nothing gets only claims that hold)."""

from __future__ import annotations

from tests.claims import claims
from tests.conftest import ProjectFactory

# `compile:middleware` emits `src/middleware/*.ts` into `middleware/`, where Node runs
# `middleware/hapi.js` and `../package.json` is the package's own manifest.
HAPI = "src/middleware/hapi.ts"
VOYAGER = {
    "package.json": (
        '{"name": "graphql-voyager", "scripts": {'
        '"compile:middleware": "tsc -d src/middleware/index.ts --outDir middleware '
        '--lib ES6,DOM,esnext.asynciterable"}}\n'
    ),
    "tsconfig.json": '{"compilerOptions": {"noEmit": true, "resolveJsonModule": true}}\n',
    "src/middleware/index.ts": "export { hapi } from './hapi';\n",
    HAPI: (
        "const { version } = require('../package.json');\n"
        "export const hapi = { name: 'voyager', version };\n"
    ),
}


def test_a_require_resolving_from_the_scripts_emitted_file_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(VOYAGER)) == []


def test_a_require_that_finds_nothing_from_the_emitted_file_either_is_a_claim(
    make_project: ProjectFactory,
) -> None:
    text = VOYAGER[HAPI] + "const extra = require('../missing.json');\n"
    assert claims(make_project({**VOYAGER, HAPI: text})) == [f"unresolved-import {HAPI}:3"]


def test_an_import_is_resolved_by_tsc_from_the_source_and_stays_a_claim(
    make_project: ProjectFactory,
) -> None:
    text = "import pkg from '../package.json';\nexport const hapi = pkg;\n"
    assert claims(make_project({**VOYAGER, HAPI: text})) == [f"unresolved-import {HAPI}:1"]


def test_a_script_whose_tsc_emits_nowhere_excuses_nothing(make_project: ProjectFactory) -> None:
    script = "tsc -d src/middleware/index.ts --noEmit"
    manifest = f'{{"name": "graphql-voyager", "scripts": {{"check": "{script}"}}}}\n'
    assert claims(make_project({**VOYAGER, "package.json": manifest})) == [
        f"unresolved-import {HAPI}:1"
    ]
