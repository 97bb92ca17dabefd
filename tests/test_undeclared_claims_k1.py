"""What blind judges K1 and K2 found false on repositories nobody had used, each a minimal copy
of the real layout, with a truly broken import of the same shape kept claimed beside it (SPEC
§0: a project that declares nothing gets only claims that hold)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from filid.check.template_tags import template_tag_candidates
from filid.scan.universe import counts_when_absent
from tests.claims import claims, git_project
from tests.conftest import ProjectFactory

# -- Ember/Glint template-tag files (hashicorp/design-system, judge K1 P1) -------------------

COMPONENTS = "packages/components"
REGISTRY = f"{COMPONENTS}/src/template-registry.ts"
HDS = f"{COMPONENTS}/src/components/hds"
DESIGN_SYSTEM = {
    f"{COMPONENTS}/package.json": (
        '{"name": "@hashicorp/design-system-components",'
        ' "devDependencies": {"@glint/ember-tsc": "^1.5.0", "@glint/template": "^1.7.7"},'
        ' "scripts": {"lint:types": "ember-tsc --noEmit", "build": "rollup --config"}}\n'
    ),
    f"{COMPONENTS}/tsconfig.json": (
        '{"include": ["src/**/*"], "compilerOptions": {"allowImportingTsExtensions": true,'
        ' "noEmit": true, "types": ["ember-source/types", "@glint/ember-tsc/types"]}}\n'
    ),
    f"{COMPONENTS}/rollup.config.mjs": (
        "export default { plugins: [{ extensions: ['.js', '.gjs', '.ts', '.gts'] }] };\n"
    ),
    f"{HDS}/advanced-table/index.gts": "<template>{{yield}}</template>\n",
    f"{HDS}/advanced-table/th.gts": "<template><th>{{yield}}</th></template>\n",
    f"{HDS}/rich-tooltip/toggle.gts": "<template><button>{{yield}}</button></template>\n",
    f"{HDS}/badge/index.gjs": "<template><span>{{yield}}</span></template>\n",
    REGISTRY: (
        "import type HdsAdvancedTableComponent from './components/hds/advanced-table';\n"
        "import type HdsAdvancedTableThComponent from './components/hds/advanced-table/th';\n"
        "import type HdsRichTooltipToggleComponent from"
        " './components/hds/rich-tooltip/toggle.ts';\n"
        "import HdsBadge from './components/hds/badge';\n"
        "export default interface Registry {\n"
        "  'Hds::AdvancedTable': typeof HdsAdvancedTableComponent;\n"
        "  'Hds::AdvancedTable::Th': typeof HdsAdvancedTableThComponent;\n"
        "  'Hds::RichTooltip::Toggle': typeof HdsRichTooltipToggleComponent;\n"
        "  'Hds::Badge': typeof HdsBadge;\n"
        "}\n"
    ),
}


def test_an_import_of_a_template_tag_file_is_no_claim(make_project: ProjectFactory) -> None:
    # Glint presents `x.gts` to tsc as `x.ts`: `./x`, the folder `./x`, `./x.ts` all find it
    assert claims(make_project(DESIGN_SYSTEM)) == []


def test_an_import_of_a_missing_component_beside_template_tag_files_is_a_claim(
    make_project: ProjectFactory,
) -> None:
    # the same shapes with no template-tag file behind them: Glint and rollup fail alike
    files = {
        **DESIGN_SYSTEM,
        REGISTRY: DESIGN_SYSTEM[REGISTRY]
        + "import type Gone from './components/hds/advanced-table/td';\n"
        + "import type Folder from './components/hds/accordion';\n"
        + "import type Spelled from './components/hds/rich-tooltip/bubble.ts';\n"
        + "export type Missing = [Gone, Folder, Spelled];\n",
    }
    assert claims(make_project(files)) == [
        f"unresolved-import {REGISTRY}:11",
        f"unresolved-import {REGISTRY}:12",
        f"unresolved-import {REGISTRY}:13",
    ]


def test_a_ts_import_finds_only_a_gts_file_of_its_own_stem() -> None:
    # `.ts` is how Glint presents `.gts`, never `.gjs`; a folder is probed only without extension
    assert template_tag_candidates("src/x.ts") == ("src/x.gts",)
    assert template_tag_candidates("src/x.js") == ("src/x.gts", "src/x.gjs")
    assert template_tag_candidates("src/x") == (
        "src/x.gts",
        "src/x.gjs",
        "src/x/index.gts",
        "src/x/index.gjs",
    )


# ember-primitives' docs app: a route imports `./api-docs`, only `api-docs.gts` exists
EMBER_PRIMITIVES = {
    "docs-app/package.json": (
        '{"name": "docs-app", "devDependencies": {"@embroider/vite": "^1.0.0",'
        ' "@glint/ember-tsc": "^1.0.0"}}\n'
    ),
    "docs-app/tsconfig.json": '{"include": ["app/**/*"]}\n',
    "docs-app/vite.config.mjs": (
        "import { ember, extensions } from '@embroider/vite';\n"
        "export default { resolve: { extensions }, plugins: [ember()] };\n"
    ),
    "docs-app/app/routes/api-docs.gts": "export const APIDocs = <template>docs</template>;\n",
    "docs-app/app/routes/application.ts": (
        "import { APIDocs } from './api-docs';\nexport default APIDocs;\n"
    ),
}


def test_an_extensionless_import_of_a_gts_route_is_no_claim(make_project: ProjectFactory) -> None:
    assert claims(make_project(EMBER_PRIMITIVES)) == []
    files = {**EMBER_PRIMITIVES}
    del files["docs-app/app/routes/api-docs.gts"]
    assert claims(make_project(files)) == ["unresolved-import docs-app/app/routes/application.ts:1"]


# -- a tracked data file whose blob the work tree lacks (js-joda, judge K1 P4) ---------------

TIMEZONE = "packages/timezone"
JS_JODA = {
    f"{TIMEZONE}/package.json": '{"name": "@js-joda/timezone", "main": "dist/index.js"}\n',
    f"{TIMEZONE}/rollup.config.js": (
        "const tzdbLatest = require('./data/unpacked/latest');\n"
        "const packed = require('./data/packed/latest');\n"
        "module.exports = { input: 'src/js-joda-timezone.js', tzdbLatest, packed };\n"
    ),
    f"{TIMEZONE}/src/js-joda-timezone.js": "export const zones = [];\n",
    # karma's config loads the rollup config: a module of the test run, so its imports count
    f"{TIMEZONE}/karma.conf.js": (
        "const { plugins } = require('./rollup.config');\n"
        "module.exports = (config) => config.set({ rollupPreprocessor: { plugins } });\n"
    ),
    f"{TIMEZONE}/data/unpacked/latest.json": '{"zones": {}}\n',
    f"{TIMEZONE}/data/packed/latest.js": "module.exports = { zones: [] };\n",
}
ROLLUP = f"{TIMEZONE}/rollup.config.js"


def _committed_then_absent(root: Path, *absent: str) -> Path:
    """Commit ``root`` and remove ``absent`` from the work tree only (git still tracks them, as
    in a mirror that never fetched their blobs)."""
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=root, check=True)
    for path in absent:
        (root / path).unlink()
    return root


def test_an_import_of_a_tracked_json_file_absent_from_the_work_tree_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    root = _committed_then_absent(make_project(JS_JODA), f"{TIMEZONE}/data/unpacked/latest.json")
    assert claims(root) == []


def test_an_import_of_a_tracked_source_file_absent_from_the_work_tree_is_a_claim(
    make_project: ProjectFactory,
) -> None:
    # a source file the work tree lacks was deleted there: `require` fails on it
    root = _committed_then_absent(make_project(JS_JODA), f"{TIMEZONE}/data/packed/latest.js")
    assert claims(root) == [f"unresolved-import {ROLLUP}:2"]


def test_a_tsconfig_base_absent_from_the_work_tree_is_not_read(
    make_project: ProjectFactory,
) -> None:
    # a tsconfig may extend any JSON file: an absent one is a missing base, as before, and the
    # check does not stop on a file it cannot read
    files = {
        **JS_JODA,
        f"{TIMEZONE}/tsconfig.json": '{"extends": "./configs/base.json", "include": ["src"]}\n',
        f"{TIMEZONE}/configs/base.json": '{"compilerOptions": {"strict": true}}\n',
    }
    root = _committed_then_absent(make_project(files), f"{TIMEZONE}/configs/base.json")
    assert claims(root) == []


def test_what_filid_reads_does_not_count_when_absent() -> None:
    # manifests, tsconfigs, documents, sources and components: absent means deleted
    assert not counts_when_absent("packages/timezone/package.json")
    assert not counts_when_absent("packages/timezone/tsconfig.build.json")
    assert not counts_when_absent("src/INTENT.md")
    assert not counts_when_absent("src/Button.gts")
    assert counts_when_absent("packages/timezone/data/unpacked/latest.json")
    assert counts_when_absent("pkg/core_bg.wasm")


# -- a folder of platform forks only (react-strict-dom, judge K1 P5) -------------------------

EXAMPLE_UI = "apps/example-ui"
STRICT_DOM = {
    "package.json": '{"private": true, "workspaces": ["apps/*"]}\n',
    f"{EXAMPLE_UI}/package.json": '{"private": true, "name": "example-ui", "main": "./index.js"}\n',
    f"{EXAMPLE_UI}/index.js": (
        "export { NativeForkButton } from './NativeForkButton';\n"
        "export { PlatformButton } from './PlatformButton';\n"
    ),
    f"{EXAMPLE_UI}/NativeForkButton/index.jsx": "export const NativeForkButton = () => null;\n",
    f"{EXAMPLE_UI}/NativeForkButton/index.native.jsx": (
        "export const NativeForkButton = () => null;\n"
    ),
    f"{EXAMPLE_UI}/PlatformButton/index.native.jsx": "export const PlatformButton = () => null;\n",
    f"{EXAMPLE_UI}/PlatformButton/index.web.jsx": "export const PlatformButton = () => null;\n",
    "apps/expo-app/package.json": (
        '{"name": "expo-app",'
        ' "dependencies": {"example-ui": "0.0.55", "react-native": "~0.79.5"}}\n'
    ),
    "apps/expo-app/App.js": (
        "import { PlatformButton } from 'example-ui';\nexport default PlatformButton;\n"
    ),
    "apps/vite-app/package.json": (
        '{"name": "vite-app", "dependencies": {"example-ui": "0.0.55"}}\n'
    ),
    "apps/vite-app/vite.config.ts": (
        "const webOnlyExtensions = ['.web.js', '.web.jsx', '.web.ts', '.web.tsx'];\n"
        "export default { resolve: { extensions: [...webOnlyExtensions, '.js', '.jsx'] } };\n"
    ),
}
INDEX = f"{EXAMPLE_UI}/index.js"


def test_a_folder_of_platform_forks_only_is_no_claim(make_project: ProjectFactory) -> None:
    # Metro picks `index.native.jsx`, the web builds list `.web.jsx` first
    assert claims(make_project(STRICT_DOM)) == []


def test_a_folder_without_a_platform_fork_is_a_claim(make_project: ProjectFactory) -> None:
    # `index.webby.jsx` is no platform of Metro's nor of a web build: nothing finds it
    files = {**STRICT_DOM, f"{EXAMPLE_UI}/PlatformButton/index.webby.jsx": "export {};\n"}
    del files[f"{EXAMPLE_UI}/PlatformButton/index.native.jsx"]
    del files[f"{EXAMPLE_UI}/PlatformButton/index.web.jsx"]
    assert claims(make_project(files)) == [f"unresolved-import {INDEX}:2"]


# -- a private template folder `_TEMPLATE_` (react-native-firebase, judge K1 P3) -------------

TEMPLATE = "scripts/_TEMPLATE_"
APP_EXPORTS = (
    '{"name": "@react-native-firebase/app", "main": "./dist/module/index.js",'
    ' "exports": {".": "./dist/module/index.js",'
    ' "./dist/module/internal": "./dist/module/internal/index.js"}}\n'
)
FIREBASE = {
    "package.json": '{"private": true, "workspaces": {"packages": ["packages/*", "tests"]}}\n',
    ".gitignore": "packages/**/version.js\n",
    "packages/app/package.json": APP_EXPORTS,
    "packages/app/lib/internal/index.ts": "export const getFirebaseRoot = () => ({});\n",
    "packages/app/lib/index.ts": "export const firebase = {};\n",
    "packages/auth/package.json": (
        '{"name": "@react-native-firebase/auth", "main": "lib/index.js",'
        ' "dependencies": {"@react-native-firebase/app": "*"}}\n'
    ),
    "packages/auth/lib/index.js": (
        "import { getFirebaseRoot } from '@react-native-firebase/app/dist/module/internal';\n"
        "export const auth = getFirebaseRoot;\n"
    ),
    "scripts/create-firebase-module.js": (
        "const shelljs = require('shelljs');\n"
        "shelljs.cp('-R', 'scripts/_TEMPLATE_', `packages/${process.argv[2]}`);\n"
    ),
    f"{TEMPLATE}/package.json": (
        '{"name": "@react-native-firebase/_template_", "version": "_VERSION_",'
        ' "main": "lib/index.js",'
        ' "scripts": {"build": "genversion --semi lib/version.js", "prepare": "yarn run build"},'
        ' "peerDependencies": {"@react-native-firebase/app": "_VERSION_"}}\n'
    ),
    f"{TEMPLATE}/lib/index.js": (
        "import { getFirebaseRoot } from '@react-native-firebase/app/lib/internal';\n"
        "import version from './version';\n"
        "export const firebase = { root: getFirebaseRoot, version };\n"
    ),
    f"{TEMPLATE}/__tests__/_template_.test.ts": (
        "import { firebase } from '../lib';\nexport const t = firebase;\n"
    ),
}
TEMPLATE_INDEX = f"{TEMPLATE}/lib/index.js"


def test_a_private_template_folder_in_capitals_makes_no_claim(
    make_project: ProjectFactory,
) -> None:
    # copied to `packages/<name>/`, where `lib/version.js` is built and exports are checked
    assert claims(git_project(FIREBASE, make_project)) == []


def test_the_same_folder_imported_from_outside_is_judged(make_project: ProjectFactory) -> None:
    # a real package imports it: code of the repository with an odd name, judged in place
    files = {
        **FIREBASE,
        "packages/auth/lib/extra.js": (
            "export { firebase } from '../../../scripts/_TEMPLATE_/lib';\n"
        ),
    }
    assert claims(git_project(files, make_project)) == [
        f"unpublished-package-import {TEMPLATE_INDEX}:1",
        f"unresolved-import {TEMPLATE_INDEX}:2",
    ]


def test_a_template_named_folder_without_a_leading_underscore_is_judged(
    make_project: ProjectFactory,
) -> None:
    files = {key.replace("_TEMPLATE_", "TEMPLATE_"): text for key, text in FIREBASE.items()}
    index = TEMPLATE_INDEX.replace("_TEMPLATE_", "TEMPLATE_")
    assert claims(git_project(files, make_project)) == [
        f"unpublished-package-import {index}:1",
        f"unresolved-import {index}:2",
    ]


# -- a PHP installer's `stubs/` (laravel/breeze, judge K2 P6) --------------------------------

REACT_TS = "stubs/inertia-react-ts"
BREEZE = {
    "composer.json": '{"name": "laravel/breeze", "type": "library"}\n',
    "src/Console/InstallsInertiaStacks.php": (
        "<?php\n(new Filesystem)->copyDirectory(__DIR__.'/../../stubs/inertia-react-ts/"
        "resources/js', resource_path('js'));\n"
    ),
    f"{REACT_TS}/tsconfig.json": (
        '{"compilerOptions": {"allowJs": true, "jsx": "react-jsx", "noEmit": true,'
        ' "paths": {"@/*": ["./resources/js/*"], "ziggy-js": ["./vendor/tightenco/ziggy"]}},'
        ' "include": ["resources/js/**/*.ts", "resources/js/**/*.tsx"]}\n'
    ),
    f"{REACT_TS}/resources/js/app.tsx": (
        "import './bootstrap';\nimport { Layout } from '@/Layouts/Layout';\n"
        "export const app = Layout;\n"
    ),
    f"{REACT_TS}/resources/js/ssr.tsx": (
        "import { RouteName } from 'ziggy-js';\n"
        "import { route } from '../../vendor/tightenco/ziggy';\n"
        "export const r = (name: RouteName) => route(name);\n"
    ),
    f"{REACT_TS}/resources/js/Layouts/Layout.tsx": "export const Layout = () => null;\n",
}
APP = f"{REACT_TS}/resources/js/app.tsx"
SSR = f"{REACT_TS}/resources/js/ssr.tsx"


def test_the_stubs_of_a_php_installer_make_no_claim(make_project: ProjectFactory) -> None:
    # copied into a Laravel application: its skeleton has `bootstrap.js`, vendor/ has Ziggy
    assert claims(make_project(BREEZE)) == []


def test_stubs_without_a_composer_manifest_are_judged(make_project: ProjectFactory) -> None:
    # a JavaScript repository's `stubs/` folder is code like any other
    files = {**BREEZE}
    del files["composer.json"]
    assert claims(make_project(files)) == [
        f"unresolved-import {APP}:1",
        f"unresolved-import {SSR}:1",
        f"unresolved-import {SSR}:2",
    ]


def test_stubs_a_root_tsconfig_compiles_are_judged(make_project: ProjectFactory) -> None:
    # the repository type-checks its stubs in place: a broken import there fails that check
    files = {
        **BREEZE,
        "tsconfig.json": '{"compilerOptions": {"noEmit": true}, "include": ["stubs/**/*"]}\n',
    }
    del files[f"{REACT_TS}/tsconfig.json"]  # so `ziggy-js` is a package of node_modules
    assert claims(make_project(files)) == [
        f"unresolved-import {APP}:1",
        f"unresolved-import {SSR}:2",
    ]


def test_a_folder_probe_is_not_answered_by_the_files_git_tracks_below_it(
    make_project: ProjectFactory,
) -> None:
    # `require('./data/unpacked')` probes the folder `data/unpacked` itself: git lists the
    # files below a folder pathspec, which do not make the folder a file
    files = {
        **JS_JODA,
        ROLLUP: "const all = require('./data/unpacked');\nmodule.exports = { all };\n",
    }
    root = _committed_then_absent(make_project(files), f"{TIMEZONE}/data/unpacked/latest.json")
    assert claims(root) == [f"unresolved-import {ROLLUP}:1"]
