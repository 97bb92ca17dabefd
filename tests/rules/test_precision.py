"""Precision: the false findings seen on real repositories stay silent, true ones still fire.

Each case is a small project shaped like the code behind a finding that was judged false on a
real repository (the upstream plugin's own FCA repository and two ordinary TypeScript
monorepos), next to the true findings that must survive the same change of semantics.
"""

from __future__ import annotations

import json

import pytest

from filid.check.engine import evaluate
from filid.check.project import load_project
from tests.conftest import ProjectFactory

HEADINGS = "# M\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"
WORKSPACE_UI = {
    "package.json": json.dumps({"name": "repo", "private": True, "workspaces": ["packages/*"]}),
    "packages/ui/package.json": json.dumps(
        {
            "name": "@acme/ui",
            "exports": {
                ".": {"types": "./dist/index.d.ts", "default": "./dist/index.js"},
                "./icons": {"types": "./dist/icons/index.d.ts", "default": "./dist/icons/index.js"},
            },
        }
    ),
    "packages/ui/src/index.ts": "export { Button } from './button';\n",
    "packages/ui/src/button.ts": "export const Button = 1;\n",
    "packages/ui/src/icons/index.ts": "export { Star } from './star';\n",
    "packages/ui/src/icons/star.ts": "export const Star = 2;\n",
}

SILENT = [
    pytest.param(
        {
            **WORKSPACE_UI,
            "packages/ui/package.json": json.dumps(
                {"name": "@acme/ui", "exports": {"./adapters/*": "./dist/adapters/*.js"}}
            ),
            "packages/ui/src/adapters/express.ts": "export const express = 1;\n",
            "packages/app/package.json": json.dumps({"name": "app", "main": "src/main.ts"}),
            "packages/app/src/main.ts": (
                "import { express } from '@acme/ui/adapters/express';\nexport const e = express;\n"
            ),
        },
        None,
        "external-import-boundary",
        id="a published subpath into a folder filid calls an organ is not an organ violation",
    ),
    pytest.param(
        {
            "web/package.json": json.dumps({"name": "web", "dependencies": {"next": "15"}}),
            "web/src/pages/index.tsx": "export default function Home() { return null; }\n",
            "web/src/pages/api/trpc/[trpc].ts": "export const router = 1;\n",
            "web/src/utils/trpc.ts": "import { router } from '../pages/api/trpc/[trpc]';\n"
            "export const r = router;\n",
        },
        None,
        "external-import-boundary",
        id="a Next.js pages/index.tsx is a page, not a module's entry",
    ),
    pytest.param(
        {
            **WORKSPACE_UI,
            "packages/app/package.json": json.dumps({"name": "app", "main": "src/main.ts"}),
            "packages/app/src/main.ts": (
                "import { Star } from '@acme/ui/icons';\nimport { Button } from '@acme/ui';\n"
                "export const all = [Star, Button];\n"
            ),
        },
        None,
        "external-import-boundary",
        id="a workspace package's published exports subpath is not a deep import",
    ),
    pytest.param(
        {
            "package.json": "{}",
            "eslint.config.js": "export default [];\n",
            "prettier.config.js": "export default {};\n",
            "src/feature/index.ts": "export const x = 1;\n",
        },
        {"structure": {"inferPureFunctions": True}},
        "pure-function-isolation",
        id="the root is never pure-function, even with only config files",
    ),
    pytest.param(
        {
            "src/app/index.ts": "export { useUser } from './hooks/use-user';\n",
            "src/app/hooks/use-user.ts": (
                "import { api } from '../../api';\nexport const useUser = () => api;\n"
            ),
            "src/app/hooks/deep/x.ts": "export const y = 1;\n",
            "src/api/index.ts": "export const api = 1;\n",
            "src/adapters/ws.ts": "import { api } from '../api';\nexport const ws = () => api;\n",
            "src/adapters/x/y.ts": "export const z = 1;\n",
        },
        None,
        "pure-function-isolation",
        id="side-effect free hooks and adapters are not pure-function unless declared",
    ),
    pytest.param(
        {
            "src/server/index.ts": (
                "import { start } from './start';\nconst port = Number('3000');\nstart(port);\n"
            ),
            "src/server/start.ts": "export function start(port: number): void { void port; }\n",
        },
        {"rules": {"index-barrel-pattern": {"enabled": True}}},
        "index-barrel-pattern",
        id="a program entry that nothing imports is not a barrel",
    ),
    pytest.param(
        {
            "server/index.ts": "const app = { ok: 1 };\nexport type AppRouter = typeof app;\n"
            "console.log(app);\n",
            "client/trpc.ts": "import type { AppRouter } from '../server';\n"
            "export type R = AppRouter;\n",
        },
        {"rules": {"index-barrel-pattern": {"enabled": True}}},
        "index-barrel-pattern",
        id="a server entry imported only for its types is not a barrel",
    ),
    pytest.param(
        {
            "app/blog/[slug]/page.tsx": "export default function Page() { return null; }\n",
            "app/(marketing)/about/page.tsx": "export default function About() { return 1; }\n",
            "pages/api/auth/[...nextauth].ts": "export default {};\n",
            "prisma/migrations/20240101120000_Init_Users/migration.ts": "export {};\n",
            "src/__tests__/fixtures/vault/01_Core/note.ts": "export {};\n",
        },
        {"rules": {"naming-convention": {"enabled": True}}},
        "naming-convention",
        id="framework route segments and migration folders are not misnamed",
    ),
    pytest.param(
        {
            "src/card/index.ts": "export { Card } from './card';\n",
            "src/card/card.ts": "export const Card = 1;\n",
            "src/card/card.module.css": ".card {}\n",
            "src/card/logo.svg": "<svg/>",
            "src/card/data.json": "{}",
            "src/card/card.test.ts": "import { Card } from './card';\nvoid Card;\n",
        },
        None,
        "zero-peer-file",
        id="styles, assets, data and tests are not peers",
    ),
    pytest.param(
        {
            "packages/cli/package.json": json.dumps(
                {"name": "cli", "bin": {"cli": "./dist/cli.js"}, "main": "./dist/lib.js"}
            ),
            "packages/cli/vite.config.ts": "export default {};\n",
            "packages/cli/src/cli.ts": "import { run } from './lib';\nrun();\n",
            "packages/cli/src/lib.ts": "export function run(): void {}\n",
        },
        None,
        "zero-peer-file",
        id="manifest entries and tool configs at a package root are not loose peers",
    ),
    pytest.param(
        {
            "packages/cli/package.json": json.dumps({"name": "cli", "main": "./dist/cli.js"}),
            "packages/cli/src/cli.ts": "export {};\n",
        },
        None,
        "module-entry-point",
        id="a package root whose manifest declares its entry has one",
    ),
    pytest.param(
        {
            "CLAUDE.md": "# Repo notes\n\nUse pnpm. Run the tests before pushing.\n" * 40,
            "packages/a/CLAUDE.md": "# Package notes\n",
            # No index: read as an intent document, the memory file would make packages/a a
            # module and draw heading and length findings (with an index it is a module by
            # that, and 1.0 asks it for an INTENT.md).
            "packages/a/a.ts": "export {};\n",
        },
        None,
        "intent-document-contract",
        id="a CLAUDE.md memory file is not an intent document",
    ),
    pytest.param(
        {
            "src/index.ts": "export { a } from './a';\n",
            "src/utils/log.ts": "import { a } from '../a';\nexport const log = a;\n",
            "src/a/index.ts": "import { log } from '../utils/log';\nexport const a = 1;\n"
            "export const b = log;\n",
        },
        None,
        "circular-dependency",
        id="a child reading its ancestor's organ closes no cycle",
    ),
    pytest.param(
        {
            "src/index.ts": "import { serve } from './server';\nexport { serve };\n",
            "src/version.ts": "export const version = '1';\n",
            "src/server/index.ts": "import { version } from '../version';\n"
            "export const serve = () => version;\n",
        },
        None,
        "circular-dependency",
        id="a child reading a non-entry file of its ancestor closes no cycle",
    ),
    pytest.param(
        {
            "src/paths/INTENT.md": HEADINGS,
            "src/paths/DETAIL.md": (
                "# Paths\n\n## Boundary Exemptions\n\n### `state` — hook bundles\n\n"
                "- **Consumers**: `**/src/hooks/**`\n- **Direct import**: `allowed`\n"
                "- **Reason**: the barrel drags every module into the hook bundle.\n"
            ),
            "src/paths/index.ts": "export { s } from './state/s';\n",
            "src/paths/state/s.ts": "export const s = 1;\n",
            "src/hooks/pre/index.ts": "import { s } from '../../paths/state/s';\nexport { s };\n",
        },
        None,
        "external-import-boundary",
        id="an import granted by a DETAIL.md Boundary Exemptions entry",
    ),
    pytest.param(
        {
            "src/auth/index.ts": "export { login } from './login';\n",
            "src/auth/login.ts": "export const login = 1;\n",
            "src/auth/session/index.ts": "import { login } from '../login';\nexport { login };\n",
        },
        {"rules": {"external-import-boundary": {"options": {"forbidParentImports": False}}}},
        "external-import-boundary",
        id="case c (a sub-module reading its parent's file) is off with forbidParentImports false",
    ),
    pytest.param(
        {
            "src/INTENT.md": HEADINGS,
            "src/DETAIL.md": (
                "# Src\n\n## Boundary Exemptions\n\n### `errors.ts` — one error type\n\n"
                "- **Consumers**: `src/git/**`\n- **Direct import**: `allowed`\n"
                "- **Reason**: every module throws the same error type.\n"
            ),
            "src/index.ts": "export { GitError } from './errors';\n",
            "src/errors.ts": "export class GitError extends Error {}\n",
            "src/git/index.ts": "export { remote } from './remote';\n",
            "src/git/remote.ts": "import { GitError } from '../errors';\n"
            "export const remote = () => new GitError();\n",
        },
        None,
        "external-import-boundary",
        id="case c granted by the parent's DETAIL.md Boundary Exemptions entry",
    ),
    pytest.param(
        {
            "package.json": json.dumps({"name": "repo", "workspaces": ["packages/*"]}),
            "eslint.config.mjs": "export default [];\n",
            "packages/ui/package.json": json.dumps({"name": "ui", "main": "src/index.ts"}),
            "packages/ui/eslint.config.js": "import base from '../../eslint.config.mjs';\n"
            "export default base;\n",
            "packages/ui/src/INTENT.md": HEADINGS,
            "packages/ui/src/index.ts": "export const ui = 1;\n",
            "packages/tools/INTENT.md": HEADINGS,
            "packages/tools/package.json": json.dumps({"name": "tools", "main": "index.ts"}),
            "packages/tools/index.ts": "export const tools = 1;\n",
            "packages/tools/eslint.config.js": "import base from '../../eslint.config.mjs';\n"
            "export default base;\n",
        },
        None,
        "external-import-boundary",
        id="a package's tool config extending the root's crosses no module (root declares none)",
    ),
    pytest.param(
        {
            "packages/sync/package.json": json.dumps({"name": "sync", "bin": "dist/cli.js"}),
            "packages/sync/src/INTENT.md": HEADINGS,
            "packages/sync/src/index.ts": "export const run = 1;\n",
            "packages/sync/src/ui/INTENT.md": HEADINGS,
            "packages/sync/src/ui/index.ts": "export { Banner } from './components/banner';\n",
            "packages/sync/src/ui/components/banner.tsx": "export const Banner = 1;\n",
            "packages/sync/preview/dev-ui.tsx": (
                "import { Banner } from '../src/ui/components/banner';\nvoid Banner;\n"
            ),
        },
        None,
        "external-import-boundary",
        id="a dev script beside a package's src is owned by no module",
    ),
    pytest.param(
        {
            "packages/tool/package.json": json.dumps({"name": "tool", "bin": "cli.ts"}),
            "packages/tool/cli.ts": "import { run } from './run';\nrun();\n",
            "packages/tool/run.ts": "export function run(): void {}\n",
            "packages/tool/format.ts": "export const format = 1;\n",
        },
        None,
        "zero-peer-file",
        id="a package.json states an entry surface but does not make its folder a module",
    ),
    pytest.param(
        {
            "packages/tool/INTENT.md": HEADINGS,
            "packages/tool/package.json": json.dumps({"name": "tool", "bin": "dist/cli.js"}),
            "packages/tool/src/cli.ts": "export const cli = 1;\n",
            "packages/tool/vite.config.ts": "export default {};\n",
        },
        None,
        "module-entry-point",
        id="a declared package root keeps its manifest entry as its entry point",
    ),
    pytest.param(
        {
            "src/auth/index.ts": "export { login } from './login';\n",
            "src/auth/login.ts": "export const login = 1;\n",
            "src/app/index.ts": "export const app = 1;\n",
            "src/app/app.test.ts": "import { login } from '../auth/login';\nvoid login;\n",
        },
        None,
        "external-import-boundary",
        id="tests may reach internals",
    ),
    pytest.param(
        {
            "src/installers/index.ts": "import { eslint } from './eslint';\n"
            "export type Installer = () => void;\nexport const all = [eslint];\n",
            "src/installers/eslint.ts": "import { type Installer } from './index';\n"
            "export const eslint: Installer = () => {};\n",
        },
        None,
        "external-import-boundary",
        id="a type-only import of the own barrel (case d)",
    ),
    pytest.param(
        {
            "src/stripe/index.ts": "export const stripe = { ok: 1 };\n",
            "src/stripe/cancel.ts": "import { stripe } from '.';\nexport const c = stripe;\n",
        },
        None,
        "external-import-boundary",
        id="an index that re-exports nothing is not a barrel (case d)",
    ),
    pytest.param(
        {
            "packages/tw/package.json": json.dumps({"name": "@acme/tw", "main": "index.ts"}),
            "packages/tw/tailwind.config.ts": "export default {};\n",
            "apps/web/package.json": json.dumps({"name": "web"}),
            "apps/web/tailwind.config.ts": "import base from '@acme/tw/tailwind.config';\n"
            "export default base;\n",
        },
        None,
        "external-import-boundary",
        id="a module without any entry file has nothing to bypass",
    ),
    pytest.param(
        {
            "web/package.json": json.dumps({"name": "web", "dependencies": {"next": "15"}}),
            "web/app/app.dub.co/(dashboard)/[slug]/(ee)/program/customers/[customerId]/x/y/z/"
            "Earnings/page.tsx": "export default function P() { return null; }\n",
        },
        {"structure": {"maxDepth": 4}},
        "max-depth",
        id="a Next.js route tree's depth is its URL",
    ),
]


@pytest.mark.parametrize(("files", "config", "rule"), SILENT)
def test_stays_silent(
    make_project: ProjectFactory, files: dict[str, str], config: object, rule: str
) -> None:
    project = load_project(make_project(files, config, declared=True), use_cache=False)
    found = evaluate(project, rule_ids=[rule]).violations
    assert found == (), [(v.path, v.message) for v in found]


FIRES = [
    pytest.param(
        {
            "src/auth/index.ts": "export { login } from './login';\n",
            "src/auth/login.ts": "export const login = 1;\n",
            "src/app/index.ts": "import { login } from '../auth/login';\nexport { login };\n",
        },
        "external-import-boundary",
        [("src/app/index.ts", "bypasses the entry point of module 'src/auth'")],
        id="a deep import into a sibling's internals",
    ),
    pytest.param(
        {
            "src/auth/index.ts": "export { login } from './login';\n",
            "src/auth/login.ts": "export const login = 1;\n",
            "src/auth/session/index.ts": "import { login } from '../login';\nexport { login };\n",
        },
        "external-import-boundary",
        [("src/auth/session/index.ts", "imports 'src/auth/login.ts' directly from its parent")],
        id="case c: a sub-module reading its parent's file (upstream's parent-barrel bypass)",
    ),
    pytest.param(
        {
            "src/auth/index.ts": "export const login = 1;\n",
            "src/auth/hooks/index.ts": "export { useAuth } from './use-auth';\n",
            "src/auth/hooks/use-auth.ts": "export const useAuth = 1;\n",
            "src/app/index.ts": "import { useAuth } from '../auth/hooks';\nexport { useAuth };\n",
        },
        "external-import-boundary",
        [("src/app/index.ts", "from organ 'src/auth/hooks' of module 'src/auth'")],
        id="an organ (even one with an index.ts) used from outside its owner",
    ),
    pytest.param(
        {
            **WORKSPACE_UI,
            "packages/app/package.json": json.dumps({"name": "app", "main": "src/main.ts"}),
            "packages/app/src/main.ts": (
                "import { Button } from '@acme/ui/src/button';\nexport const b = Button;\n"
            ),
        },
        "external-import-boundary",
        [("packages/app/src/main.ts", "bypasses the entry point of module 'packages/ui/src'")],
        id="a workspace path its manifest does not publish is a deep import",
    ),
    pytest.param(
        {
            "src/a/INTENT.md": HEADINGS,
            "src/a/index.ts": "import { b } from '../b';\nexport const a = () => b;\n",
            "src/b/INTENT.md": HEADINGS,
            "src/b/index.ts": "import { a } from '../a';\nexport const b = () => a;\n",
        },
        "circular-dependency",
        [("src/a", "import cycle between 2 modules (src/a, src/b)")],
        id="a real cycle between two declared modules",
    ),
    pytest.param(
        {
            "src/utils/index.ts": "export { link } from './link';\n",
            "src/utils/link.ts": "import { other } from '.';\nexport const link = other;\n",
            "src/utils/other.ts": "export const other = 1;\n",
            "src/utils/INTENT.md": HEADINGS,
            "src/utils/DETAIL.md": "# Utils\n",
        },
        "external-import-boundary",
        [("src/utils/link.ts", "imports its own module's barrel")],
        id="a module file importing its own barrel that re-exports it (case d)",
    ),
    pytest.param(
        {
            "src/index.ts": "import { serve } from './server';\nexport const version = '1';\n"
            "export { serve };\n",
            "src/server/index.ts": "import { version } from '..';\n"
            "export const serve = () => version;\n",
        },
        "circular-dependency",
        [("src", "import cycle between 2 modules (src, src/server)")],
        id="a child importing its ancestor's barrel that imports it back",
    ),
]


@pytest.mark.parametrize(("files", "rule", "expected"), FIRES)
def test_still_fires(
    make_project: ProjectFactory,
    files: dict[str, str],
    rule: str,
    expected: list[tuple[str, str]],
) -> None:
    project = load_project(make_project(files, declared=True), use_cache=False)
    found = evaluate(project, rule_ids=[rule]).violations
    assert len(found) == len(expected), [(v.path, v.message) for v in found]
    for violation, (path, fragment) in zip(found, expected, strict=True):
        assert violation.path == path
        assert fragment in violation.message


def test_a_published_subpath_reached_through_a_paths_alias_is_not_a_deep_import(
    make_project: ProjectFactory,
) -> None:
    # trpc: the root tsconfig maps `@trpc/server/*` to the package sources, and the package
    # exports `./adapters/*`: an import of `@trpc/server/adapters/ws` uses a published entry.
    files = {
        "package.json": json.dumps({"name": "repo", "workspaces": ["packages/*"]}),
        "tsconfig.json": json.dumps(
            {"compilerOptions": {"paths": {"@acme/server/*": ["./packages/server/src/*"]}}}
        ),
        "packages/server/package.json": json.dumps(
            {"name": "@acme/server", "exports": {"./adapters/*": "./dist/adapters/*.js"}}
        ),
        "packages/server/src/index.ts": "export const s = 1;\n",
        "packages/server/src/adapters/ws.ts": "export const ws = 1;\n",
        "packages/server/src/internal/x.ts": "export const x = 1;\n",
        "packages/client/package.json": json.dumps({"name": "@acme/client"}),
        "packages/client/src/index.ts": "import { ws } from '@acme/server/adapters/ws';\n"
        "import { x } from '@acme/server/internal/x';\nexport const c = [ws, x];\n",
    }
    project = load_project(make_project(files, declared=True), use_cache=False)
    found = evaluate(project, rule_ids=["external-import-boundary"]).violations
    # the published adapter is silent; the unpublished internal path is still reported
    assert [v.message.rsplit("(", 1)[1] for v in found] == ["'@acme/server/internal/x')"]
