"""Claims in a project that declares nothing (SPEC §0): the imports that are no unresolved
claim, from the layouts the second blind judge of issue 23 met on library and SDK monorepos
(judge B). Each test keeps a true claim of the same shape beside the false one it removes."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path

from filid.check.engine import evaluate
from filid.check.project import load_project
from tests.conftest import ProjectFactory


def _claims(root: Path) -> list[str]:
    result = evaluate(load_project(root, use_cache=False))
    return sorted(f"{v.rule_id} {v.location.file}:{v.location.line}" for v in result.violations)


def _git_project(files: Mapping[str, str], make_project: ProjectFactory) -> Path:
    root = make_project(files)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, capture_output=True)
    return root


# solidjs/solid: `types:copy` copies `jsx.d.ts` from dom-expressions into `src/`, and the root
# `.gitignore` names it; the sources import it as `./jsx.js` (TypeScript's declaration twin).
SOLID = {
    ".gitignore": "node_modules\npackages/solid/src/jsx.d.ts\n",
    "packages/solid/package.json": (
        '{"name": "solid-js", "scripts": {"types:copy": "ncp ../../node_modules/'
        'dom-expressions/src/jsx.d.ts ./src/jsx.d.ts"}}\n'
    ),
    "packages/solid/src/index.ts": (
        'import type { JSX } from "./jsx.js";\nexport type Element = JSX.Element;\n'
    ),
    "packages/solid/src/render/flow.ts": (
        'import type { JSX } from "../jsx.js";\nimport { gone } from "./gone.js";\n'
        "export type E = JSX.Element;\nexport const f = gone;\n"
    ),
}

# unocss's remix example: its `css` script writes `app/uno.css`, which its own `.gitignore`
# names; the root imports it through the tsconfig alias with a bundler query.
UNOCSS = {
    "examples/remix/.gitignore": "node_modules\napp/uno.css\n",
    "examples/remix/package.json": (
        '{"name": "remix", "scripts": {"css": "unocss \\"app/**/*.tsx\\" --out-file=app/uno.css"}}\n'
    ),
    "examples/remix/tsconfig.json": (
        '{"compilerOptions": {"baseUrl": ".", "paths": {"~/*": ["./app/*"]}}}\n'
    ),
    "examples/remix/app/root.tsx": (
        "import unocss from '~/uno.css?url';\nimport gone from '~/gone.css?url';\n"
        "export const links = [unocss, gone];\n"
    ),
}


def test_a_declaration_twin_git_ignores_is_generated(make_project: ProjectFactory) -> None:
    root = _git_project(SOLID, make_project)
    # Only the import of a file nothing generates stays a claim.
    assert _claims(root) == ["unresolved-import packages/solid/src/render/flow.ts:2"]


def test_an_aliased_import_with_a_query_of_a_git_ignored_file_is_generated(
    make_project: ProjectFactory,
) -> None:
    root = _git_project(UNOCSS, make_project)
    assert _claims(root) == ["unresolved-import examples/remix/app/root.tsx:2"]


# modernweb-dev/web: browser code imports the module web-dev-server answers at
# `/__web-dev-server__web-socket.js` (a URL on the serving origin, no file of the project).
WEB_DEV_SERVER = {
    "package.json": '{"private": true, "workspaces": ["packages/*"]}\n',
    "packages/test-runner-core/package.json": '{"name": "@web/test-runner-core"}\n',
    "packages/test-runner-core/browser/session.ts": (
        "import { sendMessage } from '/__web-dev-server__web-socket.js';\n"
        "import { gone } from './gone.js';\nexport { sendMessage, gone };\n"
    ),
}


def test_an_unresolved_root_absolute_specifier_outside_a_vite_root_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    assert _claims(make_project(WEB_DEV_SERVER)) == [
        "unresolved-import packages/test-runner-core/browser/session.ts:2"
    ]
    # Below a Vite config, Vite resolves `/x` against its root (or `public/`): a missing
    # file is a claim there.
    files = dict(WEB_DEV_SERVER)
    files["packages/test-runner-core/vite.config.ts"] = "export default {};\n"
    assert _claims(make_project(files)) == [
        "unresolved-import packages/test-runner-core/browser/session.ts:1",
        "unresolved-import packages/test-runner-core/browser/session.ts:2",
    ]
