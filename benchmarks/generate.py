"""Write a deterministic synthetic TypeScript monorepo for filid's benchmarks.

Usage: ``python benchmarks/generate.py --files N --out DIR --seed S [--git] [--layout L]``

The tree has the shape of a real workspace monorepo: a root ``package.json`` with
``workspaces``, a ``tsconfig.json`` whose ``paths`` hold the ``@app/*`` and ``@bench/*``
aliases and which ``extends`` a ``tsconfig.base.json``, one app (``apps/web``) and several
workspace packages (``packages/<name>``, npm name ``@bench/<name>``). Inside each ``src/`` the
code is a tree of fractal modules (a folder with an ``index.ts`` barrel and an eponymous main
file, some with a ``CLAUDE.md``), their organ folders (``types/ constants/ utils/ hooks/
components/ __tests__/``) and pure-function folders (side-effect free files only, no entry).

Imports between modules follow a global post-order of the modules, so the graph is acyclic
except for the few cycles planted on purpose; a few imports deliberately reach past a
module's ``index.ts`` into its main file. The same arguments always give a byte-identical
tree: every choice comes from one ``random.Random(seed)`` and everything is walked in order.

Two more layouts (``--layout``) stress what an ordinary tree does not: ``barrels`` (folders
whose ``index.ts`` barrels re-export their own files and each other's barrels in chains and
fan-ins, with deep imports past them) and ``deep-empty`` (deep chains of folders that hold no
file of their own). The default layout, ``monorepo``, is the tree described above.

Only the standard library is used, so the generator runs with any Python 3.11.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

MARKER = ".bench-manifest.json"

DOMAINS = [
    "account",
    "audit",
    "auth",
    "billing",
    "cart",
    "catalog",
    "checkout",
    "comments",
    "config",
    "dashboard",
    "editor",
    "export",
    "feed",
    "files",
    "forms",
    "gallery",
    "graph",
    "history",
    "inbox",
    "invoices",
    "ledger",
    "media",
    "members",
    "metrics",
    "notify",
    "orders",
    "payments",
    "pricing",
    "profile",
    "reports",
    "search",
    "session",
    "settings",
    "shipping",
    "storage",
    "tags",
    "tasks",
    "teams",
    "tickets",
    "upload",
    "users",
    "wallet",
    "workflow",
]
ROLES = ["core", "api", "ui", "data", "client", "sdk", "store", "view", "model", "service"]
SUB_WORDS = [
    "list",
    "detail",
    "panel",
    "filter",
    "summary",
    "editor",
    "picker",
    "table",
    "chart",
    "form",
    "header",
    "footer",
    "sidebar",
    "toolbar",
    "card",
    "badge",
    "timeline",
    "preview",
    "wizard",
    "selector",
    "status",
    "actions",
    "queue",
    "history",
    "export",
    "import",
    "sync",
    "cache",
    "schema",
    "mapper",
    "policy",
    "rules",
    "limits",
    "presets",
]
PURE_NAMES = ["math", "format", "parse", "validate", "compare", "encode", "convert", "sort"]
UTIL_VERBS = [
    "format",
    "parse",
    "merge",
    "pick",
    "compute",
    "normalize",
    "build",
    "resolve",
    "clamp",
    "group",
]
UTIL_NOUNS = [
    "amount",
    "label",
    "range",
    "value",
    "entry",
    "key",
    "path",
    "token",
    "record",
    "slug",
]
COMPONENT_NOUNS = [
    "List",
    "Item",
    "Card",
    "Panel",
    "Header",
    "Row",
    "Dialog",
    "Badge",
    "Field",
    "Toolbar",
]
EXTERNAL_TS = ("zod", "lodash-es", "date-fns", "node:path", "nanoid")
UI_PACKAGES = frozenset({"ui", "view"})

# Module levels below a package's src/ (src itself is level 0).
MAX_LEVEL = 3
# Most files one module folder (with its organs) holds at each level; deeper levels hold
# the rest of a budget in children, so the tree's breadth grows with N and depth stays ≤ 7.
LEVEL_CAPACITY = {3: 22, 2: 22 + 6 * 22, 1: 22 + 7 * 154}


def camel(words: str) -> str:
    """Turn ``invoice-list`` into ``invoiceList``."""
    parts = words.replace("_", "-").split("-")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def pascal(words: str) -> str:
    """Turn ``invoice-list`` into ``InvoiceList``."""
    c = camel(words)
    return c[:1].upper() + c[1:]


@dataclass
class SourceFile:
    """One planned source file; ``role`` decides its template and what it may import."""

    path: PurePosixPath
    role: str  # types constants util pure hook component peer main test index
    fid: int
    stem_words: str
    functions: list[str] = field(default_factory=list)
    interfaces: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    consts: list[str] = field(default_factory=list)


@dataclass
class Module:
    """A fractal module folder: barrel, main file, organs and child modules."""

    path: PurePosixPath  # root-relative directory
    name: str
    level: int
    package: Package
    parent: Module | None
    ui: bool
    children: list[Module] = field(default_factory=list)
    files: list[SourceFile] = field(default_factory=list)
    main: SourceFile | None = None
    index: SourceFile | None = None
    order: int = -1  # global post-order position; imports only go to lower orders
    docs: dict[str, str] = field(default_factory=dict)


@dataclass
class Package:
    """A workspace package (or the app) and its root module ``src/``."""

    dir: PurePosixPath
    short: str
    npm_name: str
    is_app: bool
    order: int
    ui: bool
    root: Module | None = None


class Planner:
    """Plans the whole tree first (paths and exported names), then renders contents."""

    def __init__(self, files: int, seed: int, scale: float = 1.0) -> None:
        self.target = files
        self.scale = scale
        self.rng = random.Random(seed)
        self.next_fid = 0
        self.packages: list[Package] = []
        self.modules: list[Module] = []  # post-order
        self.cycle_edges: dict[int, list[Module]] = {}  # main fid -> modules it must import
        self.planted_cycles: list[tuple[str, str]] = []
        self.last_components: list[str] = []  # components the last import block brought in

    # ---------------------------------------------------------------- planning
    def fid(self) -> int:
        self.next_fid += 1
        return self.next_fid

    def plan(self) -> None:
        budget = round(self.target * self.scale)
        app_budget = min(5000, max(40, budget // 5))
        rest = max(60, budget - app_budget)
        n_packages = max(3, math.ceil(rest / 700))
        names = [f"{d}-{r}" for r in ROLES for d in DOMAINS]
        self.rng.shuffle(names)
        short_names = ["core", "ui", "data", *names][:n_packages]
        weights = [self.rng.uniform(0.6, 1.4) for _ in short_names]
        total_w = sum(weights)
        for i, short in enumerate(short_names):
            budget = max(12, round(rest * weights[i] / total_w))
            role = short.rsplit("-", 1)[-1]
            pkg = Package(
                dir=PurePosixPath("packages") / short,
                short=short,
                npm_name=f"@bench/{short}",
                is_app=False,
                order=i,
                ui=role in UI_PACKAGES,
            )
            self.packages.append(pkg)
            self.plan_package(pkg, budget)
        app = Package(
            dir=PurePosixPath("apps/web"),
            short="web",
            npm_name="@bench/web",
            is_app=True,
            order=len(short_names),
            ui=True,
        )
        self.packages.append(app)
        self.plan_package(app, app_budget)
        self.plant_cycles()

    def plan_package(self, pkg: Package, budget: int) -> None:
        src = pkg.dir / "src"
        root = Module(path=src, name=pkg.short, level=0, package=pkg, parent=None, ui=pkg.ui)
        pkg.root = root
        # src/ itself holds a barrel, a main file and a types organ; the rest are modules.
        self.plan_module_files(root, minimal=True)
        remaining = budget - len(root.files)
        # In the app, top-level modules sit in apps/web/src/features/ (a plain grouping folder).
        self.plan_children(root, remaining, feature_dir=pkg.is_app)
        self.finish_module(root)

    def plan_children(self, mod: Module, remaining: int, feature_dir: bool = False) -> None:
        level = mod.level + 1
        if remaining <= 0 or level > MAX_LEVEL:
            return
        cap = LEVEL_CAPACITY[level]
        k = max(1, math.ceil(remaining / cap))
        spread = self.rng.randint(3, 8) if mod.level == 0 else self.rng.randint(1, 4)
        k = max(k, min(spread, max(1, remaining // 12)))
        k = min(k, max(1, remaining // 8))
        weights = [self.rng.uniform(0.5, 1.5) for _ in range(k)]
        total_w = sum(weights)
        # A child named like its parent would make './<name>' (the eponymous file) ambiguous.
        used: set[str] = {mod.name}
        base = mod.path / "features" if feature_dir else mod.path
        for w in weights:
            share = max(8, round(remaining * w / total_w))
            name = self.unique_name(used, level)
            child = Module(
                path=base / name,
                name=name,
                level=level,
                package=mod.package,
                parent=mod,
                ui=mod.ui or self.rng.random() < 0.15,
            )
            mod.children.append(child)
            self.plan_module_files(child, minimal=False, budget=share)
            left = share - len(child.files)
            if level < MAX_LEVEL and left >= 8:
                self.plan_children(child, left)
            self.finish_module(child)

    def unique_name(self, used: set[str], level: int) -> str:
        words = DOMAINS if level == 1 else SUB_WORDS
        for _ in range(50):
            name = self.rng.choice(words)
            if level > 1 and self.rng.random() < 0.3:
                name = f"{name}-{self.rng.choice(SUB_WORDS)}"
            if self.rng.random() < 0.04:
                name = camel(name + "-" + self.rng.choice(SUB_WORDS))  # camelCase folder
            if name not in used:
                used.add(name)
                return name
        name = f"{self.rng.choice(words)}-{len(used)}"
        used.add(name)
        return name

    def new_file(self, mod: Module, rel: str, role: str, words: str) -> SourceFile:
        sf = SourceFile(path=mod.path / rel, role=role, fid=self.fid(), stem_words=words)
        n = sf.fid
        base = camel(words)
        big = pascal(words)
        if role == "types":
            sf.interfaces = [f"{big}Record{n}", f"{big}Options{n}"]
        elif role == "constants":
            sf.consts = [f"{big.upper()}_LIMIT_{n}", f"{big.upper()}_LABELS_{n}"]
        elif role in ("util", "pure"):
            count = self.rng.randint(2, 5)
            sf.functions = [f"{base}{suffix}{n}" for suffix in ("", "Safe", "All", "Or", "By")][
                :count
            ]
        elif role == "hook":
            sf.functions = [f"use{big}{n}"]
        elif role == "component":
            sf.functions = [f"{big}{n}"]
            sf.interfaces = [f"{big}Props{n}"]
        elif role in ("main", "peer"):
            count = self.rng.randint(2, 6)
            verbs = ("create", "load", "update", "remove", "select", "describe")
            sf.functions = [f"{v}{big}{n}" for v in verbs[:count]]
            sf.interfaces = [f"{big}Config{n}", f"{big}State{n}"]
            sf.classes = [f"{big}Service{n}"] if self.rng.random() < 0.6 else []
            sf.consts = [f"{big.upper()}_DEFAULTS_{n}"]
        mod.files.append(sf)
        return sf

    def plan_module_files(self, mod: Module, minimal: bool, budget: int = 0) -> None:
        rng = self.rng
        name = mod.name
        mod.files = []
        self.new_file(mod, f"types/{name}-types.ts", "types", f"{name}")
        if minimal:
            mod.main = self.new_file(mod, f"{name}.ts", "main", name)
            mod.index = self.new_file(mod, "index.ts", "index", name)
            return
        # Own files scale a little with the budget a module receives.
        own = max(6, min(20, budget // 3 if budget else 10))
        if rng.random() < 0.5:
            self.new_file(mod, f"constants/{name}-constants.ts", "constants", name)
        n_utils = rng.randint(1, max(1, own // 3))
        for j in range(n_utils):
            words = f"{rng.choice(UTIL_VERBS)}-{rng.choice(UTIL_NOUNS)}"
            if j:
                words = f"{words}-{j}"
            self.new_file(mod, f"utils/{words}.ts", "util", words)
        if rng.random() < 0.3:
            pure_name = rng.choice(PURE_NAMES)
            for j in range(rng.randint(2, 4)):
                words = f"{pure_name}-{rng.choice(UTIL_NOUNS)}-{j}"
                self.new_file(mod, f"{pure_name}/{words}.ts", "pure", words)
        if mod.ui:
            for j in range(rng.randint(1, 3)):
                words = f"{name}-{rng.choice(SUB_WORDS)}-{j}"
                self.new_file(mod, f"hooks/use-{words}.ts", "hook", words)
            for j in range(rng.randint(1, max(1, own // 3))):
                noun = rng.choice(COMPONENT_NOUNS).lower()
                words = f"{name}-{noun}-{j}"
                self.new_file(mod, f"components/{words}.tsx", "component", words)
        for j in range(rng.choice((0, 0, 0, 1, 1, 2))):
            words = f"{name}-{rng.choice(('service', 'store', 'model', 'client'))}-{j}"
            self.new_file(mod, f"{words}.ts", "peer", words)
        mod.main = self.new_file(mod, f"{name}.ts", "main", name)
        if rng.random() < 0.6:
            if rng.random() < 0.7:
                self.new_file(mod, f"{name}.test.ts", "test", name)
            else:
                self.new_file(mod, f"__tests__/{name}.test.ts", "test", name)
        mod.index = self.new_file(mod, "index.ts", "index", name)
        if rng.random() < 0.35:
            mod.docs["CLAUDE.md"] = self.claude_md(mod)
        if rng.random() < 0.08:
            mod.docs["SPEC.md"] = f"# {name}\n\nDetailed behaviour of `{name}` lives here.\n"

    def finish_module(self, mod: Module) -> None:
        mod.order = len(self.modules)
        self.modules.append(mod)

    def claude_md(self, mod: Module) -> str:
        headings = ["Always do", "Ask first", "Never do"]
        if self.rng.random() < 0.1:
            headings.pop(self.rng.randrange(3))  # a deliberately incomplete contract
        body = [f"# {mod.name}", "", f"Owns the `{mod.name}` part of `{mod.package.npm_name}`.", ""]
        rules = {
            "Always do": f"- Export public API of `{mod.name}` through `index.ts` only.",
            "Ask first": "- Adding a dependency on another workspace package.",
            "Never do": "- Import from a sibling module's internal files.",
        }
        for h in headings:
            body += [f"## {h}", "", rules[h], ""]
        return "\n".join(body)

    def plant_cycles(self) -> None:
        """Make a few sibling modules import each other's barrel (module-level cycles)."""
        wanted = self.target // 2500 + 2
        candidates = [m for m in self.modules if len(m.children) >= 2]
        self.rng.shuffle(candidates)
        for parent in candidates[:wanted]:
            a, b = sorted(self.rng.sample(parent.children, 2), key=lambda m: m.order)
            assert a.main is not None and b.main is not None
            # b (higher order) → a is an ordinary import; a → b closes the cycle.
            self.cycle_edges.setdefault(b.main.fid, []).append(a)
            self.cycle_edges.setdefault(a.main.fid, []).append(b)
            self.planted_cycles.append((str(a.path), str(b.path)))
        self.planted_cycles.sort()

    def planned_files(self) -> int:
        """How many source files the plan holds."""
        return sum(len(m.files) for m in self.modules)

    # ---------------------------------------------------------------- rendering
    def module_specifier(self, src: SourceFile, target: Module, deep: bool) -> str:
        """How ``src`` names ``target`` (its barrel, or its main file when ``deep``)."""
        pkg = target.package
        same_pkg = src.path.parts[:2] == pkg.dir.parts
        if not same_pkg and target is pkg.root and not deep:
            return pkg.npm_name
        tail = f"/{target.name}" if deep else ""
        if pkg.is_app and self.rng.random() < 0.6:
            rel_in_src = PurePosixPath(*target.path.parts[len(pkg.dir.parts) + 1 :])
            return f"@app/{rel_in_src}{tail}".replace("@app/.", "@app")
        if not same_pkg:
            # Another package's inner module: the workspace package is the way in.
            return pkg.npm_name
        rel = os.path.relpath(str(target.path), str(src.path.parent)).replace(os.sep, "/")
        if not rel.startswith("."):
            rel = "./" + rel
        return rel + tail

    def pick_targets(self, mod: Module, src: SourceFile, count: int) -> list[Module]:
        """Lower-order modules ``src`` may import: mostly close by, sometimes other packages."""
        out: list[Module] = []
        for _ in range(count):
            r = self.rng.random()
            if r < 0.25 and mod.package.order > 0:
                other = self.packages[self.rng.randrange(mod.package.order)]
                if other.root is not None and other.root.order < mod.order:
                    out.append(other.root)
                continue
            start = max(0, mod.order - 30)
            if mod.order <= start:
                continue
            t = self.modules[self.rng.randrange(start, mod.order)]
            if t.package is mod.package and t is not mod.package.root:
                out.append(t)
            elif t.package is not mod.package and t.package.root is not None:
                out.append(t.package.root)
        seen: set[int] = set()
        uniq = []
        for t in out:
            if t.order not in seen and t is not mod:
                seen.add(t.order)
                uniq.append(t)
        return uniq

    def rel(self, src: SourceFile, dst: SourceFile) -> str:
        rel = os.path.relpath(str(dst.path.with_suffix("")), str(src.path.parent))
        rel = rel.replace(os.sep, "/")
        return rel if rel.startswith(".") else "./" + rel

    def render(self, mod: Module, sf: SourceFile) -> str:
        r = getattr(self, f"render_{sf.role}")
        text: str = r(mod, sf)
        return text

    def lower_in_module(
        self, mod: Module, sf: SourceFile, roles: tuple[str, ...]
    ) -> list[SourceFile]:
        return [f for f in mod.files if f.role in roles and f.fid < sf.fid]

    def import_block(
        self, mod: Module, sf: SourceFile, local_roles: tuple[str, ...]
    ) -> tuple[list[str], list[str]]:
        """Import lines for ``sf`` and the function names it may call."""
        rng = self.rng
        lines: list[str] = []
        callable_names: list[str] = []
        components: list[str] = []
        ext = rng.choice(EXTERNAL_TS)
        if ext == "zod":
            lines.append("import { z } from 'zod';")
        elif ext == "lodash-es":
            lines.append("import { debounce, uniq } from 'lodash-es';")
        elif ext == "date-fns":
            lines.append("import { formatISO } from 'date-fns';")
        elif ext == "node:path":
            lines.append("import path from 'node:path';")
        else:
            lines.append("import { nanoid } from 'nanoid';")
        locals_ = self.lower_in_module(mod, sf, local_roles)
        rng.shuffle(locals_)
        for dst in locals_[: rng.randint(1, 4)]:
            spec = self.rel(sf, dst)
            if dst.role == "types":
                lines.append(f"import type {{ {', '.join(dst.interfaces)} }} from '{spec}';")
            elif dst.role == "constants":
                lines.append(f"import {{ {dst.consts[0]} }} from '{spec}';")
            elif dst.role == "component":
                if sf.path.suffix == ".tsx":
                    lines.append(f"import {{ {dst.functions[0]} }} from '{spec}';")
                    components.append(dst.functions[0])
            elif dst.role == "hook":
                continue  # a component imports at most its first hook, below
            elif dst.functions:
                names = dst.functions[: rng.randint(1, min(2, len(dst.functions)))]
                lines.append(f"import {{ {', '.join(names)} }} from '{spec}';")
                callable_names += names
        if sf.role in ("main", "peer", "hook", "component"):
            n_cross = rng.choice((0, 1, 1, 2, 2, 3))
            for target in self.pick_targets(mod, sf, n_cross):
                assert target.main is not None
                deep = rng.random() < 0.05 and target is not target.package.root
                spec = self.module_specifier(sf, target, deep)
                tmain = target.main
                kind = rng.random()
                if kind < 0.2:
                    lines.append(f"import type {{ {tmain.interfaces[0]} }} from '{spec}';")
                elif kind < 0.3:
                    fn = tmain.functions[0]
                    lines.append(f"import {{ {fn}, type {tmain.interfaces[1]} }} from '{spec}';")
                    callable_names.append(fn)
                else:
                    fn = rng.choice(tmain.functions)
                    lines.append(f"import {{ {fn} }} from '{spec}';")
                    callable_names.append(fn)
        for target in self.cycle_edges.get(sf.fid, []):
            assert target.main is not None
            fn = target.main.functions[-1]
            lines.append(f"import {{ {fn} }} from '{self.module_specifier(sf, target, False)}';")
            # First, so that it is surely called (an unused import would be elided by tsc).
            callable_names.insert(0, fn)
        # The same specifier may come twice from different branches; TS allows it, keep it.
        self.last_components = components
        return lines, callable_names

    def body_calls(self, names: list[str], indent: str) -> list[str]:
        out = []
        for i, n in enumerate(names):
            out.append(f"{indent}const step{i} = {n}(String(value), {i + 1});")
        out.append(
            f"{indent}return [{', '.join(f'step{i}' for i in range(len(out)))}].join(':')"
            + ("" if out else " || String(value)")
            + ";"
        )
        return out

    def render_types(self, mod: Module, sf: SourceFile) -> str:
        rec, opts = sf.interfaces
        fields = self.rng.sample(
            [
                "id: string",
                "label: string",
                "createdAt: number",
                "tags: readonly string[]",
                "owner?: string",
                "weight: number",
                "enabled: boolean",
                "parentId?: string",
            ],
            k=self.rng.randint(3, 7),
        )
        lines = [f"/** Shapes shared by the `{mod.name}` module. */", ""]
        lines.append(f"export interface {rec} {{")
        lines += [f"  readonly {f};" for f in fields]
        lines.append("}")
        lines += ["", f"export interface {opts} {{", "  limit?: number;", "  cursor?: string;"]
        lines += ["  sort?: 'asc' | 'desc';", "}", ""]
        lines.append(f"export type {rec}Id = {rec}['id'];")
        lines.append(f"export type {rec}Patch = Partial<Omit<{rec}, 'id'>>;")
        lines += ["", f"/** A page of `{mod.name}` records and where the next one starts. */"]
        lines += [f"export interface {rec}Page {{", f"  readonly items: readonly {rec}[];"]
        lines += ["  readonly nextCursor?: string;", "  readonly total: number;", "}", ""]
        lines += [
            f"export type {rec}Event =",
            f"  | {{ readonly type: 'created'; readonly record: {rec} }}",
            f"  | {{ readonly type: 'updated'; readonly id: {rec}Id; readonly patch: {rec}Patch }}",
            f"  | {{ readonly type: 'removed'; readonly id: {rec}Id }};",
            "",
            f"export function is{rec}(value: unknown): value is {rec} {{",
            "  return typeof value === 'object' && value !== null && 'id' in value;",
            "}",
        ]
        return "\n".join(lines) + "\n"

    def render_constants(self, mod: Module, sf: SourceFile) -> str:
        limit, labels = sf.consts
        n = self.rng.randint(6, 20)
        lines = [f"export const {limit} = {self.rng.randint(10, 500)};", ""]
        lines.append(f"export const {labels} = {{")
        lines += [f"  item{i}: '{mod.name} {i}'," for i in range(n)]
        lines += ["} as const;", ""]
        lines.append(f"export type {pascal(mod.name)}Label{sf.fid} = keyof typeof {labels};")
        return "\n".join(lines) + "\n"

    def render_util(self, mod: Module, sf: SourceFile) -> str:
        imports, calls = self.import_block(mod, sf, ("types", "constants", "util"))
        lines = [*imports, ""]
        if self.rng.random() < 0.25:
            # A module-level cache: a top-level `new`, so this folder is not pure.
            lines += [f"const cache{sf.fid} = new Map<string, string>();", ""]
        lines += self.functions(sf, calls)
        return "\n".join(lines) + "\n"

    def render_pure(self, mod: Module, sf: SourceFile) -> str:
        siblings = [
            f
            for f in mod.files
            if f.role == "pure" and f.fid < sf.fid and f.path.parent == sf.path.parent
        ]
        lines: list[str] = []
        calls: list[str] = []
        for dst in siblings[-2:]:
            lines.append(f"import {{ {dst.functions[0]} }} from '{self.rel(sf, dst)}';")
            calls.append(dst.functions[0])
        if lines:
            lines.append("")
        lines.append(f"export const PRECISION_{sf.fid} = {self.rng.randint(1, 8)};")
        lines.append("")
        lines += self.functions(sf, calls)
        return "\n".join(lines) + "\n"

    def functions(self, sf: SourceFile, calls: list[str]) -> list[str]:
        out: list[str] = []
        for i, fn in enumerate(sf.functions):
            out += [
                f"/** {fn}: part of {sf.stem_words}. */",
                f"export function {fn}(input: string, factor: number = 1): string {{",
                "  const value = input.trim();",
                "  if (value.length === 0) {",
                "    return '';",
                "  }",
                f"  const scaled = value.length * factor + {i};",
            ]
            if calls and i == 0:
                out += [f"  const parts = [{', '.join(f'{c}(value)' for c in calls)}];"]
                out += ["  return `${parts.join('|')}:${scaled}`;"]
            else:
                out += [
                    "  const chars = Array.from(value);",
                    "  const picked = chars.filter((_, index) => index % 2 === 0);",
                    "  return `${picked.join('')}:${scaled}`;",
                ]
            out += ["}", ""]
        return out

    def render_hook(self, mod: Module, sf: SourceFile) -> str:
        imports, calls = self.import_block(mod, sf, ("types", "constants", "util"))
        fn = sf.functions[0]
        lines = ["import { useMemo, useState } from 'react';", *imports, ""]
        lines += [
            f"export function {fn}(initial: string = ''): "
            "readonly [string, (next: string) => void] {",
            "  const [value, setValue] = useState(initial);",
            "  const derived = useMemo(() => {",
        ]
        lines += self.body_calls(calls, "    ")
        lines += ["  }, [value]);", "  return [derived, setValue] as const;", "}", ""]
        lines += [
            f"/** Reducer behind `{fn}`, exported for tests. */",
            f"export function {fn}Reducer(state: string, "
            "action: { type: 'set' | 'clear'; value?: string }): string {",
            "  switch (action.type) {",
            "    case 'set':",
            "      return action.value ?? state;",
            "    case 'clear':",
            "      return '';",
            "    default:",
            "      return state;",
            "  }",
            "}",
            "",
        ]
        return "\n".join(lines) + "\n"

    def render_component(self, mod: Module, sf: SourceFile) -> str:
        imports, calls = self.import_block(
            mod, sf, ("types", "constants", "util", "hook", "component")
        )
        comp, props = sf.functions[0], sf.interfaces[0]
        hooks = [f for f in self.lower_in_module(mod, sf, ("hook",))][:1]
        lines = ["import { useState } from 'react';", *imports]
        for h in hooks:
            if not any(f"from '{self.rel(sf, h)}'" in line for line in imports):
                lines.append(f"import {{ {h.functions[0]} }} from '{self.rel(sf, h)}';")
        lines += ["", f"export interface {props} {{", "  title: string;"]
        lines += ["  items: readonly string[];", "  onSelect?: (item: string) => void;", "}", ""]
        lines += [
            f"export function {comp}({{ title, items, onSelect }}: {props}): JSX.Element {{",
            "  const [open, setOpen] = useState(false);",
        ]
        if hooks:
            lines.append(f"  const [state] = {hooks[0].functions[0]}(title);")
        label = f"{calls[0]}(title)" if calls else "title"
        lines += [
            f"  const heading = {label};",
            "  return (",
            f'    <section className="{sf.stem_words}">',
            "      <h2 onClick={() => setOpen(!open)}>{heading}</h2>",
            "      {open && (",
            "        <ul>",
            "          {items.map((item) => (",
            "            <li key={item} onClick={() => onSelect?.(item)}>",
            "              {item}",
            "            </li>",
            "          ))}",
            "        </ul>",
            "      )}",
            *(f"      <{c} title={{heading}} items={{items}} />" for c in self.last_components),
            "    </section>",
            "  );",
            "}",
            "",
        ]
        return "\n".join(lines) + "\n"

    def render_peer(self, mod: Module, sf: SourceFile) -> str:
        return self.render_main(mod, sf)

    def render_main(self, mod: Module, sf: SourceFile) -> str:
        roles = ("types", "constants", "util", "pure", "peer")
        imports, calls = self.import_block(mod, sf, roles)
        child_imports: list[str] = []
        if sf.role == "main":
            for child in mod.children[:2]:
                assert child.main is not None
                fn = child.main.functions[0]
                child_imports.append(f"import {{ {fn} }} from './{self.child_rel(mod, child)}';")
                calls.append(fn)
        config, state = sf.interfaces
        defaults = sf.consts[0]
        lines = [*imports, *child_imports, ""]
        lines += [
            f"export interface {config} {{",
            "  readonly id: string;",
            "  readonly retries: number;",
            "  readonly label?: string;",
            "}",
            "",
            f"export interface {state} {{",
            "  status: 'idle' | 'loading' | 'ready' | 'error';",
            "  items: string[];",
            "  error?: string;",
            "}",
            "",
            f"export const {defaults}: Readonly<{config}> = {{",
            f"  id: '{mod.name}',",
            "  retries: 3,",
            "};",
            "",
        ]
        for i, fn in enumerate(sf.functions):
            lines += [
                f"export function {fn}(value: string, attempt: number = {i}): string {{",
                f"  const config = {{ ...{defaults}, label: value }};",
                "  if (attempt > config.retries) {",
                "    return config.id;",
                "  }",
            ]
            if i == 0 and calls:
                lines += self.body_calls(calls, "  ")
            else:
                lines += ["  return `${config.id}:${value}:${attempt}`;"]
            lines += ["}", ""]
        for cls in sf.classes:
            lines += [
                f"export class {cls} {{",
                f"  private readonly state: {state} = {{ status: 'idle', items: [] }};",
                "",
                f"  constructor(private readonly config: {config} = {defaults}) {{}}",
                "",
                "  add(item: string): void {",
                "    this.state.items.push(item);",
                "    this.state.status = 'ready';",
                "  }",
                "",
                "  snapshot(): Readonly<" + state + "> {",
                "    return { ...this.state, items: [...this.state.items] };",
                "  }",
                "",
                "  describe(): string {",
                "    return `${this.config.id} has ${this.state.items.length} items`;",
                "  }",
                "}",
                "",
            ]
        if sf.role == "main" and self.rng.random() < 0.06:
            targets = self.pick_targets(mod, sf, 1)
            if targets:
                spec = self.module_specifier(sf, targets[0], False)
                lines += [
                    f"export async function load{pascal(mod.name)}Lazily{sf.fid}()"
                    ": Promise<unknown> {",
                    f"  const mod = await import('{spec}');",
                    "  return mod;",
                    "}",
                    "",
                ]
        return "\n".join(lines) + "\n"

    def child_rel(self, mod: Module, child: Module) -> str:
        return str(PurePosixPath(*child.path.parts[len(mod.path.parts) :]))

    def render_test(self, mod: Module, sf: SourceFile) -> str:
        assert mod.main is not None
        spec = self.rel(sf, mod.main)
        fns = mod.main.functions[:3]
        lines = [
            "import { describe, expect, it } from 'vitest';",
            f"import {{ {', '.join(fns)} }} from '{spec}';",
            "",
            f"describe('{mod.name}', () => {{",
        ]
        for fn in fns:
            lines += [
                f"  it('{fn} returns a string', () => {{",
                f"    expect(typeof {fn}('sample')).toBe('string');",
                "  });",
                "",
            ]
        lines += ["});", ""]
        return "\n".join(lines)

    def render_index(self, mod: Module, sf: SourceFile) -> str:
        lines = [f"// Public entry of `{mod.name}`."]
        assert mod.main is not None
        lines.append(f"export * from '{self.rel(sf, mod.main)}';")
        for f in mod.files:
            if f.role == "peer":
                lines.append(f"export * from '{self.rel(sf, f)}';")
            elif f.role == "types":
                lines.append(
                    f"export type {{ {', '.join(f.interfaces)} }} from '{self.rel(sf, f)}';"
                )
            elif f.role == "hook":
                lines.append(f"export {{ {f.functions[0]} }} from '{self.rel(sf, f)}';")
            elif f.role == "component":
                lines.append(
                    f"export {{ {f.functions[0]}, type {f.interfaces[0]} }} "
                    f"from '{self.rel(sf, f)}';"
                )
        for child in mod.children:
            lines.append(f"export * from './{self.child_rel(mod, child)}';")
        return "\n".join(lines) + "\n"

    # ---------------------------------------------------------------- config files
    def config_files(self) -> dict[str, str]:
        out: dict[str, str] = {}
        pkgs = [p for p in self.packages if not p.is_app]
        root_pkg = {
            "name": "bench-monorepo",
            "private": True,
            "workspaces": ["packages/*", "apps/*"],
            "devDependencies": {"typescript": "^5.9.3", "vitest": "^3.2.0"},
        }
        out["package.json"] = json.dumps(root_pkg, indent=2) + "\n"
        base = {
            "compilerOptions": {
                "target": "ES2022",
                "module": "ESNext",
                "moduleResolution": "Bundler",
                "jsx": "react-jsx",
                "strict": True,
                "isolatedModules": True,
                "skipLibCheck": True,
                "noEmit": True,
            }
        }
        out["tsconfig.base.json"] = json.dumps(base, indent=2) + "\n"
        root_ts = (
            "// Root config: aliases for the app and the workspace packages.\n"
            + json.dumps(
                {
                    "extends": "./tsconfig.base.json",
                    "compilerOptions": {
                        "baseUrl": ".",
                        "paths": {
                            "@app/*": ["apps/web/src/*"],
                            "@bench/*": ["packages/*/src/index.ts"],
                        },
                    },
                    "include": ["packages/*/src", "apps/*/src"],
                },
                indent=2,
            )
            + "\n"
        )
        out["tsconfig.json"] = root_ts
        out["README.md"] = (
            "# bench-monorepo\n\nSynthetic TypeScript monorepo generated by filid's benchmarks.\n"
        )
        for p in self.packages:
            pkg_json: dict[str, object] = {
                "name": p.npm_name,
                "version": "0.0.0",
                "private": True,
                "type": "module",
                "main": "./src/index.ts",
                "types": "./src/index.ts",
                "exports": {".": "./src/index.ts"},
            }
            deps = sorted({q.npm_name for q in pkgs if q.order < p.order})[:6]
            if deps:
                pkg_json["dependencies"] = {d: "workspace:*" for d in deps}
            out[f"{p.dir}/package.json"] = json.dumps(pkg_json, indent=2) + "\n"
            out[f"{p.dir}/tsconfig.json"] = (
                json.dumps(
                    {"extends": "../../tsconfig.json", "include": ["src"]},
                    indent=2,
                )
                + "\n"
            )
        return out


def calibrated_plan(files: int, seed: int) -> Planner:
    """Plan, then re-plan with a scaled budget until the source file count is near ``files``.

    Budgets handed to the deepest modules are partly unused, so the first plan falls short;
    a few deterministic re-plans (each from a fresh ``Random(seed)``) close the gap.
    """
    scale = 1.0
    best: Planner | None = None
    for _ in range(6):
        planner = Planner(files, seed, scale)
        planner.plan()
        count = sum(len(m.files) for m in planner.modules)
        if best is None or abs(count - files) < abs(best.planned_files() - files):
            best = planner
        if abs(count - files) <= max(2, files // 100):
            break
        scale *= files / max(1, count)
    assert best is not None
    return best


# --------------------------------------------------------------------------- pathological layouts
LAYOUTS = ("monorepo", "barrels", "deep-empty")
# Folders of the barrels layout per area (an area barrel re-exports all of them).
BARREL_AREA_SIZE = 25
# Folders below src/ down to a deep-empty leaf: three shared levels, the rest one chain each;
# deeper than filid's default structure.maxDepth (10), so max-depth reports the deepest
# (empty) folders of every chain: directory-level findings on folders without files.
DEEP_SHARED = (8, 4, 4)
DEEP_LEVELS = 12


@dataclass
class LayoutFile:
    """One source file of a pathological layout: its path and the names it exports."""

    path: PurePosixPath
    names: list[str]  # value exports (functions, consts); the first is callable
    type_name: str
    lines: list[str] = field(default_factory=list)  # import lines, filled while planning
    imported: set[str] = field(default_factory=set)

    def add_import(self, name: str, spec: str) -> bool:
        """Import ``name`` from ``spec`` unless a binding of that name is imported already."""
        if name in self.imported:
            return False
        self.imported.add(name)
        self.lines.append(f"import {{ {name} }} from '{spec}';")
        return True


def _spec(src: PurePosixPath, dst: PurePosixPath) -> str:
    """The relative specifier ``src`` uses for ``dst`` (a file without extension, or a folder)."""
    rel = os.path.relpath(str(dst), str(src.parent)).replace(os.sep, "/")
    return rel if rel.startswith(".") else "./" + rel


def _layout_file(path: PurePosixPath, fid: int, rng: random.Random) -> LayoutFile:
    base = camel(path.stem)
    names = [f"{base}{suffix}{fid}" for suffix in ("", "Safe", "All", "By")[: rng.randint(1, 3)]]
    names.append(f"{base.upper().replace('-', '_')}_LIMIT_{fid}")
    return LayoutFile(path=path, names=names, type_name=f"{pascal(path.stem)}Shape{fid}")


def _render_layout_file(sf: LayoutFile, calls: list[str]) -> str:
    fn, *rest = sf.names
    lines = [*sf.lines, ""] if sf.lines else []
    lines += [
        f"export interface {sf.type_name} {{",
        "  readonly id: string;",
        "  readonly weight: number;",
        "}",
        "",
        f"export function {fn}(input: string, factor: number = 1): string {{",
        "  const value = input.trim();",
    ]
    if calls:
        lines.append(f"  const parts = [{', '.join(f'{c}(value)' for c in calls)}];")
        lines.append("  return `${parts.join('|')}:${value.length * factor}`;")
    else:
        lines.append("  return `${value}:${value.length * factor}`;")
    lines += ["}", ""]
    for name in rest:
        if name.isupper() or "_LIMIT_" in name:
            lines.append(f"export const {name} = {len(name)};")
        else:
            lines += [
                f"export function {name}(input: {sf.type_name}): string {{",
                f"  return {fn}(input.id, input.weight);",
                "}",
            ]
        lines.append("")
    return "\n".join(lines)


def _layout_configs(name: str) -> dict[str, str]:
    """Root package.json and tsconfig.json of a single-package pathological layout."""
    pkg = {"name": name, "private": True, "type": "module", "main": "./src/index.ts"}
    tsconfig = {
        "compilerOptions": {
            "target": "ES2022",
            "module": "ESNext",
            "moduleResolution": "Bundler",
            "strict": True,
            "noEmit": True,
        },
        "include": ["src"],
    }
    return {
        "package.json": json.dumps(pkg, indent=2) + "\n",
        "tsconfig.json": json.dumps(tsconfig, indent=2) + "\n",
        "README.md": f"# {name}\n\nPathological layout generated by filid's benchmarks.\n",
    }


def plan_barrels(files: int, seed: int) -> tuple[dict[str, str], dict[str, object]]:
    """The ``barrels`` layout: about ``files`` source files in ``files/4`` barrel folders.

    ``src/<area>/<folder>/`` folders (25 per area) each hold a few files and an ``index.ts``
    that re-exports them (``export *``, ``export { … }``, ``export type { … }``) and, in
    chains, the barrel of the folder before it (``export * from '../<prev>'``), often one
    more earlier folder of the area (fan-in), sometimes a name from an earlier area's barrel
    (``export { x } from '../../<area>'``); an area's first folder sometimes stars a folder of
    an earlier area, so some chains cross areas. ``src/<area>/index.ts`` stars all its
    folders, ``src/index.ts`` all areas. Files import names through barrels and, about one in
    three, straight past them (``../<folder>/<file>``, ``../../<area>/<folder>/<file>``).
    Everything points to earlier folders, so the graph has no cycle.
    """
    rng = random.Random(seed)
    n_folders = max(4, round(files / 4))
    n_areas = math.ceil(n_folders / BARREL_AREA_SIZE)
    own_total = max(n_folders, files - n_folders - n_areas - 1)
    area_names = [
        DOMAINS[i % len(DOMAINS)] + ("" if i < len(DOMAINS) else f"-{i // len(DOMAINS)}")
        for i in range(n_areas)
    ]
    src = PurePosixPath("src")
    fid = 0
    # folder path → (its files, the names its barrel exports from them)
    folders: list[tuple[PurePosixPath, list[LayoutFile], list[str]]] = []
    area_of: list[int] = []
    for i in range(n_folders):
        area = i // BARREL_AREA_SIZE
        word = SUB_WORDS[rng.randrange(len(SUB_WORDS))]
        folder = src / area_names[area] / f"{word}-{i % BARREL_AREA_SIZE}"
        count = own_total // n_folders + (1 if i < own_total % n_folders else 0)
        own: list[LayoutFile] = []
        for j in range(count):
            fid += 1
            stem = f"{rng.choice(UTIL_VERBS)}-{rng.choice(UTIL_NOUNS)}-{j}"
            own.append(_layout_file(folder / stem, fid, rng))
        folders.append((folder, own, []))
        area_of.append(area)
    contents = _layout_configs("bench-barrels")
    deep_imports = 0
    for i, (folder, own, exported) in enumerate(folders):
        index = folder / "index.ts"
        lines = [f"// Barrel of `{folder.name}`."]
        for sf in own:
            kind = rng.random()
            if kind < 0.6:
                lines.append(f"export * from '{_spec(index, sf.path)}';")
                exported.extend(sf.names)
            elif kind < 0.9:
                picked = sf.names[: max(1, len(sf.names) - 1)]
                lines.append(f"export {{ {', '.join(picked)} }} from '{_spec(index, sf.path)}';")
                exported.extend(picked)
            else:
                lines.append(f"export type {{ {sf.type_name} }} from '{_spec(index, sf.path)}';")
        area = area_of[i]
        first = area * BARREL_AREA_SIZE
        if i > first and rng.random() < 0.85:
            lines.append(f"export * from '{_spec(index, folders[i - 1][0])}';")
        if i > first + 1 and rng.random() < 0.4:
            lines.append(
                f"export * from '{_spec(index, folders[rng.randrange(first, i - 1)][0])}';"
            )
        if i == first and area > 0 and rng.random() < 0.5:
            other = rng.randrange(0, first)
            lines.append(f"export * from '{_spec(index, folders[other][0])}';")
        if area > 0 and rng.random() < 0.3:
            other = rng.randrange(0, first)
            if folders[other][2]:
                name = rng.choice(folders[other][2])
                area_dir = src / area_names[area_of[other]]
                lines.append(f"export {{ {name} }} from '{_spec(index, area_dir)}';")
        # Imports of the folder's files: a sibling, names through earlier barrels, deep ones.
        lo = max(0, i - 3 * BARREL_AREA_SIZE)
        for k, sf in enumerate(own):
            calls: list[str] = []
            if k and rng.random() < 0.5:
                dst = own[rng.randrange(k)]
                if sf.add_import(dst.names[0], _spec(sf.path, dst.path)):
                    calls.append(dst.names[0])
            for _ in range(rng.randint(0, 2) if i else 0):
                other = rng.randrange(lo, i)
                if folders[other][2]:
                    sf.add_import(rng.choice(folders[other][2]), _spec(sf.path, folders[other][0]))
            if i and rng.random() < 0.35:
                dst = rng.choice(folders[rng.randrange(lo, i)][1])
                if sf.add_import(dst.names[0], _spec(sf.path, dst.path)):
                    calls.append(dst.names[0])
                    deep_imports += 1
            contents[f"{sf.path}.ts"] = _render_layout_file(sf, calls)
        contents[str(index)] = "\n".join(lines) + "\n"
    for a, name in enumerate(area_names):
        members = [f for f, x in zip(folders, area_of, strict=True) if x == a]
        lines = [f"// Area `{name}`: every folder's barrel."]
        lines += [f"export * from './{f[0].name}';" for f in members]
        contents[f"src/{name}/index.ts"] = "\n".join(lines) + "\n"
    root = ["// Everything, through the area barrels."]
    root += [f"export * from './{name}';" for name in area_names]
    contents["src/index.ts"] = "\n".join(root) + "\n"
    extra: dict[str, object] = {
        "barrels": n_folders + n_areas + 1,
        "folders": n_folders + n_areas + 1,
        "deepImports": deep_imports,
    }
    return contents, extra


def plan_deep_empty(files: int, seed: int) -> tuple[dict[str, str], dict[str, object]]:
    """The ``deep-empty`` layout: about ``files`` files at the ends of deep folder chains.

    Every leaf folder sits twelve levels below ``src/``: three levels shared by many chains
    (8, 4 and 4 folders), then a chain of eight folders of its own, then the leaf; only leaves
    hold files (one to three, a fifth of them with an ``index.ts``), so most folders are
    empty intermediates, and the deepest ones lie past the default ``maxDepth`` of 10. Files
    import a sibling and, often, a file of an earlier chain (``../../../…/<file>``).
    """
    rng = random.Random(seed)
    contents = _layout_configs("bench-deep-empty")
    src = PurePosixPath("src")
    made: list[LayoutFile] = []
    fid = 0
    chain = 0
    folders: set[PurePosixPath] = {src}
    while fid < files:
        parts = [
            f"{DOMAINS[rng.randrange(DEEP_SHARED[0])]}",
            f"{ROLES[rng.randrange(DEEP_SHARED[1])]}",
            f"{SUB_WORDS[rng.randrange(DEEP_SHARED[2])]}",
        ]
        parts += [f"{rng.choice(SUB_WORDS)}-{chain}"]
        parts += [rng.choice(SUB_WORDS) for _ in range(DEEP_LEVELS - len(parts) - 1)]
        parts.append(f"leaf-{chain}")
        chain += 1
        leaf = src.joinpath(*parts)
        folders.update([leaf, *leaf.parents])
        own: list[LayoutFile] = []
        with_index = rng.random() < 0.2
        for j in range(min(rng.randint(1, 3), files - fid - int(with_index)) or 1):
            fid += 1
            stem = f"{rng.choice(UTIL_VERBS)}-{rng.choice(UTIL_NOUNS)}-{j}"
            sf = _layout_file(leaf / stem, fid, rng)
            calls: list[str] = []
            if own and rng.random() < 0.5:
                sf.add_import(own[-1].names[0], _spec(sf.path, own[-1].path))
                calls.append(own[-1].names[0])
            if made and rng.random() < 0.6:
                dst = made[rng.randrange(max(0, len(made) - 200), len(made))]
                if sf.add_import(dst.names[0], _spec(sf.path, dst.path)):
                    calls.append(dst.names[0])
            contents[f"{sf.path}.ts"] = _render_layout_file(sf, calls)
            own.append(sf)
        made.extend(own)
        if with_index:
            fid += 1
            lines = [f"export * from './{sf.path.name}';" for sf in own]
            contents[str(leaf / "index.ts")] = "\n".join(lines) + "\n"
    folders.discard(PurePosixPath("."))
    leaves = {PurePosixPath(p).parent for p in contents if p.startswith("src/")}
    extra: dict[str, object] = {
        "folders": len(folders),
        "emptyFolders": len(folders - leaves),
        "chains": chain,
    }
    return contents, extra


def generate(files: int, out: Path, seed: int, layout: str = "monorepo") -> dict[str, object]:
    """Write the tree for ``files``/``seed`` into ``out`` (emptied first); return its manifest."""
    if layout not in LAYOUTS:
        raise SystemExit(f"unknown layout {layout!r}; valid: {', '.join(LAYOUTS)}")
    if out.exists():
        if any(out.iterdir()) and not (out / MARKER).exists():
            raise SystemExit(f"refusing to overwrite {out}: not empty and not a generated tree")
        shutil.rmtree(out)
    if layout != "monorepo":
        plan = plan_barrels if layout == "barrels" else plan_deep_empty
        contents, extra = plan(files, seed)
        head: dict[str, object] = {"layout": layout, "requested": files, "seed": seed}
        return write_tree(out, contents, head, {**extra, "plantedCycles": []})
    planner = calibrated_plan(files, seed)
    contents: dict[str, str] = planner.config_files()
    for mod in planner.modules:
        for sf in mod.files:
            contents[str(sf.path)] = planner.render(mod, sf)
        for doc, text in mod.docs.items():
            contents[str(mod.path / doc)] = text
    return write_tree(
        out,
        contents,
        {"requested": files, "seed": seed},
        {
            "modules": len(planner.modules),
            "packages": [p.npm_name for p in planner.packages],
            "plantedCycles": [list(c) for c in planner.planted_cycles],
        },
    )


def write_tree(
    out: Path, contents: dict[str, str], head: dict[str, object], tail: dict[str, object]
) -> dict[str, object]:
    """Write ``contents`` under ``out`` and its manifest (``head``, the counts, ``tail``)."""
    dirs = sorted({str(PurePosixPath(p).parent) for p in contents})
    for d in dirs:
        (out / d).mkdir(parents=True, exist_ok=True)
    for rel in sorted(contents):
        with open(out / rel, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(contents[rel])
    n_source = sum(1 for p in contents if p.endswith((".ts", ".tsx")))
    manifest = {**head, "sourceFiles": n_source, "files": len(contents), **tail}
    (out / MARKER).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def git_commit(out: Path) -> None:
    """Make ``out`` its own git work tree with one commit (tools list files through git)."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.invalid",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
    }
    (out / ".gitignore").write_text(".filid/cache/\n", encoding="utf-8")
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["commit", "-q", "--no-gpg-sign", "-m", "generated"],
    ):
        subprocess.run(["git", *args], cwd=out, env=env, check=True)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: parse arguments, write the tree, print its manifest."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--files", type=int, required=True, help="about this many source files")
    ap.add_argument("--out", type=Path, required=True, help="directory to (re)create")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--git", action="store_true", help="git init and commit the tree")
    ap.add_argument(
        "--layout",
        choices=LAYOUTS,
        default="monorepo",
        help="tree shape: the workspace monorepo (default), barrels or deep-empty",
    )
    args = ap.parse_args(argv)
    if args.files < 10:
        ap.error("--files must be at least 10")
    manifest = generate(args.files, args.out, args.seed, args.layout)
    if args.git:
        git_commit(args.out)
    json.dump(manifest | {"plantedCycles": len(manifest["plantedCycles"])}, sys.stdout)  # type: ignore[arg-type]
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
