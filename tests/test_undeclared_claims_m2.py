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


# jagenjo/webglstudio.js, greasemonkey/greasemonkey: CodeMirror 5 vendored flat (its core as
# `codemirror.js`, not `lib/codemirror.js`) and loaded by <script> tags; each addon's UMD
# wrapper requires `../../lib/codemirror` in its CommonJS arm, which a page never runs.
def _umd(*requires: str) -> str:
    args = ", ".join(f'require("{r}")' for r in requires)
    deps = ", ".join(f'"{r}"' for r in requires)
    return (
        "(function (mod) {\n"
        '  if (typeof exports == "object" && typeof module == "object") // CommonJS\n'
        f"    mod({args});\n"
        '  else if (typeof define == "function" && define.amd) // AMD\n'
        f"    define([{deps}], mod);\n"
        "  else mod(CodeMirror);\n"
        "})(function (CodeMirror) {\n  CodeMirror.defineExtension('x', function () {});\n});\n"
    )


CURSOR = "third-party/codemirror/addon/search/searchcursor.js"
SEARCH = "third-party/codemirror/addon/search/search.js"
VENDORED = {
    "package.json": '{"name": "greasemonkey", "private": true, "devDependencies": {"karma": "6"}}',
    "third-party/codemirror/codemirror.js": "(function (g) {\n  g.CodeMirror = {};\n})(this);\n",
    CURSOR: _umd("../../lib/codemirror"),
    SEARCH: _umd("../../lib/codemirror", "./searchcursor"),
    "src/edit.html": '<script src="/third-party/codemirror/addon/search/search.js"></script>\n',
}


def test_the_loader_arm_of_a_vendored_umd_file_is_no_claim(make_project: ProjectFactory) -> None:
    assert claims(make_project(VENDORED)) == []


def test_a_umd_file_an_es_module_imports_keeps_its_claims(make_project: ProjectFactory) -> None:
    # a bundler meets search.js through the import, takes its CommonJS arm, and so that of
    # searchcursor.js: both requires of lib/codemirror must resolve
    app = "import '../third-party/codemirror/addon/search/search.js';\nexport const app = 1;\n"
    files = {**VENDORED, "src/app.js": app}
    assert claims(make_project(files)) == [
        f"unresolved-import {SEARCH}:3",
        f"unresolved-import {CURSOR}:3",
    ]


def test_a_require_outside_a_loader_arm_keeps_its_claim(make_project: ProjectFactory) -> None:
    cursor = 'const CodeMirror = require("../../lib/codemirror");\nmodule.exports = CodeMirror;\n'
    files = {**VENDORED, CURSOR: cursor}
    assert claims(make_project(files)) == [f"unresolved-import {CURSOR}:1"]


def test_what_a_package_entry_requires_keeps_its_claim(make_project: ProjectFactory) -> None:
    # Node loads the manifest's entry, and with it what its CommonJS arm requires
    manifest = '{"name": "cm-search", "main": "third-party/codemirror/addon/search/search.js"}'
    files = {**VENDORED, "package.json": manifest}
    assert f"unresolved-import {CURSOR}:3" in claims(make_project(files))


# koishijs/koishi: `require('./locales/zh-CN')` loads `zh-CN.yml`; the root manifest's
# `yml-register` (tests run under `-r yml-register`) and `yakumo-esbuild` (the build) make
# `.yml` loadable without its extension.
KOISHI = {
    "package.json": (
        '{"name": "koishi-root", "private": true, "workspaces": ["plugins/*"],\n'
        ' "scripts": {"test": "yakumo mocha -r esbuild-register -r yml-register"},\n'
        ' "devDependencies": {"yakumo-esbuild": "1.0.0", "yml-register": "1.2.5"}}\n'
    ),
    "plugins/hmr/package.json": '{"name": "@koishijs/plugin-hmr", "main": "src/index.ts"}\n',
    "plugins/hmr/src/index.ts": (
        "export const locales = { 'zh-CN': require('./locales/zh-CN') };\n"
    ),
    "plugins/hmr/src/locales/zh-CN.yml": "hmr:\n  reloaded: 已重载\n",
}


def test_a_declared_yaml_hook_finds_the_yml_file(make_project: ProjectFactory) -> None:
    assert claims(make_project(KOISHI)) == []


def test_without_a_declared_yaml_hook_the_require_is_a_claim(
    make_project: ProjectFactory,
) -> None:
    files = {
        **KOISHI,
        "package.json": '{"name": "r", "private": true, "workspaces": ["plugins/*"]}',
    }
    assert claims(make_project(files)) == ["unresolved-import plugins/hmr/src/index.ts:1"]


def test_a_declared_yaml_hook_finds_no_file_that_is_not_there(
    make_project: ProjectFactory,
) -> None:
    files = {k: v for k, v in KOISHI.items() if not k.endswith(".yml")}
    assert claims(make_project(files)) == ["unresolved-import plugins/hmr/src/index.ts:1"]


def test_a_umd_file_a_jsconfig_program_compiles_keeps_its_claims(
    make_project: ProjectFactory,
) -> None:
    files = {**VENDORED, "jsconfig.json": '{"compilerOptions": {"checkJs": true}}\n'}
    assert claims(make_project(files)) == [
        f"unresolved-import {SEARCH}:3",
        f"unresolved-import {CURSOR}:3",
    ]
