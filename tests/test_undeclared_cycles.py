"""Cycle claims in a project that declares nothing (SPEC §0), from layouts met on public
monorepos: the route a barrel loop shows, and package cycles only through shipped code."""

from __future__ import annotations

from filid.engine import evaluate, load_project
from filid.model.violations import Violation
from tests.conftest import ProjectFactory


def _cycles(files: dict[str, str], make_project: ProjectFactory) -> list[Violation]:
    result = evaluate(load_project(make_project(files), use_cache=False))
    return [v for v in result.violations if v.rule_id == "circular-dependency"]


# better-auth's `packages/api-key`: the package index imports the `routes` barrel, which
# re-exports a route that imports constants back from the package index ('..').
API_KEY = {
    "package.json": '{"private": true, "workspaces": ["packages/*"]}\n',
    "packages/api-key/package.json": '{"name": "@x/api-key", "main": "src/index.ts"}\n',
    "packages/api-key/src/index.ts": (
        "import { createRoutes } from './routes';\n"
        "export const TABLE = 'apikey';\n"
        "export const apiKey = () => createRoutes();\n"
    ),
    "packages/api-key/src/routes/index.ts": (
        "import { createApiKey } from './create-api-key';\n"
        "export const createRoutes = () => [createApiKey];\n"
    ),
    "packages/api-key/src/routes/create-api-key.ts": (
        "import { TABLE } from '..';\nexport const createApiKey = () => TABLE;\n"
    ),
}


def test_a_barrel_loop_shows_every_file_hop(make_project: ProjectFactory) -> None:
    (cycle,) = _cycles(API_KEY, make_project)
    assert cycle.members == ("packages/api-key/src", "packages/api-key/src/routes")
    # The whole loop, file by file: the hop through the routes barrel is shown too.
    assert cycle.message.endswith(
        "[packages/api-key/src/index.ts:1 imports './routes'; "
        "packages/api-key/src/routes/index.ts:1 imports './create-api-key'; "
        "packages/api-key/src/routes/create-api-key.ts:1 imports '..']"
    )
    assert [(r.file, r.line) for r in cycle.related] == [
        ("packages/api-key/src/index.ts", 1),
        ("packages/api-key/src/routes/index.ts", 1),
        ("packages/api-key/src/routes/create-api-key.ts", 1),
    ]


def test_each_hop_of_the_shown_route_leaves_the_file_the_last_one_reached(
    make_project: ProjectFactory,
) -> None:
    # excalidraw's shape: the loop leaves the `actions` barrel through one action and comes
    # back through a chain of components of the package folder.
    files = {
        "package.json": '{"name": "app", "main": "index.tsx"}\n',
        "index.tsx": "export { App } from './components/App';\n",
        "components/App.tsx": "import { Layer } from './Layer';\nexport const App = Layer;\n",
        "components/Layer.tsx": (
            "import { Actions } from './Actions';\nexport const Layer = () => Actions;\n"
        ),
        "components/Actions.tsx": (
            "import { actions } from '../actions';\nexport const Actions = () => actions;\n"
        ),
        "components/Picker.tsx": "import { App } from '..';\nexport const Picker = () => App;\n",
        "actions/index.ts": "export { actions } from './canvas';\n",
        "actions/canvas.ts": (
            "import { Picker } from '../components/Picker';\nexport const actions = [Picker];\n"
        ),
    }
    (cycle,) = _cycles(files, make_project)
    # Each file shown imports the next one, and the last imports the first.
    assert [r.file for r in cycle.related] == [
        "components/Actions.tsx",
        "actions/index.ts",
        "actions/canvas.ts",
        "components/Picker.tsx",
        "index.tsx",
        "components/App.tsx",
        "components/Layer.tsx",
    ]


# documenso's shape: `app-tests` depends on `lib`, `lib` on `prisma`, and the prisma
# package's seed script (which its index never loads) imports a constant of `app-tests`.
SEED = {
    "package.json": '{"private": true, "workspaces": ["packages/*"]}\n',
    "packages/app-tests/package.json": '{"name": "@d/app-tests", "private": true}\n',
    "packages/app-tests/constants/pdf.ts": (
        "import { fields } from '@d/lib/fields';\nexport const PDF = fields;\n"
    ),
    "packages/lib/package.json": '{"name": "@d/lib", "exports": {"./*": "./*.ts"}}\n',
    "packages/lib/fields.ts": (
        "import { prisma } from '@d/prisma';\nexport const fields = prisma;\n"
    ),
    "packages/prisma/package.json": '{"name": "@d/prisma", "main": "index.ts"}\n',
    "packages/prisma/index.ts": "export const prisma = 1;\n",
    "packages/prisma/seed/initial-seed.ts": (
        "import { PDF } from '@d/app-tests/constants/pdf';\nexport const seed = () => PDF;\n"
    ),
}


def test_a_package_cycle_closed_only_by_a_script_the_package_never_loads_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    assert _cycles(SEED, make_project) == []


def test_a_package_cycle_through_shipped_code_is_claimed(make_project: ProjectFactory) -> None:
    files = dict(SEED)
    files["packages/prisma/index.ts"] = (
        "import { seed } from './seed/initial-seed';\nexport const prisma = seed;\n"
    )
    (cycle,) = _cycles(files, make_project)
    assert cycle.members == ("packages/app-tests", "packages/lib", "packages/prisma")


# payload's `packages/codemod`: the transforms' `*.input.ts`/`*.output.ts` fixtures are read
# as text by their specs and left out of the compiler by the tsconfig's `exclude`.
CODEMOD = {
    "packages/codemod/package.json": '{"name": "codemod", "main": "src/index.ts"}\n',
    "tsconfig.base.json": '{"compilerOptions": {"strict": true}}\n',
    "packages/codemod/tsconfig.json": (
        '{"extends": "../../tsconfig.base.json", "include": ["src"],\n'
        ' "exclude": ["**/*.input.ts", "**/*.output.ts"]}\n'
    ),
    "packages/codemod/src/index.ts": "export const transform = 1;\n",
    "packages/codemod/src/transforms/next/basic.input.ts": (
        "import { importMap } from './admin/importMap.js';\nexport default importMap;\n"
    ),
    "packages/codemod/src/transforms/next/real.ts": (
        "import { gone } from './gone.js';\nexport default gone;\n"
    ),
}


def test_a_file_the_tsconfig_excludes_and_nothing_imports_is_not_judged_unresolved(
    make_project: ProjectFactory,
) -> None:
    result = evaluate(load_project(make_project(CODEMOD), use_cache=False))
    assert [(v.rule_id, v.path) for v in result.violations] == [
        ("unresolved-import", "packages/codemod/src/transforms/next/real.ts")
    ]
    # Imported by an included file, an excluded file is compiled all the same.
    files = dict(CODEMOD)
    files["packages/codemod/src/index.ts"] = (
        "import fixture from './transforms/next/basic.input';\nexport const transform = fixture;\n"
    )
    result = evaluate(load_project(make_project(files), use_cache=False))
    assert sorted(v.path for v in result.violations) == [
        "packages/codemod/src/transforms/next/basic.input.ts",
        "packages/codemod/src/transforms/next/real.ts",
    ]
