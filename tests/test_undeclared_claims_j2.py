"""Claims in a project that declares nothing (SPEC §0): layouts blind judge J2 met, each a
minimal copy of the real repository's. Every test keeps a true claim of the same rule beside
the false one it removes."""

from __future__ import annotations

import json

from click.testing import CliRunner

from filid.cli import cli
from tests.claims import claims, git_project
from tests.conftest import ProjectFactory


def check(*args: str) -> tuple[int, str, str]:
    """``filid check`` in-process: exit code, stdout, stderr."""
    done = CliRunner().invoke(cli, ["check", *args, "--no-cache"], catch_exceptions=False)
    return done.exit_code, done.stdout, done.stderr


# -- remorses/genql: an escape sequence in the specifier ---------------------------------------
# `website/src/components/\x17code-tabs.tsx` (its name starts with U+0017) is imported as
# `'@app/components/\u0017code-tabs'`: the literal's value names the file, tsc and Next find it.

GENQL = {
    "website/package.json": json.dumps({"name": "website", "private": True}),
    "website/tsconfig.json": json.dumps(
        {"compilerOptions": {"baseUrl": ".", "paths": {"@app/*": ["./src/*"]}}}
    ),
    "website/src/components/\x17code-tabs.tsx": "export const CodeTabs = () => null;\n",
    "website/src/components/é.ts": "export const e = 1;\n",
    "website/src/pages/home.tsx": (
        "import { CodeTabs } from '@app/components/\\u0017code-tabs';\n"
        "import { e } from '../components/\\u00e9';\n"
        "import { Gone } from '@app/components/\\u0017gone';\n"
        "import { f } from '../components/\\u00e8';\n"
        "export const Home = () => [CodeTabs, e, Gone, f];\n"
    ),
}


def test_a_specifier_is_resolved_with_its_escapes_decoded(make_project: ProjectFactory) -> None:
    # `\u0017gone` and `\u00e8` (è) name no file once decoded either: they stay
    assert claims(make_project(GENQL)) == [
        "unresolved-import website/src/pages/home.tsx:3",
        "unresolved-import website/src/pages/home.tsx:4",
    ]


# -- nestjs/schematics: a generator's template tsconfig ----------------------------------------
# `src/lib/application/files/ts/` is the application the schematic renders (EJS): its
# tsconfig's `"strict": <%= strict %>` is no JSON until then. The build configs exclude
# `src/**/files/**`; no config extends or references the template.

APP = "src/lib/application/files/ts"
TEMPLATE_TSCONFIG = (
    '{\n  "compilerOptions": {\n    "outDir": "./dist",\n    "strict": <%= strict %>,\n'
    '    "strictPropertyInitialization": false\n  }\n}\n'
)
SCHEMATICS = {
    "package.json": json.dumps({"name": "@nestjs/schematics", "main": "dist/index.js"}),
    "tsconfig.json": json.dumps(
        {
            "compilerOptions": {"rootDir": "src", "outDir": "dist"},
            "include": ["src"],
            "exclude": ["node_modules", "src/**/files/**"],
        }
    ),
    "src/index.ts": "import { application } from './lib/application/application.factory';\n"
    "import { gone } from './lib/gone';\nexport { application, gone };\n",
    "src/lib/application/application.factory.ts": "export const application = 1;\n",
    f"{APP}/tsconfig.json": TEMPLATE_TSCONFIG,
    # the template's own build config, rendered with it
    f"{APP}/tsconfig.build.json": '{"extends": "./tsconfig.json", "exclude": ["test"]}\n',
    f"{APP}/package.json": '{\n  "name": "<%= name %>",\n  "dependencies": {\n'
    '<% if (observe) { %>    "@nestjs/observe": "next",\n<% } %>    "rxjs": "^7"\n  }\n}\n',
    f"{APP}/src/main.ts": (
        "import { AppModule } from './app.module';\nexport const m = AppModule;\n"
    ),
    f"{APP}/src/app.module.ts": "import { AppService } from './app.service';\n"
    "export class AppModule { s?: AppService }\n",
}


def test_a_tsconfig_that_breaks_on_a_template_placeholder_is_a_note(
    make_project: ProjectFactory,
) -> None:
    code, out, err = check(str(make_project(SCHEMATICS)), "--format", "json", "--fail-on", "never")
    assert (code, err) == (0, "")
    report = json.loads(out)
    # the repository's own broken import is still claimed; `./app.service`, which the
    # rendered project gets from another template, is not
    assert [(v["ruleId"], v["path"]) for v in report["result"]["violations"]] == [
        ("unresolved-import", "src/index.ts")
    ]
    assert report["notes"] == [
        f"{APP}/package.json: invalid JSON at line 4 column 1: Expecting property name enclosed "
        "in double quotes; left out (its JSON breaks on a template placeholder: a generator's "
        "template, not a package of this project)",
        f"{APP}/tsconfig.json: invalid JSON at line 4 column 15: Expecting value; left out (its "
        "JSON breaks on a template placeholder and no tsconfig outside its folder extends or "
        "references it: a generator's template, not a config of this project; no import below "
        "it is claimed)",
    ]


def test_a_tsconfig_broken_elsewhere_than_on_a_placeholder_stops_the_check(
    make_project: ProjectFactory,
) -> None:
    # a missing comma after a placeholder inside a string: a broken project config
    broken = '{\n  "compilerOptions": {\n    "outDir": "<%= out %>"\n    "strict": true\n  }\n}\n'
    code, out, err = check(str(make_project({**SCHEMATICS, f"{APP}/tsconfig.json": broken})))
    assert (code, out) == (2, "")
    assert err == (
        f"filid: {APP}/tsconfig.json: invalid JSON at line 4 column 5: Expecting ',' delimiter\n"
    )


def test_a_template_tsconfig_another_config_extends_stops_the_check(
    make_project: ProjectFactory,
) -> None:
    # a config of the repository reads it: tsc would fail on it too
    files = {**SCHEMATICS, "tsconfig.build.json": f'{{"extends": "./{APP}/tsconfig.json"}}\n'}
    code, _, err = check(str(make_project(files)))
    assert code == 2 and f"{APP}/tsconfig.json: invalid JSON at line 4 column 15" in err


def test_no_import_below_a_template_tsconfig_is_claimed(make_project: ProjectFactory) -> None:
    # the root program takes the template in (no `exclude`): its imports are still the
    # rendered project's
    root_config = json.dumps({"compilerOptions": {"outDir": "dist"}, "include": ["src"]})
    assert claims(make_project({**SCHEMATICS, "tsconfig.json": root_config})) == [
        "unresolved-import src/index.ts:2"
    ]


# -- artilleryio/artillery: a shim importing the package's own tsc output ----------------------
# `packages/artillery/util.js` re-exports `./dist/lib/util.js`, which `tsc -p
# tsconfig.build.json` (`rootDir: "."`, `outDir: "./dist"`) emits from the tracked
# `lib/util.ts`. The root `.gitignore`'s `dist/**` is anchored at the root: git does not
# ignore `packages/artillery/dist/`.

PKG = "packages/artillery"
ARTILLERY = {
    ".gitignore": "dist/**\nnode_modules\n",
    "package.json": json.dumps({"name": "artillery-monorepo", "workspaces": ["packages/*"]}),
    # `npm run typecheck` (`tsc -p tsconfig.json`) takes the JavaScript in
    "tsconfig.json": json.dumps(
        {"compilerOptions": {"allowJs": True, "noEmit": True}, "exclude": ["**/dist"]}
    ),
    f"{PKG}/package.json": json.dumps(
        {
            "name": "artillery",
            "main": "./dist/lib/index.js",
            "exports": {"./util": "./util.js", "./console-reporter": "./console-reporter.js"},
        }
    ),
    f"{PKG}/tsconfig.build.json": json.dumps(
        {
            "compilerOptions": {"rootDir": ".", "outDir": "./dist", "allowJs": False},
            "include": ["./lib/**/*.ts"],
            "exclude": ["node_modules", "dist", "test"],
        }
    ),
    f"{PKG}/lib/util.ts": "export const util = 1;\n",
    f"{PKG}/lib/index.ts": "export const index = 1;\n",
    f"{PKG}/util.js": "export * from './dist/lib/util.js';\nexport * from './dist/lib/gone.js';\n",
    f"{PKG}/console-reporter.js": "export { default } from './dist/lib/console-reporter.js';\n",
}


def test_an_import_of_the_out_dir_image_of_a_tracked_source_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    # `lib/gone.ts` and `lib/console-reporter.ts` do not exist: nothing emits those
    assert claims(git_project(ARTILLERY, make_project)) == [
        f"unresolved-import {PKG}/console-reporter.js:1",
        f"unresolved-import {PKG}/util.js:2",
    ]


def test_an_out_dir_image_counts_only_for_a_source_the_config_compiles(
    make_project: ProjectFactory,
) -> None:
    # a `.tsx` source outside the config's `include` (`./lib/**/*.ts`) is not emitted by it
    files = {**ARTILLERY, f"{PKG}/lib/console-reporter.tsx": "export default 1;\n"}
    assert claims(git_project(files, make_project)) == [
        f"unresolved-import {PKG}/console-reporter.js:1",
        f"unresolved-import {PKG}/util.js:2",
    ]
    files[f"{PKG}/lib/console-reporter.ts"] = files.pop(f"{PKG}/lib/console-reporter.tsx")
    assert claims(git_project(files, make_project)) == [f"unresolved-import {PKG}/util.js:2"]


# -- framework7io/framework7: a `.js` import of a compiled single-file component ---------------
# `src/vue/shared/router-open-in.js` imports `'../components/popup.js'`: the build compiles
# `src/vue/components/popup.vue` to `build/vue/components/popup.js`, beside the output of
# `shared/`. No `popup.js` exists in the source tree.

FRAMEWORK7 = {
    "package.json": json.dumps({"name": "framework7", "scripts": {"build": "node build.js"}}),
    "src/vue/components/popup.vue": "<template><div /></template>\n",
    "src/vue/components/view.svelte": "<div />\n",
    "src/vue/framework7-vue.js": "export { openIn } from './shared/router-open-in.js';\n",
    "src/vue/shared/router-open-in.js": (
        "import Popup from '../components/popup.js';\n"
        "import View from '../components/view.js';\n"
        "import Sheet from '../components/sheet.js';\n"
        "export const openIn = [Popup, View, Sheet];\n"
    ),
}


def test_a_js_import_of_a_single_file_component_is_no_claim(make_project: ProjectFactory) -> None:
    # no `sheet.vue`: `../components/sheet.js` finds nothing in any layout
    assert claims(make_project(FRAMEWORK7)) == [
        "unresolved-import src/vue/shared/router-open-in.js:3"
    ]


# -- nats-io/nats.js: copies in a generated TypeDoc site's `media/` ----------------------------
# `docs/services/` is TypeDoc output committed for GitHub Pages; TypeDoc copied
# `services/examples/01_services.ts`, which the README links to, into `media/`. Its
# `"../src/mod.ts"` resolves only from `services/examples/`.

TYPEDOC_PAGE = (
    '<!DOCTYPE html><html class="default"><head><script async src="assets/search.js">'
    '</script></head><body><header class="tsd-page-toolbar"></header></body></html>\n'
)
EXAMPLE = 'import { Svc } from "../src/mod.ts";\nexport const s = Svc;\n'
NATS = {
    "deno.json": json.dumps({"lint": {"exclude": ["docs/"]}}),
    "services/src/mod.ts": "export const Svc = 1;\n",
    "services/examples/01_services.ts": EXAMPLE,
    "docs/services/index.html": TYPEDOC_PAGE,
    "docs/services/assets/search.js": "window.searchData = '';\n",
    "docs/services/assets/main.js": "export {};\n",
    "docs/services/media/01_services.ts": EXAMPLE,
    # the same copy in a `media/` folder of a hand-written page: judged
    "site/index.html": "<!DOCTYPE html><html><body><h1>nats</h1></body></html>\n",
    "site/assets/search.js": "export {};\n",
    "site/media/01_services.ts": EXAMPLE,
    "bin/os_compatibility.ts": (
        'import { connect } from "../src/mod.ts";\nexport const c = connect;\n'
    ),
}


def test_a_copy_in_a_typedoc_sites_media_folder_is_no_claim(make_project: ProjectFactory) -> None:
    # `bin/`'s import of the deleted root `src/mod.ts` is nats.js's one true error
    assert claims(make_project(NATS)) == [
        "unresolved-import bin/os_compatibility.ts:1",
        "unresolved-import site/media/01_services.ts:1",
    ]


# -- remix-run/react-router-templates: `rootDirs` in a Deno config -----------------------------
# `deno/deno.jsonc` (comments, trailing commas) sets `"rootDirs": [".", "./.react-router/types"]`;
# `react-router typegen` writes `.react-router/types/app/+types/root.ts` (git-ignored). The
# folder has no tsconfig.

DENO_JSONC = (
    "{\n  // Deno reads its compiler options here\n"
    '  "tasks": { "typegen": "deno run -A npm:@react-router/dev typegen", },\n'
    '  "compilerOptions": {\n    "jsx": "react-jsx",\n'
    '    "rootDirs": [".", "./.react-router/types"],\n  },\n}\n'
)
ROUTE = 'import type { Route } from "./+types/root.ts";\nexport const r: Route | null = null;\n'
TEMPLATES = {
    "deno/.gitignore": "/.react-router/\n",
    "deno/package.json": json.dumps({"name": "deno-template", "private": True}),
    "deno/deno.jsonc": DENO_JSONC,
    "deno/app/root.tsx": ROUTE,
    # the same import in a Deno project without `rootDirs`: nothing maps `./+types`
    "plain/package.json": json.dumps({"name": "plain-template", "private": True}),
    "plain/deno.json": json.dumps({"compilerOptions": {"jsx": "react-jsx"}}),
    "plain/app/root.tsx": ROUTE,
}


def test_root_dirs_in_a_deno_config_merge_the_generated_types(
    make_project: ProjectFactory,
) -> None:
    assert claims(git_project(TEMPLATES, make_project)) == [
        "unresolved-import plain/app/root.tsx:1"
    ]


def test_a_nearer_tsconfig_overrides_the_deno_config(make_project: ProjectFactory) -> None:
    files = {**TEMPLATES, "deno/app/tsconfig.json": json.dumps({"compilerOptions": {}})}
    assert claims(git_project(files, make_project)) == [
        "unresolved-import deno/app/root.tsx:1",
        "unresolved-import plain/app/root.tsx:1",
    ]


# -- preactjs/wmr: the demo wmr itself builds ---------------------------------------------------
# `examples/demo` depends on `wmr`; its `public/index.tsx` imports `'./pages/home.js'`, which
# wmr's resolve-extensions plugin finds as `pages/home/index.js`.

WMR_DEMO = {
    "examples/demo/package.json": json.dumps(
        {"name": "@examples/demo", "private": True, "devDependencies": {"wmr": "*"}}
    ),
    "examples/demo/public/pages/home/index.js": "export default function Home() {}\n",
    "examples/demo/public/index.tsx": (
        "import Home from './pages/home.js';\nimport About from './pages/about.js';\n"
        "export const pages = [Home, About];\n"
    ),
}


def test_wmr_finds_a_folder_index_for_a_js_specifier(make_project: ProjectFactory) -> None:
    # no `pages/about*`: wmr finds nothing either
    assert claims(make_project(WMR_DEMO)) == ["unresolved-import examples/demo/public/index.tsx:2"]


def test_a_js_specifier_naming_a_folder_is_judged_outside_wmr(
    make_project: ProjectFactory,
) -> None:
    manifest = json.dumps({"name": "@examples/demo", "private": True})
    files = {**WMR_DEMO, "examples/demo/package.json": manifest}
    assert claims(make_project(files)) == [
        "unresolved-import examples/demo/public/index.tsx:1",
        "unresolved-import examples/demo/public/index.tsx:2",
    ]


# -- redux-form/redux-form: Flow `import type` of a `.js.flow` declaration file ----------------
# `src/types.js.flow` is tracked, `src/types.js` is not; Flow reads the `.flow` file for
# `./types`, and babel's flow preset erases the `import type`.

REDUX_FORM = {
    ".flowconfig": "[ignore]\n<PROJECT_ROOT>/dist/.*\n",
    "package.json": json.dumps({"name": "redux-form", "main": "lib/index.js"}),
    "src/types.js.flow": "// @flow\nexport type Structure = {};\n",
    "src/values.js.flow": "// @flow\nexport const values = 1;\n",
    "src/index.js": "// @flow\nexport { s, values } from './createField';\n",
    "src/createField.js": (
        "// @flow\n"
        "import type { Structure } from './types'\n"
        "import { values } from './values'\n"
        "import type { Gone } from './gone'\n"
        "export const s: ?Structure = null;\nexport { values };\n"
    ),
}


def test_a_flow_type_import_finds_its_js_flow_declaration(make_project: ProjectFactory) -> None:
    # a value import of a `.js.flow`-only module fails at run time; `./gone` has no file
    assert claims(make_project(REDUX_FORM)) == [
        "unresolved-import src/createField.js:3",
        "unresolved-import src/createField.js:4",
    ]


# -- fabricjs/fabric.js (judge C2, true): a TypeScript `import type` of a build folder --------
# `vitest.extend.ts` imports types from `./dist-extensions`, which the build never fills with an
# index (tsc emits `dist-extensions/extensions/index.d.ts`). The folder is git-ignored except
# its `.ts` files, so a `dist-extensions/index.js.flow` would be "ignored": no Flow declaration
# exists, and a TypeScript importer never reads one.

FABRIC = {
    ".gitignore": "/dist-extensions/*\n!/dist-extensions/**/*.ts\n",
    "package.json": json.dumps({"name": "fabric", "type": "module"}),
    "tsconfig.json": json.dumps({"compilerOptions": {"moduleResolution": "bundler"}}),
    "index.ts": "export class FabricImage {}\n",
    "vitest.extend.ts": (
        "import type { FabricImage } from './dist-extensions';\n"
        "export type Extended = FabricImage;\n"
    ),
}


def test_an_ignored_flow_declaration_excuses_no_typescript_type_import(
    make_project: ProjectFactory,
) -> None:
    root = git_project(FABRIC, make_project)
    assert claims(root) == ["unresolved-import vitest.extend.ts:1"]


# -- bitburner-official/bitburner-src (judge J1): a CommonJS require of a native addon -------------
# `electron/greenworks.js` requires `./lib/greenworks-osx64`; `lib/greenworks-osx64.node` is a
# committed binary, which Node's CommonJS resolver finds (`X`, `X.js`, `X.json`, `X.node`).

BITBURNER = {
    "electron/package.json": json.dumps({"name": "bitburner", "main": "main.js"}),
    "electron/main.js": (
        "const greenworks = require('./greenworks');\nconst esm = import('./esm.mjs');\n"
        "module.exports = [greenworks, esm];\n"
    ),
    "electron/greenworks.js": (
        "let greenworks = require('./lib/greenworks-osx64');\n"
        "const gone = require('./lib/greenworks-gone');\n"
        "module.exports = [greenworks, gone];\n"
    ),
    "electron/lib/greenworks-osx64.node": b"\x7fELF",
    "electron/esm.mjs": "import g from './lib/greenworks-osx64';\nexport default g;\n",
}


def test_a_require_finds_a_native_addon_without_its_extension(
    make_project: ProjectFactory,
) -> None:
    # an ESM import does not try `.node`; `greenworks-gone` has no file at all
    assert claims(make_project(BITBURNER)) == [
        "unresolved-import electron/esm.mjs:1",
        "unresolved-import electron/greenworks.js:2",
    ]
