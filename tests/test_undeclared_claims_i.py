"""What blind judges H1 (applications) and H2 (libraries) found false on repositories nobody
had used, each a minimal copy of the real layout, with a true claim of the same rule kept
beside it (SPEC §0: a project that declares nothing gets only claims that hold)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from filid.cli import cli
from tests.claims import claims, git_project
from tests.conftest import ProjectFactory


def check(*args: str) -> tuple[int, str, str]:
    """``filid check`` in-process: exit code, stdout, stderr."""
    done = CliRunner().invoke(cli, ["check", *args, "--no-cache"], catch_exceptions=False)
    return done.exit_code, done.stdout, done.stderr


# -- an unreadable tsconfig no tool reads (stryker-js) ---------------------------------------

# stryker-js's typescript-checker feeds a tsconfig whose whole text is `invalid tsconfig file`
# to tsc in its tests; the folder holds no source file and no config names it. (The real one
# lies under `testResources/`, a fixture folder: here the folder is named so that only the
# "nothing reads it" rule can leave it out.)
CHECKER = "packages/typescript-checker"
INVALID = f"{CHECKER}/resources/errors/invalid-tsconfig/tsconfig.json"
READABLE = {
    f"{CHECKER}/package.json": '{"name": "@stryker-mutator/typescript-checker"}\n',
    f"{CHECKER}/tsconfig.json": '{"compilerOptions": {"strict": true}, "include": ["src"]}\n',
    f"{CHECKER}/src/index.ts": "import { gone } from './gone';\nexport const c = gone;\n",
    f"{CHECKER}/resources/errors/compile-error/tsconfig.json": "{}\n",
    f"{CHECKER}/resources/errors/compile-error/add.ts": "export const add = 1;\n",
}
STRYKER = {**READABLE, INVALID: "invalid tsconfig file\n"}


def test_an_unreadable_tsconfig_that_governs_no_source_file_is_a_note(
    make_project: ProjectFactory,
) -> None:
    root = make_project(STRYKER)
    code, out, err = check(str(root), "--format", "json", "--fail-on", "never")
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert [(v["ruleId"], v["path"]) for v in report["result"]["violations"]] == [
        ("unresolved-import", f"{CHECKER}/src/index.ts"),  # the rest of the repository is read
    ]
    assert report["notes"] == [
        f"{INVALID}: invalid JSON at line 1 column 1: Expecting value; left out (no source "
        "file's nearest tsconfig is it and no tsconfig extends or references it, so no tool "
        "reads it)"
    ]
    code, out, _ = check(str(root), "--fail-on", "never")
    assert f"note: {INVALID}: invalid JSON" in out  # the text report says so too


def test_an_unreadable_tsconfig_a_source_file_is_governed_by_stops_the_check(
    make_project: ProjectFactory,
) -> None:
    # the same tsconfig beside a source file: every import there would resolve wrongly
    root = make_project({**STRYKER, INVALID.replace("tsconfig.json", "index.ts"): "export {};\n"})
    code, out, err = check(str(root))
    assert (code, out) == (2, "")
    assert err == f"filid: {INVALID}: invalid JSON at line 1 column 1: Expecting value\n"


def test_an_unreadable_tsconfig_governs_the_source_below_it(make_project: ProjectFactory) -> None:
    # no source file beside it, one two folders below with no config between them
    deep = INVALID.replace("tsconfig.json", "src/lib/a.ts")
    code, _, err = check(str(make_project({**STRYKER, deep: "export {};\n"})))
    assert code == 2 and INVALID in err


def test_an_unreadable_tsconfig_another_config_references_stops_the_check(
    make_project: ProjectFactory,
) -> None:
    # no source file below it, but a solution config lists it: `tsc -b` would read it
    solution = json.dumps({"files": [], "references": [{"path": "./resources/errors"}]})
    invalid = f"{CHECKER}/resources/errors/tsconfig.json"
    files = {**READABLE, invalid: "invalid tsconfig file\n", f"{CHECKER}/tsconfig.json": solution}
    code, _, err = check(str(make_project(files)))
    assert code == 2 and invalid in err


def test_an_unreadable_tsconfig_another_config_extends_stops_the_check(
    make_project: ProjectFactory,
) -> None:
    base = f"{CHECKER}/resources/tsconfig.json"
    files = {
        **READABLE,
        base: "{ oops\n",
        f"{CHECKER}/tsconfig.json": '{"extends": "./resources/tsconfig.json"}\n',
    }
    code, _, err = check(str(make_project(files)))
    assert code == 2 and base in err


def test_an_unreadable_jsconfig_beside_a_readable_tsconfig_is_a_note(
    make_project: ProjectFactory,
) -> None:
    # the lookup lands on the folder's tsconfig.json first: the jsconfig governs nothing
    files = {**STRYKER, f"{CHECKER}/jsconfig.json": "{ oops\n"}
    code, out, err = check(str(make_project(files)), "--format", "json", "--fail-on", "never")
    assert (code, err) == (0, "")
    assert json.loads(out)["notes"][0].startswith(f"{CHECKER}/jsconfig.json: invalid JSON")


# -- test data folders (octant's Go `testdata/`, stryker-js's `testResources/`) ---------------


def test_a_typescript_golden_file_in_a_go_testdata_folder_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    # octant's generator test compares its output with `testdata/link-config.ts` as text
    # (`ioutil.ReadFile(filepath.Join("testdata", wantFile))`); the go tool ignores the folder
    files = {
        "go.mod": "module github.com/vmware-tanzu/octant\n",
        "pkg/view/tsgen/tsgen.go": "package tsgen\n",
        "pkg/view/tsgen/testdata/link-config.ts": (
            "// GENERATED: do not edit!\n"
            "import { ComponentFactory } from './component-factory';\n"
            "export interface LinkConfig { factory: ComponentFactory }\n"
        ),
        "web/package.json": '{"name": "octant-web"}\n',
        "web/tsconfig.json": '{"include": ["src"]}\n',
        "web/src/app/link.ts": "import { gone } from './gone';\nexport const l = gone;\n",
    }
    assert claims(make_project(files)) == ["unresolved-import web/src/app/link.ts:1"]


def test_a_source_stryker_instruments_in_test_resources_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    # stryker-js's instrumenter tests read `testResources/instrumenter/lit-html-sample.ts` as
    # text; `testResources/jsconfig.json` only quiets the editor there
    package = "packages/instrumenter"
    files = {
        "tsconfig.settings.json": '{"compilerOptions": {"strict": true}}\n',
        f"{package}/package.json": '{"name": "@stryker-mutator/instrumenter"}\n',
        f"{package}/tsconfig.json": (
            '{"extends": "../../tsconfig.settings.json", "include": ["src"]}\n'
        ),
        f"{package}/src/index.ts": "export const i = 1;\n",
        f"{package}/src/parse.ts": "import { gone } from './gone';\nexport const p = gone;\n",
        f"{package}/testResources/jsconfig.json": (
            '{"extends": "../../../tsconfig.settings.json"}\n'
        ),
        f"{package}/testResources/instrumenter/lit-html-sample.ts": (
            "import { html } from '../lib/htmlHelpers';\nexport const t = html;\n"
        ),
    }
    assert claims(make_project(files)) == [f"unresolved-import {package}/src/parse.ts:1"]


# -- a folder import that finds the folder's index.json (primereact) --------------------------

# primereact's docs site: Next.js 12, plain JavaScript, a jsconfig with `paths` (no checkJs)
PRIMEREACT = {
    "package.json": '{"name": "primereact-site", "scripts": {"build": "next build"}}\n',
    "jsconfig.json": (
        '{"compilerOptions": {"baseUrl": ".", "paths": {"@/components/*": ["components/*"]}}}\n'
    ),
    "next.config.js": "module.exports = {};\n",
    "pages/index.js": "import { DocComponent } from '@/components/doc/common/doccomponent';\n"
    "export default DocComponent;\n",
    "components/doc/common/apidoc/index.json": '{"components": {}}\n',
    "components/doc/common/docapisection.js": (
        "import APIDoc from './apidoc';\nexport const DocApiSection = () => APIDoc;\n"
    ),
    "components/doc/common/doccomponent.js": (
        "import { DocApiSection } from './docapisection';\n"
        "import { GMap } from '@/components/lib/gmap/GMap';\n"  # deleted in e15561afe: true
        "export const DocComponent = () => [DocApiSection, GMap];\n"
    ),
}


def test_a_javascript_folder_import_of_an_index_json_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(PRIMEREACT)) == [
        "unresolved-import components/doc/common/doccomponent.js:2"
    ]


def test_a_typescript_folder_import_of_an_index_json_is_still_a_claim(
    make_project: ProjectFactory,
) -> None:
    # tsc appends `.json` to no specifier, resolveJsonModule or not: TS2307 (below)
    files = {
        **PRIMEREACT,
        "components/doc/common/apisection.ts": (
            "import APIDoc from './apidoc';\nexport const api = APIDoc;\n"
        ),
    }
    assert claims(make_project(files)) == [
        "unresolved-import components/doc/common/apisection.ts:1",
        "unresolved-import components/doc/common/doccomponent.js:2",
    ]


def test_a_checked_javascript_folder_import_of_an_index_json_is_still_a_claim(
    make_project: ProjectFactory,
) -> None:
    # `checkJs`: tsc type-checks the JavaScript file and reports the import (TS2307)
    files = {
        **PRIMEREACT,
        "jsconfig.json": '{"compilerOptions": {"checkJs": true, "resolveJsonModule": true}}\n',
    }
    assert "unresolved-import components/doc/common/docapisection.js:1" in claims(
        make_project(files)
    )


NODE_TOOLS = Path(__file__).resolve().parent / "node"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.skipif(
    not (NODE_TOOLS / "node_modules" / "typescript").is_dir(),
    reason="run `npm install --prefix tests/node` first (CI does)",
)
def test_tsc_resolves_no_folder_import_to_index_json_node_does(
    make_project: ProjectFactory,
) -> None:
    """The ground of the decision above: tsc 5 with `resolveJsonModule` reports the folder
    import in a TypeScript file and in a `checkJs` JavaScript file, not in an unchecked one;
    Node's `require` loads the folder's `index.json`."""
    root = make_project(
        {
            "tsconfig.json": json.dumps(
                {
                    "compilerOptions": {
                        "allowJs": True,
                        "resolveJsonModule": True,
                        "esModuleInterop": True,
                        "noEmit": True,
                        "module": "commonjs",
                        "moduleResolution": "node10",
                    },
                    "include": ["src"],
                }
            ),
            "src/apidoc/index.json": '{"ok": 1}\n',
            "src/section.ts": "import APIDoc from './apidoc';\nexport const a = APIDoc;\n",
            "src/checked.js": "// @ts-check\nconst APIDoc = require('./apidoc');\n"
            "module.exports = APIDoc;\n",
            "src/plain.js": "const APIDoc = require('./apidoc');\nmodule.exports = APIDoc;\n",
        }
    )
    tsc = NODE_TOOLS / "node_modules" / "typescript" / "bin" / "tsc"
    done = subprocess.run(
        ["node", str(tsc), "-p", "."], cwd=root, capture_output=True, text=True, check=False
    )
    reported = sorted(line.split("(")[0] for line in done.stdout.splitlines() if "TS2307" in line)
    assert reported == ["src/checked.js", "src/section.ts"]
    node = subprocess.run(
        ["node", "-p", "JSON.stringify(require('./src/plain.js'))"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    assert node.stdout.strip() == '{"ok":1}'


# -- React Native's scaled images (reactotron) -------------------------------------------------

APP = "apps/example-app"
REACTOTRON = {
    f"{APP}/package.json": json.dumps(
        {"name": "example-app", "dependencies": {"expo": "~51.0.39", "react-native": "0.74.5"}}
    ),
    f"{APP}/tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
    f"{APP}/App.tsx": "import { icons } from './app/components/Icon';\nexport default icons;\n",
    f"{APP}/assets/icons/caretRight@2x.png": "",
    f"{APP}/assets/icons/caretRight@3x.png": "",
    f"{APP}/assets/icons/ladybug.png": "",
    f"{APP}/app/components/Icon.tsx": (
        "export const icons = {\n"
        '  caretRight: require("../../assets/icons/caretRight.png"),\n'
        '  ladybug: require("../../assets/icons/ladybug.png"),\n'
        '  gone: require("../../assets/icons/gone.png"),\n'
        "};\n"
    ),
}


def test_an_image_metro_finds_at_a_scale_is_no_claim_in_a_react_native_app(
    make_project: ProjectFactory,
) -> None:
    # `gone.png` has no variant at all: still a claim
    assert claims(make_project(REACTOTRON)) == [
        f"unresolved-import {APP}/app/components/Icon.tsx:4"
    ]


def test_a_metro_config_makes_a_react_native_project_too(make_project: ProjectFactory) -> None:
    files = {
        **REACTOTRON,
        f"{APP}/package.json": '{"name": "example-app"}\n',
        f"{APP}/metro.config.js": (
            "const { getDefaultConfig } = require('expo/metro-config');\n"
            "module.exports = getDefaultConfig(__dirname);\n"
        ),
    }
    assert claims(make_project(files)) == [f"unresolved-import {APP}/app/components/Icon.tsx:4"]


def test_a_scaled_image_is_still_a_claim_in_a_web_app(make_project: ProjectFactory) -> None:
    # no react-native, no Metro: webpack and Vite find no `@2x` variant for `caretRight.png`
    files = {
        **REACTOTRON,
        f"{APP}/package.json": '{"name": "web", "dependencies": {"react": "18"}}',
    }
    assert claims(make_project(files)) == [
        f"unresolved-import {APP}/app/components/Icon.tsx:2",
        f"unresolved-import {APP}/app/components/Icon.tsx:4",
    ]


# -- a tsconfig's paths outside its program, where the bundler's alias maps (tdesign) ------------

SITE = "packages/tdesign-miniprogram-chat/site"
TDESIGN = {
    "package.json": '{"name": "tdesign-miniprogram", "private": true}\n',
    "packages/pro-components/chat/chat-list/README.md": "# ChatList\n",
    "packages/components/button/README.md": "# Button\n",
    f"{SITE}/package.json": '{"name": "site", "private": true}\n',
    f"{SITE}/tsconfig.json": json.dumps(
        {
            "compilerOptions": {
                "moduleResolution": "node",
                "paths": {"@/*": ["../../components/*"]},
            },
            "include": ["**/*.ts", "**/*.d.ts", "**/*.tsx", "**/*.vue"],
        }
    ),
    f"{SITE}/vite.config.ts": (
        "import path from 'path';\n"
        "export default { resolve: { alias: {\n"
        "  '@': path.resolve(__dirname, '../../pro-components'),\n"
        "  '@components': path.resolve(__dirname, '../../components'),\n"
        "} } };\n"
    ),
    f"{SITE}/router.ts": "import siteConfig from './site.config';\nexport default siteConfig;\n",
    f"{SITE}/site.config.mjs": (
        "export default [{ component: () => import('@/chat/chat-list/README.md') }];\n"
    ),
}


def test_an_alias_outside_the_tsconfig_program_the_bundler_maps_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    # `site.config.mjs` is no root of the tsconfig's program (its `include` lists no `.mjs`,
    # no `allowJs`): neither tsc nor vite-tsconfig-paths applies its `paths` there; Vite's
    # alias `'@'` maps the specifier to `packages/pro-components/chat/chat-list/README.md`
    assert claims(make_project(TDESIGN)) == []


def test_an_alias_inside_the_tsconfig_program_is_still_judged_by_its_paths(
    make_project: ProjectFactory,
) -> None:
    # a `.ts` file the program takes in: tsc resolves `@/…` by `paths` and fails (TS2307)
    files = {
        **TDESIGN,
        f"{SITE}/demo.ts": "import x from '@/button/index';\nexport default x;\n",
    }
    assert claims(make_project(files)) == [f"unresolved-import {SITE}/demo.ts:1"]


def test_an_alias_outside_the_program_no_bundler_maps_is_still_a_claim(
    make_project: ProjectFactory,
) -> None:
    files = {**TDESIGN, f"{SITE}/vite.config.ts": "export default {};\n"}
    assert claims(make_project(files)) == [f"unresolved-import {SITE}/site.config.mjs:1"]


# -- a Vite alias keyed by a regular expression (uppy) ---------------------------------------

GOLDEN = "packages/@uppy/golden-retriever"
UPPY = {
    "package.json": json.dumps(
        {"name": "uppy-monorepo", "private": True, "workspaces": ["packages/@uppy/*", "private/*"]}
    ),
    f"{GOLDEN}/package.json": json.dumps(
        {
            "name": "@uppy/golden-retriever",
            "type": "module",
            "exports": {
                ".": "./lib/index.js",
                "./lib/ServiceWorker.js": "./lib/ServiceWorker.js",
                "./package.json": "./package.json",
            },
        }
    ),
    f"{GOLDEN}/tsconfig.json": '{"compilerOptions": {"outDir": "lib", "rootDir": "src"}}\n',
    f"{GOLDEN}/src/index.ts": "export const restore = 1;\n",
    f"{GOLDEN}/src/ServiceWorker.ts": "export const worker = 1;\n",
    "private/dev/package.json": json.dumps(
        {
            "name": "@uppy-dev/dev",
            "private": True,
            "type": "module",
            "dependencies": {"@uppy/golden-retriever": "workspace:*"},
            "devDependencies": {"vite": "^5"},
        }
    ),
    "private/dev/vite.config.js": (
        "const PACKAGES_ROOT = new URL('../../packages/', import.meta.url).pathname;\n"
        "export default {\n"
        "  build: { rollupOptions: { input: { main: './index.html', sw: './sw.js' } } },\n"
        "  resolve: { alias: [\n"
        "    { find: /^@uppy\\/([^/]+)$/, replacement: `${PACKAGES_ROOT}@uppy/$1/src/index` },\n"
        "    { find: /^@uppy\\/([^/]+)\\/lib\\/(.+?)(\\.js)?$/,\n"
        "      replacement: `${PACKAGES_ROOT}@uppy/$1/src/$2` },\n"
        "  ] },\n"
        "};\n"
    ),
    "private/dev/index.html": "<script type=module src=./main.js></script>\n",
    "private/dev/main.js": "import '@uppy/golden-retriever';\n",
    "private/dev/sw.js": "import '@uppy/golden-retriever/lib/ServiceWorker';\n",
}


def test_a_deep_import_a_vite_regex_alias_rewrites_is_no_unpublished_claim(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(UPPY)) == []


def test_a_deep_import_no_alias_pattern_matches_is_still_unpublished(
    make_project: ProjectFactory,
) -> None:
    # the same import from a package with no bundler config: Node reads the exports map
    files = {
        **UPPY,
        "private/tools/package.json": json.dumps(
            {
                "name": "@uppy-dev/tools",
                "private": True,
                "type": "module",
                "dependencies": {"@uppy/golden-retriever": "workspace:*"},
            }
        ),
        "private/tools/run.js": "import '@uppy/golden-retriever/lib/ServiceWorker';\n",
        # and a pattern that does not match the specifier (`/src/`, not `/lib/`)
        "private/dev/sw2.js": "import '@uppy/golden-retriever/src/ServiceWorker.js';\n",
    }
    assert claims(make_project(files)) == [
        "unpublished-package-import private/dev/sw2.js:1",
        "unpublished-package-import private/tools/run.js:1",
    ]


# -- an alias to a folder whose manifest names git-ignored build output (tutanota) -----------

MIMIMI = "src/app-kit/mimimi"
TUTANOTA = {
    ".gitignore": f"{MIMIMI}/napi-out\n",
    "package.json": '{"name": "tutanota", "private": true}\n',
    "tsconfig.json": '{"extends": "./tsconfig_common.json"}\n',
    "tsconfig_common.json": json.dumps(
        {
            "compilerOptions": {
                "moduleResolution": "bundler",
                "paths": {"@tutao/mimimi": [f"./{MIMIMI}"]},
            }
        }
    ),
    f"{MIMIMI}/package.json": json.dumps(
        {
            "name": "@tutao/node-mimimi",
            "main": "./napi-out/binding.js",
            "types": "./napi-out/binding.d.ts",
            "scripts": {"build": "node make"},
        }
    ),
    f"{MIMIMI}/make.js": "console.log('napi build');\n",
    "src/desktop/DesktopMailImportFacade.ts": (
        "import { ImporterApi } from '@tutao/mimimi';\nexport const api = ImporterApi;\n"
    ),
}


def test_an_alias_to_a_folder_whose_manifest_names_ignored_build_output_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    assert claims(git_project(TUTANOTA, make_project)) == []


def test_an_alias_to_a_folder_whose_manifest_names_a_missing_tracked_path_is_a_claim(
    make_project: ProjectFactory,
) -> None:
    # nothing ignores `napi-out/`: a build does not say it writes there
    files = {**TUTANOTA, ".gitignore": "node_modules\n"}
    assert claims(git_project(files, make_project)) == [
        "unresolved-import src/desktop/DesktopMailImportFacade.ts:1"
    ]


# -- rollup-plugin-content's folder modules (casl) ----------------------------------------------

CASL = {
    "docs-src/package.json": json.dumps(
        {
            "name": "casl-docs",
            "scripts": {"build": "vite build"},
            "devDependencies": {"rollup-plugin-content": "0.8.0", "vite": "^5.0.0"},
        }
    ),
    "docs-src/index.html": "<script type=module src=/src/app.js></script>\n",
    "docs-src/vite.config.js": (
        "import { content } from 'rollup-plugin-content';\n"
        "export default {\n"
        "  build: { lib: { entry: 'src/app.js' } },\n"
        "  plugins: [\n"
        "    content({ entry: /\\.i18n$/, langs: ['en'] }),\n"
        "    content({ entry: /\\.pages$/, files: '**/*.md', langs: ['en'] }),\n"
        "  ],\n"
        "};\n"
    ),
    "docs-src/src/content/pages/guide/intro/en.md": "# Intro\n",
    "docs-src/src/content/app/en.yml": "title: CASL\n",
    "docs-src/src/app.js": "import './services/content';\nimport './services/i18n';\n",
    "docs-src/src/services/content.js": (
        "import * as pagesDetails from '../content/pages.pages';\nexport default pagesDetails;\n"
    ),
    "docs-src/src/services/i18n.js": (
        "import { pages as langUrls } from '../content/app.i18n';\n"
        "import { pages as gone } from '../content/gone.i18n';\n"  # no such folder: a claim
        "export default [langUrls, gone];\n"
    ),
}


def test_a_folder_rollup_plugin_content_turns_into_a_module_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(CASL)) == ["unresolved-import docs-src/src/services/i18n.js:2"]


def test_the_same_imports_without_the_plugin_are_claims(make_project: ProjectFactory) -> None:
    files = {**CASL, "docs-src/vite.config.js": "export default { plugins: [] };\n"}
    assert claims(make_project(files)) == [
        "unresolved-import docs-src/src/services/content.js:1",
        "unresolved-import docs-src/src/services/i18n.js:1",
        "unresolved-import docs-src/src/services/i18n.js:2",
    ]


# -- a private scaffold template folder (arco-design-mobile) ----------------------------------

COMPONENTS = "packages/arcodesign/components"
ARCO = {
    "package.json": '{"name": "arco-design-mobile", "private": true}\n',
    "tsconfig.json": json.dumps(
        {
            "include": [
                "packages/arcodesign/components/**/*.ts",
                "packages/arcodesign/components/**/*.tsx",
            ]
        }
    ),
    f"{COMPONENTS}/context-provider/index.tsx": "export const ContextLayout = 1;\n",
    f"{COMPONENTS}/button/index.tsx": (
        "import { ContextLayout } from '../context-provider';\n"
        "export const Button = ContextLayout;\n"
    ),
    "scripts/init/init-component.js": (
        "const copyPath = 'scripts/init/_comp-template_';\n"
        "const compPathName = 'packages/arcodesign/components';\n"
        "module.exports = { copyPath, compPathName };\n"
    ),
    "scripts/init/_comp-template_/index.tsx": (
        "import { ContextLayout } from '../context-provider';\n"
        "export interface $COMP$Props { layout: typeof ContextLayout }\n"
    ),
    # the template's own test (a test is a reached importer): `import $COMP$ from '..'`
    "scripts/init/_comp-template_/__test__/index.spec.js": (
        "import { defaultContext } from '../../context-provider';\n"
        "import $COMP$ from '..';\n"
        "export default [defaultContext, $COMP$];\n"
    ),
}


def test_a_private_template_folder_a_script_copies_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(ARCO)) == []


def test_a_template_folder_the_code_imports_is_judged(make_project: ProjectFactory) -> None:
    # a file outside the folder imports it: it is code, and its broken import a claim
    files = {
        **ARCO,
        "tsconfig.json": '{"include": ["packages/**/*.tsx", "scripts/**/*.tsx"]}\n',
        "scripts/init/run.tsx": "import './_comp-template_';\n",
    }
    assert claims(make_project(files)) == [
        "unresolved-import scripts/init/_comp-template_/index.tsx:1"
    ]
