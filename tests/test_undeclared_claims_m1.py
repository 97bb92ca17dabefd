"""Round M1 of the blind judges (deepkit/deepkit-framework): TypeScript snippets in an Angular
workspace's asset folder that the start page shows as text, with the true claims of the same
shape kept beside them (SPEC §0: a project that declares nothing gets only claims that hold)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from filid.graph.jsonc import read_jsonc_file
from filid.model.errors import InputError
from tests.claims import claims
from tests.conftest import ProjectFactory

SNIPPET = "website/src/assets/code/startpage-rpc-client.ts"
BUILD = {"options": {"tsConfig": "tsconfig.app.json", "assets": ["src/favicon.ico", "src/assets"]}}
WORKSPACE = {"version": 1, "projects": {"app": {"architect": {"build": BUILD}}}}
SITE = {
    "package.json": '{"name": "deepkit", "private": true, "workspaces": ["website"]}\n',
    "website/package.json": '{"name": "website", "private": true}\n',
    "website/angular.json": json.dumps(WORKSPACE, indent=2) + "\n",
    # the workspace's base config: every target's config extends it; no `include`
    "website/tsconfig.json": json.dumps(
        {"compilerOptions": {"baseUrl": ".", "paths": {"@app/*": ["./src/*"]}}}
    ),
    "website/tsconfig.app.json": json.dumps(
        {
            "extends": "./tsconfig.json",
            "files": ["src/main.ts"],
            "include": ["src/**/*.d.ts"],
        }
    ),
    "website/src/main.ts": "import { App } from '@app/app';\nexport const app = App;\n",
    "website/src/app.ts": "export class App {}\n",
    "website/src/favicon.ico": "",
    # shown on the start page as text; `@app/server/controller` is the reader's app
    SNIPPET: (
        "// @app/client.ts\n"
        "import type { MyController } from '@app/server/controller';\n"
        "export type Client = MyController;\n"
    ),
}


def test_a_snippet_no_angular_program_compiles_is_no_claim(make_project: ProjectFactory) -> None:
    assert claims(make_project(SITE)) == []


def test_an_angular_json_with_text_after_its_object_still_names_its_assets(
    make_project: ProjectFactory,
) -> None:
    # deepkit's angular.json ends with one `}` too many; the Angular CLI's jsonc-parser stops
    # after the first value and builds the site
    files = {**SITE, "website/angular.json": SITE["website/angular.json"] + "}\n"}
    assert claims(make_project(files)) == []


def test_a_snippet_an_angular_program_includes_is_a_claim(make_project: ProjectFactory) -> None:
    app = json.dumps({"extends": "./tsconfig.json", "include": ["src/**/*.ts"]})
    files = {**SITE, "website/tsconfig.app.json": app}
    assert claims(make_project(files)) == [f"unresolved-import {SNIPPET}:2"]


def test_the_same_import_in_the_application_is_a_claim(make_project: ProjectFactory) -> None:
    files = {**SITE, "website/src/main.ts": SITE["website/src/main.ts"] + SITE[SNIPPET]}
    assert claims(make_project(files)) == ["unresolved-import website/src/main.ts:4"]


def test_a_workspace_whose_targets_name_no_program_keeps_the_claim(
    make_project: ProjectFactory,
) -> None:
    # without a `tsConfig`, the folder's own tsconfig.json is the program that takes it in
    build = {"options": {"assets": ["src/assets"]}}
    workspace = {"projects": {"app": {"architect": {"build": build}}}}
    files = {**SITE, "website/angular.json": json.dumps(workspace)}
    assert claims(make_project(files)) == [f"unresolved-import {SNIPPET}:2"]


def test_text_after_the_first_value_is_read_only_when_asked(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"a": 1, /* c */}\n}\n', encoding="utf-8")
    assert read_jsonc_file(tmp_path, "a.json", trailing=True) == {"a": 1}
    with pytest.raises(InputError, match=r"a\.json: invalid JSON at line 2 column 1: Extra data"):
        read_jsonc_file(tmp_path, "a.json")
    (tmp_path / "b.json").write_text('{"a": }\n}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"b\.json: invalid JSON"):
        read_jsonc_file(tmp_path, "b.json", trailing=True)


# VisActor/VTable: a test shim re-exports a deep path of a sibling package that its `exports`
# does not publish; only tests import the shim, and the package's Jest config maps the
# specifier (an unanchored `moduleNameMapper` key) to the sibling's source.
SHIM = "packages/sheet/src/test-shims/plugins.ts"
JEST = (
    "const path = require('path');\n"
    "module.exports = {\n"
    "  preset: 'ts-jest',\n"
    "  moduleNameMapper: {\n"
    "    '@v/plugins': path.resolve(__dirname, '../plugins/src/index.ts'),\n"
    "    '\\\\.(css|less)$': 'identity-obj-proxy',\n"
    "  },\n"
    "};\n"
)
MONOREPO = {
    "package.json": '{"name": "root", "private": true, "workspaces": ["packages/*"]}\n',
    "packages/plugins/package.json": json.dumps(
        {
            "name": "@v/plugins",
            "main": "cjs/index.js",
            "exports": {".": {"require": "./cjs/index.js", "import": "./es/index.js"}},
        }
    ),
    "packages/plugins/src/index.ts": "export const history = 1;\n",
    "packages/sheet/package.json": json.dumps(
        {"name": "@v/sheet", "dependencies": {"@v/plugins": "workspace:*"}}
    ),
    "packages/sheet/jest.config.js": JEST,
    "packages/sheet/src/index.ts": "export const sheet = 1;\n",
    SHIM: "export * from '@v/plugins/cjs/index.js';\n",
    "packages/sheet/__tests__/filter.test.ts": (
        "import * as plugins from '../src/test-shims/plugins';\n"
        "test('plugins', () => expect(plugins).toBeTruthy());\n"
    ),
}


def test_a_deep_import_only_jest_runs_and_maps_is_no_claim(make_project: ProjectFactory) -> None:
    assert claims(make_project(MONOREPO)) == []


def test_the_same_shim_a_source_file_imports_is_a_claim(make_project: ProjectFactory) -> None:
    # a bundler builds src/index.ts without Jest's mapping
    index = "import * as plugins from './test-shims/plugins';\nexport const p = plugins;\n"
    files = {**MONOREPO, "packages/sheet/src/index.ts": index}
    assert claims(make_project(files)) == [f"unpublished-package-import {SHIM}:1"]


def test_an_anchored_mapper_key_that_does_not_match_keeps_the_claim(
    make_project: ProjectFactory,
) -> None:
    jest = JEST.replace("'@v/plugins':", "'^@v/plugins$':")
    files = {**MONOREPO, "packages/sheet/jest.config.js": jest}
    assert claims(make_project(files)) == [f"unpublished-package-import {SHIM}:1"]


def test_the_jest_key_of_a_manifest_maps_the_same(make_project: ProjectFactory) -> None:
    manifest = {
        "name": "@v/sheet",
        "dependencies": {"@v/plugins": "workspace:*"},
        "jest": {"moduleNameMapper": {"@v/plugins": "<rootDir>/../plugins/src/index.ts"}},
    }
    files = {k: v for k, v in MONOREPO.items() if k != "packages/sheet/jest.config.js"}
    files["packages/sheet/package.json"] = json.dumps(manifest)
    assert claims(make_project(files)) == []
