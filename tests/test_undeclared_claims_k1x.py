"""Claims in a project that declares nothing (SPEC §0): layouts blind judge K1 met, each a
minimal copy of the real repository's. Every test keeps a true claim of the same shape beside
the false one it removes."""

from __future__ import annotations

import json

from tests.claims import claims
from tests.conftest import ProjectFactory

# -- TanStack/create-tsrouter-app: a CLI's project tree whose targets are EJS templates -------
# The CLI renders `root.tsx.ejs` to `root.tsx` in the project it writes.

BASE = "examples/custom-cli/create-qwik-app/project/base"
QWIK = {
    "package.json": json.dumps({"name": "create-tsrouter-app", "private": True}),
    f"{BASE}/package.json.ejs": '{ "name": "<%= projectName %>" }\n',
    f"{BASE}/src/entry.dev.tsx": (
        'import { render } from "@builder.io/qwik";\nimport Root from "./root";\n'
        "export default () => render(document, Root);\n"
    ),
    f"{BASE}/src/root.tsx.ejs": (
        "export default function Root() { return <% if (x) { %>1<% } %>; }\n"
    ),
    f"{BASE}/src/app/Layout.tsx": (
        'import { Header } from "./components/Header";\nexport const L = Header;\n'
    ),
    f"{BASE}/src/app/components/Header.tsx.ejs": "export const Header = 1;\n",
}


def test_a_target_that_exists_as_an_ejs_template_is_present(make_project: ProjectFactory) -> None:
    assert claims(make_project(QWIK)) == []


def test_an_import_no_template_renders_into_stays_claimed(make_project: ProjectFactory) -> None:
    # an Express view `root.ejs` renders HTML, never a module; `Footer` has no template at all
    broken = {
        **QWIK,
        f"{BASE}/src/root.ejs": QWIK[f"{BASE}/src/root.tsx.ejs"],
        f"{BASE}/src/app/Layout.tsx": (
            'import { Header } from "./components/Header";\n'
            'import { Footer } from "./components/Footer";\nexport const L = [Header, Footer];\n'
        ),
    }
    del broken[f"{BASE}/src/root.tsx.ejs"]
    assert claims(make_project(broken)) == [
        f"unresolved-import {BASE}/src/app/Layout.tsx:2",
        f"unresolved-import {BASE}/src/entry.dev.tsx:2",
    ]


def test_a_handlebars_template_of_a_named_file_counts(make_project: ProjectFactory) -> None:
    files = {
        "package.json": json.dumps({"name": "gen", "private": True}),
        "plop/component/index.ts": (
            'import config from "./config.json";\nimport { x } from "./x.js";\n'
            'import { y } from "./y.js";\nexport const c = [config, x, y];\n'
        ),
        "plop/component/config.json.hbs": '{ "name": "{{name}}" }\n',
        "plop/component/x.ts.hbs": "export const x = 1;\n",
        "plop/component/y.hbs": "export const y = 1;\n",
    }
    # `./x.js` names `x.ts` (TypeScript's twin rule), which `x.ts.hbs` renders; `y.hbs`
    # renders a file named `y`, not `y.js`
    assert claims(make_project(files)) == ["unresolved-import plop/component/index.ts:3"]


# -- jaredpalmer/razzle: a build config adds `.elm` to webpack's resolve.extensions -----------

ELM = {
    "package.json": json.dumps({"name": "razzle-examples", "private": True}),
    "examples/with-elm/package.json": json.dumps(
        {"name": "with-elm", "scripts": {"build": "razzle build"}}
    ),
    "examples/with-elm/razzle.config.js": (
        "module.exports = {\n  modifyWebpackConfig(opts) {\n"
        "    const config = opts.webpackConfig;\n"
        "    config.resolve.extensions.push('.elm');\n"
        "    config.module.rules.push(\n"
        "      { test: /\\.elm$/, use: [{ loader: 'elm-webpack-loader' }] });\n"
        "    return config;\n  },\n};\n"
    ),
    "examples/with-elm/src/index.js": "require('./server');\n",
    "examples/with-elm/src/server.js": (
        "const app = 1;\nrequire('./Main');\nmodule.exports = app;\n"
    ),
    "examples/with-elm/src/Main.elm": "module Main exposing (main)\n",
}


def test_a_sibling_whose_extension_a_build_config_adds_resolves(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(ELM)) == []


def test_a_non_javascript_sibling_no_config_resolves_stays_claimed(
    make_project: ProjectFactory,
) -> None:
    # no config lists `.elm` (a loader's test alone does not make webpack try the extension),
    # and `./logo` beside `logo.svg` finds nothing in any bundler
    plain = {
        **ELM,
        "examples/with-elm/razzle.config.js": (
            "module.exports = { modifyWebpackConfig(opts) {\n"
            "  opts.webpackConfig.module.rules.push({ test: /\\.elm$/, loader: 'elm' });\n"
            "  return opts.webpackConfig; } };\n"
        ),
        "examples/with-elm/src/server.js": (
            "require('./Main');\nconst logo = require('./logo');\nmodule.exports = logo;\n"
        ),
        "examples/with-elm/src/logo.svg": "<svg/>\n",
    }
    assert claims(make_project(plain)) == [
        "unresolved-import examples/with-elm/src/server.js:1",
        "unresolved-import examples/with-elm/src/server.js:2",
    ]


# -- visgl/math.gl: parked code its maintainers opted out of tsc and eslint ------------------

WIP = "modules/core/src/gl-matrix/wip"
MATH = {
    "package.json": json.dumps({"name": "math.gl", "private": True, "workspaces": ["modules/*"]}),
    ".eslintignore": "node_modules/\ndist/\n*.md\n**/wip/",
    "tsconfig.json": json.dumps({"compilerOptions": {"allowJs": True, "checkJs": False}}),
    "modules/core/package.json": json.dumps({"name": "@math.gl/core", "main": "dist/index.js"}),
    "modules/core/tsconfig.json": json.dumps(
        {"extends": "../../tsconfig.json", "include": ["src/**/*"]}
    ),
    "modules/core/src/index.ts": "export * as mat4 from './gl-matrix/mat4';\n",
    "modules/core/src/gl-matrix/common.js": "export const EPSILON = 1e-6;\n",
    "modules/core/src/gl-matrix/mat4.ts": (
        "import {EPSILON} from './common.js';\nexport const m = EPSILON;\n"
    ),
    f"{WIP}/index.js": (
        "// math.gl\n// SPDX-License-Identifier: MIT\n\n// @eslint-disable\n// @ts-nocheck\n\n"
        "import * as glMatrix from './common.js';\nimport * as mat2 from './mat2.js';\n"
        "export {glMatrix, mat2};\n"
    ),
    f"{WIP}/mat2.js": (
        "// math.gl\n\n// @ts-nocheck\n/* eslint-disable */\n\n"
        "import * as glMatrix from './common.js';\nexport const m = glMatrix;\n"
    ),
    f"{WIP}/quat2.ts": (
        "// @ts-nocheck\n/* eslint-disable */\nimport * as glMatrix from './common.js';\n"
        "import * as mat4 from './mat4.js';\nexport const q = [glMatrix, mat4];\n"
    ),
}


def test_parked_code_opted_out_of_tsc_and_eslint_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(MATH)) == []


def test_an_orphan_with_no_opt_out_stays_claimed(make_project: ProjectFactory) -> None:
    # vercel/workflow's docs/components/footer.tsx: nothing imports it, `./link` never existed
    files = {
        "package.json": json.dumps({"name": "workflow", "private": True}),
        "docs/components/footer.tsx": "import { Link } from './link';\nexport const F = Link;\n",
    }
    assert claims(make_project(files)) == ["unresolved-import docs/components/footer.tsx:1"]


def test_one_opt_out_alone_or_a_live_importer_keeps_the_claim(
    make_project: ProjectFactory,
) -> None:
    # quat2.ts: `@ts-nocheck` but no eslint opt-out (the ignore file no longer lists `wip/`);
    # mat2.js: both opt-outs, but the package's live index loads it
    files = {
        **MATH,
        ".eslintignore": "dist/\n",
        f"{WIP}/quat2.ts": (
            "// @ts-nocheck\nimport * as glMatrix from './common.js';\nexport const q = glMatrix;\n"
        ),
        "modules/core/src/index.ts": (
            "export * as mat4 from './gl-matrix/mat4';\n"
            "export * as mat2 from './gl-matrix/wip/mat2.js';\n"
        ),
    }
    assert claims(make_project(files)) == [
        f"unresolved-import {WIP}/index.js:7",
        f"unresolved-import {WIP}/mat2.js:6",
        f"unresolved-import {WIP}/quat2.ts:2",
    ]


def test_a_script_opted_out_in_its_own_header_stays_claimed(make_project: ProjectFactory) -> None:
    # ensdomains/ens-app-v3's scripts/importCoinIcons.ts: `// @ts-nocheck`,
    # `/* eslint-disable */`, nothing imports it, and `coinList` was deleted (judge I1: true);
    # listed in `.eslintignore` it is still a script (no export), run by hand
    script = (
        "// @ts-nocheck\n/* eslint-disable */\nimport { resolve } from 'path'\n"
        "import coinList from '../src/constants/coinList'\n"
        "console.log(resolve(process.argv[2]), coinList)\n"
    )
    files = {
        "package.json": json.dumps({"name": "ens-app-v3", "private": True}),
        "src/constants/coinsWithIcons.json": "[]\n",
        "scripts/importCoinIcons.ts": script,
    }
    assert claims(make_project(files)) == ["unresolved-import scripts/importCoinIcons.ts:4"]
    ignored = {**files, ".eslintignore": "scripts/\n"}
    assert claims(make_project(ignored)) == ["unresolved-import scripts/importCoinIcons.ts:4"]
