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
    f"{BASE}/src/root.tsx.ejs": "export default function Root() { return <% if (x) { %>1<% } %>; }\n",
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
        "    config.module.rules.push({ test: /\\.elm$/, use: [{ loader: 'elm-webpack-loader' }] });\n"
        "    return config;\n  },\n};\n"
    ),
    "examples/with-elm/src/index.js": "require('./server');\n",
    "examples/with-elm/src/server.js": "const app = 1;\nrequire('./Main');\nmodule.exports = app;\n",
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
