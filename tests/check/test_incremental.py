"""Differential test of ``filid check``'s caches: after every edit, a run that reuses what the
previous run kept (result snapshot, parse cache) reports exactly what ``--no-cache`` reports.

Written against the CLI only, so it holds for the whole-result snapshot of today and for an
incremental check that recomputes only what an edit can affect. A seeded random sequence of
edits (imports, comments, new, removed and renamed files and folders, tsconfig ``paths``,
boundary documents, workspace packages, same-size rewrites) runs against a small monorepo in
a real git repository. Most edits give the files they wrote a fresh modification time in the
past (so stat data is trusted); the others keep the time of writing (inside the racy window,
so stat data alone is never trusted). No edit keeps both size and mtime of a changed file.
After every edit the tree is also staged (``git add -A``) and ``check --staged`` (keyed by
blob ids, its own state) is compared with ``check --staged --no-cache`` the same way.
Set ``FILID_INCREMENTAL_SEED`` to replay another sequence.
"""

from __future__ import annotations

import collections
import difflib
import json
import os
import random
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import filid.check.project
import filid.check.staged
from filid.cli import cli
from tests.conftest import write_files

SEED = int(os.environ.get("FILID_INCREMENTAL_SEED", "1717"))
EDITS = 200
PRE_COMMIT_EVERY = 20
RACY_SHARE = 0.2  # edits whose files keep the mtime of writing
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
# The only fields of a check's JSON report that differ between two runs on the same tree.
VOLATILE = ("timestamp",)

MODULES = ("auth", "cart", "shop", "user", "team")  # same length: a retarget keeps the size
INTENT_OK = (
    "# {name}\n\n## Always do\n- keep it small\n\n## Ask first\n- new deps\n\n"
    "## Never do\n- reach inside\n"
)
INTENT_PARTIAL = "# {name}\n\n## Always do\n- keep it small\n\n## Ask first\n- anything\n"
DETAIL = "# {name} detail\n\nHow {name} works.\n"
EXEMPT = (
    "# {name} detail\n\n## Boundary Exemptions\n\n### {target} — shared fixtures\n\n"
    "- **Consumers**: src/**\n- **Direct import**: allowed\n- **Reason**: legacy\n"
)


def _ts(comment: str, *lines: str) -> str:
    return "\n".join((f"// {comment}", *lines)) + "\n"


def _manifest(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2) + "\n"


def _tsconfig(paths: dict[str, list[str]], *, base_url: bool = True, comment: bool = False) -> str:
    options: dict[str, Any] = {"target": "ES2022", "module": "ESNext", "jsx": "react-jsx"}
    options["moduleResolution"] = "Bundler"
    if base_url:
        options["baseUrl"] = "."
    options["paths"] = paths
    text = json.dumps({"compilerOptions": options, "include": ["src", "packages"]}, indent=2)
    return ("// the workspace\n" if comment else "") + text + "\n"


PROJECT: dict[str, str] = {
    "package.json": _manifest({"name": "acme", "private": True, "workspaces": ["packages/*"]}),
    "tsconfig.json": _tsconfig({"@app/*": ["src/*"], "@ui/*": ["packages/ui/src/*"]}),
    ".filid/config.json": json.dumps(
        {"version": "2.0", "structure": {"maxDepth": 5, "pureFunctionPaths": ["src/math"]}}
    ),
    "CLAUDE.md": "# Notes for the assistant\n\nRun the tests.\n",
    "src/index.ts": _ts("app entry", "export * from './auth';", "export * from './shop';"),
    "src/INTENT.md": INTENT_OK.format(name="app"),
    "src/legacy.ts": _ts("a peer", "import { cart } from './cart/cart';", "export const l = cart;"),
    "src/app/main.ts": _ts(
        "program",
        "import { auth } from '@app/auth';",
        "import { gone } from './missing';",
        "console.log(auth, gone);",
    ),
    "src/auth/index.ts": _ts(
        "auth barrel", "export { login } from './login';", "export { auth } from './auth';"
    ),
    "src/auth/auth.ts": _ts(
        "auth core",
        "import { user } from '../user';",
        "import { hash } from './utils/hash';",
        "export const auth = user + hash;",
    ),
    "src/auth/login.ts": _ts(
        "login",
        "import { useSession } from './hooks/useSession';",
        "export const login = useSession;",
    ),
    "src/auth/INTENT.md": INTENT_OK.format(name="auth"),
    "src/auth/DETAIL.md": DETAIL.format(name="auth"),
    "src/auth/utils/hash.ts": _ts(
        "hash", "import { salt } from './salt';", "export const hash = salt;"
    ),
    "src/auth/utils/salt.ts": _ts("salt", "export const salt = 1;"),
    "src/auth/hooks/useSession.ts": _ts(
        "session",
        "import { format } from '@app/user/utils/format';",
        "export const useSession = format;",
    ),
    "src/cart/index.ts": _ts(
        "cart barrel", "export { cart } from './cart';", "export const helper = 1;"
    ),
    "src/cart/cart.ts": _ts(
        "cart",
        "import { shop } from '../shop/shop';",
        "import { total } from './utils/total';",
        "export const cart = shop + total;",
    ),
    "src/cart/INTENT.md": INTENT_PARTIAL.format(name="cart"),
    "src/cart/components/CartView.tsx": _ts(
        "cart view",
        "import React from 'react';",
        "import { cart } from '../cart';",
        "export const CartView = () => <div>{cart}</div>;",
    ),
    "src/cart/utils/total.ts": _ts(
        "total", "import { add } from '@app/math/add';", "export const total = add;"
    ),
    "src/cart/cart.test.ts": _ts(
        "cart test", "import { cart } from './cart';", "export const t = cart;"
    ),
    "src/shop/index.ts": _ts(
        "shop barrel", "export * from './shop';", "export * from './catalog';"
    ),
    "src/shop/shop.ts": _ts("shop", "import { cart } from '../cart';", "export const shop = cart;"),
    "src/shop/DETAIL.md": EXEMPT.format(name="shop", target="components/ShopList.tsx"),
    "src/shop/components/ShopList.tsx": _ts(
        "shop list",
        "import { useShop } from '../hooks/useShop';",
        "export const ShopList = () => <ul>{useShop()}</ul>;",
    ),
    "src/shop/hooks/useShop.ts": _ts(
        "use shop", "import { shop } from '..';", "export const useShop = () => shop;"
    ),
    "src/shop/catalog/index.ts": _ts("catalog barrel", "export { catalog } from './catalog';"),
    "src/shop/catalog/catalog.ts": _ts(
        "catalog", "import type { Colors } from '@ui/theme';", "export const catalog = 2;"
    ),
    "src/shop/catalog/INTENT.md": INTENT_OK.format(name="catalog"),
    "src/user/index.ts": _ts(
        "user barrel", "export { user } from './user';", "export * from './profile';"
    ),
    "src/user/user.ts": _ts("user", "import { auth } from '../auth';", "export const user = auth;"),
    "src/user/profile/index.ts": _ts("profile barrel", "export { profile } from './profile';"),
    "src/user/profile/profile.ts": _ts(
        "profile", "import { format } from '../utils/format';", "export const profile = format;"
    ),
    "src/user/utils/format.ts": _ts("format", "export const format = 3;"),
    "src/team/team.ts": _ts(
        "team", "import { user } from '@app/user';", "export const team = user;"
    ),
    "src/team/roster.ts": _ts(
        "roster", "import { team } from './team';", "export const roster = team;"
    ),
    "src/team/INTENT.md": INTENT_OK.format(name="team"),
    "src/utils/strings.ts": _ts("strings", "export const upper = (s: string) => s.toUpperCase();"),
    "src/utils/dates.ts": _ts(
        "dates", "import { upper } from './strings';", "export const day = upper;"
    ),
    "src/components/Button.tsx": _ts("button", "export const Button = () => <button />;"),
    "src/components/INTENT.md": INTENT_OK.format(name="components"),
    "src/math/add.ts": _ts("add", "export const add = (a: number, b: number) => a + b;"),
    "src/math/round.ts": _ts(
        "round", "import { auth } from '../auth';", "export const round = auth;"
    ),
    "src/UserCard/index.ts": _ts("user card", "export const UserCard = 4;"),
    "src/reports/charts/bar/axis/ticks/ticks.ts": _ts("ticks", "export const ticks = 5;"),
    "packages/core/package.json": _manifest(
        {"name": "@acme/core", "exports": {".": "./src/index.ts", "./math": "./src/math/index.ts"}}
    ),
    "packages/core/INTENT.md": INTENT_OK.format(name="core"),
    "packages/core/src/index.ts": _ts("core", "export * from './math';", "export const core = 6;"),
    "packages/core/src/math/index.ts": _ts("core math", "export { sum } from './sum';"),
    "packages/core/src/math/sum.ts": _ts("sum", "export const sum = 7;"),
    "packages/ui/package.json": _manifest(
        {"name": "@acme/ui", "main": "./dist/index.js", "types": "./dist/index.d.ts"}
    ),
    "packages/ui/src/index.ts": _ts(
        "ui", "export { button } from './button';", "export * from './theme';"
    ),
    "packages/ui/src/button.ts": _ts(
        "ui button", "import { core } from '@acme/core';", "export const button = core;"
    ),
    "packages/ui/src/theme/index.ts": _ts("theme", "export { colors } from './colors';"),
    "packages/ui/src/theme/colors.ts": _ts(
        "colors", "export const colors = 8;", "export type Colors = number;"
    ),
    "packages/api/package.json": _manifest({"name": "@acme/api", "main": "src/index.ts"}),
    "packages/api/src/index.ts": _ts(
        "api",
        "import { core } from '@acme/core';",
        "import { sum } from '@acme/core/math';",
        "import { button } from '@acme/ui';",
        "export const api = core + sum + button;",
    ),
    "packages/api/src/routes/users.ts": _ts(
        "users route",
        "import { sum } from '@acme/core/src/math/sum';",
        "import { user } from '../../../../src/user/user';",
        "export const users = sum + user;",
    ),
    "packages/api/src/handlers/index.ts": _ts(
        "handlers", "export { users } from '../routes/users';"
    ),
}

SOURCE = re.compile(r"\.(ts|tsx)$")
SPECIFIER = re.compile(r"""(['"])([^'"]+)\1""")
IMPORT_LINE = re.compile(r"""^\s*(import\b|export\b.*\bfrom\b|const \w+ = import\()""")


# ----------------------------------------------------------------------------------- runs


def git(root: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=root, capture_output=True, check=True)


def check_json(root: Path, *extra: str, input_error: bool = False) -> dict[str, Any]:
    """``filid check <root> [extra…] --format json --fail-on never`` in-process, volatile
    fields removed. Any other exit than 0 fails the test, except an input error (exit 2,
    CONTRACT.md) while the tree holds a broken manifest: then its message is the outcome."""
    args = ["check", str(root), *extra, "--format", "json", "--fail-on", "never"]
    done = CliRunner().invoke(cli, args)
    if input_error and done.exit_code == 2:
        return {"exitCode": 2, "stderr": done.stderr}
    assert done.exit_code == 0, (
        f"filid {' '.join(args)} exited {done.exit_code}: {done.stderr}\n{done.exception!r}"
    )
    report: dict[str, Any] = json.loads(done.stdout)
    for field in VOLATILE:
        report.pop(field)
    return report


def short_diff(cached: dict[str, Any], fresh: dict[str, Any], limit: int = 40) -> str:
    """The first lines of a unified diff between two reports."""
    lines = difflib.unified_diff(
        json.dumps(fresh, indent=1, sort_keys=True).splitlines(),
        json.dumps(cached, indent=1, sort_keys=True).splitlines(),
        "--no-cache",
        "cached",
        n=2,
        lineterm="",
    )
    shown = list(lines)
    more = f"\n… {len(shown) - limit} more diff lines" if len(shown) > limit else ""
    return "\n".join(shown[:limit]) + more


def assert_same_as_no_cache(
    root: Path, what: str, *extra: str, input_error: bool = False
) -> dict[str, Any]:
    """Run with the warm cache, then with ``--no-cache``; the reports must be equal."""
    cached = check_json(root, *extra, input_error=input_error)
    fresh = check_json(root, *extra, "--no-cache", input_error=input_error)
    assert cached == fresh, (
        f"{what}: the cached run differs from --no-cache\n{short_diff(cached, fresh)}"
    )
    return cached


# ---------------------------------------------------------------------------------- edits


class Tree:
    """The project on disk and the seeded choices made on it (listings are always sorted)."""

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root = root
        self.rng = rng
        self.serial = 0
        # (manifest, its valid text) while a manifest holds invalid JSON: the next edit
        # restores it, so that most runs see a tree filid can analyse
        self.broken: tuple[str, str] | None = None

    def fresh(self) -> int:
        self.serial += 1
        return self.serial

    def files(self) -> list[str]:
        found = []
        for folder, dirs, names in os.walk(self.root):
            dirs[:] = [d for d in dirs if not d.startswith(".")]  # .git, .filid
            rel = Path(folder).relative_to(self.root).as_posix()
            found += [name if rel == "." else f"{rel}/{name}" for name in names]
        return sorted(found)

    def sources(self) -> list[str]:
        return [f for f in self.files() if SOURCE.search(f)]

    def dirs(self) -> list[str]:
        found = {f.rpartition("/")[0] for f in self.files() if "/" in f}
        return sorted(d for d in found if d.startswith(("src", "packages")))

    def packages(self) -> list[str]:
        return [f for f in self.files() if re.fullmatch(r"packages/[^/]+/package\.json", f)]

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")

    def write(self, rel: str, text: str) -> None:
        write_files(self.root, {rel: text})

    def pick(self, items: list[str]) -> str:
        return self.rng.choice(items)

    def specifier(self, importer: str, target: str) -> str:
        """A specifier from ``importer`` to ``target`` in one of the project's styles."""
        stem = re.sub(r"\.(ts|tsx)$", "", target)
        stem = stem.removesuffix("/index") if self.rng.random() < 0.7 else stem
        package = re.match(r"packages/([^/]+)/src/index$", stem + "/index")
        styles = ["relative", "relative", "relative-js"]
        if stem.startswith("src/"):
            styles.append("alias")
        if package:
            styles.append("package")
        style = self.rng.choice(styles)
        if style == "alias":
            return "@app/" + stem.removeprefix("src/")
        if style == "package" and package:
            return self.workspace_name(package.group(1))
        relative = os.path.relpath(stem, os.path.dirname(importer) or ".").replace(os.sep, "/")
        relative = relative if relative.startswith(".") else "./" + relative
        return relative + (".js" if style == "relative-js" and target != stem else "")

    def workspace_name(self, folder: str) -> str:
        try:
            name = json.loads(self.read(f"packages/{folder}/package.json")).get("name")
        except (OSError, ValueError, AttributeError):
            name = None
        return name if isinstance(name, str) else f"@acme/{folder}"

    def import_line(self, importer: str, target: str) -> str:
        spec = self.specifier(importer, target)
        n = self.fresh()
        return self.rng.choice(
            [
                f"import * as m{n} from '{spec}';",
                f"import {{ x{n} }} from '{spec}';",
                f"import type {{ T{n} }} from '{spec}';",
                f"export * from '{spec}';",
                f"const d{n} = import('{spec}');",
                f"import '{spec}';",
            ]
        )


Edit = tuple[str, list[str]]  # (description, files whose content was written)


def _module_of(rel: str) -> str:
    parts = rel.split("/")
    return "/".join(parts[:3]) if parts[0] == "packages" else "/".join(parts[:2])


def _add_import_line(tree: Tree, importer: str, line: str) -> None:
    lines = tree.read(importer).splitlines()
    last = max((i for i, text in enumerate(lines) if IMPORT_LINE.match(text)), default=0)
    lines.insert(last + 1, line)
    tree.write(importer, "\n".join(lines) + "\n")


def edit_imports(tree: Tree) -> Edit | None:
    sources = tree.sources()
    importer = tree.pick(sources)
    lines = tree.read(importer).splitlines()
    existing = [i for i, text in enumerate(lines) if IMPORT_LINE.match(text)]
    action = tree.rng.choice(["add", "add", "remove", "retarget", "deep", "cycle"])
    if action in ("remove", "retarget") and not existing:
        action = "add"
    if action == "add":
        target = tree.pick([s for s in sources if s != importer])
        line = tree.import_line(importer, target)
        _add_import_line(tree, importer, line)
        return f"add import to {importer}: {line}", [importer]
    if action == "remove":
        index = tree.rng.choice(existing)
        removed = lines.pop(index)
        tree.write(importer, "\n".join(lines) + "\n")
        return f"remove import from {importer}: {removed}", [importer]
    if action == "retarget":
        index = tree.rng.choice(existing)
        target = tree.pick([s for s in sources if s != importer])
        spec = tree.specifier(importer, target)
        old = lines[index]
        lines[index] = SPECIFIER.sub(lambda m: f"{m.group(1)}{spec}{m.group(1)}", old, count=1)
        if lines[index] == old:
            return None
        tree.write(importer, "\n".join(lines) + "\n")
        return f"retarget import in {importer}: {old} -> {lines[index]}", [importer]
    module = _module_of(importer)
    if action == "deep":
        # a file inside another module that is not its entry point
        deep = [s for s in sources if _module_of(s) != module and not re.search(r"/index\.", s)]
        if not deep:
            return None
        target = tree.pick(deep)
        line = f"import {{ deep{tree.fresh()} }} from '{tree.specifier(importer, target)}';"
        _add_import_line(tree, importer, line)
        return f"deep import in {importer}: {line}", [importer]
    # cycle: importer → a file of another module, and that file → importer's module
    others = [s for s in sources if _module_of(s) != module and ".test." not in s]
    if not others or ".test." in importer:
        return None
    target = tree.pick(others)
    there = f"import {{ c{tree.fresh()} }} from '{tree.specifier(importer, target)}';"
    back = f"import {{ c{tree.fresh()} }} from '{tree.specifier(target, importer)}';"
    _add_import_line(tree, importer, there)
    _add_import_line(tree, target, back)
    return f"cycle {importer} <-> {target}: {there} / {back}", [importer, target]


def edit_comment(tree: Tree) -> Edit | None:
    rel = tree.pick(tree.sources())
    text = tree.read(rel)
    n = tree.fresh()
    action = tree.rng.choice(["append", "first-line", "whitespace"])
    if action == "first-line" and text.startswith("// "):
        first, _, rest = text.partition("\n")
        new = f"// {first[3:]} (reviewed {n})\n{rest}"
    elif action == "whitespace":
        new = text + tree.rng.choice(["\n", "\n\n", "  \n"])
    else:
        new = text + f"// note {n}: nothing to see\n"
    tree.write(rel, new)
    return f"comment/whitespace only ({action}) in {rel}", [rel]


def edit_shift(tree: Tree) -> Edit | None:
    """A line inserted after the first one: what follows moves, nothing else changes (the
    shape of the facts stays, their positions do not)."""
    rel = tree.pick(tree.sources())
    first, newline, rest = tree.read(rel).partition("\n")
    if not newline:
        return None
    tree.write(rel, f"{first}\n// moved down by edit {tree.fresh()}\n{rest}")
    return f"a line inserted near the top of {rel}", [rel]


def edit_add_file(tree: Tree) -> Edit | None:
    n = tree.fresh()
    folder = tree.pick(tree.dirs())
    kind = tree.rng.choice(["peer", "peer", "module", "organ", "test", "component", "deep"])
    if kind == "module":
        folder = f"{folder}/feature{n}"
        rel = f"{folder}/index.ts"
    elif kind == "organ":
        folder = f"{folder}/{tree.rng.choice(['utils', 'hooks', 'helpers', 'lib'])}"
        rel = f"{folder}/part{n}.ts"
    elif kind == "test":
        rel = f"{folder}/case{n}.test.ts"
    elif kind == "component":
        folder = f"{folder}/components"
        rel = f"{folder}/Widget{n}.tsx"
    elif kind == "deep":
        folder = f"{folder}/a{n}/b/c"
        rel = f"{folder}/leaf.ts"
    else:
        rel = f"{folder}/piece{n}.ts"
    if (tree.root / rel).exists():
        return None
    sources = tree.sources()
    lines = [tree.import_line(rel, tree.pick(sources)) for _ in range(tree.rng.randint(0, 3))]
    tree.write(rel, _ts(f"new {kind}", *lines, f"export const v{n} = {n};"))
    return f"add {kind} file {rel} with {len(lines)} import(s)", [rel]


def edit_remove_file(tree: Tree) -> Edit | None:
    if len(tree.sources()) < 30:
        return None
    candidates = [f for f in tree.files() if f not in ("package.json", "tsconfig.json")]
    rel = tree.pick(candidates)
    (tree.root / rel).unlink()
    return f"remove {rel}", []


def edit_rename(tree: Tree) -> Edit | None:
    n = tree.fresh()
    if tree.rng.random() < 0.5:
        rel = tree.pick(tree.sources())
        folder, _, name = rel.rpartition("/")
        stem, _, ext = name.partition(".")
        new_name = tree.rng.choice(
            [f"{stem}{n}.{ext}", f"Renamed{n}.{ext}", f"{stem}.tsx", f"main.{ext}", f"index.{ext}"]
        )
        target = f"{folder}/{new_name}"
    else:
        candidates = [d for d in tree.dirs() if d.count("/") >= 1 and d != "packages"]
        rel = tree.pick(candidates)
        parent, _, name = rel.rpartition("/")
        new_name = tree.rng.choice([f"{name}-{n}", f"Moved_{n}", f"mod{n}", "utils", "components"])
        target = f"{parent}/{new_name}"
    if (tree.root / target).exists() or target == rel:
        return None
    os.rename(tree.root / rel, tree.root / target)  # keeps size and mtime: only the path moves
    return f"rename {rel} -> {target}", []


PATH_CHOICES: dict[str, list[str]] = {
    "@app/*": ["src/*"],
    "@ui/*": ["packages/ui/src/*"],
    "@core": ["packages/core/src/index.ts"],
    "@lib/*": ["src/utils/*"],
    "@pkg/*": ["packages/*/src"],
}


def edit_tsconfig(tree: Tree) -> Edit | None:
    keys = sorted(tree.rng.sample(sorted(PATH_CHOICES), tree.rng.randint(0, 4)))
    paths = {key: PATH_CHOICES[key] for key in keys}
    if "@app/*" in paths and tree.rng.random() < 0.3:
        paths["@app/*"] = ["./src/*", "packages/*/src/*"]
    text = _tsconfig(paths, base_url=tree.rng.random() < 0.8, comment=tree.rng.random() < 0.3)
    if text == tree.read("tsconfig.json"):
        return None
    tree.write("tsconfig.json", text)
    return f"tsconfig paths -> {sorted(paths)}", ["tsconfig.json"]


def edit_boundary_doc(tree: Tree) -> Edit | None:
    folder = tree.pick(tree.dirs())
    present = [
        d for d in ("INTENT.md", "DETAIL.md", "CLAUDE.md") if (tree.root / folder / d).exists()
    ]
    name = folder.rpartition("/")[2]
    if present and tree.rng.random() < 0.5:
        doc = tree.pick(present)
        (tree.root / folder / doc).unlink()
        return f"remove {folder}/{doc}", []
    doc = tree.rng.choice(["INTENT.md", "INTENT.md", "DETAIL.md", "CLAUDE.md"])
    if doc == "DETAIL.md":
        peers = sorted(p.name for p in (tree.root / folder).iterdir() if p.is_file())
        text = (
            EXEMPT.format(name=name, target=tree.pick(peers))
            if peers and tree.rng.random() < 0.5
            else DETAIL.format(name=name)
        )
    else:
        text = tree.rng.choice([INTENT_OK, INTENT_PARTIAL, INTENT_OK + "- more\n" * 60]).format(
            name=name
        )
    rel = f"{folder}/{doc}"
    if (tree.root / rel).exists() and tree.read(rel) == text:
        return None
    tree.write(rel, text)
    return f"write boundary document {rel} ({len(text.splitlines())} lines)", [rel]


PACKAGE_NAMES = ("forms", "icons", "store", "logger", "charts", "data")


def edit_add_package(tree: Tree) -> Edit | None:
    free = [p for p in PACKAGE_NAMES if not (tree.root / "packages" / p).exists()]
    folder = tree.pick(free) if free else f"pkg{tree.fresh()}"
    manifest: dict[str, Any] = {"name": f"@acme/{folder}"}
    style = tree.rng.choice(["main-dist", "exports", "exports-subpath", "main-src"])
    if style == "main-dist":
        manifest["main"] = "./dist/index.js"
    elif style == "main-src":
        manifest["main"] = "src/index.ts"
    elif style == "exports":
        manifest["exports"] = {".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"}}
    else:
        manifest["exports"] = {".": "./src/index.ts", "./extra": "./src/extra/index.ts"}
    others = [tree.workspace_name(p.split("/")[1]) for p in tree.packages()]
    imports = [
        f"import {{ w{tree.fresh()} }} from '{name}';"
        for name in tree.rng.sample(others, min(len(others), tree.rng.randint(0, 2)))
    ]
    files = {
        f"packages/{folder}/package.json": _manifest(manifest),
        f"packages/{folder}/src/index.ts": _ts(
            f"package {folder}", *imports, "export const p = 1;"
        ),
    }
    if style == "exports-subpath":
        files[f"packages/{folder}/src/extra/index.ts"] = _ts("extra", "export const e = 2;")
    write_files(tree.root, files)
    return f"add workspace package packages/{folder} ({style}, {len(imports)} imports)", list(files)


def edit_package_json(tree: Tree) -> Edit | None:
    rel = tree.pick([*tree.packages(), "package.json"])
    text = tree.read(rel)
    data = json.loads(text)
    if tree.rng.random() < 0.25:  # exit 2 by design (CONTRACT.md), repaired by the next edit
        tree.broken = (rel, text)
        tree.write(rel, text.rstrip()[:-1] + ",\n")  # a trailing comma: invalid JSON
        return f"break {rel} (invalid JSON, same size)", [rel]
    if rel == "package.json":
        data["workspaces"] = tree.rng.choice(
            [
                ["packages/*"],
                ["packages/*", "!packages/api"],
                {"packages": ["packages/*"]},
                ["packages/core", "packages/ui"],
                [],
            ]
        )
        action = f"workspaces -> {data['workspaces']}"
    else:
        action = tree.rng.choice(["rename", "main", "exports", "types"])
        if action == "rename":
            data["name"] = str(data.get("name", "@acme/x")) + "-next"
        elif action == "main":
            data.pop("exports", None)
            data["main"] = tree.rng.choice(["./dist/index.js", "src/index.ts", "lib/index.js"])
        elif action == "exports":
            data.pop("main", None)
            data["exports"] = {".": "./src/index.ts", "./theme": "./src/theme/index.ts"}
        else:
            data["types"] = tree.rng.choice(["./dist/index.d.ts", "./src/index.ts"])
        action = f"{action} -> {json.dumps(data, sort_keys=True)}"
    text = _manifest(data)
    if text == tree.read(rel):
        return None
    tree.write(rel, text)
    return f"edit {rel}: {action}", [rel]


def repair_package_json(tree: Tree) -> Edit:
    """Undo the previous edit's invalid JSON (the same bytes as before it, a new mtime)."""
    assert tree.broken is not None
    rel, text = tree.broken
    tree.broken = None
    tree.write(rel, text)
    return f"repair {rel} (its JSON as before the break)", [rel]


SAME_SIZE_TOGGLE = {"import": "//port", "//port": "import", "export": "//xprt", "//xprt": "export"}


def _bump_digit(match: re.Match[str]) -> str:
    return f"{match.group(1)}{(int(match.group(2)) + 1) % 10};"


def _same_size(action: str, text: str, rng: random.Random) -> str:
    if action == "heading":
        swap = ("Always do", "Alwayz do") if "Always do" in text else ("Alwayz do", "Always do")
        return text.replace(*swap)
    if action == "module-swap":  # retargets an import: the facts change
        found = [m for m in MODULES if f"/{m}" in text]
        if not found:
            return text
        old = rng.choice(found)
        return text.replace(f"/{old}", f"/{rng.choice([m for m in MODULES if m != old])}", 1)
    if action == "comment-out":  # an import/export line in or out of a comment: facts change
        lines = text.splitlines(keepends=True)
        toggles = [i for i, line in enumerate(lines) if line[:6] in SAME_SIZE_TOGGLE]
        if not toggles:
            return text
        index = rng.choice(toggles)
        lines[index] = SAME_SIZE_TOGGLE[lines[index][:6]] + lines[index][6:]
        return "".join(lines)
    if action == "digit":  # the last digit of the first "= <number>;"
        return re.sub(r"(= \d*)(\d);", _bump_digit, text, count=1)
    return text.replace("'", '"') if "'" in text else text.replace('"', "'")


def edit_same_size(tree: Tree) -> Edit | None:
    """Rewrite a file with the same number of bytes (only the mtime can tell)."""
    documents = [f for f in tree.files() if f.endswith("INTENT.md")]
    rel = tree.pick(documents) if documents and tree.rng.random() < 0.25 else None
    rel = rel or tree.pick(tree.sources())
    text = tree.read(rel)
    actions = (
        ["heading"] if rel.endswith(".md") else ["module-swap", "comment-out", "digit", "quotes"]
    )
    for action in tree.rng.sample(actions, len(actions)):
        new = _same_size(action, text, tree.rng)
        if new != text:
            assert len(new.encode()) == len(text.encode())
            tree.write(rel, new)
            return f"same-size rewrite ({action}) of {rel}", [rel]
    return None


KINDS: dict[str, tuple[float, Callable[[Tree], Edit | None]]] = {
    "imports": (5.0, edit_imports),
    "comment-only": (3.0, edit_comment),
    "shift": (2.0, edit_shift),
    "add-file": (2.0, edit_add_file),
    "remove-file": (1.5, edit_remove_file),
    "rename": (1.5, edit_rename),
    "tsconfig-paths": (1.0, edit_tsconfig),
    "boundary-doc": (1.5, edit_boundary_doc),
    "add-package": (0.7, edit_add_package),
    "package-json": (1.0, edit_package_json),
    "same-size": (1.5, edit_same_size),
}


def make_repo(root: Path) -> None:
    write_files(root, PROJECT)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")


def age_everything(root: Path, mtime_ns: int) -> None:
    """Give every file its own mtime before ``mtime_ns`` (no two files share one, so a rename
    onto a removed file's path never brings back that file's size and mtime)."""
    files = sorted(
        p for p in root.rglob("*") if p.is_file() and ".git" not in p.relative_to(root).parts
    )
    for offset, path in enumerate(files):
        os.utime(path, ns=(mtime_ns - offset * 10**9, mtime_ns - offset * 10**9))


# ---------------------------------------------------------------------------------- tests


class CountedPipeline:
    """Counts the runs that computed a result (rather than answering from the snapshot)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.runs = 0
        original = filid.check.project.load_project

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.runs += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(filid.check.project, "load_project", counted)


class CountedStagedAnswers:
    """Counts the ``--staged`` runs answered from the staged state (blob-keyed, no compute)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.answers = 0
        original = filid.check.staged.decode_result  # called only to answer from the state

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.answers += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(filid.check.staged, "decode_result", counted)


def test_cached_check_equals_no_cache_after_every_random_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    print(f"seed {SEED} (replay with FILID_INCREMENTAL_SEED={SEED})")
    started = time.perf_counter()
    root = tmp_path / "repo"
    make_repo(root)
    now = time.time_ns()
    age_everything(root, now - 7_200 * 10**9)
    past = now - 3_600 * 10**9  # each trusted edit gets its own, older, never reused mtime
    rng = random.Random(SEED)
    tree = Tree(root, rng)
    assert_same_as_no_cache(root, "the initial project")
    names = sorted(KINDS)
    weights = [KINDS[name][0] for name in names]
    counts: collections.Counter[str] = collections.Counter()
    racy = input_errors = cutoffs = 0
    pipeline = CountedPipeline(monkeypatch)
    staged = CountedStagedAnswers(monkeypatch)
    left_racy: list[str] = []
    for number in range(1, EDITS + 1):
        # Time passes: what the previous edit left in the racy window is now old, with a
        # new mtime (so its stat data changed and it is verified once more).
        for rel in left_racy:
            if (root / rel).is_file():
                past -= 10**9
                os.utime(root / rel, ns=(past, past))
        left_racy = []
        made: Edit | None = None
        if tree.broken is not None:
            kind, made = "package-json", repair_package_json(tree)
        while made is None:
            kind = rng.choices(names, weights)[0]
            made = KINDS[kind][1](tree)
        description, written = made
        counts[kind] += 1
        if rng.random() < RACY_SHARE:
            racy += 1
            left_racy = list(written)
        else:
            for rel in written:
                past -= 10**9
                os.utime(root / rel, ns=(past, past))
        if number % 50 == 0:
            git(root, "add", "-A")
            git(root, "commit", "-qm", f"after edit {number}")
        what = f"edit {number} [{kind}] {description}"
        broken = tree.broken is not None
        input_errors += broken
        before = pipeline.runs
        assert_same_as_no_cache(root, what, input_error=broken)
        cutoffs += pipeline.runs == before + 1  # only the --no-cache run computed
        # The same tree staged: ``--staged`` keys its state by blob ids, not stat data; every
        # file is passed, so the comparison covers (nearly) the whole result.
        git(root, "add", "-A")
        every = [str(root / rel) for rel in tree.files()]
        assert_same_as_no_cache(root, f"{what} (staged)", "--staged", *every, input_error=broken)
        if number % PRE_COMMIT_EVERY == 0:
            edited = [rel for rel in written if (root / rel).is_file()]
            one = edited[0] if edited else rng.choice(tree.sources())
            where = f"{what} (pre-commit run on {one})"
            assert_same_as_no_cache(root, where, str(root / one), input_error=broken)
    elapsed = time.perf_counter() - started
    print(
        f"{EDITS} edits ({racy} left racy, {input_errors} with a broken manifest, "
        f"{cutoffs} answered from the snapshot, {staged.answers} staged runs from the staged "
        f"state) in {elapsed:.1f} s: "
        f"{dict(sorted(counts.items()))}"
    )
    assert sum(counts.values()) == EDITS
    # The early cutoff (an edit that cannot change the result) was exercised, not bypassed.
    assert cutoffs >= 20, cutoffs
    assert staged.answers >= 20, staged.answers
    assert set(counts) == set(KINDS)


def test_a_comment_only_edit_gives_the_same_report_cached_and_uncached(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    make_repo(root)
    now = time.time_ns()
    age_everything(root, now - 7_200 * 10**9)
    before = assert_same_as_no_cache(root, "the initial project")  # leaves the cache warm
    rel = "src/auth/auth.ts"
    with (root / rel).open("a", encoding="utf-8") as file:
        file.write("// reviewed: the facts of this file do not change\n")
    os.utime(root / rel, ns=(now - 3_600 * 10**9, now - 3_600 * 10**9))
    after = assert_same_as_no_cache(root, f"comment-only edit of {rel}")
    assert after == before, short_diff(after, before)


def test_the_differential_helper_reports_a_difference() -> None:
    a = {"result": {"violations": [{"ruleId": "circular-dependency"}]}}
    b: dict[str, Any] = {"result": {"violations": []}}
    diff = short_diff(a, b)
    assert "--no-cache" in diff and "+" in diff and "circular-dependency" in diff
