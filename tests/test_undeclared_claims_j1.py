"""Claims in a project that declares nothing (SPEC §0): layouts blind judge J1 met (F3 to F6,
D3), each a minimal copy of the real repository's. Every test keeps a true claim of the same
shape beside the false one it removes."""

from __future__ import annotations

import json

from tests.claims import claims
from tests.conftest import ProjectFactory

# -- vercel/examples: Redwood's glob imports (F6) -----------------------------------------------
# Redwood's babel preset expands `src/graphql/**/*.{js,ts}` into one import per file; the
# graphql folder holds only a `.keep`, so the pattern matches nothing (an empty object).

REDWOOD = {
    "redwood.toml": "[web]\n  port = 8910\n",
    "package.json": json.dumps({"private": True, "workspaces": ["api"]}),
    "api/package.json": json.dumps({"name": "api", "version": "0.0.0"}),
    "api/jsconfig.json": json.dumps(
        {
            "compilerOptions": {"baseUrl": ".", "paths": {"src/*": ["./src/*"]}},
            "include": ["src/**/*"],
        }
    ),
    "api/babel.config.js": (
        "module.exports = { presets: ['@redwoodjs/core/config/babel-preset'] };\n"
    ),
    "api/src/graphql/.keep": "",
    "api/src/services/posts/posts.js": "export const posts = () => [];\n",
    "api/src/lib/db.js": "export const db = {};\n",
    "api/src/functions/graphql.js": (
        "import schemas from 'src/graphql/**/*.{js,ts}'\n"
        "import { db } from 'src/lib/db'\n"
        "import services from 'src/services/**/*.{js,ts}'\n"
        "import sdls from 'src/schema/**/*.sdl.{js,ts}'\n"
        "import local from './handlers/*.js'\n"
        "import gone from 'src/lib/gone'\n"
        "export const handler = [schemas, db, services, sdls, local, gone];\n"
    ),
}


def test_a_glob_specifier_over_an_existing_folder_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    # `src/schema/` and `./handlers/` do not exist: the pattern can never match (still
    # claimed), as is the plain path `src/lib/gone`
    assert claims(make_project(REDWOOD)) == [
        "unresolved-import api/src/functions/graphql.js:4",
        "unresolved-import api/src/functions/graphql.js:5",
        "unresolved-import api/src/functions/graphql.js:6",
    ]


def test_square_brackets_are_no_glob(make_project: ProjectFactory) -> None:
    # Next.js folders `[id]` are literal names: a missing `./[id]/gone` is claimed
    files = {
        "package.json": json.dumps({"name": "app", "private": True}),
        "tsconfig.json": json.dumps({"include": ["app"]}),
        "app/[id]/page.tsx": "export default function Page() { return null; }\n",
        "app/layout.tsx": (
            "import Page from './[id]/page';\nimport Gone from './[id]/gone';\n"
            "export default [Page, Gone];\n"
        ),
    }
    assert claims(make_project(files)) == ["unresolved-import app/layout.tsx:2"]


# -- nylas/nylas-mail: `.es6`/`.cjsx`/`.coffee` files loaded through require hooks (F5) ---------
# compile-cache.js registers compilers in `require.extensions`; the servers run `babel-node`.

NYLAS = {
    "package.json": json.dumps({"private": True, "workspaces": ["packages/*"]}),
    "packages/client-app/package.json": json.dumps(
        {"name": "nylas-mail", "main": "./src/browser/main.js"}
    ),
    "packages/client-app/src/compile-cache.js": (
        "const COMPILERS = { '.es6': 1, '.coffee': 2, '.cjsx': 3 };\n"
        "Object.keys(COMPILERS).forEach((extension) => {\n"
        "  Object.defineProperty(require.extensions, extension, { value: COMPILERS[extension] });\n"
        "});\n"
    ),
    "packages/client-app/src/browser/main.js": (
        "require('../compile-cache');\nrequire('../../internal_packages/activity-list/lib/main');\n"
    ),
    "packages/client-app/internal_packages/activity-list/lib/main.es6": "export default 1;\n",
    "packages/client-app/internal_packages/activity-list/lib/activity-list-actions.es6": (
        "export default {};\n"
    ),
    "packages/client-app/internal_packages/activity-list/lib/button.cjsx": "module.exports = 1\n",
    "packages/client-app/internal_packages/activity-list/lib/store.coffee": "module.exports = 2\n",
    "packages/client-app/internal_packages/activity-list/lib/activity-list.jsx": (
        "import ActivityListActions from './activity-list-actions';\n"
        "import Button from './button';\n"
        "import Store from './store';\n"
        "import Gone from './activity-list-gone';\n"
        "export default [ActivityListActions, Button, Store, Gone];\n"
    ),
    "packages/client-app/internal_packages/activity-list/lib/activity-list-button.jsx": (
        "import ActivityList from './activity-list';\nexport default ActivityList;\n"
    ),
    "packages/cloud-api/package.json": json.dumps(
        {"name": "cloud-api", "scripts": {"start": "babel-node app.js"}}
    ),
    "packages/cloud-api/app.js": "const { errors } = require('isomorphic-core');\n",
    "packages/isomorphic-core/package.json": json.dumps(
        {"name": "isomorphic-core", "main": "index.js"}
    ),
    "packages/isomorphic-core/src/errors.es6": "module.exports = {};\n",
    "packages/isomorphic-core/index.js": (
        "module.exports.errors = require('./src/errors');\n"
        "module.exports.gone = require('./src/gone');\n"
    ),
}


def test_an_extensionless_import_of_a_hooked_language_file_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    # a name no file answers, in any language, is still claimed
    assert claims(make_project(NYLAS)) == [
        "unresolved-import packages/client-app/internal_packages/activity-list/lib/"
        "activity-list.jsx:4",
        "unresolved-import packages/isomorphic-core/index.js:2",
    ]


# -- meetfranz/franz: an import its authors marked with `import/no-unresolved` (F3) ------------
# gulp copies the root package.json into `build/`, beside the compiled `src/index.js`.

FRANZ = {
    "package.json": json.dumps({"name": "franz", "main": "index.js"}),
    "gulpfile.babel.js": (
        "import gulp from 'gulp';\n"
        "export function mvPackageJson() {\n"
        "  return gulp.src(['./package.json']).pipe(gulp.dest('build'));\n"
        "}\n"
    ),
    "src/config.js": "export const config = {};\n",
    "src/app.js": "import './index';\n",
    "src/index.js": (
        "import { config } from './config';\n"
        "import { appId } from './package.json'; // eslint-disable-line import/no-unresolved\n"
        "// eslint-disable-next-line n/no-missing-import -- copied in by the build\n"
        "import version from './version.json';\n"
        "import { gone } from './gone'; // eslint-disable-line no-unused-vars\n"
        "import { bare } from './bare'; // eslint-disable-line\n"
        "/* eslint-disable import-x/no-unresolved */\n"
        "import a from './built-a';\n"
        "/* eslint-enable import-x/no-unresolved */\n"
        "import b from './built-b';\n"
        "export default [config, appId, version, gone, bare, a, b];\n"
    ),
}


def test_an_import_silenced_for_the_unresolved_rule_is_no_claim(
    make_project: ProjectFactory,
) -> None:
    # a directive for another rule, or naming none, and a line after `eslint-enable` stay
    assert claims(make_project(FRANZ)) == [
        "unresolved-import src/index.js:10",
        "unresolved-import src/index.js:5",
        "unresolved-import src/index.js:6",
    ]


# -- TiddlyWiki/TiddlyWiki5: plugin modules require tiddler titles (F4) ------------------------
# `xml-hint.js` is the tiddler `$:/plugins/tiddlywiki/codemirror/addon/hint/xml-hint.js`; its
# `../../lib/codemirror` is the codemirror plugin's `$:/plugins/tiddlywiki/codemirror/lib/…`.

AUTOCOMPLETE = "plugins/tiddlywiki/codemirror-autocomplete"
TIDDLYWIKI = {
    "package.json": json.dumps({"name": "tiddlywiki", "main": "./boot/boot.js"}),
    "boot/boot.js": "exports.boot = function () {};\n",
    "plugins/tiddlywiki/codemirror/files/tiddlywiki.files": json.dumps(
        {
            "tiddlers": [
                {
                    "file": "codemirror.js",
                    "fields": {"title": "$:/plugins/tiddlywiki/codemirror/lib/codemirror.js"},
                }
            ]
        }
    ),
    "plugins/tiddlywiki/codemirror/files/codemirror.js": "module.exports = {};\n",
    f"{AUTOCOMPLETE}/plugin.info": json.dumps(
        {"title": "$:/plugins/tiddlywiki/codemirror-autocomplete"}
    ),
    f"{AUTOCOMPLETE}/files/tiddlywiki.files": json.dumps(
        {
            "tiddlers": [
                {
                    "file": "addon/hint/xml-hint.js",
                    "fields": {"title": "$:/plugins/tiddlywiki/codemirror/addon/hint/xml-hint.js"},
                }
            ]
        }
    ),
    f"{AUTOCOMPLETE}/files/addon/hint/xml-hint.js": (
        "!function(t){t(require('../../lib/codemirror'))}(function(){});\n"
    ),
    f"{AUTOCOMPLETE}/files/addon/hint/html-hint.js": (
        "!function(t){t(require('../../lib/codemirror'), require('./xml-hint'))}(function(){});\n"
    ),
    # the same wrapper outside a tiddler folder: a file path, judged
    "editions/server/lib/hint.js": ("module.exports = require('../../lib/codemirror');\n"),
    "editions/server/index.js": "module.exports = require('./lib/hint');\n",
}


def test_a_require_in_a_tiddler_folder_is_not_judged(make_project: ProjectFactory) -> None:
    assert claims(make_project(TIDDLYWIKI)) == ["unresolved-import editions/server/lib/hint.js:1"]


# -- VulcanJS/Vulcan: `meteor/<pkg>` through a stale jsconfig `paths` entry (D3) ---------------
# Meteor resolves `meteor/vulcan:email` through `packages/vulcan-email/package.js`'s
# `api.mainModule('lib/server/main.js', 'server')`; the jsconfig entry names files that never
# existed.

VULCAN = {
    "package.json": json.dumps({"name": "vulcan", "private": True}),
    ".meteor/release": "METEOR@1.10.2\n",
    ".meteor/versions": "meteor@1.9.3\nvulcan:email@1.16.5\nvulcan:lib@1.16.5\n",
    "jsconfig.json": json.dumps(
        {
            "compilerOptions": {
                "baseUrl": ".",
                "paths": {
                    "meteor/vulcan:lib": ["packages/vulcan-lib/lib/server/main.js"],
                    "meteor/vulcan:email": ["packages/vulcan-email/lib/server.js"],
                    "meteor/vulcan:gone": ["packages/vulcan-gone/lib/server.js"],
                },
            }
        }
    ),
    "packages/vulcan-lib/package.js": "Package.describe({ name: 'vulcan:lib' });\n",
    "packages/vulcan-lib/lib/server/main.js": "export const lib = 1;\n",
    "packages/vulcan-email/package.js": (
        "Package.describe({ name: 'vulcan:email' });\n"
        "Package.onUse((api) => { api.mainModule('lib/server/main.js', 'server'); });\n"
    ),
    "packages/vulcan-email/lib/server/main.js": "export default {};\n",
    "packages/vulcan-newsletter/lib/server/newsletters.js": (
        "import { lib } from 'meteor/vulcan:lib';\n"
        "import VulcanEmail from 'meteor/vulcan:email';\n"
        "import Gone from 'meteor/vulcan:gone';\n"
        "export default [lib, VulcanEmail, Gone];\n"
    ),
}


def test_a_meteor_package_the_app_lists_is_no_claim(make_project: ProjectFactory) -> None:
    # `vulcan:gone` is no package of the app: its stale `paths` entry is still claimed
    assert claims(make_project(VULCAN)) == [
        "unresolved-import packages/vulcan-newsletter/lib/server/newsletters.js:3"
    ]
