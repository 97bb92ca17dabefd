"""Files a Bazel rule generates beside hand-written sources (issue 23, after blind judge M1,
F3; docs/rules.md, "After blind judge M1 (i23z1: generated outputs)").

In a Bazel workspace the compiler sees the source tree and ``bazel-bin`` as one tree
(rules_nodejs' ``ts_library`` and rules_ts' ``ts_project`` compile with both as root
folders), so a relative import may name a file no commit holds: one a rule of the package
writes. tensorflow/tfjs imports ``./op_list/arithmetic`` (``gen_op(dest_dir =
"operations/op_list/")`` writes it from JSON) and ``./tests`` (``enumerate_tests(name =
"tests")`` writes ``tests.ts``); tensorboard imports ``../polymer/plottable-style``
(``genrule(outs = ["plottable-style.ts"])``); angular/dev-infra imports
``../with_user_compiler/worker.mjs`` (``ts_project(out_dir = "with_user_compiler")`` compiles
``worker.mts`` there); PAIR-code/facets imports ``../facets-dive-vis/facets-dive-vis``, the
web path ``tf_web_library(path = "/facets-dive/components/facets-dive-vis")`` gives the
folder ``facets_dive_vis``.

Decision: the BUILD files are read, not guessed from. Only inside a Bazel workspace (a
``WORKSPACE``, ``WORKSPACE.bazel``, ``MODULE.bazel`` or ``REPO.bazel`` in the package's folder
or one above it) and only for a relative import, an unresolved target is no claim when the
Bazel package that would hold it (the nearest folder above it with a ``BUILD`` or
``BUILD.bazel``: Bazel writes a rule's outputs inside its own package) has a rule that

- names it in ``outs``/``out`` (a file, or a folder the target lies in: ``copy_to_directory``);
- names the folder it lies in by ``dest_dir`` or ``out_dirs`` (a folder the rule writes);
- is a ``ts_project`` whose ``out_dir`` holds it and whose package holds the source it is
  compiled from (``X/p.mjs`` from ``p.mts``; ``root_dir`` honoured);
- is named after it and comes from a ``.bzl`` file of the workspace whose rule implementation
  declares ``ctx.attr.name + "<suffix>"`` (or ``ctx.label.name``): ``tests`` → ``tests.ts``;

or when the importer's package maps it through a ``tf_web_library``/``web_library`` ``path``
to a file of the package whose ``path`` holds it. BUILD files are Starlark, which Python's own
parser reads (``ast``, no evaluation): only literal strings count, a file over 256 KiB or one
that does not parse says nothing, and a rule built by a macro, a loop or a variable is not
seen (the import stays judged). A ``srcs`` entry naming the missing file is no evidence
(a stale name is as likely).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from filid.check.bundler_aliases import MAX_CONFIG_BYTES
from filid.check.project import Project
from filid.graph import SOURCE_EXTENSIONS
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.model.errors import InputError
from filid.store.files import read_regular_file

__all__ = ["BazelOutputs"]

_BUILD_FILES = ("BUILD.bazel", "BUILD")
_WORKSPACE_FILES = ("MODULE.bazel", "REPO.bazel", "WORKSPACE.bazel", "WORKSPACE")
_WEB_RULES = frozenset(("tf_web_library", "web_library"))
# At most this many BUILD files are read to map web paths to folders.
_MAX_WEB_PACKAGES = 5000
# What tsc emits for a source: `p.mjs` from `p.mts`, `p.js` from `p.ts`...
_EMITTED_FROM = {
    ".mjs": (".mts", ".mjs"),
    ".cjs": (".cts", ".cjs"),
    ".js": (".ts", ".tsx", ".js", ".jsx"),
}


@dataclass
class _Rule:
    """One top-level rule call of a BUILD file: its kind and its literal string attributes."""

    kind: str
    strings: dict[str, str] = field(default_factory=dict)
    lists: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass
class _Package:
    """A parsed BUILD file: its rules and the ``.bzl`` file each loaded symbol comes from."""

    rules: list[_Rule]
    loads: dict[str, tuple[str, str]]  # local symbol -> (.bzl label, exported symbol)


class BazelOutputs:
    """Answers whether an unresolved relative import names a file a Bazel rule generates
    (module docstring)."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._root = project.root
        self._packages: dict[str, _Package | None] = {}
        self._package_of: dict[str, str | None] = {}
        self._workspace: dict[str, str | None] = {}
        self._name_suffixes: dict[tuple[str, str], str | None] = {}
        self._web_index: dict[str, list[str]] | None = None

    @cached_property
    def _files(self) -> frozenset[str]:
        return frozenset(self._project.tree.files)

    def generates(self, file: str, specifier: str, bases: list[str]) -> bool:
        """Whether a rule of the workspace writes what ``specifier`` (relative, from
        ``file``) names, at one of its candidate paths ``bases``."""
        if not specifier.startswith("."):
            return False
        for base in bases:
            if base.startswith("../") or base in ("", "."):
                continue
            directory = self._package_dir(parent_dir(base))
            if directory is not None and self._in_workspace(directory):
                package = self._package(directory)
                if package is not None and self._writes(directory, package, base):
                    return True
        return self._web_mapped(file, specifier)

    # -- the package of a path -------------------------------------------------------------

    def _package_dir(self, directory: str) -> str | None:
        """The nearest folder at or above ``directory`` holding a BUILD file of the project
        (a listed file: never one reached through a linked folder); a walk, not a recursion,
        however deep the folder."""
        return self._nearest(directory, _BUILD_FILES, self._package_of)

    def _in_workspace(self, directory: str) -> bool:
        return self._workspace_root(directory) is not None

    def _workspace_root(self, directory: str) -> str | None:
        """The nearest folder at or above ``directory`` with a workspace file (what ``//``
        labels are relative to), None outside a Bazel workspace."""
        return self._nearest(directory, _WORKSPACE_FILES, self._workspace)

    def _nearest(
        self, directory: str, names: tuple[str, ...], known: dict[str, str | None]
    ) -> str | None:
        """The nearest folder at or above the project folder ``directory`` holding a listed
        file named one of ``names`` (None outside the project, or when there is none); every
        folder walked is remembered in ``known``."""
        walked: list[str] = []
        current = directory
        found: str | None = None
        while True:
            if current in known:
                found = known[current]
                break
            walked.append(current)
            if current == ".." or current.startswith(("../", "/")):
                break
            if any(join_path(current, name) in self._files for name in names):
                found = current
                break
            if current == ".":
                break
            current = parent_dir(current)
        for folder in walked:
            known[folder] = found
        return found

    def _package(self, directory: str) -> _Package | None:
        if directory not in self._packages:
            self._packages[directory] = next(
                (
                    parsed
                    for name in _BUILD_FILES
                    if join_path(directory, name) in self._files
                    and (parsed := _parse_build(self._root, join_path(directory, name))) is not None
                ),
                None,
            )
        return self._packages[directory]

    # -- what a package writes -------------------------------------------------------------

    def _writes(self, directory: str, package: _Package, base: str) -> bool:
        relative = base if directory == "." else base[len(directory) + 1 :]
        for rule in package.rules:
            outs = [*rule.lists.get("outs", ()), *_one(rule.strings.get("out"))]
            if any(_names(relative, out) for out in outs):
                return True
            folders = [*_one(rule.strings.get("dest_dir")), *rule.lists.get("out_dirs", ())]
            if any(is_within(relative, _folder(folder)) for folder in folders):
                return True
            if rule.kind == "ts_project" and self._compiled_into(directory, rule, relative):
                return True
            name = rule.strings.get("name")
            if name is not None and relative.startswith(name):
                suffix = self._name_suffix(directory, package, rule.kind)
                if suffix is not None and _names(relative, name + suffix):
                    return True
        return False

    def _compiled_into(self, directory: str, rule: _Rule, relative: str) -> bool:
        """``relative`` lies in the ``ts_project``'s ``out_dir`` and is what tsc emits for a
        source of the package (below its ``root_dir``)."""
        out_dir = rule.strings.get("out_dir")
        if out_dir is None or _folder(out_dir) == "." or not is_within(relative, _folder(out_dir)):
            return False
        inner = relative[len(_folder(out_dir)) + 1 :]
        source_root = join_path(directory, _folder(rule.strings.get("root_dir", ".")))
        stem, dot, extension = inner.rpartition(".")
        sources = (
            [stem + s for s in _EMITTED_FROM.get(f".{extension}", ())]
            if dot and "/" not in extension
            else [inner + s for s in SOURCE_EXTENSIONS]
        )
        return any(join_path(source_root, source) in self._files for source in sources)

    def _name_suffix(self, directory: str, package: _Package, kind: str) -> str | None:
        """The suffix the rule ``kind`` adds to its name for the file it declares, read from
        the workspace's ``.bzl`` file that defines it (None: not such a rule)."""
        loaded = package.loads.get(kind)
        if loaded is None:
            return None
        workspace = self._workspace_root(directory)
        path = None if workspace is None else _bzl_path(workspace, directory, loaded[0])
        if path is None or path not in self._files:
            return None  # another repository's, or no listed file of this one (a link out)
        key = (path, loaded[1])
        if key not in self._name_suffixes:
            self._name_suffixes[key] = _declared_name_suffix(self._root, path, loaded[1])
        return self._name_suffixes[key]

    # -- web paths (tf_web_library) --------------------------------------------------------

    def _web_mapped(self, file: str, specifier: str) -> bool:
        directory = self._package_dir(parent_dir(file))
        if directory is None or not self._in_workspace(directory):
            return False
        package = self._package(directory)
        if package is None:
            return False
        name = file if directory == "." else file[len(directory) + 1 :]
        own = {
            path
            for rule in package.rules
            if rule.kind in _WEB_RULES
            and (path := rule.strings.get("path")) is not None
            and path.startswith("/")
            and name in rule.lists.get("srcs", ())
        }
        if len(own) != 1:
            return False
        web_file = join_path(own.pop().lstrip("/") or ".", name)
        target = join_path(parent_dir(web_file), specifier)
        if target.startswith("../"):
            return False
        index = self._web_paths()
        folder = target
        while True:
            folder = parent_dir(folder)
            for package_dir in index.get(folder, ()):
                inner = target[len(folder) + 1 :] if folder != "." else target
                found = join_path(package_dir, inner)
                if found in self._files or any(found + e in self._files for e in SOURCE_EXTENSIONS):
                    return True
            if folder == ".":
                return False

    def _web_paths(self) -> dict[str, list[str]]:
        """Web folder (root-relative, no leading slash) → the package folders a web rule
        serves there."""
        if self._web_index is None:
            index: dict[str, list[str]] = {}
            builds = sorted(f for f in self._files if f.rpartition("/")[2] in _BUILD_FILES)[
                :_MAX_WEB_PACKAGES
            ]
            for build in builds:
                directory = parent_dir(build)
                package = self._package(directory)
                for rule in package.rules if package is not None else ():
                    path = rule.strings.get("path")
                    if rule.kind in _WEB_RULES and path is not None and path.startswith("/"):
                        web = path.strip("/") or "."
                        if directory not in index.setdefault(web, []):
                            index[web].append(directory)
            self._web_index = index
        return self._web_index


def _one(value: str | None) -> tuple[str, ...]:
    return () if value is None else (value,)


def _folder(value: str) -> str:
    """A package-relative folder attribute, normalised (``"operations/op_list/"``)."""
    return join_path(".", value.strip("/") or ".")


def _names(relative: str, out: str) -> bool:
    """Whether the package-relative output ``out`` is what ``relative`` names: itself, with a
    source extension added (``./tf_dtypes`` → ``tf_dtypes.ts``), or a file in it (a folder)."""
    out = join_path(".", out)
    if out.startswith("../") or out == ".":
        return False
    return (
        relative == out
        or any(relative + e == out for e in SOURCE_EXTENSIONS)
        or (relative.startswith(out + "/"))
    )


def _bzl_path(workspace: str, directory: str, label: str) -> str | None:
    """The root-relative path of a ``.bzl`` label of the workspace at ``workspace``
    (``//tools:x.bzl``, ``@//tools:x.bzl``), or of the package ``directory`` (``:x.bzl``);
    None for another repository's (``@npm//…``)."""
    for prefix in ("@@//", "@//"):
        if label.startswith(prefix):
            label = label[len(prefix) - 2 :]
    if label.startswith("//"):
        package, _, name = label[2:].partition(":")
        return join_path(workspace, join_path(package or ".", name or package.rpartition("/")[2]))
    if label.startswith(":"):
        return join_path(directory, label[1:])
    return None


def _parse_build(root: Path, path: str) -> _Package | None:
    """The top-level rule calls and loads of a BUILD file (None: absent, too big, unparsable)."""
    module = _parse(root, path)
    if module is None:
        return None
    rules: list[_Rule] = []
    loads: dict[str, tuple[str, str]] = {}
    for statement in module.body:
        if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
            continue
        call = statement.value
        if not isinstance(call.func, ast.Name):
            continue
        if call.func.id == "load":
            _read_load(call, loads)
            continue
        rule = _Rule(call.func.id)
        for keyword in call.keywords:
            if keyword.arg is None:
                continue
            value = keyword.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                rule.strings[keyword.arg] = value.value
            elif isinstance(value, ast.List):
                items = [
                    item.value
                    for item in value.elts
                    if isinstance(item, ast.Constant) and isinstance(item.value, str)
                ]
                rule.lists[keyword.arg] = tuple(items)
        rules.append(rule)
    return _Package(rules, loads)


def _read_load(call: ast.Call, loads: dict[str, tuple[str, str]]) -> None:
    """``load("//tools:x.bzl", "a", b = "c")``: ``a`` → (label, ``a``), ``b`` → (label, ``c``)."""
    if not call.args or not isinstance(call.args[0], ast.Constant):
        return
    label = call.args[0].value
    if not isinstance(label, str):
        return
    for argument in call.args[1:]:
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            loads[argument.value] = (label, argument.value)
    for keyword in call.keywords:
        value = keyword.value
        if keyword.arg and isinstance(value, ast.Constant) and isinstance(value.value, str):
            loads[keyword.arg] = (label, value.value)


def _parse(root: Path, path: str) -> ast.Module | None:
    try:
        text = read_regular_file(root / path, MAX_CONFIG_BYTES).decode("utf-8")
        return ast.parse(text, filename=path)
    except (
        OSError,
        InputError,
        UnicodeDecodeError,
        SyntaxError,
        ValueError,
        RecursionError,
        MemoryError,
    ):
        return None  # unreadable, a link, over the size limit, not Starlark: says nothing


def _declared_name_suffix(root: Path, path: str, symbol: str) -> str | None:
    """For ``symbol = rule(implementation = impl, …)`` in the ``.bzl`` file ``path``: the
    literal suffix of a ``declare_file(ctx.attr.name + "<suffix>")`` in ``impl`` (None: no
    such rule, or its outputs are named otherwise)."""
    module = _parse(root, path)
    if module is None:
        return None
    implementation = None
    for statement in module.body:
        if (
            isinstance(statement, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == symbol for t in statement.targets)
            and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Name)
            and statement.value.func.id == "rule"
        ):
            for keyword in statement.value.keywords:
                if keyword.arg == "implementation" and isinstance(keyword.value, ast.Name):
                    implementation = keyword.value.id
    if implementation is None:
        return None
    for statement in module.body:
        if isinstance(statement, ast.FunctionDef) and statement.name == implementation:
            for suffix in _declared_suffixes(statement):
                return suffix
    return None


def _declared_suffixes(function: ast.FunctionDef) -> Iterator[str]:
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "declare_file"
            and node.args
            and isinstance(argument := node.args[0], ast.BinOp)
            and isinstance(argument.op, ast.Add)
            and _is_rule_name(argument.left)
            and isinstance(argument.right, ast.Constant)
            and isinstance(argument.right.value, str)
        ):
            yield argument.right.value


def _is_rule_name(node: ast.expr) -> bool:
    """``ctx.attr.name`` or ``ctx.label.name``."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "name"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr in ("attr", "label")
    )
