"""What blind judge K2 found false or debatable in course and starter repositories, whose
files are copies or pieces of another tree of the same repository (P11, P4, P10), each a
minimal copy of the real layout with a true claim of the same shape kept beside it (SPEC §0:
a project that declares nothing gets only claims that hold)."""

from __future__ import annotations

from tests.claims import claims
from tests.conftest import ProjectFactory

# -- flat "stepped solution" snapshots (wesbos/Advanced-React, judge K2 P11) ------------------

# `stepped-solutions/46/` is a flat dump of the files a student has after lesson 46; each is
# a copy of a file of `finished-application/`, where its imports resolve. Nothing (no
# package.json, no tsconfig) covers the snapshots, and the repository has no root manifest.
FRONTEND = "finished-application/frontend"
SNAPSHOT = "stepped-solutions/46/Cart.js"
STEPPED = {
    f"{FRONTEND}/package.json": '{"name": "sick-fits-frontend"}\n',
    f"{FRONTEND}/components/Cart.js": (
        "import CloseButton from './styles/CloseButton';\n"
        "import { useCart } from '../lib/cartState';\n"
        "import { useUser } from './User';\n"
        "export default function Cart() { return [CloseButton, useCart(), useUser()]; }\n"
    ),
    f"{FRONTEND}/components/User.js": "export function useUser() { return null; }\n",
    f"{FRONTEND}/components/styles/CloseButton.js": "export default 'button';\n",
    f"{FRONTEND}/lib/cartState.js": "export function useCart() { return {}; }\n",
    SNAPSHOT: (
        "import CloseButton from './styles/CloseButton';\n"
        "import { useCart } from '../lib/cartState';\n"
        "import { useUser } from './User';\n"
        "export default function Cart() { return [CloseButton, useCart(), useUser()]; }\n"
    ),
    "stepped-solutions/46/Nav.js": "import Cart from './Cart';\nexport default Cart;\n",
}


def test_a_loose_snapshot_resolves_from_its_same_named_home(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(STEPPED)) == []


def test_a_loose_file_beside_packages_is_no_claim_twin_or_not(
    make_project: ProjectFactory,
) -> None:
    # academind's `attachments/27 Patterns/places.ts`: a lecture's download bundle beside
    # the course's projects, read by no install, build or type check of the repository
    text = STEPPED[SNAPSHOT] + "import { format } from '../lib/formatMoney';\n"
    assert claims(make_project({**STEPPED, SNAPSHOT: text})) == []


def test_in_a_repository_of_no_package_a_loose_file_is_the_program(
    make_project: ProjectFactory,
) -> None:
    # plain browser modules: no package.json anywhere, so the files are what runs
    files = {
        "index.html": '<script type="module" src="./js/app.js"></script>\n',
        "js/main.js": "import { app } from './app.js';\nexport const main = app;\n",
        "js/app.js": "import { cart } from './cart.js';\nexport const app = cart;\n",
    }
    assert claims(make_project(files)) == ["unresolved-import js/app.js:1"]


def test_a_copy_that_a_program_covers_is_a_claim(make_project: ProjectFactory) -> None:
    # relay-examples' `newsfeed/future/Sidebar.tsx`: a tsconfig above it compiles it in place
    files = {**STEPPED, "stepped-solutions/jsconfig.json": "{}\n"}
    assert claims(make_project(files)) == [
        f"unresolved-import {SNAPSHOT}:1",
        f"unresolved-import {SNAPSHOT}:2",
        f"unresolved-import {SNAPSHOT}:3",
    ]


# -- the start and the finish of one package (Advanced-React's sick-fits, judge K2 P10) -------

# `sick-fits/backend/schemas/` holds only `.gitkeep`: students write `fields.ts` during the
# course; `finished-application/backend` is the same package (same name) finished.
SICK_FITS = {
    "sick-fits/backend/package.json": '{"name": "sick-fits-backend", "private": true}\n',
    "sick-fits/backend/tsconfig.json": "{}\n",
    "sick-fits/backend/types.ts": "import { permissionFields } from './schemas/fields';\n"
    "export type Fields = typeof permissionFields;\n",
    "sick-fits/backend/schemas/.gitkeep": "",
    "finished-application/backend/package.json": (
        '{"name": "sick-fits-backend", "private": true}\n'
    ),
    "finished-application/backend/tsconfig.json": "{}\n",
    "finished-application/backend/types.ts": (
        "import { permissionFields } from './schemas/fields';\n"
        "export type Fields = typeof permissionFields;\n"
    ),
    "finished-application/backend/schemas/fields.ts": "export const permissionFields = {};\n",
}


def test_a_file_the_same_named_package_has_is_no_claim(make_project: ProjectFactory) -> None:
    assert claims(make_project(SICK_FITS)) == []


def test_a_file_a_differently_named_sibling_app_has_is_a_claim(
    make_project: ProjectFactory,
) -> None:
    # two apps of a monorepo: `admin` really lost the file `web` still has
    files = {
        "apps/admin/package.json": '{"name": "admin"}\n',
        "apps/admin/app/ui/logo.tsx": "import { font } from './fonts';\nexport const f = font;\n",
        "apps/web/package.json": '{"name": "web"}\n',
        "apps/web/app/ui/logo.tsx": "import { font } from './fonts';\nexport const f = font;\n",
        "apps/web/app/ui/fonts.ts": "export const font = 'Lusitana';\n",
    }
    assert claims(make_project(files)) == ["unresolved-import apps/admin/app/ui/logo.tsx:1"]


def test_a_starter_whose_package_shares_no_name_with_its_finish_is_a_claim(
    make_project: ProjectFactory,
) -> None:
    # vercel/next-learn's `dashboard/starter-example` (judge K2 P10, debatable): nothing but
    # the folder's name tells it from an app that lost its file, and the claim is true
    files = {
        "dashboard/starter-example/package.json": '{"private": true}\n',
        "dashboard/starter-example/tsconfig.json": (
            '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./*"]}}}\n'
        ),
        "dashboard/starter-example/app/ui/acme-logo.tsx": (
            "import { lusitana } from '@/app/ui/fonts';\nexport const f = lusitana;\n"
        ),
        "dashboard/final-example/package.json": '{"private": true}\n',
        "dashboard/final-example/tsconfig.json": (
            '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./*"]}}}\n'
        ),
        "dashboard/final-example/app/ui/fonts.ts": "export const lusitana = 'Lusitana';\n",
    }
    assert claims(make_project(files)) == [
        "unresolved-import dashboard/starter-example/app/ui/acme-logo.tsx:1"
    ]


# -- overlay templates (ionic-team/starters, judge K2 P4) -------------------------------------

# The repository's build copies `vue-vite/base/` and then `vue-vite/official/<name>/` over
# it; `base/src/main.ts` imports what every starter supplies. The starters have no
# package.json: they cannot be installed or built alone.
MAIN = "vue-vite/base/src/main.ts"
IONIC = {
    "package.json": '{"private": true, "scripts": {"build": "tsc"}}\n',
    "tsconfig.json": '{"include": ["src/**/*.ts"]}\n',
    "src/lib/build.ts": "export const build = () => 0;\n",
    "vue-vite/base/package.json": '{"name": "ionic-app-base", "private": true}\n',
    "vue-vite/base/tsconfig.json": '{"include": ["src/**/*.ts", "src/**/*.vue"]}\n',
    MAIN: "import App from './App.vue';\nimport router from './router';\nexport { App, router };\n",
    "vue-vite/official/tabs/ionic.starter.json": '{"name": "Tabs"}\n',
    "vue-vite/official/tabs/src/App.vue": "<template><ion-app /></template>\n",
    "vue-vite/official/tabs/src/router/index.ts": "export default {};\n",
    "vue-vite/official/blank/ionic.starter.json": '{"name": "Blank"}\n',
    "vue-vite/official/blank/src/App.vue": "<template><ion-app /></template>\n",
    "vue-vite/official/blank/src/router/index.ts": "export default {};\n",
}


def test_an_overlay_base_resolves_in_the_starters_beside_it(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(IONIC)) == []


def test_a_target_no_starter_supplies_is_a_claim(make_project: ProjectFactory) -> None:
    text = IONIC[MAIN] + "import { theme } from './theme/variables';\n"
    assert claims(make_project({**IONIC, MAIN: text})) == [f"unresolved-import {MAIN}:4"]


def test_a_sibling_that_is_a_package_of_its_own_is_no_overlay(
    make_project: ProjectFactory,
) -> None:
    # a sibling with its own package.json is an app: `base` really lacks the files
    files = {
        **{k: v for k, v in IONIC.items() if "/official/blank/" not in k},
        "vue-vite/official/tabs/package.json": '{"name": "tabs"}\n',
    }
    assert claims(make_project(files)) == [
        f"unresolved-import {MAIN}:1",
        f"unresolved-import {MAIN}:2",
    ]


def test_a_deno_project_is_a_program_not_a_loose_file(make_project: ProjectFactory) -> None:
    # a Deno module with an npm build folder beside it: `deno.json` makes `src/` its program
    files = {
        "deno.json": '{"name": "@scope/mod", "exports": "./src/mod.ts"}\n',
        "npm/package.json": '{"name": "mod-npm", "private": true}\n',
        "src/mod.ts": "import { helper } from './gone.ts';\nexport const mod = helper;\n",
    }
    assert claims(make_project(files)) == ["unresolved-import src/mod.ts:1"]
