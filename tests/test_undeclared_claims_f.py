"""Claims in a project that declares nothing (SPEC §0): layouts blind judge F2 met on
libraries, SDKs, CLIs and build tools, each a minimal copy of the real repository's. Every
test keeps a true claim of the same rule beside the false one it removes."""

from __future__ import annotations

from filid.check.engine import evaluate
from filid.check.project import load_project
from tests.claims import claims, git_project
from tests.conftest import ProjectFactory

# karma: `static/karma.js` is a committed browserify bundle; every module is a factory
# `function(require,module,exports){…}` whose `require` looks requests up in the bundle's own
# table (`{"./constants":1}`), never on disk (its `require('./karma')` looked like a self
# import, so the file was judged). `client/main.js` calls Node's require and
# `scripts/load.mjs` the one `createRequire` makes: their missing targets stay claims.
KARMA = {
    "package.json": (
        '{"name": "karma", "scripts": {"build": "node scripts/client.js build"},'
        ' "devDependencies": {"browserify": "^17.0.0"}}\n'
    ),
    "client/constants.js": "module.exports = { VERSION: '1' }\n",
    "client/karma.js": "var constants = require('./constants')\nmodule.exports = constants\n",
    "client/main.js": (
        "var karma = require('./karma')\nvar gone = require('./gone')\n"
        "module.exports = [karma, gone]\n"
    ),
    "client/index.js": "module.exports = require('./main')\n",
    "static/karma.js": (
        "(function(){function r(e,n,t){return e}return r})()"
        "({1:[function(require,module,exports){\n"
        "module.exports = { VERSION: '1' }\n"
        "},{}],2:[function(require,module,exports){\n"
        "var constant = require('./constants')\n"
        "var updater = require('./updater')\n"
        "module.exports = [constant, updater]\n"
        '},{"./constants":1,"./updater":3}],3:[function(require,module,exports){\n'
        "module.exports = (require) => require('./reversed.json')\n"
        "},{}],4:[function(require,module,exports){\n"
        "var karma = require('./karma')\n"
        "module.exports = karma\n"
        '},{"./karma":2}]},{},[4]);\n'
    ),
    "scripts/run.mjs": "import { config } from './load.mjs';\nexport default config;\n",
    "scripts/load.mjs": (
        "import { createRequire } from 'node:module';\n"
        "const require = createRequire(import.meta.url);\n"
        "export const config = require('./missing-config.json');\n"
    ),
}


def test_a_bundle_factorys_require_parameter_is_no_import(make_project: ProjectFactory) -> None:
    assert claims(make_project(KARMA)) == [
        "unresolved-import client/main.js:2",
        "unresolved-import scripts/load.mjs:3",
    ]


# vue-cli: `types/cli-service-test.ts` is a typings test that `types/tsconfig.json` (`noEmit`)
# only type-checks; its sample plugin calls `require('./lint')`, which tsc never resolves (it
# types a plain `require()` call `any`) and nothing runs. `import x = require('./gone')` is
# resolved by tsc, which reports the missing file: it stays a claim.
VUE_CLI = {
    "package.json": '{"private": true, "workspaces": ["packages/@vue/*"]}\n',
    "packages/@vue/cli-service/package.json": (
        '{"name": "@vue/cli-service", "main": "lib/Service.js", "typings": "types/index.d.ts"}\n'
    ),
    "packages/@vue/cli-service/webpack.config.js": "module.exports = {}\n",
    "packages/@vue/cli-service/lib/Service.js": "module.exports = class Service {}\n",
    "packages/@vue/cli-service/types/index.d.ts": (
        "export interface PluginAPI { registerCommand(name: string, fn: Function): void }\n"
    ),
    "packages/@vue/cli-service/types/tsconfig.json": (
        '{"files": ["cli-service-test.ts", "index.d.ts"],'
        ' "compilerOptions": {"module": "commonjs", "noEmit": true, "types": []}}\n'
    ),
    "packages/@vue/cli-service/types/cli-service-test.ts": (
        "import { PluginAPI } from './index';\n"
        "import gone = require('./gone');\n"
        "export const plugin = (api: PluginAPI) => {\n"
        "  api.registerCommand('lint', async (args: unknown) => {\n"
        "    await require('./lint')(args, api);\n"
        "  });\n"
        "  return gone;\n"
        "};\n"
    ),
}


def test_a_require_call_only_the_type_checker_reads(make_project: ProjectFactory) -> None:
    assert claims(make_project(VUE_CLI)) == [
        "unresolved-import packages/@vue/cli-service/types/cli-service-test.ts:2"
    ]


# theia: `src/browser/json-schema-store.ts` runs as `lib/browser/json-schema-store.js`
# (`rootDir: "src"`, `outDir: "lib"`); the package's `afterInstall` downloads `catalog.json`
# into `lib/browser/`, which git ignores. A stale script (`./gone`, which tsc would emit from
# a source) and a data file outside `outDir` stay claims.
THEIA = {
    ".gitignore": "node_modules\nlib\n",
    "package.json": '{"private": true, "workspaces": ["packages/*"]}\n',
    "packages/core/package.json": (
        '{"name": "@theia/core", "main": "lib/common/index.js", "files": ["lib", "src"],'
        ' "scripts": {"afterInstall": "npm run download:json-schema",'
        ' "download:json-schema": "node ./scripts/download-catalog.js"}}\n'
    ),
    "packages/core/tsconfig.json": (
        '{"compilerOptions": {"rootDir": "src", "outDir": "lib", "composite": true,'
        ' "module": "commonjs", "resolveJsonModule": true}, "include": ["src"]}\n'
    ),
    "packages/core/scripts/download-catalog.js": "const targetDir = './lib/browser';\n",
    "packages/core/src/common/index.ts": "export * from '../browser/json-schema-store';\n",
    "packages/core/src/browser/json-schema-store.ts": (
        "export const catalog = require('./catalog.json') as { schemas: unknown[] };\n"
        "export const gone = require('./gone');\n"
        "export const stale = require('../../gone.json');\n"
    ),
}


def test_a_data_file_beside_the_emitted_file_in_an_ignored_out_dir(
    make_project: ProjectFactory,
) -> None:
    assert claims(git_project(THEIA, make_project)) == [
        "unresolved-import packages/core/src/browser/json-schema-store.ts:2",
        "unresolved-import packages/core/src/browser/json-schema-store.ts:3",
    ]


# svelte-check: `rollup.config.mjs` bundles `src/index.ts` into `dist/src/index.js` (cjs);
# `src/options.ts`, an ES module, keeps `require('../../package.json')` for Node, which
# resolves it from the bundle ("ends up in dist/src, that's why we go two levels up"): the
# package's manifest. `'../../gone.json'` is found from no place and stays a claim.
SVELTE_CHECK = {
    "package.json": '{"private": true, "workspaces": ["packages/*"]}\n',
    "packages/svelte-check/package.json": (
        '{"name": "svelte-check", "bin": "./bin/svelte-check", "files": ["bin", "dist"],'
        ' "scripts": {"build": "rollup -c"}}\n'
    ),
    "packages/svelte-check/bin/svelte-check": "require('../dist/src/index.js');\n",
    "packages/svelte-check/rollup.config.mjs": (
        "export default [{ input: 'src/index.ts',"
        " output: [{ sourcemap: false, format: 'cjs', file: 'dist/src/index.js' }] }];\n"
    ),
    "packages/svelte-check/tsconfig.json": (
        '{"compilerOptions": {"module": "ES2022", "moduleResolution": "bundler"},'
        ' "include": ["src/**/*"]}\n'
    ),
    "packages/svelte-check/src/index.ts": (
        "import { version, stale } from './options';\nexport const v = [version, stale];\n"
    ),
    "packages/svelte-check/src/options.ts": (
        "import { join } from 'path';\n"
        "export const version = require('../../package.json').version;\n"
        "export const stale = require('../../gone.json').version;\n"
        "export const here = join('a', 'b');\n"
    ),
}


def test_a_require_resolves_from_the_rollup_output_file(make_project: ProjectFactory) -> None:
    assert claims(make_project(SVELTE_CHECK)) == [
        "unresolved-import packages/svelte-check/src/options.ts:3"
    ]


# vercel's `examples/redwoodjs`: Redwood's babel plugin loads `src/pages/FatalErrorPage` from
# `FatalErrorPage/FatalErrorPage.js`. A folder without its namesake (`NotFoundPage/`), and
# the same import in a package that uses no such resolver (`plain/`), stay claims.
_PAGE = "export default function Page() { return null }\n"
REDWOOD = {
    "package.json": '{"private": true, "workspaces": ["web", "plain"]}\n',
    "redwood.toml": "[web]\n  port = 8910\n",
    "web/package.json": (
        '{"name": "web", "private": true, "dependencies": {"@redwoodjs/web": "^0.25.0"}}\n'
    ),
    "web/jsconfig.json": (
        '{"compilerOptions": {"baseUrl": ".", "paths": {"src/*": ["./src/*"]}},'
        ' "include": ["src/**/*"]}\n'
    ),
    "web/src/pages/FatalErrorPage/FatalErrorPage.js": _PAGE,
    "web/src/pages/NotFoundPage/Other.js": _PAGE,
    "web/src/index.js": (
        "import FatalErrorPage from 'src/pages/FatalErrorPage'\n"
        "import NotFoundPage from 'src/pages/NotFoundPage'\n"
        "export default [FatalErrorPage, NotFoundPage]\n"
    ),
    "plain/package.json": '{"name": "plain", "private": true}\n',
    "plain/jsconfig.json": (
        '{"compilerOptions": {"baseUrl": ".", "paths": {"src/*": ["./src/*"]}},'
        ' "include": ["src/**/*"]}\n'
    ),
    "plain/src/pages/FatalErrorPage/FatalErrorPage.js": _PAGE,
    "plain/src/index.js": (
        "import FatalErrorPage from 'src/pages/FatalErrorPage'\nexport default FatalErrorPage\n"
    ),
}


def test_a_folder_import_finds_its_namesake_under_redwood(make_project: ProjectFactory) -> None:
    assert claims(make_project(REDWOOD)) == [
        "unresolved-import plain/src/index.js:1",
        "unresolved-import web/src/index.js:2",
    ]


# vercel's CLI: `scripts/build.mjs` (the `build` script) copies `src/vc.js` into `dist/` and
# writes `dist/version.mjs` beside the copy, which `vc.js` imports. `./gone.mjs`, which no
# build script writes, stays a claim.
VERCEL = {
    ".gitignore": "node_modules\ndist\n",
    "package.json": '{"private": true, "workspaces": ["packages/*"]}\n',
    "packages/cli/package.json": (
        '{"name": "vercel", "bin": {"vc": "./dist/vc.js"},'
        ' "scripts": {"build": "node scripts/build.mjs"}}\n'
    ),
    "packages/cli/tsconfig.json": (
        '{"compilerOptions": {"allowJs": true, "outDir": "dist", "module": "esnext"},'
        ' "include": ["src"]}\n'
    ),
    "packages/cli/scripts/build.mjs": (
        "import { copyFileSync, writeFileSync } from 'node:fs';\n"
        "const repoRoot = new URL('../', import.meta.url);\n"
        "const distRoot = new URL('dist/', repoRoot);\n"
        "copyFileSync(new URL('src/vc.js', repoRoot), new URL('vc.js', distRoot));\n"
        "// Generate version.mjs for fast --version lookup\n"
        "writeFileSync(new URL('version.mjs', distRoot), 'export const version = 1;');\n"
    ),
    "packages/cli/src/index.ts": "export const run = 1;\n",
    "packages/cli/src/vc.js": (
        "if (process.argv[2] === '--version') {\n"
        "  const { version } = await import('./version.mjs');\n"
        "  const { other } = await import('./gone.mjs');\n"
        "  console.log(version, other);\n"
        "}\n"
    ),
}


def test_a_sibling_the_build_writes_beside_its_copy(make_project: ProjectFactory) -> None:
    assert claims(git_project(VERCEL, make_project)) == [
        "unresolved-import packages/cli/src/vc.js:3"
    ]


# LogicFlow: `history/index.ts` reads `LogicFlow` (from `'..'`) only in
# `import GraphData = LogicFlow.GraphData`, an interface used only in types: tsc elides both,
# so `history` ↔ the barrel is no loop. `model/index.ts` reads the class at run time through
# its alias, and its loop stays.
LOGICFLOW = {
    "packages/core/package.json": '{"name": "@logicflow/core", "main": "dist/index.js"}\n',
    "packages/core/tsconfig.json": (
        '{"compilerOptions": {"module": "ES2020", "moduleResolution": "Node", "outDir": "dist"},'
        ' "include": ["src"]}\n'
    ),
    "packages/core/src/index.ts": (
        "import LogicFlow from './LogicFlow';\nexport * from './model';\n"
        "export default LogicFlow;\n"
    ),
    "packages/core/src/LogicFlow.tsx": (
        "import { History } from './history';\n"
        "export class LogicFlow { history = new History(); }\n"
        "export namespace LogicFlow { export interface GraphData { nodes: string[] } }\n"
        "export default LogicFlow;\n"
    ),
    "packages/core/src/history/index.ts": (
        "import LogicFlow from '..';\nimport GraphData = LogicFlow.GraphData;\n"
        "export class History { undos: GraphData[] = []; }\n"
    ),
    "packages/core/src/model/index.ts": (
        "import LogicFlow from '..';\nimport Flow = LogicFlow;\n"
        "export const model = () => new Flow();\n"
    ),
}


def test_an_import_read_only_through_a_type_alias_closes_no_loop(
    make_project: ProjectFactory,
) -> None:
    result = evaluate(load_project(make_project(LOGICFLOW), use_cache=False))
    cycles = sorted(
        v.location.file for v in result.violations if v.rule_id == "circular-dependency"
    )
    assert cycles == ["packages/core/src/model/index.ts"]
