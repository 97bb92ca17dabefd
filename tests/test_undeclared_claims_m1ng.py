"""Paths ng-packagr publishes or writes that the source tree does not show (blind judge M1:
F4, angular/flex-layout's secondary entry points; F5, ng-packagr's own ``require()`` of a
schema its post-build script copies beside the nested ``outDir``), with the true claims of
the same shape kept beside them (SPEC §0: a project that declares nothing gets only claims
that hold)."""

from __future__ import annotations

from tests.claims import claims
from tests.conftest import ProjectFactory

# F4: the library's `exports` lists only Sass subpaths; ng-packagr adds `./_private-utils`
# (a sub-folder with its own `ng-package.json`) to the dist manifest's `exports`.
LIBRARY = "projects/libs/flex-layout"
FLEX = f"{LIBRARY}/flex/flex.ts"
FLEX_LAYOUT = {
    "package.json": '{"name": "flex-layout-srcs", "private": true}\n',
    "tsconfig.json": (
        '{"compilerOptions": {"baseUrl": "./", "moduleResolution": "bundler", "paths": {'
        '"@angular/flex-layout": ["dist/releases/flex-layout"], '
        '"@angular/flex-layout/*": ["dist/releases/flex-layout/*"]}}}\n'
    ),
    f"{LIBRARY}/package.json": (
        '{"name": "@angular/flex-layout", "type": "module", "exports": {'
        '"./mq": {"sass": "./core/sass/_layout-bp.scss"}}}\n'
    ),
    f"{LIBRARY}/ng-package.json": (
        '{"dest": "../../../dist/releases/flex-layout", "lib": {"entryFile": "public-api.ts"}}\n'
    ),
    f"{LIBRARY}/public-api.ts": "export * from './flex/flex';\n",
    f"{LIBRARY}/core/sass/_layout-bp.scss": "$bp: 1px;\n",
    f"{LIBRARY}/_private-utils/ng-package.json": '{"lib": {"entryFile": "index.ts"}}\n',
    f"{LIBRARY}/_private-utils/index.ts": "export const isBrowser = true;\n",
    f"{LIBRARY}/_private-utils/helpers.ts": "export const helper = 1;\n",
    f"{LIBRARY}/_private-utils/testing/ng-package.json": '{"lib": {"entryFile": "index.ts"}}\n',
    f"{LIBRARY}/_private-utils/testing/index.ts": "export const expectEl = 1;\n",
    f"{LIBRARY}/extra/index.ts": "export const extra = 1;\n",
    FLEX: (
        "import { isBrowser } from '@angular/flex-layout/_private-utils';\n"
        "import { expectEl } from '@angular/flex-layout/_private-utils/testing';\n"
        "export const flex = [isBrowser, expectEl];\n"
    ),
}


def test_a_secondary_entry_point_ng_packagr_publishes_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(FLEX_LAYOUT)) == []


def test_the_ng_package_key_of_an_older_library_manifest_marks_entry_points_too(
    make_project: ProjectFactory,
) -> None:
    files = {
        **FLEX_LAYOUT,
        f"{LIBRARY}/package.json": (
            '{"name": "@angular/flex-layout", "exports": {"./mq": "./mq.scss"}, '
            '"ngPackage": {"lib": {"entryFile": "public-api.ts"}}}\n'
        ),
        f"{LIBRARY}/_private-utils/package.json": '{"ngPackage": {}}\n',
    }
    del files[f"{LIBRARY}/ng-package.json"]
    del files[f"{LIBRARY}/_private-utils/ng-package.json"]
    text = "import { isBrowser } from '@angular/flex-layout/_private-utils';\n"
    assert claims(make_project({**files, FLEX: text})) == []


def test_a_deep_file_or_a_folder_no_ng_package_json_marks_stays_a_claim(
    make_project: ProjectFactory,
) -> None:
    text = FLEX_LAYOUT[FLEX] + (
        "import { helper } from '@angular/flex-layout/_private-utils/helpers';\n"
        "import { extra } from '@angular/flex-layout/extra';\n"
        "export const more = [helper, extra];\n"
    )
    assert claims(make_project({**FLEX_LAYOUT, FLEX: text})) == [
        f"unpublished-package-import {FLEX}:4",
        f"unpublished-package-import {FLEX}:5",
    ]


def test_without_ng_packagr_the_source_exports_map_is_what_is_published(
    make_project: ProjectFactory,
) -> None:
    files = dict(FLEX_LAYOUT)
    del files[f"{LIBRARY}/ng-package.json"]
    assert claims(make_project(files)) == [
        f"unpublished-package-import {FLEX}:1",
        f"unpublished-package-import {FLEX}:2",
    ]


# F5: `tsc -p src/tsconfig.packagr.json` emits `src/**` into `dist/src/` (the root config's
# `rootDir: "./src"`, its own `outDir: "../dist/src"`), and the post-build script copies the
# schema to `dist/` and writes `dist/package.json`, nothing into `dist/src/`.
SCHEMA = "src/lib/ng-package/schema.ts"
VERSION = "src/lib/commands/version.command.ts"
NG_PACKAGR = {
    "package.json": (
        '{"name": "ng-packagr", "main": "./src/public_api.js", "scripts": {"build": '
        '"rimraf dist && tsc -p src/tsconfig.packagr.json && node ./scripts/postbuild.js"}}\n'
    ),
    "tsconfig.json": (
        '{"compilerOptions": {"module": "commonjs", "rootDir": "./src"}, "exclude": ["dist"]}\n'
    ),
    "src/tsconfig.packagr.json": (
        '{"extends": "../tsconfig.json", "compilerOptions": {"outDir": "../dist/src"}, '
        '"files": ["public_api.ts"], "exclude": ["**/*.spec.ts"]}\n'
    ),
    "scripts/postbuild.js": (
        "const { copyFileSync, writeFileSync } = require('fs');\n"
        "copyFileSync('src/ng-package.schema.json', 'dist/ng-package.schema.json');\n"
        "writeFileSync('dist/package.json', JSON.stringify({ name: 'ng-packagr' }));\n"
    ),
    "src/ng-package.schema.json": '{"type": "object"}\n',
    "src/public_api.ts": (
        "export { schema } from './lib/ng-package/schema';\n"
        "export { version } from './lib/commands/version.command';\n"
    ),
    SCHEMA: "export const schema = require('../../../ng-package.schema.json');\n",
    VERSION: "export const version = require('../../package.json').version;\n",
}


def test_a_require_of_what_the_post_build_script_copies_beside_the_out_dir_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    # version.command.ts's `../../package.json` is `dist/src/package.json`: nothing writes it
    assert claims(make_project(NG_PACKAGR)) == [f"unresolved-import {VERSION}:1"]


def test_without_the_copy_the_require_from_the_out_dir_stays_a_claim(
    make_project: ProjectFactory,
) -> None:
    script = "require('fs').writeFileSync('dist/package.json', '{}');\n"
    files = {**NG_PACKAGR, "scripts/postbuild.js": script}
    assert claims(make_project(files)) == [
        f"unresolved-import {VERSION}:1",
        f"unresolved-import {SCHEMA}:1",
    ]


def test_a_cp_of_a_package_script_writes_the_required_file_too(
    make_project: ProjectFactory,
) -> None:
    manifest = (
        '{"name": "ng-packagr", "scripts": {"build": "tsc -p src/tsconfig.packagr.json '
        '&& cp src/ng-package.schema.json dist/"}}\n'
    )
    assert claims(make_project({**NG_PACKAGR, "package.json": manifest})) == [
        f"unresolved-import {VERSION}:1"
    ]


def test_a_file_the_configs_program_leaves_out_is_not_emitted_there_and_stays_a_claim(
    make_project: ProjectFactory,
) -> None:
    # only the root config (no `outDir`) compiles it: it is not emitted into `dist/src/`
    tool = "src/lib/ng-package/dump-schema.ts"
    text = "export const schema = require('../../../ng-package.schema.json');\n"
    assert claims(make_project({**NG_PACKAGR, tool: text})) == [
        f"unresolved-import {VERSION}:1",
        f"unresolved-import {tool}:1",
    ]
