"""Claims in a project that declares nothing (SPEC §0): layouts blind judge K2 met on
single-package repositories, each a minimal copy of the real repository's. Every test keeps
a true claim of the same shape beside the false one it removes."""

from __future__ import annotations

from tests.claims import claims, git_project
from tests.conftest import ProjectFactory

# playcanvas/engine's examples: `xr-menu.example.mjs`'s `./ui.html` is its sibling
# `xr-menu.ui.html`, which the examples browser's loader serves from an in-memory file set.
# `broken.example.mjs` has one import with no prefixed sibling (`./gone.mjs`), so it is not
# written for that loader and both its imports stay claims; `plain.mjs` has a one-dot name;
# `button.demo.mjs`'s stale `./styles.mjs` has a `button.styles.mjs` beside it, but its
# `./button.mjs` (which resolves) has no `button.button.mjs`: no loader convention there.
PLAYCANVAS_EXAMPLES = {
    "package.json": '{"name": "playcanvas", "type": "module"}\n',
    "examples/package.json": (
        '{"name": "examples-browser", "type": "module",'
        ' "scripts": {"typecheck": "tsc -p tsconfig.json"}}\n'
    ),
    "examples/tsconfig.json": (
        '{"compilerOptions": {"allowJs": true, "checkJs": false, "noEmit": true},'
        ' "include": ["src/examples/**/*.example.mjs", "src/examples/**/*.mjs"]}\n'
    ),
    "examples/src/examples/xr/xr-menu.example.mjs": (
        "import uiHtml from './ui.html';\nimport uiCss from './ui.css';\n"
        "export const ui = [uiHtml, uiCss];\n"
    ),
    "examples/src/examples/xr/xr-menu.ui.html": "<div></div>\n",
    "examples/src/examples/xr/xr-menu.ui.css": "div {}\n",
    "examples/src/examples/shaders/point-cloud.example.mjs": (
        "import vert from './shader.glsl.vert';\nimport { Handler } from './handler.mjs';\n"
        "export default [vert, Handler];\n"
    ),
    "examples/src/examples/shaders/point-cloud.shader.glsl.vert": "void main() {}\n",
    "examples/src/examples/shaders/point-cloud.handler.mjs": (
        "import frag from './shader.glsl.vert';\nexport const Handler = frag;\n"
    ),
    "examples/src/examples/shaders/broken.example.mjs": (
        "import ui from './ui.html';\nimport { gone } from './gone.mjs';\n"
        "export default [ui, gone];\n"
    ),
    "examples/src/examples/shaders/broken.ui.html": "<p></p>\n",
    "examples/src/examples/shaders/plain.mjs": "import ui from './ui.html';\nexport default ui;\n",
    "examples/src/examples/shaders/plain.ui.html": "<p></p>\n",
    "examples/src/examples/shaders/button.mjs": "export const Button = 1;\n",
    "examples/src/examples/shaders/button.demo.mjs": (
        "import { Button } from './button.mjs';\nimport styles from './styles.mjs';\n"
        "export default [Button, styles];\n"
    ),
    "examples/src/examples/shaders/button.styles.mjs": "export default 1;\n",
}


def test_a_loader_answers_imports_with_name_prefixed_siblings(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(PLAYCANVAS_EXAMPLES)) == [
        "unresolved-import examples/src/examples/shaders/broken.example.mjs:1",
        "unresolved-import examples/src/examples/shaders/broken.example.mjs:2",
        "unresolved-import examples/src/examples/shaders/button.demo.mjs:2",
        "unresolved-import examples/src/examples/shaders/plain.mjs:1",
    ]


# playcanvas/engine's examples build: `build.mjs` (the package's `build` script) runs
# `copyTargets(STATIC_TARGETS)` from `utils/build-prod.mjs`; the list, in
# `utils/build-examples.mjs`, copies the `iframe` folder to `dist/iframe` and the observer
# package's `index.mjs` to `dist/iframe/playcanvas-observer.mjs`, where `state.mjs`'s import
# resolves. `state.mjs`'s `./gone.mjs` (written by nothing) and `./monaco.mjs` (the list
# writes it into `dist/modules/`, not beside the copy) stay claims.
PLAYCANVAS_COPIES = {
    "package.json": '{"name": "playcanvas", "type": "module"}\n',
    "examples/package.json": (
        '{"name": "examples-browser", "type": "module", "scripts": {"build": "node build.mjs"},'
        ' "dependencies": {"examples": "file:./iframe"}}\n'
    ),
    "examples/tsconfig.json": (
        '{"compilerOptions": {"allowJs": true, "checkJs": false, "noEmit": true},'
        ' "include": ["iframe/**/*.mjs", "utils/**/*.mjs", "build.mjs"]}\n'
    ),
    "examples/build.mjs": "import { buildProd } from './utils/build-prod.mjs';\nbuildProd();\n",
    "examples/utils/build-prod.mjs": (
        "import fs from 'node:fs';\nimport { STATIC_TARGETS } from './build-examples.mjs';\n"
        "const copyTargets = (targets) => targets.forEach(({ src, dest }) =>"
        " fs.cpSync(src, dest, { recursive: true }));\n"
        "export const buildProd = () => copyTargets(STATIC_TARGETS);\n"
    ),
    "examples/utils/build-examples.mjs": (
        "export const STATIC_TARGETS = [\n"
        "    { src: './iframe', dest: 'dist/iframe' },\n"
        "    { src: './node_modules/@playcanvas/observer/dist/index.mjs',\n"
        "      dest: 'dist/iframe/playcanvas-observer.mjs' },\n"
        "    { src: './node_modules/monaco/index.mjs', dest: 'dist/modules/monaco.mjs' },\n"
        "];\n"
    ),
    "examples/iframe/package.json": (
        '{"name": "examples", "exports": {"./state": "./state.mjs"}}\n'
    ),
    "examples/iframe/state.mjs": (
        "import { Observer } from './playcanvas-observer.mjs';\n"
        "import { gone } from './gone.mjs';\nimport { editor } from './monaco.mjs';\n"
        "export const state = new Observer(gone, editor);\n"
    ),
}


def test_a_sibling_a_copy_list_writes_beside_the_copied_folder(
    make_project: ProjectFactory,
) -> None:
    assert claims(git_project(PLAYCANVAS_COPIES, make_project)) == [
        "unresolved-import examples/iframe/state.mjs:2",
        "unresolved-import examples/iframe/state.mjs:3",
    ]


# firebase/quickstart-js `dataconnect/app`: the tsconfig's stale `"@/assets/*": ["assets/*"]`
# misses, Vite's `'@': path.resolve(__dirname, 'src')` (what `vite build` reads) finds
# `src/assets/firebase_logo.svg`. Still claims: `@/assets/gone.svg` (the alias's folder holds
# no such file), and `other/`'s import, whose alias target is a variable filid cannot compute.
QUICKSTART = {
    "dataconnect/app/package.json": (
        '{"name": "app", "type": "module", "scripts": {"build": "vite build"},'
        ' "devDependencies": {"vite": "^5.0.0"}}\n'
    ),
    "dataconnect/app/tsconfig.json": (
        '{"compilerOptions": {"baseUrl": ".", "jsx": "preserve", "noEmit": true, "paths": {'
        '"@/components/*": ["src/components/*"], "@/assets/*": ["assets/*"]}},'
        ' "include": ["src"]}\n'
    ),
    "dataconnect/app/vite.config.ts": (
        "import { defineConfig } from 'vite';\nimport path from 'path';\n"
        "export default defineConfig({\n"
        "  resolve: { alias: { '@': path.resolve(__dirname, 'src') } },\n"
        "});\n"
    ),
    "dataconnect/app/src/assets/firebase_logo.svg": "<svg/>\n",
    "dataconnect/app/src/main.tsx": "import { Navbar } from '@/components/navbar';\nNavbar();\n",
    "dataconnect/app/src/components/navbar.tsx": (
        "import firebaseLogo from '@/assets/firebase_logo.svg';\n"
        "import gone from '@/assets/gone.svg';\n"
        "export const Navbar = () => [firebaseLogo, gone];\n"
    ),
    "other/package.json": '{"name": "other", "scripts": {"build": "vite build"}}\n',
    "other/tsconfig.json": (
        '{"compilerOptions": {"baseUrl": ".", "noEmit": true, "paths": {'
        '"@/assets/*": ["assets/*"]}}, "include": ["src"]}\n'
    ),
    "other/vite.config.ts": (
        "import { defineConfig } from 'vite';\nimport path from 'path';\n"
        "const srcDir = path.resolve(__dirname, 'src');\n"
        "export default defineConfig({ resolve: { alias: { '@': srcDir } } });\n"
    ),
    "other/src/assets/logo.svg": "<svg/>\n",
    "other/src/main.ts": "import logo from '@/assets/logo.svg';\nexport default logo;\n",
}


def test_a_build_configs_alias_finds_what_a_stale_paths_entry_misses(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(QUICKSTART)) == [
        "unresolved-import dataconnect/app/src/components/navbar.tsx:2",
        "unresolved-import other/src/main.ts:1",
    ]


# ionic-team/ionic-docs: Docusaurus serves `static/` verbatim; the playground fetches
# `static/code/stackblitz/v8/angular/main.ts` as text and lays it out anew in a StackBlitz
# project (`./app/app.routes` resolves there). Still claims: `static/code/shown/main.ts`,
# which the site's tsconfig includes; `src/pages/index.tsx`, outside the static root; and
# `app/public/main.ts`, whose folder has no Vite, Next or Astro config beside it.
IONIC_DOCS = {
    "package.json": (
        '{"name": "ionic-docs", "scripts": {"build": "docusaurus build"},'
        ' "dependencies": {"@docusaurus/core": "^3.0.0"}}\n'
    ),
    "docusaurus.config.js": "module.exports = { title: 'Ionic' };\n",
    "tsconfig.json": (
        '{"compilerOptions": {"jsx": "react-jsx", "noEmit": true, "allowJs": true},'
        ' "include": ["src", "static/code/shown"],'
        ' "exclude": ["static/code/stackblitz/"]}\n'
    ),
    "src/pages/index.tsx": (
        "import { Page } from './page';\nimport { gone } from './gone';\n"
        "export default () => [Page, gone];\n"
    ),
    "src/pages/page.tsx": "export const Page = 1;\n",
    "static/code/stackblitz/v8/angular/package.json": (
        '{"name": "angular-starter", "private": true, "scripts": {"build": "ng build"}}\n'
    ),
    "static/code/stackblitz/v8/angular/tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
    "static/code/stackblitz/v8/angular/main.ts": (
        "import { routes } from './app/app.routes';\nexport default routes;\n"
    ),
    "static/code/stackblitz/v8/angular/app.routes.ts": "export const routes = [];\n",
    "static/code/stackblitz/v8/html/package.json": (
        '{"name": "html-starter", "private": true, "type": "module", "main": "index.ts",'
        ' "scripts": {"build": "vite build"}}\n'
    ),
    "static/code/stackblitz/v8/html/tsconfig.json": (
        '{"compilerOptions": {"strict": true}, "include": ["src/**/*.ts"]}\n'
    ),
    "static/code/stackblitz/v8/html/index.ts": "import './theme/variables.css';\n",
    "static/code/stackblitz/v8/html/variables.css": ":root {}\n",
    "static/code/shown/main.ts": (
        "import { routes } from './app/app.routes';\nexport default routes;\n"
    ),
    "app/tsconfig.json": '{"compilerOptions": {"noEmit": true}}\n',
    "app/public/main.ts": "import { routes } from './app/app.routes';\nexport default routes;\n",
}


def test_typescript_a_site_serves_from_its_static_folder(make_project: ProjectFactory) -> None:
    assert claims(make_project(IONIC_DOCS)) == [
        "unresolved-import app/public/main.ts:1",
        "unresolved-import src/pages/index.tsx:2",
        "unresolved-import static/code/shown/main.ts:1",
    ]


# vuejs/docs: `cells/App/` (`composition.js` + `template.html`) is assembled into `App.vue`
# beside `Cell.vue` (from `cells/Cell/`) and `store.js`; the tutorial's `_hint/App/` takes the
# unchanged `ChildComp/` from the step above it. Still claims: `broken/App/options.js`,
# whose `./Gone.vue` names no parts folder (so its `./store.js` is claimed too), and
# `lib/widget/widget.js`, whose folder holds no `template.html`.
VUE_DOCS = {
    "package.json": '{"name": "vuejs.org", "scripts": {"build": "vitepress build src"}}\n',
    "tsconfig.json": (
        '{"compilerOptions": {"allowJs": true, "strict": true, "outDir": "dist",'
        ' "moduleResolution": "bundler", "module": "esnext"}, "include": ["src/**/*"]}\n'
    ),
    "src/examples/src/cells/store.js": "export const cells = [];\n",
    "src/examples/src/cells/App/composition.js": (
        "import Cell from './Cell.vue';\nimport { cells } from './store.js';\n"
        "export default { components: { Cell }, setup: () => ({ cells }) };\n"
    ),
    "src/examples/src/cells/App/template.html": "<Cell />\n",
    "src/examples/src/cells/Cell/options.js": (
        "import { cells } from './store.js';\nexport default { data: () => ({ cells }) };\n"
    ),
    "src/examples/src/cells/Cell/template.html": "<td></td>\n",
    "src/tutorial/src/step-11/ChildComp/template.html": "<h2>Child</h2>\n",
    "src/tutorial/src/step-11/App/template.html": "<ChildComp />\n",
    "src/tutorial/src/step-11/_hint/App/composition.js": (
        "import ChildComp from './ChildComp.vue';\nexport default { components: { ChildComp } };\n"
    ),
    "src/tutorial/src/step-11/_hint/App/template.html": "<ChildComp />\n",
    "src/examples/src/broken/store.js": "export const items = [];\n",
    "src/examples/src/broken/App/options.js": (
        "import Gone from './Gone.vue';\nimport { items } from './store.js';\n"
        "export default { components: { Gone }, data: () => ({ items }) };\n"
    ),
    "src/examples/src/broken/App/template.html": "<Gone />\n",
    "src/lib/util.js": "export const util = 1;\n",
    "src/lib/widget/widget.js": "import { util } from './util.js';\nexport default util;\n",
}


def test_a_component_folder_of_parts_imports_the_assembled_file_set(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(VUE_DOCS)) == [
        "unresolved-import src/examples/src/broken/App/options.js:1",
        "unresolved-import src/examples/src/broken/App/options.js:2",
        "unresolved-import src/lib/widget/widget.js:1",
    ]
