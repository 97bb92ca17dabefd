"""Round N1 of the blind judges (react-toolbox): a bundler's config under another name than
``*.config.*`` (``webpack.config.production.js``, which a package script names by
``--config``) adds its ``resolve.extensions`` like ``webpack.config.js`` does (SPEC §0: a
project that declares nothing gets only claims that hold)."""

from __future__ import annotations

import pytest

from tests.claims import claims
from tests.conftest import ProjectFactory

CONFIG = "module.exports = { entry: ['./app/main.js'], resolve: { extensions: ['.js', '.md'] } };\n"
DOCS = {
    "docs/package.json": (
        '{"name": "docs", "private": true,'
        ' "scripts": {"build": "webpack --config ./webpack.config.production"}}\n'
    ),
    "docs/webpack.config.production.js": CONFIG,
    "docs/app/main.js": (
        "import x from './install';\nimport o from './other';\nexport default [x, o];\n"
    ),
    "docs/app/other.js": (
        "import t from './install';\nimport g from './gone';\nexport default [t, g];\n"
    ),
    "docs/app/install.md": "# install\n",
}
GONE = "unresolved-import docs/app/other.js:2"


@pytest.mark.parametrize(
    "config",
    [
        "docs/webpack.config.production.js",
        "docs/webpack.dev.js",
        "docs/webpack.config.babel.js",
        "docs/config/webpack.config.js",
        "docs/webpack/webpack.common.js",
    ],
)
def test_a_bundler_config_under_another_name_adds_its_extensions(
    make_project: ProjectFactory, config: str
) -> None:
    files = {k: v for k, v in DOCS.items() if k != "docs/webpack.config.production.js"}
    # only the import of a file that does not exist stays claimed
    assert claims(make_project({**files, config: CONFIG})) == [GONE]


def test_a_config_that_lists_no_such_extension_keeps_the_claim(
    make_project: ProjectFactory,
) -> None:
    files = {**DOCS, "docs/webpack.config.production.js": CONFIG.replace(", '.md'", "")}
    assert claims(make_project(files)) == [
        "unresolved-import docs/app/other.js:1",
        GONE,
    ]


def test_a_file_named_like_a_bundler_in_another_folder_adds_nothing(
    make_project: ProjectFactory,
) -> None:
    # `src/webpack.dev.js` applies to `src/`, not to `docs/app/`
    files = {k: v for k, v in DOCS.items() if k != "docs/webpack.config.production.js"}
    files["src/webpack.dev.js"] = CONFIG
    assert claims(make_project(files)) == [
        "unresolved-import docs/app/other.js:1",
        GONE,
    ]
