"""Claims in a project that declares nothing (SPEC §0): layouts blind judges K1 and K2 met
(K2 P13, K2 P12, K1 P8), each a minimal copy of the real repository's. Every test keeps a
true claim of the same shape beside the false one it removes."""

from __future__ import annotations

import json

from tests.claims import claims, git_project
from tests.conftest import ProjectFactory

# -- grpc/grpc-web (K2 P13): protoc output the folder's tsconfig names -------------------------
# `ts-example/client.ts` imports `./echo_pb` and `./echo_grpc_web_pb`, which protoc writes
# beside it in the Docker build; no `.gitignore` lists them, the tsconfig names each one.

ECHO = "net/grpc/gateway/examples/echo"
GRPC_WEB = {
    "package.json": json.dumps({"name": "grpc-web-root", "private": True}),
    f"{ECHO}/echo.proto": 'syntax = "proto3";\npackage grpc.gateway.testing;\n',
    f"{ECHO}/ts-example/tsconfig.json": json.dumps(
        {
            "compilerOptions": {"module": "commonjs", "allowJs": True, "outDir": "dist"},
            "include": [
                "client.ts",
                "echo_pb.js",
                "echo_pb.d.ts",
                "echo_grpc_web_pb.js",
                "echo_grpc_web_pb.d.ts",
                "EchoServiceClientPb.ts",
            ],
        }
    ),
    f"{ECHO}/ts-example/client.ts": (
        "import * as grpcWeb from 'grpc-web';\n"
        "import {EchoServiceClient} from './echo_grpc_web_pb';\n"
        "import {EchoRequest} from './echo_pb';\n"
        "import {Helper} from './helper';\n"
        "export const client = [grpcWeb, EchoServiceClient, EchoRequest, Helper];\n"
    ),
}


def test_a_missing_file_the_tsconfig_names_literally_is_generated(
    make_project: ProjectFactory,
) -> None:
    # `./helper` is named by no entry of `include`: it stays a claim
    assert claims(git_project(GRPC_WEB, make_project)) == [
        f"unresolved-import {ECHO}/ts-example/client.ts:4"
    ]


def test_an_include_pattern_names_no_missing_file(make_project: ProjectFactory) -> None:
    # `"include": ["*.ts", "*.js"]` matches what exists; it says nothing of a missing file
    files = dict(GRPC_WEB)
    files[f"{ECHO}/ts-example/tsconfig.json"] = json.dumps(
        {"compilerOptions": {"allowJs": True}, "include": ["*.ts", "*.js", "echo_*"]}
    )
    assert claims(git_project(files, make_project)) == [
        f"unresolved-import {ECHO}/ts-example/client.ts:{line}" for line in (2, 3, 4)
    ]


def test_an_included_folder_is_no_generated_file(make_project: ProjectFactory) -> None:
    # `"include": ["lib"]` names the folder `lib/`, which has no index: `./lib` stays judged
    files = dict(GRPC_WEB)
    files[f"{ECHO}/ts-example/tsconfig.json"] = json.dumps(
        {"include": ["client.ts", "lib", "echo_pb.js", "echo_grpc_web_pb.js", "helper"]}
    )
    files[f"{ECHO}/ts-example/lib/a.ts"] = "export const a = 1;\n"
    files[f"{ECHO}/ts-example/client.ts"] += "import {a} from './lib';\nexport const b = a;\n"
    assert claims(git_project(files, make_project)) == [
        f"unresolved-import {ECHO}/ts-example/client.ts:6"
    ]


# -- didi/cube-ui (K2 P12): a committed webpack bundle ----------------------------------------
# `lib/locale/index.js` is the webpack UMD build; the babel UMD wrapper of each inner module
# keeps a CommonJS branch that never runs, whose requires are the original module's.

BOOTSTRAP = (
    "(function webpackUniversalModuleDefinition(root, factory) {\n"
    "  if (typeof exports === 'object' && typeof module === 'object')\n"
    "    module.exports = factory();\n"
    "  else root.locale = factory();\n"
    "})(this, function() {\n"
    "return /******/ (function(modules) { // webpackBootstrap\n"
    "/******/   var installedModules = {};\n"
    "/******/   function __webpack_require__(moduleId) {\n"
    "/******/     var module = installedModules[moduleId] = { exports: {} };\n"
    "/******/     modules[moduleId].call(module.exports, module, module.exports, "
    "__webpack_require__);\n"
    "/******/     return module.exports;\n"
    "/******/   }\n"
    "/******/   return __webpack_require__(0);\n"
    "/******/ })\n"
    "/************************************************************************/\n"
    "/******/ ([\n"
)
UMD_MODULE = (
    "/* 0 */\n"
    "/***/ (function(module, exports, __webpack_require__) {\n"
    "var __WEBPACK_AMD_DEFINE_ARRAY__, __WEBPACK_AMD_DEFINE_RESULT__;\n"
    "(function (global, factory) {\n"
    "  if (true) {\n"
    "    !(__WEBPACK_AMD_DEFINE_ARRAY__ = [exports, __webpack_require__(1)],\n"
    "      __WEBPACK_AMD_DEFINE_RESULT__ = factory.apply(exports, __WEBPACK_AMD_DEFINE_ARRAY__));\n"
    "  } else if (typeof exports !== 'undefined') {\n"
    "    factory(exports, require('../lang/string'));\n"
    "  }\n"
    "})(this, function (exports, _string) { exports.default = _string; });\n"
    "/***/ }),\n"
    "/* 1 */\n"
    "/***/ (function(module, exports) { module.exports = 'string'; })\n"
    "/******/ ]);\n"
    "});\n"
)
CUBE_UI = {
    "package.json": json.dumps(
        {"name": "cube-ui", "main": "lib/index.js", "files": ["lib", "src"]}
    ),
    "lib/locale/index.js": BOOTSTRAP + UMD_MODULE,
    "lib/index.js": "module.exports = require('./locale/index.js');\n",
    "src/index.js": "export { default } from './common/locale';\n",
    "src/common/lang/string.js": "export default 'string';\n",
    "src/common/locale/index.js": (
        "import string from '../lang/string';\n"
        "import missing from '../lang/missing';\n"
        "export default [string, missing];\n"
    ),
}


def test_a_webpack_bundle_s_inner_requires_are_not_judged(make_project: ProjectFactory) -> None:
    # the source's own `../lang/missing` stays a claim
    assert claims(git_project(CUBE_UI, make_project)) == [
        "unresolved-import src/common/locale/index.js:2"
    ]


def test_a_file_that_only_reads_webpack_require_is_judged(make_project: ProjectFactory) -> None:
    # webpack-aware source reads `__webpack_require__` as a free variable; it never declares it
    files = dict(CUBE_UI)
    files["lib/locale/index.js"] = (
        "if (typeof __webpack_require__ === 'function') __webpack_require__.p = '/';\n"
        "module.exports = require('../lang/string');\n"
    )
    assert claims(git_project(files, make_project)) == [
        "unresolved-import lib/locale/index.js:2",
        "unresolved-import src/common/locale/index.js:2",
    ]


# -- VoltAgent/voltagent (K1 P8): a package the workspace negates ------------------------------
# `pnpm-workspace.yaml` lists `"!archive/**"`: the archived providers are not built, and their
# `tsup.config.ts` imports a plugin from where the packages used to live.

TSUP_CONFIG = (
    "import { defineConfig } from 'tsup';\n"
    "import { markAsExternalPlugin } from '../shared/tsup-plugins/mark-as-external';\n"
    "export default defineConfig({ esbuildPlugins: [markAsExternalPlugin] });\n"
)
VOLTAGENT = {
    "package.json": json.dumps({"name": "voltagent-root", "private": True}),
    "pnpm-workspace.yaml": (
        'packages:\n  - "!archive/**"\n  - "packages/*"\n  - "!**/internal/**"\n'
    ),
    "packages/shared/package.json": json.dumps({"name": "@voltagent/shared"}),
    "packages/shared/tsup-plugins/mark-as-external.ts": "export const markAsExternalPlugin = 1;\n",
    "packages/core/package.json": json.dumps({"name": "@voltagent/core", "main": "src/index.ts"}),
    "packages/core/src/index.ts": "export { util } from './internal/util';\n",
    "packages/core/src/internal/util.ts": (
        "import { gone } from '../gone';\nexport const util = gone;\n"
    ),
    "packages/core/tsup.config.ts": TSUP_CONFIG.replace("mark-as-external", "missing"),
    "archive/deprecated-providers/README.md": "These packages will not receive updates.\n",
    "archive/deprecated-providers/xsai/package.json": json.dumps(
        {"name": "@voltagent/xsai", "main": "src/index.ts"}
    ),
    "archive/deprecated-providers/xsai/src/index.ts": "export const xsai = 1;\n",
    "archive/deprecated-providers/xsai/tsup.config.ts": TSUP_CONFIG,
}


def test_a_package_the_workspace_negates_is_not_judged(make_project: ProjectFactory) -> None:
    # a member's `tsup.config.ts` with a broken import of the same shape stays a claim, and
    # so does a file in a folder `"!**/internal/**"` matches inside a member package
    assert claims(git_project(VOLTAGENT, make_project)) == [
        "unresolved-import packages/core/src/internal/util.ts:1",
        "unresolved-import packages/core/tsup.config.ts:2",
    ]


def test_package_json_workspaces_negation_counts_too(make_project: ProjectFactory) -> None:
    files = {k: v for k, v in VOLTAGENT.items() if k != "pnpm-workspace.yaml"}
    files["package.json"] = json.dumps(
        {"name": "voltagent-root", "private": True, "workspaces": ["packages/*", "!archive/**"]}
    )
    assert claims(git_project(files, make_project)) == [
        "unresolved-import packages/core/src/internal/util.ts:1",
        "unresolved-import packages/core/tsup.config.ts:2",
    ]


def test_without_the_negation_the_archived_package_is_judged(make_project: ProjectFactory) -> None:
    files = dict(VOLTAGENT)
    files["pnpm-workspace.yaml"] = 'packages:\n  - "packages/*"\n  - "archive/**"\n'
    assert claims(git_project(files, make_project)) == [
        "unresolved-import archive/deprecated-providers/xsai/tsup.config.ts:2",
        "unresolved-import packages/core/src/internal/util.ts:1",
        "unresolved-import packages/core/tsup.config.ts:2",
    ]
