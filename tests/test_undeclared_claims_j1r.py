"""What blind judge J1 (applications) found debatable or false on repositories nobody had
used, each a minimal copy of the real layout, with a true claim of the same shape kept beside
it (SPEC §0: a project that declares nothing gets only claims that hold)."""

from __future__ import annotations

from filid.check.unchecked_files import has_nocheck_pragma
from tests.claims import claims
from tests.conftest import ProjectFactory

# -- an erased import in a `// @ts-nocheck` file (bigcapital, judge J1 D1) -------------------

# `packages/server/src/interfaces/` lost its `index.ts` in the NestJS migration; the
# `// @ts-nocheck` utils still import two interfaces from it, read only as types, and
# `nest build` (tsc) elides the import. The webapp's dead HOC imports a value from a store
# module that is gone: the bundle fails to load it, pragma or not.
SERVER = "packages/server"
BIGCAPITAL = {
    f"{SERVER}/package.json": '{"name": "@bigcapital/server"}\n',
    f"{SERVER}/tsconfig.json": (
        '{"compilerOptions": {"baseUrl": "./", "paths": {"@/*": ["./src/*"]}},'
        ' "include": ["src"]}\n'
    ),
    f"{SERVER}/src/interfaces/Account.ts": "export interface IAccount { id: number }\n",
    f"{SERVER}/src/utils/address.ts": "export const format = (a: string) => a.trim();\n",
    f"{SERVER}/src/modules/CreditNotes/utils.ts": (
        "// @ts-nocheck\n"
        "import { CreditNotePdfTemplateAttributes, ICreditNote } from '@/interfaces';\n"
        "import { format } from '@/utils/address';\n"
        "\n"
        "export const transform = (\n"
        "  creditNote: ICreditNote\n"
        "): Partial<CreditNotePdfTemplateAttributes> => ({ name: format(creditNote.name) });\n"
    ),
    f"{SERVER}/src/modules/Media/withMediaActions.ts": (
        "// @ts-nocheck\n"
        "import { submitMedia } from '@/store/media/media.actions';\n"
        "export const withMediaActions = () => submitMedia;\n"
    ),
}
CREDIT_NOTES = f"{SERVER}/src/modules/CreditNotes/utils.ts"
MEDIA = f"{SERVER}/src/modules/Media/withMediaActions.ts"


def test_an_erased_import_in_a_ts_nocheck_file_is_no_claim(make_project: ProjectFactory) -> None:
    # tsc reports nothing in the file and elides the import; the value import stays a claim
    assert claims(make_project(BIGCAPITAL)) == [f"unresolved-import {MEDIA}:2"]


def test_an_import_type_in_a_ts_nocheck_file_is_no_claim(make_project: ProjectFactory) -> None:
    files = {
        **BIGCAPITAL,
        CREDIT_NOTES: (
            "// @ts-nocheck\nimport type { ICreditNote } from '../CashFlow/Cashflow.types';\n"
            "export const id = (note: ICreditNote) => note;\n"
        ),
    }
    assert claims(make_project(files)) == [f"unresolved-import {MEDIA}:2"]


def test_the_same_erased_import_without_the_pragma_is_a_claim(
    make_project: ProjectFactory,
) -> None:
    # a checked file: tsc fails with TS2307 on it
    text = BIGCAPITAL[CREDIT_NOTES].removeprefix("// @ts-nocheck\n")
    files = {**BIGCAPITAL, CREDIT_NOTES: text}
    assert claims(make_project(files)) == [
        f"unresolved-import {CREDIT_NOTES}:1",
        f"unresolved-import {MEDIA}:2",
    ]


def test_an_erased_import_is_a_claim_where_the_tsconfig_keeps_value_imports(
    make_project: ProjectFactory,
) -> None:
    # verbatimModuleSyntax: tsc emits the import as written, so the server fails to load it
    files = {
        **BIGCAPITAL,
        f"{SERVER}/tsconfig.json": (
            '{"compilerOptions": {"baseUrl": "./", "paths": {"@/*": ["./src/*"]},'
            ' "verbatimModuleSyntax": true}, "include": ["src"]}\n'
        ),
    }
    assert claims(make_project(files)) == [
        f"unresolved-import {CREDIT_NOTES}:2",
        f"unresolved-import {MEDIA}:2",
    ]


def test_a_ts_nocheck_comment_after_the_first_statement_is_no_pragma(
    make_project: ProjectFactory,
) -> None:
    # TypeScript reads pragmas from the comments before the first statement only
    text = BIGCAPITAL[CREDIT_NOTES].replace("// @ts-nocheck\n", "")
    text = text.replace("\n\n", "\n// @ts-nocheck\n", 1)
    files = {**BIGCAPITAL, CREDIT_NOTES: text}
    assert f"unresolved-import {CREDIT_NOTES}:1" in claims(make_project(files))


def test_the_nocheck_pragma_is_read_as_typescript_reads_it() -> None:
    assert has_nocheck_pragma("a.ts", b"/** licence */\n// @ts-nocheck\nexport {};\n")
    assert has_nocheck_pragma("a.tsx", b"/// @ts-nocheck  why\nexport {};\n")
    assert not has_nocheck_pragma("a.ts", b"/* @ts-nocheck */\nexport {};\n")  # `//` only
    assert not has_nocheck_pragma("a.ts", b"// @ts-nocheckless\nexport {};\n")
    assert not has_nocheck_pragma("a.ts", b"export {};\n// @ts-nocheck\n")


# -- a folder a script of the package reads or copies as data (foal J2 P9, rancher J1 F2) ----

# FoalTS's CLI compares its generators' output with golden files under `specs/`, read as text;
# the root tsconfig (used by tslint) globs every `packages/**/index.ts`, specs included.
CLI = "packages/cli"
FOAL = {
    "package.json": (
        '{"name": "foal-srcs", "workspaces": ["packages/*"],'
        ' "scripts": {"lint": "tslint -c tslint.json --project tsconfig.json"}}\n'
    ),
    "tsconfig.json": '{"include": ["./packages/**/index.ts", "./packages/**/src/**/*.ts"]}\n',
    f"{CLI}/package.json": '{"name": "@foal/cli", "main": "lib/index.js"}\n',
    f"{CLI}/tsconfig.json": '{"include": ["./src/**/*.ts"]}\n',
    f"{CLI}/src/index.ts": (
        "export { readSpec } from './services/file-system/file-system.service';\n"
    ),
    f"{CLI}/src/services/file-system/file-system.service.ts": (
        "import { readFileSync } from 'fs';\n"
        "import { join } from 'path';\n"
        "export function readSpec(path: string): string {\n"
        "  return readFileSync(join(__dirname, '../../..', 'specs', path), 'utf8');\n"
        "}\n"
    ),
    f"{CLI}/src/commands/create.ts": "import { run } from './gone';\nexport const create = run;\n",
    f"{CLI}/specs/rest-api/entities/index.ts": (
        "export { BarFoo } from './bar-foo.entity';\n"
        "export { TestFooBar } from './test-foo-bar.entity';\n"
    ),
    f"{CLI}/specs/rest-api/entities/test-foo-bar.entity.ts": "export class TestFooBar {}\n",
}
SPECS = f"{CLI}/specs/rest-api/entities/index.ts"
CREATE = f"{CLI}/src/commands/create.ts"


def test_golden_files_a_service_reads_as_text_are_no_claim(make_project: ProjectFactory) -> None:
    assert claims(make_project(FOAL)) == [f"unresolved-import {CREATE}:1"]


def test_a_folder_a_service_only_names_is_judged(make_project: ProjectFactory) -> None:
    # the joined path is handed to no read or copy: nothing shows the folder is data
    service = FOAL[f"{CLI}/src/services/file-system/file-system.service.ts"]
    files = {
        **FOAL,
        f"{CLI}/src/services/file-system/file-system.service.ts": service.replace(
            "readFileSync(join(__dirname, '../../..', 'specs', path), 'utf8')",
            "join(__dirname, '../../..', 'specs', path)",
        ),
    }
    assert claims(make_project(files)) == [
        f"unresolved-import {SPECS}:1",
        f"unresolved-import {CREATE}:1",
    ]


def test_golden_files_are_judged_outside_the_folder_the_service_reads(
    make_project: ProjectFactory,
) -> None:
    # the same index one folder up, beside `specs/`: not in the folder the literals name
    files = {**FOAL, f"{CLI}/golden/index.ts": FOAL[SPECS]}
    assert claims(make_project(files)) == [
        f"unresolved-import {CLI}/golden/index.ts:1",
        f"unresolved-import {CLI}/golden/index.ts:2",
        f"unresolved-import {CREATE}:1",
    ]


# rancher/dashboard's extension creator (the package's `bin`, no extension) copies `files/`
# into a new package and writes that package's `package.json` beside them.
PKG = "creators/extension/pkg"
RANCHER = {
    "package.json": '{"name": "dashboard", "private": true}\n',
    f"{PKG}/package.json": '{"name": "@rancher/create-pkg", "bin": "./init"}\n',
    f"{PKG}/init": (
        "#!/usr/bin/env node\n"
        "const fs = require('fs-extra');\n"
        "const path = require('path');\n"
        "const pkgFolder = path.resolve('.', process.argv[2]);\n"
        "const files = ['tsconfig.json', 'index.ts'];\n"
        "const manifest = path.join(pkgFolder, 'package.json');\n"
        "fs.copySync(path.join(__dirname, 'pkg.package.json'), manifest);\n"
        "files.forEach((file) => {\n"
        "  const src = path.join(__dirname, 'files', file);\n"
        "  const dest = path.join(pkgFolder, file);\n"
        "  if (!fs.existsSync(dest)) {\n"
        "    fs.copySync(src, dest);\n"
        "  }\n"
        "});\n"
    ),
    f"{PKG}/pkg.package.json": '{"name": "NAME"}\n',
    f"{PKG}/files/tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
    f"{PKG}/files/index.ts": (
        "export default function (plugin: { metadata: unknown }): void {\n"
        "  plugin.metadata = require('./package.json');\n"
        "}\n"
    ),
}
SCAFFOLD = f"{PKG}/files/index.ts"


def test_files_a_generator_copies_into_a_new_package_are_no_claim(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(RANCHER)) == []


def test_a_folder_the_generator_only_lists_is_judged(make_project: ProjectFactory) -> None:
    # the joined path is never handed to a copy: `files/` is not shown to be data
    script = RANCHER[f"{PKG}/init"].replace("fs.copySync(src, dest);", "console.log(src, dest);")
    files = {**RANCHER, f"{PKG}/init": script}
    assert claims(make_project(files)) == [f"unresolved-import {SCAFFOLD}:2"]


def test_a_folder_a_script_reads_that_other_files_import_is_judged(
    make_project: ProjectFactory,
) -> None:
    # a docs script reads the sources as text; they are modules all the same: the CLI's
    # commands import them
    files = {
        **FOAL,
        f"{CLI}/src/commands/create.ts": (
            "import { BarFoo } from '../../specs/rest-api/entities';\n"
            "export const create = BarFoo;\n"
        ),
    }
    assert claims(make_project(files)) == [f"unresolved-import {SPECS}:1"]
