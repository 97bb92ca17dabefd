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
