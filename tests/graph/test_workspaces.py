"""Workspace declarations read as their formats are written, and dependency protocols decided as
the package managers install them (README "Formats and protocols filid reads")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from filid.graph import Resolution, ResolutionKind, Resolver, build_resolver
from filid.graph.yamlfile import MAX_ALIASES, parse_yaml
from tests.graph.conftest import write_project

UI_MANIFEST = json.dumps({"name": "@acme/ui", "exports": {".": "./src/index.ts"}})
BASE = {
    "package.json": json.dumps({"name": "repo", "private": True}),
    "apps/web/package.json": json.dumps({"name": "web"}),
    "apps/web/main.ts": "",
    "packages/ui/package.json": UI_MANIFEST,
    "packages/ui/src/index.ts": "",
    "tools/gen/package.json": json.dumps({"name": "gen"}),
    "tools/gen/index.ts": "",
}
UI = Resolution(ResolutionKind.FILE, "packages/ui/src/index.ts", via_manifest=True)


def resolver_for(root: Path, extra: dict[str, str]) -> Resolver:
    return build_resolver(root, write_project(root, {**BASE, **extra}))


# Each YAML shape a formatter or a person writes; all declare apps/* and packages/* only.
YAML_SHAPES = {
    "block": "packages:\n  - 'apps/*'\n  - \"packages/*\"\n",
    "flow": "packages: [apps/*, 'packages/*']\n",
    "unindented": "packages:\n- apps/*\n- packages/*\n",
    "anchors": (
        "x-shared: &globs\n  - apps/*\n  - packages/*\npackages: *globs\n"
        "catalog:\n  react: ^19.0.0\n"
    ),
    "comments": (
        "# the workspace\npackages: # globs follow\n  # apps first\n  - apps/* # web\n"
        "  - packages/*   #ui\n# - tools/*\n"
    ),
    "indented key": " packages:\n  - apps/*\n  - packages/*\n",
    "document marker": "---\npackages:\n  - apps/*\n  - packages/*\n...\n",
}


@pytest.mark.parametrize("text", YAML_SHAPES.values(), ids=YAML_SHAPES.keys())
def test_every_yaml_shape_declares_the_same_members(tmp_path: Path, text: str) -> None:
    r = resolver_for(tmp_path, {"pnpm-workspace.yaml": text})
    assert r.notes == ()
    assert r.resolve("apps/web/main.ts", "@acme/ui") == UI
    # tools/gen is not declared: not linked, and the import says why
    gen = r.resolve("apps/web/main.ts", "gen")
    assert gen.kind is ResolutionKind.UNRESOLVED
    assert gen.reason == "package gen (tools/gen) is not a member of the declared workspaces"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("packages:\n  - apps/*\n - packages/*\n", "invalid YAML at line 3 column 2"),
        ("packages: apps/*\n", "`packages` is not a list of glob strings"),
        ("packages:\n  - {apps: 1}\n", "`packages` is not a list of glob strings"),
        ("- apps/*\n", "the top level is not a mapping"),
        ("packages: *nowhere\n", "invalid YAML"),
    ],
)
def test_an_unreadable_declaration_is_a_note_and_links_every_package(
    tmp_path: Path, text: str, problem: str
) -> None:
    r = resolver_for(tmp_path, {"pnpm-workspace.yaml": text})
    assert len(r.notes) == 1
    assert r.notes[0].startswith(f"pnpm-workspace.yaml: {problem}")
    assert r.notes[0].endswith("every named package below its folder is linked as a workspace")
    # never a silent fall-back to "external"
    assert r.resolve("apps/web/main.ts", "@acme/ui") == UI
    assert r.resolve("apps/web/main.ts", "gen").kind is ResolutionKind.FILE


def test_a_bad_workspaces_field_is_a_note(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path, {"package.json": json.dumps({"name": "repo", "workspaces": "packages/*"})}
    )
    assert r.notes == (
        "package.json: `workspaces` is neither a list of globs nor an object with a "
        "`packages` list; every named package below its folder is linked as a workspace",
    )
    assert r.resolve("apps/web/main.ts", "@acme/ui") == UI


def test_settings_only_pnpm_workspace_declares_the_root_alone(tmp_path: Path) -> None:
    r = resolver_for(tmp_path, {"pnpm-workspace.yaml": "onlyBuiltDependencies:\n  - esbuild\n"})
    assert r.notes == ()
    assert r.resolve("apps/web/main.ts", "@acme/ui").kind is ResolutionKind.UNRESOLVED


def test_yaml_aliases_are_bounded_and_tags_construct_nothing() -> None:
    laughs = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 12):
        laughs.append(f"{'b' * level}: &{'b' * level} [" + ", ".join(["*a"] * 30) + "]")
    data, problem = parse_yaml("\n".join(laughs) + "\n")
    assert data is None and problem == f"more than {MAX_ALIASES} YAML aliases"
    data, problem = parse_yaml("packages: !!python/object/apply:os.system ['true']\n")
    assert data is None and problem is not None and problem.startswith("invalid YAML")


def _with_dependency(spec: str, name: str = "@acme/ui") -> dict[str, str]:
    return {
        "pnpm-workspace.yaml": "packages:\n- apps/*\n- packages/*\n",
        "apps/web/package.json": json.dumps({"name": "web", "dependencies": {name: spec}}),
    }


@pytest.mark.parametrize("spec", ["workspace:*", "workspace:^", "workspace:^1.2.0", "^1.2.0", "*"])
def test_workspace_protocol_and_ranges_link_the_workspace_package(
    tmp_path: Path, spec: str
) -> None:
    r = resolver_for(tmp_path, _with_dependency(spec))
    assert r.resolve("apps/web/main.ts", "@acme/ui") == UI


def test_workspace_alias_links_the_aliased_package(tmp_path: Path) -> None:
    r = resolver_for(tmp_path, _with_dependency("workspace:@acme/ui@*", name="ui-kit"))
    assert r.resolve("apps/web/main.ts", "ui-kit") == UI
    r = resolver_for(tmp_path / "path", _with_dependency("workspace:../../packages/ui", "kit"))
    assert r.resolve("apps/web/main.ts", "kit") == UI


def test_npm_alias_installs_the_registry_package_not_the_workspace_one(tmp_path: Path) -> None:
    # "@acme/ui": "npm:@acme/ui" (trpc's www does this): node_modules holds the published build
    r = resolver_for(tmp_path, _with_dependency("npm:@acme/ui@^1"))
    found = r.resolve("apps/web/main.ts", "@acme/ui")
    assert found.kind is ResolutionKind.UNRESOLVED
    assert found.reason == (
        "declared as `npm:@acme/ui@^1` in apps/web/package.json: the registry's package is "
        "installed, not this one"
    )
    # another package that does not declare the alias still links the workspace package
    assert r.resolve("tools/gen/index.ts", "@acme/ui") == UI
    # an npm alias of an ordinary package name is just external
    r = resolver_for(tmp_path / "other", _with_dependency("npm:react@18", name="react18"))
    assert r.resolve("apps/web/main.ts", "react18").kind is ResolutionKind.EXTERNAL


@pytest.mark.parametrize("protocol", ["file:", "link:", "portal:"])
def test_path_protocols_link_the_folder_whatever_its_name(tmp_path: Path, protocol: str) -> None:
    r = resolver_for(tmp_path, _with_dependency(f"{protocol}../../packages/ui", name="kit"))
    assert r.resolve("apps/web/main.ts", "kit") == UI
    assert r.resolve("apps/web/main.ts", "kit/missing").reason == (
        "package @acme/ui (packages/ui): no file for subpath ./missing (`exports` does not name it)"
    )


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("file:../../vendor/ui-1.0.0.tgz", "a tarball is installed, not this package"),
        ("link:../../../elsewhere/ui", "a folder outside the project is linked"),
        ("github:acme/ui", "installed from elsewhere, not this package"),
        ("https://example.com/ui.tgz", "installed from elsewhere, not this package"),
    ],
)
def test_specifiers_that_install_something_else(tmp_path: Path, spec: str, reason: str) -> None:
    r = resolver_for(tmp_path, _with_dependency(spec))
    found = r.resolve("apps/web/main.ts", "@acme/ui")
    assert found.kind is ResolutionKind.UNRESOLVED
    assert found.reason == f"declared as `{spec}` in apps/web/package.json: {reason}"


@pytest.mark.parametrize(
    ("catalogs", "spec", "linked"),
    [
        ("catalog:\n  '@acme/ui': workspace:*\n", "catalog:", True),
        ("catalogs:\n  ui:\n    '@acme/ui': npm:@acme/ui@2\n", "catalog:ui", False),
        ("catalog:\n  '@acme/ui': ^1.0.0\n", "catalog:default", True),
    ],
)
def test_catalog_protocol_stands_for_its_entry(
    tmp_path: Path, catalogs: str, spec: str, linked: bool
) -> None:
    files = _with_dependency(spec)
    files["pnpm-workspace.yaml"] += catalogs
    found = build_resolver(tmp_path, write_project(tmp_path, {**BASE, **files})).resolve(
        "apps/web/main.ts", "@acme/ui"
    )
    assert (found == UI) is linked


def test_bun_catalog_in_package_json(tmp_path: Path) -> None:
    root = {
        "name": "repo",
        "workspaces": {"packages": ["apps/*", "packages/*"], "catalog": {"@acme/ui": "npm:x@1"}},
    }
    files = {
        "package.json": json.dumps(root),
        "apps/web/package.json": json.dumps(
            {"name": "web", "dependencies": {"@acme/ui": "catalog:"}}
        ),
    }
    found = resolver_for(tmp_path, files).resolve("apps/web/main.ts", "@acme/ui")
    assert found.kind is ResolutionKind.UNRESOLVED and "npm:x@1" in (found.reason or "")


def test_yarn_patch_protocol_stands_for_what_it_patches(tmp_path: Path) -> None:
    spec = "patch:@acme/ui@workspace%3A*#./.yarn/patches/ui.patch"
    assert (
        resolver_for(tmp_path, _with_dependency(spec)).resolve("apps/web/main.ts", "@acme/ui") == UI
    )


def test_missing_entry_and_subpath_say_why(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "packages/db/package.json": json.dumps(
                {"name": "@acme/db", "exports": {".": "./gone.js", "./x": "./gone-x.js"}}
            ),
            "packages/db/README.md": "",
        },
    )
    assert r.resolve("apps/web/main.ts", "@acme/db").reason == (
        "package @acme/db (packages/db): its entry point names no file"
    )
    assert r.resolve("apps/web/main.ts", "@acme/db/x").reason == (
        "package @acme/db (packages/db): no file for subpath ./x"
    )


@pytest.mark.parametrize(
    ("target", "source"),
    [
        ("./dist/esm/servers/h3.js", "src/servers/h3.ts"),
        ("./dist/cjs/servers/h3.cjs", "src/servers/h3.ts"),
        ("./dist/mjs/servers/h3.mjs", "src/servers/h3.ts"),
        ("./dist/types/servers/h3.d.ts", "src/servers/h3.ts"),
        ("./dist/es/servers/h3.js", "src/servers/h3.tsx"),
        ("./lib/esm/servers/h3.js", "src/servers/h3.ts"),
        ("./build/lib/servers/h3.js", "src/servers/h3.ts"),
        ("./esm/servers/h3.js", "src/servers/h3.ts"),
        ("./dist/servers/h3.mjs", "src/servers/h3.ts"),  # tsup / tsdown / unbuild
        ("./dist/servers/h3.d.mts", "src/servers/h3.ts"),
        ("./dist/servers/h3.es.js", "src/servers/h3.ts"),  # vite library mode
        ("./dist/servers/h3.umd.cjs", "src/servers/h3.ts"),
        ("./dist/esm/servers/h3.js", "src/esm/servers/h3.ts"),  # a real src/esm wins
        ("./dist/production/servers/h3.js", "src/servers/h3.ts"),  # per-mode builds
        ("./dist/development/servers/h3.js", "src/servers/h3.ts"),
        ("./dist/acme_api.modern.mjs", "src/index.ts"),  # a bundle named after the package
        ("./dist/acme-api.umd.cjs", "src/main.ts"),
        ("./dist/cjs/api.cjs.development.js", "src/index.tsx"),
    ],
)
def test_build_output_with_format_folders_maps_back_to_the_source(
    tmp_path: Path, target: str, source: str
) -> None:
    manifest = {"name": "@acme/api", "exports": {"./h3": target}}
    r = resolver_for(
        tmp_path,
        {
            "packages/api/package.json": json.dumps(manifest),
            f"packages/api/{source}": "",
            "packages/api/src/servers/other.ts": "",
        },
    )
    assert r.resolve("apps/web/main.ts", "@acme/api/h3") == Resolution(
        ResolutionKind.FILE, f"packages/api/{source}", via_manifest=True
    )
    assert f"packages/api/{source}" in r.manifest_entry_files()


def test_a_format_folder_mapping_needs_the_file_to_exist(tmp_path: Path) -> None:
    manifest = {"name": "@acme/api", "exports": {"./h3": "./dist/esm/servers/h3.js"}}
    r = resolver_for(
        tmp_path,
        {"packages/api/package.json": json.dumps(manifest), "packages/api/src/other.ts": ""},
    )
    found = r.resolve("apps/web/main.ts", "@acme/api/h3")
    assert found.kind is ResolutionKind.UNRESOLVED
    assert found.reason == "package @acme/api (packages/api): no file for subpath ./h3"


def test_a_deep_import_into_build_output_maps_to_the_source(tmp_path: Path) -> None:
    # graphiql: `graphql-language-service/esm/types` with no `exports`
    r = resolver_for(
        tmp_path,
        {
            "packages/gls/package.json": json.dumps({"name": "gls", "main": "dist/index.js"}),
            "packages/gls/src/types.ts": "",
        },
    )
    assert r.resolve("apps/web/main.ts", "gls/esm/types") == Resolution(
        ResolutionKind.FILE, "packages/gls/src/types.ts"
    )
    assert r.resolve("apps/web/main.ts", "gls/dist/types.js").target == "packages/gls/src/types.ts"


def test_custom_conditions_of_the_tsconfig_come_first(tmp_path: Path) -> None:
    manifest = {
        "name": "loader",
        "imports": {"#cond": {"development": "./lib/dev.js", "default": "./lib/prod.js"}},
        "exports": {".": {"development": "./lib/dev.js", "default": "./lib/prod.js"}},
    }
    files = {
        "packages/loader/package.json": json.dumps(manifest),
        "packages/loader/lib/dev.js": "",
        "packages/loader/lib/prod.js": "",
        "packages/loader/lib/index.js": "",
    }
    plain = resolver_for(tmp_path / "plain", files)
    assert (
        plain.resolve("packages/loader/lib/index.js", "#cond").target
        == "packages/loader/lib/prod.js"
    )
    custom = resolver_for(
        tmp_path / "custom",
        {
            **files,
            "tsconfig.json": json.dumps({"compilerOptions": {"customConditions": ["development"]}}),
        },
    )
    assert custom.resolve("packages/loader/lib/index.js", "#cond").target == (
        "packages/loader/lib/dev.js"
    )
    assert custom.resolve("apps/web/main.ts", "loader").target == "packages/loader/lib/dev.js"
