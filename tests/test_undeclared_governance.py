"""Which tsconfig governs a file (SPEC §4, §0): the nearest config whose program takes the file
in, as tsserver (TypeScript 5.6+) and ``tsc -p`` see it. Layout: blind judge I2's
HoudiniGraphql/houdini, a minimal copy. ``packages/houdini-react/runtime/tsconfig.json`` is a
config shipped to users: it includes ``../src/**`` and ``ambient.d.ts``, none of the runtime's
own files, and maps ``$houdini/*`` to its own folder; the root ``tsconfig.json`` compiles
``packages/**`` and maps ``$houdini/runtime`` to ``packages/houdini-core/runtime``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from filid.graph.tsconfig import TsconfigIndex
from tests.claims import claims
from tests.conftest import ProjectFactory
from tests.test_undeclared_claims_i1 import needs_tsc, tsc_unresolved

RUNTIME = "packages/houdini-react/runtime"
HOUDINI = {
    "package.json": json.dumps({"name": "houdini-monorepo", "private": True, "type": "module"}),
    "tsconfig.json": json.dumps(
        {
            "exclude": ["node_modules", "packages/*/build/**"],
            "include": ["packages/**/*.ts", "packages/**/*.tsx"],
            "compilerOptions": {
                "moduleResolution": "bundler",
                "module": "preserve",
                "target": "ESNext",
                "jsx": "react-jsx",
                "skipLibCheck": True,
                "emitDeclarationOnly": True,
                "declaration": True,
                "paths": {
                    "$houdini/runtime": ["./packages/houdini-core/runtime"],
                    "$houdini/runtime/*": ["./packages/houdini-core/runtime/*"],
                },
            },
        }
    ),
    "packages/houdini-core/package.json": json.dumps({"name": "houdini-core"}),
    "packages/houdini-core/runtime/index.ts": "export function getCurrentConfig() {}\n",
    "packages/houdini-react/package.json": json.dumps({"name": "houdini-react"}),
    f"{RUNTIME}/tsconfig.json": json.dumps(
        {
            "compilerOptions": {
                "baseUrl": ".",
                "paths": {"$houdini": ["."], "$houdini/*": ["./*"], "~/*": ["../src/*"]},
                "rootDirs": ["..", "./types"],
                "moduleResolution": "Bundler",
                "module": "ESNext",
                "noEmit": True,
                "jsx": "react-jsx",
            },
            "include": ["ambient.d.ts", "./types/**/$types.d.ts", "../src/**/*.ts"],
            "exclude": ["../node_modules/**", "./[!ambient.d.ts]**"],
        }
    ),
    f"{RUNTIME}/ambient.d.ts": "declare const runtimeMarker: string;\n",
    f"{RUNTIME}/index.tsx": "export * from './hooks/index.js';\n",
    f"{RUNTIME}/hooks/index.ts": "export { useMutationForm } from './useMutationForm.js';\n",
    f"{RUNTIME}/hooks/useMutationForm.tsx": (
        "import { getCurrentConfig } from '$houdini/runtime';\n"
        "import { useSession } from '../routing/Router.js';\n"
        "export function useMutationForm() { return [getCurrentConfig, useSession]; }\n"
    ),
    f"{RUNTIME}/routing/Router.tsx": (
        "import { getCurrentConfig } from '$houdini/runtime';\n"
        "export type RouterContext = {};\n"
        "export function useSession() { return getCurrentConfig; }\n"
    ),
    f"{RUNTIME}/contexts.ts": (
        "import type { RouterContext } from './routing/Router.js';\n"
        "export type X = RouterContext;\n"
    ),
    f"{RUNTIME}/contexts.test.ts": (
        "import * as contexts from './contexts.js';\nconsole.log(contexts);\n"
    ),
}

# The same layout where both files import a runtime module that does not exist.
GONE = {
    **HOUDINI,
    f"{RUNTIME}/hooks/useMutationForm.tsx": (
        "import { getCurrentConfig } from '$houdini/runtime/gone';\n"
        "import { useSession } from '../routing/Router.js';\n"
        "export function useMutationForm() { return [getCurrentConfig, useSession]; }\n"
    ),
    f"{RUNTIME}/routing/Router.tsx": (
        "import { getCurrentConfig } from '$houdini/runtime/gone';\n"
        "export type RouterContext = {};\n"
        "export function useSession() { return getCurrentConfig; }\n"
    ),
}
GONE_CLAIMS = [
    f"unresolved-import {RUNTIME}/hooks/useMutationForm.tsx:1",
    f"unresolved-import {RUNTIME}/routing/Router.tsx:1",
]


def _index(root: Path) -> TsconfigIndex:
    files = frozenset(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    return TsconfigIndex(root, files)


def _governing(root: Path, file: str) -> str | None:
    options = _index(root).for_file(file)
    return None if options is None else options.config


def test_a_file_its_folder_config_leaves_out_resolves_under_the_root_project(
    make_project: ProjectFactory,
) -> None:
    # the root program compiles Router.tsx and maps `$houdini/runtime` to houdini-core
    assert claims(make_project(HOUDINI)) == []


def test_the_governing_config_is_chosen_per_file_within_one_folder(
    make_project: ProjectFactory,
) -> None:
    root = make_project(HOUDINI)
    assert _governing(root, f"{RUNTIME}/index.tsx") == "tsconfig.json"
    assert _governing(root, f"{RUNTIME}/routing/Router.tsx") == "tsconfig.json"
    # the runtime config's own program keeps the file it includes, in the same folder
    assert _governing(root, f"{RUNTIME}/ambient.d.ts") == f"{RUNTIME}/tsconfig.json"


def test_a_file_no_config_above_takes_in_keeps_its_folder_config(
    make_project: ProjectFactory,
) -> None:
    narrow = {**HOUDINI, "tsconfig.json": json.dumps({"include": ["scripts/**/*.ts"]})}
    root = make_project(narrow)
    assert _governing(root, f"{RUNTIME}/routing/Router.tsx") == f"{RUNTIME}/tsconfig.json"


def test_an_import_that_resolves_nowhere_is_claimed_in_every_file_that_writes_it(
    make_project: ProjectFactory,
) -> None:
    # both files are compiled by the root program: the claim does not depend on which of
    # them a test happens to reach
    assert claims(make_project(GONE)) == GONE_CLAIMS


@pytest.mark.parametrize(
    "removed",
    [("index.tsx",), ("index.tsx", "hooks/index.ts"), ("contexts.test.ts", "contexts.ts")],
)
def test_a_claim_does_not_depend_on_unrelated_files(
    make_project: ProjectFactory, removed: tuple[str, ...]
) -> None:
    # (judge I2: on the old code, deleting the package's `index.tsx` or the test that reaches
    # Router.tsx removed Router.tsx's claim)
    gone = {f"{RUNTIME}/{name}" for name in removed}
    layout = {path: text for path, text in GONE.items() if path not in gone}
    assert claims(make_project(layout)) == GONE_CLAIMS


def test_a_bracket_in_a_tsconfig_exclude_is_a_literal_character(
    make_project: ProjectFactory,
) -> None:
    # tsc's wildcards are `*`, `?` and `**/`: `./[!ambient.d.ts]**` names files whose name
    # starts with `[!ambient.d.ts]`, of which there are none; nothing is left out
    narrow = {**HOUDINI, "tsconfig.json": json.dumps({"include": ["scripts/**/*.ts"]})}
    index = _index(make_project(narrow))
    assert not index.leaves_out(f"{RUNTIME}/routing/Router.tsx")
    assert not index.leaves_out(f"{RUNTIME}/contexts.ts")


def test_a_config_in_a_bracketed_folder_takes_in_its_own_files(
    make_project: ProjectFactory,
) -> None:
    # a Next.js dynamic route folder holding its own tsconfig: `[slug]` is a folder name
    root = make_project(
        {
            "tsconfig.json": json.dumps({"include": ["lib/**/*.ts"]}),
            "app/[slug]/tsconfig.json": json.dumps({"compilerOptions": {"strict": True}}),
            "app/[slug]/page.ts": "export const page = 1;\n",
        }
    )
    assert _index(root).compiles("app/[slug]/page.ts")


@pytest.mark.slow
@needs_tsc
def test_tsc_agrees_with_the_root_project(make_project: ProjectFactory) -> None:
    assert tsc_unresolved(make_project(HOUDINI), "tsconfig.json") == []
    assert tsc_unresolved(make_project(GONE), "tsconfig.json") == [
        f"{RUNTIME}/hooks/useMutationForm.tsx",
        f"{RUNTIME}/routing/Router.tsx",
    ]


# -- create-houdini: sources a package publishes but does not compile ----------------------
# The CLI package publishes `fragments/` (laid over a template in the app it writes, where
# houdini generates `./$types`); its own tsconfig compiles `bin.js` alone, and the root
# tsconfig's `packages/**/*.tsx` sweeps the fragment into the root program.

CLI = "packages/create-houdini"
FRAGMENT = f"{CLI}/fragments/localSchema/react-typescript/src/routes/+page.tsx"
CREATE = {
    "package.json": json.dumps({"name": "houdini-monorepo", "private": True}),
    "tsconfig.json": json.dumps(
        {
            "include": ["packages/**/*.ts", "packages/**/*.tsx"],
            "compilerOptions": {"jsx": "preserve"},
        }
    ),
    f"{CLI}/package.json": json.dumps(
        {"name": "create-houdini", "bin": "./bin.js", "files": ["fragments", "bin.js"]}
    ),
    f"{CLI}/tsconfig.json": json.dumps(
        {
            "compilerOptions": {"allowJs": True, "checkJs": True, "noEmit": True},
            "include": ["./bin.js"],
        }
    ),
    f"{CLI}/bin.js": "console.log('create');\n",
    FRAGMENT: (
        "import { PageProps } from './$types';\n"
        "export default function Page(props: PageProps) { return props; }\n"
    ),
    # not published, left out by the package's config, compiled by the root program: judged
    f"{CLI}/lib/helper.ts": "import { x } from './gone';\nexport const y = x;\n",
}


def test_a_source_its_package_publishes_but_does_not_compile_is_shipped_data(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(CREATE)) == [f"unresolved-import {CLI}/lib/helper.ts:1"]


def test_a_published_source_the_package_compiles_is_judged(make_project: ProjectFactory) -> None:
    compiled = {
        **CREATE,
        f"{CLI}/tsconfig.json": json.dumps(
            {"compilerOptions": {"jsx": "preserve"}, "include": ["./bin.js", "fragments"]}
        ),
    }
    assert claims(make_project(compiled)) == [
        f"unresolved-import {FRAGMENT}:1",
        f"unresolved-import {CLI}/lib/helper.ts:1",
    ]


# -- mermaid: a root program sweeping in a sub-project's JavaScript ------------------------
# The root tsconfig (`allowJs`, no `include`: every file) emits; `cypress/tsconfig.json` takes
# in `**/*.ts` only. The dev server serves `cypress/platform/` beside each package's `dist/`,
# where `./mermaid.esm.mjs` is built; a root `vite.config.ts` bundles the library.

MERMAID = {
    "package.json": json.dumps({"name": "mermaid-monorepo", "private": True}),
    "tsconfig.json": json.dumps({"compilerOptions": {"allowJs": True, "module": "nodenext"}}),
    "vite.config.ts": "export default {};\n",
    "cypress/tsconfig.json": json.dumps(
        {"compilerOptions": {"noEmit": True}, "include": ["**/*.ts"]}
    ),
    "cypress/platform/viewer.js": (
        "import mermaid from './mermaid.esm.mjs';\nmermaid.initialize({});\n"
    ),
    # TypeScript the cypress program leaves out too: the root program's editor reports it
    "cypress/platform/dead.mts": "import { gone } from './gone.mjs';\nexport const d = gone;\n",
}


def test_javascript_a_program_above_sweeps_in_is_reached_only_as_an_editor_reads_it(
    make_project: ProjectFactory,
) -> None:
    root = make_project(MERMAID)
    assert _governing(root, "cypress/platform/viewer.js") == "tsconfig.json"
    assert claims(root) == ["unresolved-import cypress/platform/dead.mts:1"]
