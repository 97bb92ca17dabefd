"""A StackBlitz template kept in an Angular workspace's asset folder (blind judge K2:
angular/material.angular.io), with the true claims of the same shape kept beside it (SPEC §0:
a project that declares nothing gets only claims that hold)."""

from __future__ import annotations

import json

from tests.claims import claims
from tests.conftest import ProjectFactory

TEMPLATE = "src/assets/stack-blitz/src/main.ts"
ASSETS = [{"glob": "**/*", "input": "src/assets", "output": "/assets"}, "src/favicon.ico"]
DOCS = {
    "package.json": '{"name": "material-angular-io", "private": true}\n',
    "angular.json": json.dumps(
        {"projects": {"docs": {"architect": {"build": {"options": {"assets": ASSETS}}}}}}
    ),
    "tsconfig.json": '{"compilerOptions": {"strict": true}, "exclude": ["src/assets"]}\n',
    "src/main.ts": "import { AppModule } from './app/app.module';\nexport const app = AppModule;\n",
    "src/app/app.module.ts": "export class AppModule {}\n",
    "src/favicon.ico": "",
    # the template's own project: `example/` is filled in when the example is opened
    "src/assets/stack-blitz/package.json": (
        '{"name": "example-app", "private": true, "scripts": {"build": "ng build"}}\n'
    ),
    "src/assets/stack-blitz/angular.json": json.dumps(
        {"projects": {"app": {"architect": {"build": {"options": {"main": "src/main.ts"}}}}}}
    ),
    "src/assets/stack-blitz/tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
    TEMPLATE: (
        "import { MaterialDocsExample } from './example/material-docs-example';\n"
        "export const example = MaterialDocsExample;\n"
    ),
}


def test_a_template_in_an_angular_asset_folder_is_no_claim(make_project: ProjectFactory) -> None:
    assert claims(make_project(DOCS)) == []


def test_the_same_import_in_the_application_is_a_claim(make_project: ProjectFactory) -> None:
    files = {**DOCS, "src/main.ts": DOCS["src/main.ts"] + DOCS[TEMPLATE]}
    assert claims(make_project(files)) == ["unresolved-import src/main.ts:3"]


def test_without_the_assets_entry_the_template_is_a_claim(make_project: ProjectFactory) -> None:
    workspace = {"projects": {"docs": {"architect": {"build": {"options": {"assets": []}}}}}}
    files = {**DOCS, "angular.json": json.dumps(workspace)}
    assert claims(make_project(files)) == [f"unresolved-import {TEMPLATE}:1"]
