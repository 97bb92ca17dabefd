"""Module calls the author expects may not load (``ImportFact.guarded``): a fallback inside a
``catch``, or a path the author silenced the compiler on, is no unresolved or unpublished
claim (lit's benchmarks); unguarded calls and plain comments change nothing."""

from __future__ import annotations

from filid.check.engine import evaluate
from filid.check.project import load_project
from filid.parse import parse_source
from tests.conftest import ProjectFactory

LIT_FALLBACK = (
    "let decorators;\n"
    "try {\n"
    "  decorators = await import('lit-element/decorators.js');\n"
    "} catch (e) {\n"
    "  decorators = await (import(\n"
    "    // @ts-expect-error\n"
    "    'lit-element/lib/decorators.js'\n"
    "  ) as Promise<unknown>);\n"
    "}\n"
    "export { decorators };\n"
)


def test_a_compiler_directive_before_a_module_call_guards_it() -> None:
    source = (
        LIT_FALLBACK + "// @ts-ignore\n"
        "export const a = require('./missing-a');\n"
        "export const b = require('./missing-b');\n"
        "export const c = await import(\n"
        "  // a plain comment\n"
        "  './missing-c');\n"
        "// @ts-expect-error the directive applies to the next line only\n"
        "export const d = [1,\n"
        "  require('./missing-d')];\n"
    )
    guarded = {i.specifier: i.guarded for i in parse_source("a.ts", source.encode()).imports}
    assert guarded == {
        "lit-element/decorators.js": True,
        "lit-element/lib/decorators.js": True,
        "./missing-a": True,
        "./missing-b": False,
        "./missing-c": False,
        "./missing-d": False,
    }


def test_a_guarded_import_of_an_unpublished_path_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    files = {
        "package.json": '{"private": true, "workspaces": ["packages/*"]}\n',
        "packages/lit-element/package.json": (
            '{"name": "lit-element", "exports": {"./decorators.js": "./decorators.js"}}\n'
        ),
        "packages/lit-element/decorators.js": "export const customElement = 1;\n",
        "packages/lit-element/lib/decorators.js": "export const customElement = 2;\n",
        "packages/benchmarks/package.json": '{"name": "benchmarks", "private": true}\n',
        "packages/benchmarks/list/index.ts": LIT_FALLBACK,
        "packages/benchmarks/plain.ts": (
            "import { customElement } from 'lit-element/lib/decorators.js';\n"
            "export const c = customElement;\n"
        ),
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    claims = [
        (v.path, v.location.line if v.location else None)
        for v in result.violations
        if v.rule_id == "unpublished-package-import"
    ]
    assert claims == [("packages/benchmarks/plain.ts", 1)]


def test_an_analyzer_s_test_files_are_fixtures_not_claims(make_project: ProjectFactory) -> None:
    # lit's `packages/labs/analyzer/test-files/`: projects the analyzer's tests read as input
    files = {
        "packages/labs/analyzer/package.json": '{"name": "@lit-labs/analyzer"}\n',
        "packages/labs/analyzer/test-files/ts/node-next/src/main.ts": (
            "import '../element-a.js';\nexport const m = 1;\n"
        ),
        "packages/labs/analyzer/src/index.ts": "import { gone } from './gone';\nexport { gone };\n",
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    assert [v.path for v in result.violations if v.rule_id == "unresolved-import"] == [
        "packages/labs/analyzer/src/index.ts"
    ]


def test_bundler_twins_resolve_vue_components_and_platform_files(
    make_project: ProjectFactory,
) -> None:
    # vue-element-admin (Vue CLI: webpack resolves `.vue`) and rainbow (React Native: Metro
    # picks `Icon.ios.tsx` / `Icon.android.tsx` for `./Icon`); `./Gone` stays a claim.
    files = {
        "package.json": '{"name": "app", "dependencies": {"vue": "2", "react-native": "0.74"}}\n',
        "jsconfig.json": '{"compilerOptions": {"baseUrl": "."}, "include": ["src"]}\n',
        "src/main.js": (
            "import App from './App';\nimport Icon from './Icon';\nimport Gone from './Gone';\n"
            "import Tag from './Tag';\nexport default [App, Icon, Gone, Tag];\n"
        ),
        "src/App.vue": "<template><div/></template>\n",
        "src/Tag/index.vue": "<template><span/></template>\n",
        "src/Icon.ios.tsx": "export default 1;\n",
        "src/Icon.android.tsx": "export default 2;\n",
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    assert [v.message for v in result.violations if v.rule_id == "unresolved-import"] == [
        "'./Gone' resolves to no file of the project"
    ]


def test_an_import_of_the_repository_root_package_loads_its_main(
    make_project: ProjectFactory,
) -> None:
    # webpack's tools `require("..")` the repository's root package (`main: lib/index.js`);
    # ajv's `import type … from ".."` finds its `types` in the git-ignored, built `dist/`.
    files = {
        "package.json": '{"name": "webpack", "main": "lib/index.js", "types": "dist/ajv.d.ts"}\n',
        "lib/index.js": "module.exports = {};\n",
        "tools/run.js": "const webpack = require('..');\nmodule.exports = webpack;\n",
        "lib/schema/types.ts": "import type { Ajv } from '../..';\nexport type S = Ajv;\n",
        "lib/gone.js": "module.exports = require('./missing');\n",
        "Makefile.js": "require('./tools/run');\nrequire('./lib/gone');\n",
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    assert [(v.path, v.message) for v in result.violations if v.rule_id == "unresolved-import"] == [
        ("lib/gone.js", "'./missing' resolves to no file of the project")
    ]


def test_a_deep_import_a_bundler_config_aliases_is_no_unpublished_claim(
    make_project: ProjectFactory,
) -> None:
    # preact's demo: `resolve.alias` in demo/vite.config.js maps 'preact/debug/src/debug'
    files = {
        "package.json": (
            '{"name": "preact",\n'
            ' "exports": {".": "./src/index.js", "./debug": "./debug/index.js"}}\n'
        ),
        "src/index.js": "export const h = 1;\n",
        "debug/index.js": "export const d = 1;\n",
        "debug/src/debug.js": "export const debug = 1;\n",
        "devtools/src/devtools.js": "export const devtools = 1;\n",
        "demo/package.json": '{"name": "demo", "private": true, "dependencies": {"preact": "*"}}\n',
        "demo/vite.config.js": (
            "export default { resolve: { alias: {\n"
            "  'preact/debug/src/debug': '../debug/src/debug.js',\n} } };\n"
        ),
        "demo/index.js": (
            "import { debug } from 'preact/debug/src/debug';\n"
            "import { devtools } from 'preact/devtools/src/devtools';\n"
            "export default [debug, devtools];\n"
        ),
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    claims = [
        v.message.split("'")[1]
        for v in result.violations
        if v.rule_id == "unpublished-package-import"
    ]
    assert claims == ["preact/devtools/src/devtools"]


def test_a_relative_path_leaving_the_project_is_not_judged(make_project: ProjectFactory) -> None:
    # openai-node's `src/internal/types.ts` probes the installing project's node_modules
    files = {
        "package.json": '{"name": "openai", "main": "src/index.ts"}\n',
        "src/index.ts": "export type { U } from './internal/types';\n",
        "src/internal/types.ts": (
            "// @ts-ignore\n"
            "export type U = import('../../../node_modules/undici/index.d.ts').RequestInit;\n"
            "export type V = import('../gone').V;\n"
        ),
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    assert [v.message for v in result.violations if v.rule_id == "unresolved-import"] == [
        "'../gone' resolves to no file of the project"
    ]


PG = {
    "package.json": '{"private": true, "workspaces": ["packages/*"]}\n',
    "packages/pg/package.json": (
        '{"name": "pg", "main": "./lib/index.js", "dependencies": {"pg-pool": "^3"}}\n'
    ),
    "packages/pg/lib/index.js": (
        "const Pool = require('pg-pool');\nclass Client {}\nmodule.exports = { Pool, Client };\n"
    ),
    "packages/pg-pool/package.json": (
        '{"name": "pg-pool", "main": "index.js", "peerDependencies": {"pg": ">=8"}}\n'
    ),
    "packages/pg-pool/index.js": (
        "class Pool {\n"
        "  constructor(options, Client) {\n"
        "    this.Client = options.Client || Client || require('pg').Client;\n"
        "  }\n"
        "}\n"
        "module.exports = Pool;\n"
    ),
}


def test_a_package_cycle_closed_by_a_lazy_require_is_a_warning(
    make_project: ProjectFactory,
) -> None:
    # node-postgres: pg-pool requires pg only inside its constructor, as a last fallback
    result = evaluate(load_project(make_project(PG), use_cache=False))
    (cycle,) = [v for v in result.violations if v.rule_id == "circular-dependency"]
    assert cycle.severity.value == "warning", cycle.message
    files = dict(PG)
    files["packages/pg-pool/index.js"] = (
        "const { Client } = require('pg');\n"
        "class Pool { constructor() { this.Client = Client; } }\n"
        "module.exports = Pool;\n"
    )
    result = evaluate(load_project(make_project(files), use_cache=False))
    (cycle,) = [v for v in result.violations if v.rule_id == "circular-dependency"]
    assert cycle.severity.value == "error", cycle.message


def test_a_fixture_s_deep_import_is_no_unpublished_claim(make_project: ProjectFactory) -> None:
    # cloudflare/workers-sdk's `fixtures/import-wasm-example` imports an unexported `.wasm`
    # on purpose (wrangler's fallback resolution ignores `exports`; its test asserts it)
    files = {
        "package.json": '{"private": true, "workspaces": ["fixtures/*", "packages/*"]}\n',
        "fixtures/wasm-static/package.json": (
            '{"name": "@fixture/wasm-static",\n'
            ' "exports": {"./multiply.wasm": "./wasm/multiply.wasm"}}\n'
        ),
        "fixtures/wasm-static/wasm/not-exported.wasm": "\0asm",
        "fixtures/wasm-static/wasm/multiply.wasm": "\0asm",
        "fixtures/wasm-example/package.json": '{"name": "wasm-example", "main": "src/index.js"}\n',
        "fixtures/wasm-example/src/index.js": (
            "import o from '@fixture/wasm-static/wasm/not-exported.wasm';\nexport default o;\n"
        ),
        "packages/app/package.json": '{"name": "app", "main": "src/index.js"}\n',
        "packages/app/src/index.js": (
            "import o from '@fixture/wasm-static/wasm/not-exported.wasm';\nexport default o;\n"
        ),
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    assert [v.path for v in result.violations if v.rule_id == "unpublished-package-import"] == [
        "packages/app/src/index.js"
    ]


def test_a_static_import_the_author_silenced_is_guarded() -> None:
    # graphile/crystal's webpack example imports a build artifact under both directives
    source = (
        "// @ts-ignore\n"
        "// eslint-disable-next-line import/no-unresolved\n"
        'import { schema } from "../../exported-schema-for-webpack.mjs.js";\n'
        "import { b } from './b';\n"
        "// eslint-disable-next-line import-x/no-unresolved\n"
        "import { c } from './c';\n"
        "// eslint-disable-next-line no-console\n"
        "import { d } from './d';\n"
        "// @ts-ignore\n"
        "\n"
        "import { e } from './e';\n"
        "export const all = [schema, b, c, d, e];\n"
    )
    guarded = {i.specifier: i.guarded for i in parse_source("a.ts", source.encode()).imports}
    assert guarded == {
        "../../exported-schema-for-webpack.mjs.js": True,
        "./b": False,
        "./c": True,
        "./d": False,
        "./e": False,
    }


def test_native_addons_submodules_style_sheets_and_build_folders(
    make_project: ProjectFactory,
) -> None:
    # desktop's node-gyp addon, docmost's `ee` submodule (not checked out),
    # simplenote-electron's `import './style'` beside `style.scss` and its tracked
    # `detect/build/index.js` (a folder the universe leaves out by name)
    files = {
        "package.json": '{"name": "app", "main": "src/index.js"}\n',
        "tsconfig.json": '{"compilerOptions": {"allowJs": true}, "include": ["src"]}\n',
        ".gitmodules": '[submodule "ee"]\n\tpath = apps/server/src/ee\n\turl = x\n',
        "src/index.js": (
            "const addon = require('../build/Release/argv.node');\n"
            "const ee = require('../apps/server/src/ee/licence');\n"
            "require('./style');\n"
            "const platform = require('./detect/build');\n"
            "const gone = require('./gone');\n"
            "module.exports = [addon, ee, platform, gone];\n"
        ),
        "src/style.scss": "a { color: red; }\n",
        "src/detect/build/index.js": "module.exports = 'linux';\n",
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    assert [v.message for v in result.violations if v.rule_id == "unresolved-import"] == [
        "'./gone' resolves to no file of the project"
    ]


def test_a_template_file_nothing_imports_is_not_judged(make_project: ProjectFactory) -> None:
    # overleaf's `tools/migrations/lib/20000000000000_template.mjs`: `migrate create` copies it
    # into `tools/migrations/`, where `./lib/helpers.mjs` resolves; a tsconfig compiles it
    files = {
        "package.json": '{"name": "migrations"}\n',
        "tsconfig.json": '{"compilerOptions": {"allowJs": true}, "include": ["lib"]}\n',
        "lib/run.mjs": "import { gone } from './gone.mjs';\nexport const run = () => gone;\n",
        "lib/20000000000000_template.mjs": (
            "import Helpers from './lib/helpers.mjs';\nexport const migrate = Helpers;\n"
        ),
    }
    result = evaluate(load_project(make_project(files), use_cache=False))
    assert [v.path for v in result.violations if v.rule_id == "unresolved-import"] == [
        "lib/run.mjs"
    ]
