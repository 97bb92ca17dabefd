"""Claims in a project that declares nothing (SPEC §0): a layout blind judge G2 met, a minimal
copy of the real repository's, with a true claim of the same rule kept beside it."""

from __future__ import annotations

from tests.claims import claims
from tests.conftest import ProjectFactory

# tapjs's `src/mock`: tshy builds `src/` once per dialect into `dist/esm/` and
# `dist/commonjs/`, and `src/service-key-cjs.cts` is emitted as `dist/commonjs/service-key.js`.
# `src/service-key.ts` runs from `dist/esm/service-key.js`, so its `createRequire` require of
# `../commonjs/service-key.js` finds the CommonJS build. `../commonjs/gone.js` stands for no
# source: a stale path, still claimed; so is the same require in a package tshy does not build.
TSHY = {
    "package.json": (
        '{"name": "@tapjs/mock", "type": "module", "scripts": {"prepare": "tshy"},'
        ' "tshy": {"exports": {".": "./src/index.ts"}},'
        ' "exports": {".": {"import": "./dist/esm/index.js",'
        ' "require": "./dist/commonjs/index.js"}}}\n'
    ),
    "tsconfig.json": '{"compilerOptions": {"module": "nodenext", "strict": true}}\n',
    "src/index.ts": "export * from './service-key.js'\n",
    "src/service-key-cjs.cts": "export const serviceKey = Symbol('cjs')\n",
    "src/service-key.ts": (
        "import { createRequire } from 'node:module'\n"
        "const require = createRequire(import.meta.url)\n"
        "export const serviceKey = require('../commonjs/service-key.js').serviceKey\n"
        "export const stale = require('../commonjs/gone.js')\n"
    ),
}


def test_a_require_written_for_tshys_emitted_dialect_folder_is_not_judged(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(TSHY)) == ["unresolved-import src/service-key.ts:4"]


def test_the_same_require_outside_a_tshy_package_stays_judged(
    make_project: ProjectFactory,
) -> None:
    manifest = (
        '{"name": "@tapjs/mock", "type": "module",'
        ' "exports": {".": {"import": "./dist/esm/index.js"}}}\n'
    )
    assert claims(make_project({**TSHY, "package.json": manifest})) == [
        "unresolved-import src/service-key.ts:3",
        "unresolved-import src/service-key.ts:4",
    ]
