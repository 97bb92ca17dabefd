"""Specifier resolution over real project files (SPEC §4)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from filid.graph import Resolution, ResolutionKind, Resolver, build_resolver
from filid.model.errors import InputError
from tests.graph.conftest import write_project


def resolver_for(root: Path, files: Mapping[str, str]) -> Resolver:
    return build_resolver(root, write_project(root, files))


def to_file(target: str) -> Resolution:
    return Resolution(ResolutionKind.FILE, target)


def published(target: str) -> Resolution:
    """A file reached through a workspace package's manifest (an entry point it publishes)."""
    return Resolution(ResolutionKind.FILE, target, via_manifest=True)


EXTERNAL = Resolution(ResolutionKind.EXTERNAL)
UNRESOLVED = Resolution(ResolutionKind.UNRESOLVED)


def test_relative_parent_and_root_absolute(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {"src/a/a.ts": "", "src/a/b.tsx": "", "src/c.ts": "", "lib/x.mjs": ""},
    )
    assert r.resolve("src/a/a.ts", "./b") == to_file("src/a/b.tsx")
    assert r.resolve("src/a/a.ts", "../c") == to_file("src/c.ts")
    assert r.resolve("src/a/a.ts", "../../lib/x") == to_file("lib/x.mjs")
    assert r.resolve("src/a/a.ts", "/src/c") == to_file("src/c.ts")
    assert r.resolve("src/a/a.ts", "./b.tsx") == to_file("src/a/b.tsx")


def test_directory_index_and_dot_specifiers(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {"src/feature/index.ts": "", "src/feature/x/y.ts": "", "src/index.js": ""},
    )
    assert r.resolve("src/app.ts", "./feature") == to_file("src/feature/index.ts")
    assert r.resolve("src/app.ts", "./feature/") == to_file("src/feature/index.ts")
    assert r.resolve("src/feature/x/y.ts", "..") == to_file("src/feature/index.ts")
    assert r.resolve("src/app.ts", ".") == to_file("src/index.js")


def test_js_extension_resolves_to_typescript_twin(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {"src/a.ts": "", "src/b.tsx": "", "src/c.mts": "", "src/d.cts": "", "src/e.js": ""},
    )
    assert r.resolve("src/main.ts", "./a.js") == to_file("src/a.ts")
    assert r.resolve("src/main.ts", "./b.js") == to_file("src/b.tsx")
    assert r.resolve("src/main.ts", "./b.jsx") == to_file("src/b.tsx")
    assert r.resolve("src/main.ts", "./c.mjs") == to_file("src/c.mts")
    assert r.resolve("src/main.ts", "./d.cjs") == to_file("src/d.cts")
    # A real .js file is found as itself.
    assert r.resolve("src/main.ts", "./e.js") == to_file("src/e.js")


def test_declaration_files_are_tried_last(tmp_path: Path) -> None:
    # TypeScript tries .ts, .tsx, ... then .d.ts: a declaration-only target resolves.
    r = resolver_for(
        tmp_path,
        {"src/types.d.ts": "", "src/main.ts": "", "src/both.ts": "", "src/both.d.ts": ""},
    )
    assert r.resolve("src/main.ts", "./types") == to_file("src/types.d.ts")
    assert r.resolve("src/main.ts", "./both") == to_file("src/both.ts")
    # Named exactly, it is a project file like any other.
    assert r.resolve("src/main.ts", "./types.d.ts") == to_file("src/types.d.ts")


def test_unresolved_relative_and_outside_root(tmp_path: Path) -> None:
    r = resolver_for(tmp_path, {"src/a.ts": ""})
    assert r.resolve("src/a.ts", "./missing") == UNRESOLVED
    assert r.resolve("src/a.ts", "../../outside") == UNRESOLVED
    assert r.resolve("src/a.ts", "/nope") == UNRESOLVED


def test_files_outside_the_universe_do_not_exist(tmp_path: Path) -> None:
    # On disk but not in the universe (e.g. ignored): not a project file.
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "ghost.ts").write_text("")
    r = build_resolver(tmp_path, write_project(tmp_path, {"src/a.ts": ""}))
    assert r.resolve("src/a.ts", "./ghost") == UNRESOLVED


def test_external_packages(tmp_path: Path) -> None:
    r = resolver_for(tmp_path, {"src/a.ts": "", "react/index.ts": ""})
    assert r.resolve("src/a.ts", "react") == EXTERNAL
    assert r.resolve("src/a.ts", "@scope/pkg/deep") == EXTERNAL
    assert r.resolve("src/a.ts", "node:fs") == EXTERNAL


def test_tsconfig_paths_with_base_url(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "tsconfig.json": """{
              "compilerOptions": {
                "baseUrl": "./src",
                "paths": {
                  "@/*": ["./*"],
                  "@ui/*": ["missing/*", "components/ui/*"],
                  "config": ["settings/index.ts"],
                  "@ui/special/*": ["special/*"]
                }
              }
            }""",
            "src/lib/math.ts": "",
            "src/components/ui/button.tsx": "",
            "src/settings/index.ts": "",
            "src/special/x.ts": "",
            "src/plain/thing.ts": "",
            "src/app/page.ts": "",
        },
    )
    assert r.resolve("src/app/page.ts", "@/lib/math") == to_file("src/lib/math.ts")
    # Substitutions are tried in order: the first one finds nothing.
    assert r.resolve("src/app/page.ts", "@ui/button") == to_file("src/components/ui/button.tsx")
    assert r.resolve("src/app/page.ts", "config") == to_file("src/settings/index.ts")
    # The longest matching prefix wins over "@ui/*".
    assert r.resolve("src/app/page.ts", "@ui/special/x") == to_file("src/special/x.ts")
    # baseUrl alone resolves bare specifiers against it, as TypeScript does.
    assert r.resolve("src/app/page.ts", "plain/thing") == to_file("src/plain/thing.ts")
    assert r.resolve("src/app/page.ts", "react") == EXTERNAL


def test_paths_without_base_url_are_relative_to_the_tsconfig(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "app/tsconfig.json": '{"compilerOptions": {"paths": {"~/*": ["./src/*"]}}}',
            "app/src/util.ts": "",
            "app/src/main.ts": "",
        },
    )
    assert r.resolve("app/src/main.ts", "~/util") == to_file("app/src/util.ts")


def test_unresolved_alias(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./src/*"]}}}',
            "src/a.ts": "",
        },
    )
    assert r.resolve("src/a.ts", "@/nothing/here") == UNRESOLVED


def test_catch_all_alias_miss_is_external(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "tsconfig.json": '{"compilerOptions": {"paths": {"*": ["./types/*"]}}}',
            "types/foo.ts": "",
            "src/a.ts": "",
        },
    )
    assert r.resolve("src/a.ts", "foo") == to_file("types/foo.ts")
    assert r.resolve("src/a.ts", "react") == EXTERNAL


def test_extends_chain_with_comments_and_trailing_commas(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "configs/tsconfig.base.json": """{
              // the shared base
              "compilerOptions": {
                /* paths are relative to this file's baseUrl */
                "baseUrl": "..",
                "paths": {
                  "@shared/*": ["packages/shared/src/*",],  // trailing comma
                },
              },
            }""",
            "configs/tsconfig.mid.json": """{
              "extends": "./tsconfig.base", /* without .json */
              "compilerOptions": {"strict": true,},
            }""",
            "apps/web/tsconfig.json": """{
              "extends": ["@tsconfig/node20/tsconfig.json", "../../configs/tsconfig.mid.json"],
              "compilerOptions": {"jsx": "react-jsx", "outDir": "//not-a-comment/*x*/"},
            }""",
            "packages/shared/src/date.ts": "",
            "apps/web/src/page.tsx": "",
        },
    )
    # paths come from two configs up the chain, relative to the base's baseUrl (the root);
    # the absent package base is ignored without error.
    assert r.resolve("apps/web/src/page.tsx", "@shared/date") == to_file(
        "packages/shared/src/date.ts"
    )


def test_own_paths_override_extended_paths(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "base.json": '{"compilerOptions": {"paths": {"@/*": ["./old/*"]}}}',
            "tsconfig.json": '{"extends": "./base.json",'
            ' "compilerOptions": {"paths": {"@/*": ["./new/*"]}}}',
            "old/x.ts": "",
            "new/x.ts": "",
        },
    )
    assert r.resolve("main.ts", "@/x") == to_file("new/x.ts")


def test_nearest_tsconfig_wins(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./root-src/*"]}}}',
            "packages/app/tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./src/*"]}}}',
            "root-src/thing.ts": "",
            "packages/app/src/thing.ts": "",
            "packages/app/src/deep/user.ts": "",
            "other/user.ts": "",
        },
    )
    assert r.resolve("packages/app/src/deep/user.ts", "@/thing") == to_file(
        "packages/app/src/thing.ts"
    )
    assert r.resolve("other/user.ts", "@/thing") == to_file("root-src/thing.ts")


def test_jsconfig_is_used_when_no_tsconfig(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "jsconfig.json": '{"compilerOptions": {"baseUrl": ".",'
            ' "paths": {"#lib/*": ["lib/*"]}}}',
            "lib/format.js": "",
            "src/app.jsx": "",
        },
    )
    assert r.resolve("src/app.jsx", "#lib/format") == to_file("lib/format.js")


def test_tsconfig_beats_jsconfig_in_the_same_directory(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "jsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./js/*"]}}}',
            "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./ts/*"]}}}',
            "js/x.ts": "",
            "ts/x.ts": "",
        },
    )
    assert r.resolve("main.ts", "@/x") == to_file("ts/x.ts")


WORKSPACE = {
    "package.json": '{"name": "monorepo", "private": true, "workspaces": ["packages/*"]}',
    "packages/ui/package.json": """{
      "name": "@acme/ui",
      "exports": {
        ".": {"types": "./dist/index.d.ts", "import": {"development": "./src/index.ts",
              "default": "./dist/index.js"}},
        "./button": {"default": "./src/button/button.tsx"},
        "./icons/*": "./src/icons/*.tsx"
      }
    }""",
    "packages/ui/src/index.ts": "",
    "packages/ui/src/button/button.tsx": "",
    "packages/ui/src/icons/star.tsx": "",
    "packages/ui/src/theme.ts": "",
    "packages/core/package.json": '{"name": "core", "main": "lib/main.js"}',
    "packages/core/lib/main.ts": "",
    "packages/core/lib/extra.ts": "",
    "packages/bare/package.json": '{"name": "bare"}',
    "packages/bare/index.js": "",
    "packages/built/package.json": '{"name": "built", "main": "dist/index.js"}',
    "packages/built/src/index.ts": "",
    "apps/web/main.ts": "",
}


def test_workspace_packages_exports_conditions_and_main(tmp_path: Path) -> None:
    r = resolver_for(tmp_path, WORKSPACE)
    # exports["."]: "types" points into an unbuilt dist/, nested "import" conditions find src.
    assert r.resolve("apps/web/main.ts", "@acme/ui") == published("packages/ui/src/index.ts")
    # main "lib/main.js" -> its TypeScript twin.
    assert r.resolve("apps/web/main.ts", "core") == published("packages/core/lib/main.ts")
    assert r.resolve("apps/web/main.ts", "bare") == published("packages/bare/index.js")
    assert r.resolve("apps/web/main.ts", "built") == published("packages/built/src/index.ts")


def test_workspace_subpath_imports(tmp_path: Path) -> None:
    r = resolver_for(tmp_path, WORKSPACE)
    assert r.resolve("apps/web/main.ts", "@acme/ui/button") == published(
        "packages/ui/src/button/button.tsx"
    )
    assert r.resolve("apps/web/main.ts", "@acme/ui/icons/star") == published(
        "packages/ui/src/icons/star.tsx"
    )
    # No exports entry: the path under the package directory, not through the manifest.
    assert r.resolve("apps/web/main.ts", "@acme/ui/src/theme") == to_file(
        "packages/ui/src/theme.ts"
    )
    assert r.resolve("apps/web/main.ts", "core/lib/extra") == to_file("packages/core/lib/extra.ts")
    # A workspace package that has no such file is unresolved, never external.
    assert r.resolve("apps/web/main.ts", "@acme/ui/missing") == UNRESOLVED
    assert r.resolve("apps/web/main.ts", "@acme/other") == EXTERNAL


def test_exports_string_and_types_field(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "a/package.json": '{"name": "a", "exports": "./entry.ts"}',
            "a/entry.ts": "",
            "b/package.json": '{"name": "b", "types": "./src/b.ts", "main": "./dist/b.js"}',
            "b/src/b.ts": "",
            "c/package.json": '{"name": "c", "exports": {"require": "./c.cjs"}}',
            "c/c.cts": "",
        },
    )
    assert r.resolve("x.ts", "a") == published("a/entry.ts")
    assert r.resolve("x.ts", "b") == published("b/src/b.ts")
    assert r.resolve("x.ts", "c") == published("c/c.cts")


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("tsconfig.json", '{"compilerOptions": {"paths": {"@/*": ["./src/*"]}'),
        ("packages/x/package.json", '{"name": "x",, }'),
        ("configs/base.json", "{ /* never closed "),
    ],
)
def test_broken_config_is_an_input_error_naming_the_file(
    tmp_path: Path, name: str, text: str
) -> None:
    files = {name: text, "src/a.ts": ""}
    if name == "configs/base.json":
        files["tsconfig.json"] = '{"extends": "./configs/base.json"}'
    universe = write_project(tmp_path, files)
    with pytest.raises(InputError) as info:
        build_resolver(tmp_path, universe)
    message = str(info.value)
    assert message.startswith(f"{name}:")
    assert "\n" not in message


def test_missing_relative_extends_is_ignored(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "tsconfig.json": '{"extends": "./nope.json",'
            ' "compilerOptions": {"paths": {"@/*": ["./src/*"]}}}',
            "src/a.ts": "",
        },
    )
    assert r.resolve("b.ts", "@/a") == to_file("src/a.ts")


def test_extends_cycle_terminates(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "tsconfig.json": '{"extends": "./b.json"}',
            "b.json": '{"extends": "./tsconfig.json",'
            ' "compilerOptions": {"paths": {"@/*": ["./src/*"]}}}',
            "src/a.ts": "",
        },
    )
    assert r.resolve("b.ts", "@/a") == to_file("src/a.ts")


def test_query_suffix_is_stripped(tmp_path: Path) -> None:
    r = resolver_for(tmp_path, {"src/logo.svg": "", "src/a.ts": ""})
    assert r.resolve("src/a.ts", "./logo.svg?raw") == to_file("src/logo.svg")


def test_nested_workspaces_resolve_a_shared_name_to_the_nearest_package(tmp_path: Path) -> None:
    # Each template is a monorepo of its own with its own @workspace/ui.
    files = {}
    for template in ("astro-monorepo", "next-monorepo"):
        base = f"templates/{template}"
        files[f"{base}/packages/ui/package.json"] = (
            '{"name": "@workspace/ui", "exports": {"./button": "./src/button.ts"}}'
        )
        files[f"{base}/packages/ui/src/button.ts"] = ""
        files[f"{base}/apps/web/main.ts"] = ""
    r = resolver_for(tmp_path, files)
    for template in ("astro-monorepo", "next-monorepo"):
        assert r.resolve(f"templates/{template}/apps/web/main.ts", "@workspace/ui/button") == (
            published(f"templates/{template}/packages/ui/src/button.ts")
        )


@pytest.mark.parametrize(
    ("declaration", "where"),
    [
        ('{"name": "repo", "workspaces": ["packages/*", "!packages/example"]}', "package.json"),
        (
            "packages:\n  - 'packages/*'\n  - \"!packages/example\"  # demos\n",
            "pnpm-workspace.yaml",
        ),
        ("packages: ['packages/*', '!packages/example']\n", "pnpm-workspace.yaml"),
    ],
)
def test_workspace_membership_honours_exclusions(
    tmp_path: Path, declaration: str, where: str
) -> None:
    files = {
        where: declaration,
        "packages/ui/package.json": '{"name": "ui", "main": "src/index.ts"}',
        "packages/ui/src/index.ts": "",
        "packages/example/package.json": '{"name": "example", "main": "index.ts"}',
        "packages/example/index.ts": "",
        "apps/web/main.ts": "",
    }
    if where != "package.json":
        files["package.json"] = '{"name": "repo"}'
    r = resolver_for(tmp_path, files)
    assert r.resolve("apps/web/main.ts", "ui") == published("packages/ui/src/index.ts")
    # A package of the repository that no declaration includes is not linked, and said so.
    excluded = r.resolve("apps/web/main.ts", "example")
    assert excluded == UNRESOLVED
    assert excluded.reason == (
        "package example (packages/example) is not a member of the declared workspaces"
    )


def test_package_imports_hash_specifiers(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "pkg/package.json": (
                '{"name": "pkg", "imports": {"#db": {"types": "./dist/db.d.ts", '
                '"default": "./dist/db.js"}, "#utils/*": "./src/utils/*.js"}}'
            ),
            "pkg/src/db.ts": "",
            "pkg/src/utils/text.ts": "",
            "pkg/src/app/main.ts": "",
        },
    )
    assert r.resolve("pkg/src/app/main.ts", "#db") == to_file("pkg/src/db.ts")
    assert r.resolve("pkg/src/app/main.ts", "#utils/text") == to_file("pkg/src/utils/text.ts")
    assert r.resolve("pkg/src/app/main.ts", "#missing") == UNRESOLVED


def test_build_output_maps_through_the_packages_out_dir_and_root_dir(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "package.json": '{"name": "repo", "workspaces": ["pkg"]}',
            "pkg/package.json": '{"name": "pkg", "exports": {".": "./out/esm/index.js"}}',
            "pkg/tsconfig.json": '{"compilerOptions": {"outDir": "out/esm", "rootDir": "code"}}',
            "pkg/code/index.ts": "",
            "app/main.ts": "",
        },
    )
    assert r.resolve("app/main.ts", "pkg") == published("pkg/code/index.ts")
