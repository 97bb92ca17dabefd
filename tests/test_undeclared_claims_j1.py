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
