"""Round M2 of the blind judges (zclzone/vue-naive-admin): a barrel loop whose only load-time
read is of a file that nothing else imports, with the true claim of the same shape kept beside
it (SPEC §0: a project that declares nothing gets only claims that hold)."""

from __future__ import annotations

from tests.claims import claims
from tests.conftest import ProjectFactory

LOOP = "circular-dependency src/utils/storage/storage.js:1"
# `storage/index.js` calls `createStorage` of `./storage.js` while it loads; `storage.js`
# reads the `utils` barrel only inside a method. Only `storage/index.js` imports
# `storage.js`, so `storage.js` has always finished loading before that call.
APP = {
    "package.json": '{"name": "vue-naive-admin", "private": true, "type": "module"}\n',
    "src/main.js": "import { lStorage } from './utils';\nexport const s = lStorage;\n",
    "src/utils/index.js": (
        "export * from './is';\nexport * from './http';\nexport * from './storage';\n"
    ),
    "src/utils/is.js": "export function isNull(v) {\n  return v == null;\n}\n",
    "src/utils/http/index.js": (
        "import { isNull } from '..';\nexport function request(v) {\n  return isNull(v);\n}\n"
    ),
    "src/utils/storage/index.js": (
        "import { createStorage } from './storage';\nexport const lStorage = createStorage();\n"
    ),
    "src/utils/storage/storage.js": (
        "import { isNull } from '..';\n"
        "class Storage {\n  set(v) {\n    return isNull(v);\n  }\n}\n"
        "export function createStorage() {\n  return new Storage();\n}\n"
    ),
}


def test_a_load_read_of_a_file_only_its_reader_imports_is_a_warning(
    make_project: ProjectFactory,
) -> None:
    root = make_project(APP)
    assert claims(root) == []
    # the loop is still shown, as the warning of a loop read only inside functions
    assert claims(root, errors_only=False) == ["circular-dependency src/utils/http/index.js:1"]


def test_the_same_loop_when_another_file_imports_that_file_is_an_error(
    make_project: ProjectFactory,
) -> None:
    # a test that imports storage.js first enters the loop there: storage/index.js then calls
    # createStorage before storage.js has run, and `new Storage()` meets its dead zone
    files = {
        **APP,
        "src/utils/storage/storage.test.js": (
            "import { createStorage } from './storage';\ncreateStorage();\n"
        ),
    }
    assert claims(make_project(files)) == [LOOP]


def test_the_same_loop_when_the_read_file_reads_the_barrel_at_load_is_an_error(
    make_project: ProjectFactory,
) -> None:
    storage = APP["src/utils/storage/storage.js"] + "export const empty = isNull(null);\n"
    files = {**APP, "src/utils/storage/storage.js": storage}
    assert claims(make_project(files)) == [LOOP]
