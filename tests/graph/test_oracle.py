"""Import resolution judged by the TypeScript compiler itself (``ts.resolveModuleName``).

``benchmarks/resolution_oracle.py`` resolves every import of a project with filid and with
TypeScript (``tests/node/resolve-oracle.cjs`` over the ``typescript`` package tests/node
installs) and compares them import by import. The fixture covers each case SPEC §4 names.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.conftest import write_files

NODE_TOOLS = Path(__file__).resolve().parents[1] / "node"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
    pytest.mark.skipif(
        not (NODE_TOOLS / "node_modules" / "typescript").is_dir(),
        reason="run `npm install --prefix tests/node` first (CI does)",
    ),
]

FIXTURE = {
    "package.json": json.dumps({"name": "repo", "private": True}),
    # unindented, as formatters write it
    "pnpm-workspace.yaml": "packages:\n- 'packages/*'\n- 'apps/*'\n- '!packages/example'\n",
    "tsconfig.json": json.dumps(
        {"compilerOptions": {"module": "ESNext", "moduleResolution": "Bundler", "strict": True}}
    ),
    "packages/ui/package.json": json.dumps(
        {
            "name": "@acme/ui",
            "exports": {
                ".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"},
                "./icons": {"types": "./dist/icons/index.d.ts", "import": "./dist/icons/index.js"},
            },
        }
    ),
    "packages/ui/src/index.ts": "export { Button } from './button';\n",
    "packages/ui/src/button.ts": "export const Button = 1;\n",
    "packages/ui/src/icons/index.ts": "export type * from './shapes';\nexport const Star = 1;\n",
    "packages/ui/src/icons/shapes.ts": "export type Shape = 'star';\n",
    "packages/example/package.json": json.dumps({"name": "example", "main": "index.ts"}),
    "packages/example/index.ts": "export const demo = 1;\n",
    "apps/web/package.json": json.dumps(
        {
            "name": "web",
            "imports": {"#db": "./src/db.ts"},
            "dependencies": {"@acme/ui": "workspace:*", "kit": "link:../../packages/kit"},
        }
    ),
    # the published @acme/ui, not the workspace one: TypeScript finds it in node_modules
    "apps/docs/package.json": json.dumps(
        {"name": "docs", "dependencies": {"@acme/ui": "npm:@acme/ui@^1"}}
    ),
    "apps/docs/page.ts": "import { Button } from '@acme/ui';\nexport const b = Button;\n",
    "packages/kit/package.json": json.dumps({"name": "@acme/kit", "exports": "./dist/esm/main.js"}),
    "packages/kit/src/main.ts": "export const kit = 1;\n",
    "apps/web/src/db.ts": "export const db = 1;\n",
    "apps/web/src/types.d.ts": "export type Id = string;\n",
    "apps/web/src/twin.ts": "export const twin = 'ts';\n",
    # netlify/cli: `import type … from '../../utils/types.d.ts'` where only types.ts exists
    "apps/web/src/settings.ts": "export interface Settings { port: number }\n",
    "apps/web/src/twin.js": "export const twin = 'js';\n",
    "apps/web/src/main.ts": (
        "import { Button } from '@acme/ui';\n"
        "import { Star } from '@acme/ui/icons';\n"
        "import type { Id } from './types';\n"
        "import type { Settings } from './settings.d.ts';\n"
        "import { twin } from './twin.js';\n"
        "import { db } from '#db';\n"
        "import { kit } from 'kit';\n"
        "export type * from './types';\n"
        "export const all = [Button, Star, twin, db, kit] as const;\n"
        "export type Ids = Id[];\n"
        "export type Config = Settings;\n"
    ),
}


def test_filid_resolves_every_import_as_typescript_does(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from benchmarks.resolution_oracle import compare, link_workspaces

    root = write_files(tmp_path / "repo", FIXTURE)
    # repo, @acme/ui, @acme/kit, web and docs at the root (packages/example is excluded with
    # `!`), web's workspace: and link: dependencies, docs' npm: stub
    assert link_workspaces(root) == 8
    result = compare(root, NODE_TOOLS)
    assert result.only_ts == [] and result.only_filid == [] and result.different == []
    resolved = {(file, spec): target for file, spec, target in result.both}
    main = "apps/web/src/main.ts"
    assert resolved == {
        (main, "@acme/ui"): "packages/ui/src/index.ts",
        (main, "@acme/ui/icons"): "packages/ui/src/icons/index.ts",
        (main, "./types"): "apps/web/src/types.d.ts",
        (main, "./settings.d.ts"): "apps/web/src/settings.ts",
        (main, "./twin.js"): "apps/web/src/twin.ts",
        (main, "#db"): "apps/web/src/db.ts",
        (main, "kit"): "packages/kit/src/main.ts",
        ("packages/ui/src/index.ts", "./button"): "packages/ui/src/button.ts",
        ("packages/ui/src/icons/index.ts", "./shapes"): "packages/ui/src/icons/shapes.ts",
    }


def test_config_dir_template_variable_resolves_as_typescript_does(tmp_path: Path) -> None:
    # colanode's `tsconfig.base.json`: `"baseUrl": "${configDir}"`, `include` and `paths`
    # written once in a shared base, each resolved at the folder of the config that extends it
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from benchmarks.resolution_oracle import compare

    files = {
        "package.json": json.dumps({"name": "repo", "private": True}),
        "tsconfig.base.json": json.dumps(
            {
                "compilerOptions": {
                    "module": "preserve",
                    "moduleResolution": "bundler",
                    "baseUrl": "${configDir}",
                    "paths": {"~/*": ["./src/*"], "#lib/*": ["${configDir}/lib/*"]},
                },
                "include": ["${configDir}/src", "${configDir}/lib"],
            }
        ),
        "apps/server/tsconfig.json": json.dumps(
            {
                "extends": "../../tsconfig.base.json",
                "compilerOptions": {"paths": {"@server/*": ["./src/*"]}},
            }
        ),
        "apps/server/src/index.ts": (
            "import { log } from '@server/lib/logger';\nexport const all = [log];\n"
        ),
        "apps/server/src/lib/logger.ts": "export const log = 1;\n",
        # a config that keeps the base's `paths`: both resolve at apps/web
        "apps/web/tsconfig.json": json.dumps({"extends": "../../tsconfig.base.json"}),
        "apps/web/src/index.ts": (
            "import { util } from '~/util';\n"
            "import { helper } from '#lib/helper';\n"
            "export const all = [util, helper];\n"
        ),
        "apps/web/src/util.ts": "export const util = 1;\n",
        "apps/web/lib/helper.ts": "export const helper = 1;\n",
    }
    root = write_files(tmp_path / "repo", files)
    result = compare(root, NODE_TOOLS)
    assert result.only_ts == [] and result.only_filid == [] and result.different == []
    resolved = {(file, spec): target for file, spec, target in result.both}
    assert resolved == {
        ("apps/server/src/index.ts", "@server/lib/logger"): "apps/server/src/lib/logger.ts",
        ("apps/web/src/index.ts", "~/util"): "apps/web/src/util.ts",
        ("apps/web/src/index.ts", "#lib/helper"): "apps/web/lib/helper.ts",
    }
