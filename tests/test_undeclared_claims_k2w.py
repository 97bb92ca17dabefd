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
