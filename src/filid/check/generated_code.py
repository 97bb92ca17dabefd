"""Unresolved imports filid does not claim are broken: targets a build generates, files no
compiler reads and no build reaches, projects a package ships as data to be copied, run-time
requires that resolve from the emitted file, root-absolute URLs outside a Vite root, and
targets that exist outside the file universe (issue 23, SPEC §0; docs/rules.md says why)."""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from filid.check.project import Project
from filid.graph import DYNAMIC_SPECIFIER, SOURCE_EXTENSIONS
from filid.graph.candidates import DECLARATION_TWINS
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.graph.module_graph import package_of
from filid.graph.resolve import ResolutionKind
from filid.model.errors import InputError
from filid.model.facts import ImportKind
from filid.parse import parse_source
from filid.scan.classify import is_fixture_path
from filid.scan.universe import git_ignored
from filid.store.files import read_regular_file

__all__ = ["bundler_aliases", "generated_imports"]

_JS_EXTENSIONS = frozenset(("js", "jsx", "mjs", "cjs"))
_PLAIN_JS = (".js", ".jsx", ".mjs", ".cjs")


def generated_imports(project: Project) -> frozenset[tuple[str, str]]:
    """(file, specifier) of the unresolved imports filid does not claim are broken: those
    ``Resolver.is_judged_unresolved`` leaves alone, those whose target exists on disk but
    lies outside the file universe (a `build/` or dot folder, a file over 1 MiB: the compiler
    resolves them), and those whose missing target git ignores (a file a build generates:
    ``CompaniesUsing.script.output.ts``, a codegen'd ``routers/`` folder), which resolve once
    the project is built."""
    probes: dict[str, set[tuple[str, str]]] = {}
    unjudged: set[tuple[str, str]] = set()
    imported = {edge.target for edge in project.file_graph.edges}
    data = _read_as_text(
        project, {i.file for i in project.file_graph.unresolved if i.specifier != DYNAMIC_SPECIFIER}
    )
    configs = _build_configs(project.tree.files)
    submodules = _submodule_paths(project.root)
    built = _BuiltFiles(project).__contains__
    shipped = _ShippedProjects(project).holds
    for item in project.file_graph.unresolved:
        if item.specifier == DYNAMIC_SPECIFIER:
            continue
        if item.file in data:
            # read only as text (`?raw`): data, not a module of the program
            unjudged.add((item.file, item.specifier))
            continue
        if item.specifier.startswith("/") and not _under_vite_root(item.file, configs):
            # Neither Node nor tsc resolves `/x.js` against the project (it is a path from
            # the file system's root); in browser code it is a URL on the serving origin, which
            # a dev server may answer (web-dev-server's `/__web-dev-server__web-socket.js`).
            # Vite resolves it against its root, so only there is a missing file a claim.
            unjudged.add((item.file, item.specifier))
            continue
        if is_fixture_path(item.file):
            # written to exercise a tool: vite's `playground/hmr/missing-file` imports a file
            # its test creates, qwik's optimizer fixtures are sample build output
            unjudged.add((item.file, item.specifier))
            continue
        if item.specifier.endswith(".node"):
            # a native addon node-gyp or napi builds (desktop's `build/Release/*.node`)
            unjudged.add((item.file, item.specifier))
            continue
        if submodules and any(
            is_within(base, module)
            for module in submodules
            for base in project.resolver.candidate_paths(parent_dir(item.file), item.specifier)
        ):
            # inside a git submodule: its files are another repository's (docmost's `ee`)
            unjudged.add((item.file, item.specifier))
            continue
        if item.specifier.startswith(".") and join_path(
            parent_dir(item.file), item.specifier
        ).startswith("../"):
            # a relative path that leaves the project: filid sees nothing there (openai-node
            # types `import('../../../node_modules/undici/index.d.ts')` in the project that
            # installs the SDK, one level after another)
            unjudged.add((item.file, item.specifier))
            continue
        if (
            item.file not in imported
            and item.file.endswith(_PLAIN_JS)
            and (not project.resolver.tsconfigs.compiles(item.file))
        ):
            # A JavaScript file nothing imports and no tsconfig compiles is not a module of
            # the build: a script copies it, or a tool loads it from where it ends up
            # (stencil's jest helpers import './index.js' beside the bundled testing/).
            unjudged.add((item.file, item.specifier))
            continue
        if not built(item.file):
            # No build reaches it: a sample or a snippet (react-hook-form's CodeSandbox
            # `examples/`), an input a tool reads as text or copies (umi's runtime templates
            # `libs/qiankun/master/*`, its webpack shims `bundles/webpack/packages/*.js`)
            unjudged.add((item.file, item.specifier))
            continue
        if item.file not in imported and project.resolver.tsconfigs.leaves_out(item.file):
            # no compiler ever reads it (a codemod's `*.input.ts` fixture, read as text)
            unjudged.add((item.file, item.specifier))
            continue
        if _glob_matches(project.root, parent_dir(item.file), item.specifier):
            # a glob resolver's pattern (Parcel's resolver-glob, babel's transform-glob-import:
            # react-spectrum's `'../intl/*.json'`) that matches files: not a path at all
            unjudged.add((item.file, item.specifier))
            continue
        if shipped(item.file):
            # a project a package ships as data, to be copied and completed elsewhere
            unjudged.add((item.file, item.specifier))
            continue
        if _resolves_from_emitted_file(project, item.file, item.line, item.specifier):
            unjudged.add((item.file, item.specifier))
            continue
        if not project.resolver.is_judged_unresolved(parent_dir(item.file), item.specifier):
            unjudged.add((item.file, item.specifier))
            continue
        if _names_a_published_file(project, item.file, item.specifier):
            unjudged.add((item.file, item.specifier))
            continue
        bases = project.resolver.candidate_paths(parent_dir(item.file), item.specifier)
        if "." in bases and _manifest_main_exists(project.root, "."):
            # `require('..')` of the repository's own root package: Node loads its `main`
            # (webpack's and eslint's tools, jsdom's benchmarks); `types` for TypeScript (ajv)
            unjudged.add((item.file, item.specifier))
            continue
        if any(
            os.path.isfile(project.root / twin)
            for base in bases
            if not base.startswith("../") and base not in ("", ".")
            for twin in _bundler_twins(base)
        ):
            # a file the bundler finds (only existing ones count: a twin inside an ignored
            # build folder says nothing about the import)
            unjudged.add((item.file, item.specifier))
            continue
        for base in bases:
            # `./x.js` names `x.ts` (TypeScript's twin rule, as the resolver applies it)
            stem, dot, extension = base.rpartition(".")
            twins = (
                # `./jsx.js` names `jsx.ts`… or the declaration file `jsx.d.ts` (solid copies
                # one in and its `.gitignore` names it)
                (*(stem + e for e in SOURCE_EXTENSIONS), *_declarations(stem, extension))
                if dot and "/" not in extension and extension in _JS_EXTENSIONS
                else (f"{stem}.d.{extension}",)  # `./types.ts` finds `types.d.ts` (qwik)
                if dot and "/" not in extension and extension in ("ts", "mts", "cts")
                else ()
            )
            for path in (
                base,
                *(base + e for e in SOURCE_EXTENSIONS),
                *twins,
                base + ".json",  # Node's require() tries `.json` (vendure's `…/core/package`)
                base + "/index.ts",
            ):
                if path.startswith("../") or path in ("", "."):
                    continue
                probes.setdefault(path, set()).add((item.file, item.specifier))
    present = {path for path in probes if os.path.isfile(project.root / path)}
    present.update(path for path in probes if _manifest_main_exists(project.root, path))
    unjudged.update(key for path in present for key in probes[path])
    probes = {path: keys for path, keys in probes.items() if path not in present}
    if not probes:
        return frozenset(unjudged)
    ignored = git_ignored(project.root, probes)
    unjudged.update(key for path in ignored for key in probes.get(path, ()))
    probes = {path: keys for path, keys in probes.items() if path not in ignored}
    texts: dict[str, bytes] = {}  # each config read once, however many imports ask
    for file, specifier in sorted({key for keys in probes.values() for key in keys}):
        bases = project.resolver.candidate_paths(parent_dir(file), specifier)
        if any(_is_named_build_output(project.root, file, base, configs, texts) for base in bases):
            unjudged.add((file, specifier))
    return frozenset(unjudged)


_TEXT_QUERIES = frozenset({"raw", "url"})
_MAX_COMPONENT_BYTES = 1024 * 1024


def _reads_as_text(specifier: str) -> bool | None:
    """True for a bundler query that reads a file as text or a URL (``?raw``, ``?url``), False
    for any other import, None for a specifier without a query."""
    head, mark, query = specifier.partition("?")
    if not mark or not head:
        return None
    return any(part.partition("=")[0] in _TEXT_QUERIES for part in query.split("&"))


def _read_as_text(project: Project, files: Collection[str]) -> frozenset[str]:
    """Those of ``files`` the project reads only as text: some import names them with
    ``?raw``/``?url`` and none imports them as a module (a source file's import, or one in the
    frontmatter of an Astro component, which filid does not otherwise read).

    Decision (issue 23, SPEC §0 is silent): such a file is data, not a module of the program;
    its imports are shown, never resolved. Hey API's website shows
    ``previews/trading/typescript/output.ts`` with ``import codeOutput from
    './previews/trading/typescript/output?raw'`` in ``HowItWorks.astro``; the sample's
    ``./trading-client`` exists in no project, on purpose."""
    module: set[str] = set()
    text: set[str] = set()
    wanted = set(files)
    for edge in project.file_graph.edges:
        if edge.target in wanted:
            (text if _reads_as_text(edge.fact.specifier or "") else module).add(edge.target)
    pending = wanted - module
    if not pending:
        return frozenset()
    packages = project.resolver.package_directories() | {"."}
    by_package: dict[str | None, set[str]] = {}
    for file in pending:
        by_package.setdefault(package_of(file, packages), set()).add(file)
    stems = {file.rpartition("/")[2].partition(".")[0].encode() for file in pending}
    for component in project.tree.files:
        if not component.endswith(".astro"):
            continue
        targets = by_package.get(package_of(component, packages))
        if not targets:
            continue
        script = _astro_frontmatter(project.root, component)
        if not script or not any(stem in script for stem in stems):
            continue
        directory = parent_dir(component)
        for fact in parse_source(f"{component}.ts", script, full=False).imports:
            if fact.specifier is None:
                continue
            head = fact.specifier.partition("?")[0]
            target = project.resolver.resolve_from(directory, head).target
            if target in targets:
                (text if _reads_as_text(fact.specifier) else module).add(target)
    return frozenset(text - module)


def _astro_frontmatter(root: Path, component: str) -> bytes:
    """The component script of an Astro file: the lines between its opening ``---`` fence
    (the file's first non-blank line) and the next ``---`` line; empty without one."""
    try:
        text = read_regular_file(root / component, _MAX_COMPONENT_BYTES)
    except (OSError, InputError):
        return b""
    lines = text.splitlines(keepends=True)
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start == len(lines) or lines[start].strip() != b"---":
        return b""
    for end in range(start + 1, len(lines)):
        if lines[end].strip() == b"---":
            # blank lines keep the script's line numbers those of the file
            return b"\n" * (start + 1) + b"".join(lines[start + 1 : end])
    return b""


# Style sheets webpack finds for an extensionless import when its `resolve.extensions` lists
# them (simplenote-electron's `import './style'` beside `style.scss`).
_STYLE_EXTENSIONS = (".scss", ".sass", ".css", ".less", ".styl")

# React Native's platform files (Metro picks `X.ios.tsx` for `./X` on iOS; tsconfig's
# `moduleSuffixes: [".ios", ".android", ""]` makes tsc do the same).
_PLATFORM_SUFFIXES = (".ios", ".android", ".native", ".web")


def _bundler_twins(base: str) -> tuple[str, ...]:
    """Files a bundler or Node finds for the extensionless ``base`` that TypeScript's probing
    over the universe does not: a single-file component (``./App`` → ``App.vue``, ``./Tag`` →
    ``Tag/index.vue``: webpack's ``resolve.extensions`` in Vue CLI projects, vue-element-admin,
    marktext), a style sheet (``./style`` → ``style.scss``: simplenote-electron), a platform
    file (``./Icon`` → ``Icon.ios.tsx``: rainbow, mattermost-mobile) and a folder's index the
    universe leaves out (a tracked ``build/`` folder of sources: simplenote-electron's
    ``detect/build/index.js``). Decision (issue 23, SPEC is silent): such an import resolves
    in the project's real build, so it is no unresolved claim; only files that exist count."""
    return (
        *(base + "/index" + e for e in SOURCE_EXTENSIONS),  # a folder the universe leaves out
        base + ".vue",
        base + "/index.vue",
        *(base + e for e in _STYLE_EXTENSIONS),
        *(base + p + e for p in _PLATFORM_SUFFIXES for e in SOURCE_EXTENSIONS),
    )


def _declarations(stem: str, extension: str) -> tuple[str, ...]:
    """The declaration files a ``.js``-style ``stem.extension`` stands for (TypeScript's
    twin rule: ``x.js`` → ``x.d.ts``, ``x.mjs`` → ``x.d.mts``, ``x.cjs`` → ``x.d.cts``)."""
    return tuple(stem + twin for twin in DECLARATION_TWINS.get(f".{extension}", ()))


# Build tool configs (`vite.config.ts`, `astro.config.mjs`, `next.config.js`…) name the
# folders their plugins write into.
_CONFIG_SUFFIXES = tuple(
    f".config.{extension}" for extension in ("ts", "mts", "cts", "js", "mjs", "cjs")
)
_MAX_CONFIG_BYTES = 256 * 1024
_QUOTES = (b"'", b'"', b"`")


def bundler_aliases(project: Project) -> BundlerAliases:
    """Asks, per importing file and specifier, whether a build tool config of the importer's
    folder or one above it (``vite.config.*``, ``webpack.config.*``…) spells the specifier as
    a string literal: an alias the bundler maps (preact's demo aliases
    ``'preact/debug/src/debug'`` to the source file in its ``vite.config.js``)."""
    return BundlerAliases(project.root, _build_configs(project.tree.files))


class BundlerAliases:
    """See :func:`bundler_aliases`; each config is read once (at most 256 KiB)."""

    def __init__(self, root: Path, configs: dict[str, list[str]]) -> None:
        self._root = root
        self._configs = configs
        self._texts: dict[str, bytes] = {}

    def names(self, importer: str, specifier: str) -> bool:
        """Whether a config above ``importer`` holds ``'specifier'`` or ``"specifier"``."""
        needles = (f"'{specifier}'".encode(), f'"{specifier}"'.encode())
        directory = parent_dir(importer)
        while True:
            for config in self._configs.get(directory, ()):
                text = self._texts.get(config)
                if text is None:
                    try:
                        text = read_regular_file(self._root / config, _MAX_CONFIG_BYTES)
                    except (OSError, InputError):
                        text = b""
                    self._texts[config] = text
                if any(needle in text for needle in needles):
                    return True
            if directory == ".":
                return False
            directory = parent_dir(directory)


def _submodule_paths(root: Path) -> tuple[str, ...]:
    """The folders ``.gitmodules`` declares (``path = ee``): another repository's files,
    which the universe never lists, checked out or not."""
    try:
        text = read_regular_file(root / ".gitmodules", _MAX_CONFIG_BYTES).decode("utf-8")
    except (OSError, InputError, UnicodeDecodeError):
        return ()
    found: list[str] = []
    for line in text.splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key.strip() == "path" and value.strip():
            path = join_path(".", value.strip().strip('"'))
            if not path.startswith("../") and path != ".":
                found.append(path)
    return tuple(found)


def _build_configs(files: Collection[str]) -> dict[str, list[str]]:
    """Folder → the build tool configs in it (``*.config.{ts,js,…}``)."""
    found: dict[str, list[str]] = {}
    for file in files:
        if file.rpartition("/")[2].endswith(_CONFIG_SUFFIXES):
            found.setdefault(parent_dir(file), []).append(file)
    return found


class _BuiltFiles:
    """Which files a build, a runner or a tool of the project reaches (asked lazily, per file).

    A file is reached when a tsconfig program compiles it, when it is a package's entry,
    a test file, a build tool config (``*.config.*``), a route of a file-routing framework, a
    file a ``package.json`` script names (``tsx scripts/seed.ts``), or a file none of the
    project's tsconfigs governs (nothing says what builds it, so it is judged); and when a
    file reached imports it. Decision (issue 23, SPEC §0 is silent): an unresolved import in
    a file nothing reaches is no claim — it is a sample or an input a tool copies, and no
    toolchain of the repository ever resolves it."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._memo: dict[str, bool] = {}
        self._importers: dict[str, list[str]] | None = None
        self._entries: frozenset[str] | None = None
        self._words: dict[str, frozenset[str]] = {}
        self._files: frozenset[str] | None = None

    def __contains__(self, file: str) -> bool:
        found = self._memo.get(file)
        if found is not None:
            return found
        if self._importers is None:
            importers: dict[str, list[str]] = {}
            for edge in self._project.file_graph.edges:
                importers.setdefault(edge.target, []).append(edge.source)
            self._importers = importers
        seen = {file}
        stack = [file]
        answer = False
        while stack:
            current = stack.pop()
            known = self._memo.get(current)
            if known is True or (known is None and self._is_root(current)):
                answer = True
                break
            if known is False:
                continue  # an earlier walk found nothing built above it
            for source in self._importers.get(current, ()):
                if source not in seen:
                    seen.add(source)
                    stack.append(source)
        if answer:
            self._memo[file] = True
        else:
            # nothing built reaches any file of the walk: none of them is built
            self._memo.update((path, False) for path in seen)
        return answer

    def _is_root(self, file: str) -> bool:
        project = self._project
        tsconfigs = project.resolver.tsconfigs
        if tsconfigs.for_directory(parent_dir(file)) is None or tsconfigs.compiles(file):
            return True
        if file in project.test_files:
            return True
        name = file.rpartition("/")[2]
        if name.endswith(_CONFIG_SUFFIXES):
            return True
        if any(is_within(file, route) for route in project.resolver.route_directories()):
            return True
        if self._entries is None:
            self._entries = project.resolver.manifest_entry_files()
        if file in self._entries:
            return True
        return self._named_by_a_script(file)

    def _named_by_a_script(self, file: str) -> bool:
        """Whether a ``package.json`` ``scripts`` entry or an Nx ``project.json`` command in a
        folder above ``file`` names it (its path from that folder, with or without the
        extension: ``tsx scripts/seed.ts``, ``ts-node ./scripts/create-input-json.ts``)."""
        directory = parent_dir(file)
        while True:
            relative = file if directory == "." else file[len(directory) + 1 :]
            stem = relative.rpartition(".")[0] or relative
            if self._command_words(directory) & {relative, stem}:
                return True
            if directory == ".":
                return False
            directory = parent_dir(directory)

    def _command_words(self, directory: str) -> frozenset[str]:
        """The words of the commands ``directory``'s ``package.json`` scripts and Nx
        ``project.json`` run (quotes and a leading ``./`` dropped)."""
        words = self._words.get(directory)
        if words is not None:
            return words
        commands: list[str] = []
        for name, key in (("package.json", "scripts"), ("project.json", "targets")):
            path = join_path(directory, name)
            if self._files is None:
                self._files = frozenset(self._project.tree.files)
            if path not in self._files:
                continue
            try:
                data = read_jsonc_file(self._project.root, path)
            except InputError:
                continue
            if isinstance(data, dict):
                commands.extend(_strings(data.get(key)))
        found: set[str] = set()
        for command in commands:
            for word in command.split():
                word = word.strip("'\"")
                found.add(word[2:] if word.startswith("./") else word)
        words = frozenset(found)
        self._words[directory] = words
        return words


def _strings(value: object) -> list[str]:
    """Every string inside a JSON value (iteratively: a config may nest deeply)."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


class _ShippedProjects:
    """Projects a package ships as data: a folder with its own ``package.json``, no workspace
    package, inside a package whose manifest ``files`` publishes it (electron/forge's
    ``packages/template/vite-typescript/tmpl/``, which the template copies into a new app's
    ``src/`` beside an ``index.css`` another template writes) or whose Angular workspace
    config (``angular.json``) copies it verbatim as ``assets`` (angular/components' StackBlitz
    project under ``docs/src/assets/``, into which the docs site writes each example). Its
    relative imports are written for the place it is copied to.

    Decision (issue 23, SPEC §0 is silent): a nested project its package neither publishes nor
    copies (sentry's e2e test applications) is judged like any project."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files: frozenset[str] | None = None
        self._memo: dict[str, bool] = {}

    def holds(self, file: str) -> bool:
        """Whether ``file`` lies in a project a package ships as data."""
        inner = self._manifest_folder(parent_dir(file))
        if inner is None or inner == ".":
            return False
        found = self._memo.get(inner)
        if found is None:
            found = self._shipped(inner)
            self._memo[inner] = found
        return found

    def _manifest_folder(self, directory: str) -> str | None:
        """The nearest folder at or above ``directory`` holding a ``package.json``."""
        while join_path(directory, "package.json") not in self._universe():
            if directory == ".":
                return None
            directory = parent_dir(directory)
        return directory

    def _universe(self) -> frozenset[str]:
        if self._files is None:
            self._files = frozenset(self._project.tree.files)
        return self._files

    def _shipped(self, inner: str) -> bool:
        if inner in self._project.resolver.package_directories():
            return False  # a workspace package: built in place
        outer = self._manifest_folder(parent_dir(inner))
        if outer is None:
            return False
        shipped = [*self._published(outer), *self._angular_assets(outer)]
        return any(is_within(inner, folder) for folder in shipped if folder != outer)

    def _read(self, path: str) -> object:
        try:
            return read_jsonc_file(self._project.root, path)
        except InputError:
            return None

    def _published(self, outer: str) -> list[str]:
        """The folders ``outer``'s manifest ``files`` lists (a glob's fixed head)."""
        data = self._read(join_path(outer, "package.json"))
        entries = data.get("files") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            return []
        return [
            join_path(outer, head)
            for entry in entries
            if isinstance(entry, str) and (head := _fixed_head(entry))
        ]

    def _angular_assets(self, outer: str) -> list[str]:
        """The ``assets`` folders of ``outer``'s ``angular.json`` (a string, or ``input``)."""
        config = join_path(outer, "angular.json")
        if config not in self._universe():
            return []
        found: list[str] = []
        stack = [self._read(config)]
        while stack:
            item = stack.pop()
            if isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, dict):
                for key, value in item.items():
                    if key == "assets" and isinstance(value, list):
                        for asset in value:
                            path = asset.get("input") if isinstance(asset, dict) else asset
                            if isinstance(path, str) and (head := _fixed_head(path)):
                                found.append(join_path(outer, head))
                    else:
                        stack.append(value)
        return found


def _fixed_head(entry: str) -> str:
    """The folder a ``files``/``assets`` entry names before its first glob character."""
    head: list[str] = []
    for segment in entry.strip().removeprefix("./").split("/"):
        if not segment or any(mark in segment for mark in "*?[{!"):
            break
        head.append(segment)
    return "/".join(head)


_GLOB_MARKS = ("*", "[", "{")  # `?` starts a bundler query (`./x.svg?raw`), not a glob


def _glob_matches(root: Path, directory: str, specifier: str) -> bool:
    """Whether a relative ``specifier`` is a glob pattern (``*``, ``[…]``, ``{a,b}``)
    that matches at least one file of the project. A glob resolver reads such a specifier
    (Parcel's ``@parcel/resolver-glob``, babel's ``transform-glob-import``: react-spectrum's
    ``import intlMessages from '../../intl/tree/*.json'``); TypeScript types it through an
    ambient ``declare module '*.json'``. A pattern that matches nothing is still claimed:
    the resolver finds nothing either."""
    if not specifier.startswith(("./", "../")) or not any(m in specifier for m in _GLOB_MARKS):
        return False
    for pattern in _expand_braces(specifier.split("?", 1)[0]):
        path = join_path(directory, pattern)
        if path.startswith("../") or path == "..":
            continue  # outside the project
        segments = path.split("/")
        fixed = 0
        while fixed < len(segments) and not any(m in segments[fixed] for m in "*["):
            fixed += 1
        if fixed == len(segments):
            if os.path.isfile(root / path):
                return True
            continue
        base = root.joinpath(*segments[:fixed])
        rest = "/".join(segments[fixed:])
        try:
            if base.is_dir() and any(hit.is_file() for hit in base.glob(rest)):
                return True
        except (OSError, ValueError):
            continue
    return False


def _expand_braces(pattern: str) -> list[str]:
    """``a/{b,c}/*.json`` → ``a/b/*.json``, ``a/c/*.json`` (nested braces expand too)."""
    done: list[str] = []
    pending = [pattern]
    while pending and len(done) < 64:
        current = pending.pop()
        close = current.find("}")
        open_ = current.rfind("{", 0, close) if close >= 0 else -1
        if open_ < 0:
            done.append(current)
            continue
        head, body, tail = current[:open_], current[open_ + 1 : close], current[close + 1 :]
        pending.extend(head + choice + tail for choice in body.split(","))
    return done


_TS_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")


def _resolves_from_emitted_file(project: Project, file: str, line: int, specifier: str) -> bool:
    """Whether a relative ``require`` in a TypeScript file finds a file from where tsc emits
    it (``rootDir`` → ``outDir``). tsc does not resolve a ``require()`` call in a TypeScript
    file: Node does, at run time, from the emitted JavaScript (lit's CLI runs
    ``createRequire(import.meta.url)('../package.json')`` from ``lib/lit-cli.js``, emitted
    from ``src/lib/lit-cli.ts`` under ``rootDir: "src/"``, ``outDir: "./"``). Only a config
    that sets both is mapped (tsc's implied ``rootDir`` depends on the whole program)."""
    if not specifier.startswith(("./", "../")) or not file.endswith(_TS_SUFFIXES):
        return False
    facts = project.facts.get(file)
    if facts is None or not any(
        fact.kind is ImportKind.REQUIRE and fact.specifier == specifier and fact.span.line == line
        for fact in facts.imports
    ):
        return False
    directory = parent_dir(file)
    options = project.resolver.tsconfigs.for_directory(directory)
    if options is None or options.root_dir is None or options.out_dir is None:
        return False
    if not is_within(directory, options.root_dir) or options.root_dir == options.out_dir:
        return False
    if directory == options.root_dir:
        emitted = options.out_dir
    elif options.root_dir == ".":
        emitted = join_path(options.out_dir, directory)
    else:
        emitted = join_path(options.out_dir, directory[len(options.root_dir) + 1 :])
    resolution = project.resolver.resolve_from(emitted, specifier)
    return resolution.kind is ResolutionKind.FILE


def _under_vite_root(importer: str, configs: dict[str, list[str]]) -> bool:
    """Whether a folder holding ``importer`` has a Vite config (``vite.config.*``): a root
    against which Vite resolves a root-absolute import (and its ``public/`` folder)."""
    directory = parent_dir(importer)
    while True:
        names = (config.rpartition("/")[2] for config in configs.get(directory, ()))
        if any(name.startswith("vite.config.") for name in names):
            return True
        if directory == ".":
            return False
        directory = parent_dir(directory)


def _is_named_build_output(
    root: Path,
    importer: str,
    missing: str,
    configs: dict[str, list[str]],
    texts: dict[str, bytes],
) -> bool:
    """Whether ``missing`` lies in a folder that does not exist and that a build tool config
    of the importer's folder or one above it names as a path (Paraglide's Vite plugin writes
    ``src/paraglide/`` from ``outdir: './src/paraglide'``): a build generates it.

    Decision (issue 23, SPEC §0 is silent): only a whole missing folder counts, so an import
    of a deleted file beside its siblings is still judged; the folder's name must appear in a
    config as a path segment inside a string (``'./src/paraglide'``, ``"paraglide"``)."""
    folder = parent_dir(missing)
    absent = None
    while folder not in (".", "") and not os.path.isdir(root / folder):
        absent = folder
        folder = parent_dir(folder)
    if absent is None:
        return False
    name = absent.rpartition("/")[2].encode()
    needles = [q + name + end for q in (*_QUOTES, b"/") for end in (*_QUOTES, b"/")]
    directory = parent_dir(importer)
    while True:
        for config in configs.get(directory, ()):
            if config == importer:
                continue  # a config importing a missing file does not generate it
            text = texts.get(config)
            if text is None:
                try:
                    text = read_regular_file(root / config, _MAX_CONFIG_BYTES)
                except OSError:
                    text = b""
                texts[config] = text
            if any(needle in text for needle in needles):
                return True
        if directory == ".":
            return False
        directory = parent_dir(directory)


_PUBLISHED_SUFFIXES = ("", ".js", ".mjs", ".cjs", "/index.js", "/index.mjs", "/index.cjs")


def _names_a_published_file(project: Project, file: str, specifier: str) -> bool:
    """Whether relative ``specifier`` is written for the layout of the published package: read
    from the folder the build puts ``file`` in, it names a file the package's manifest
    publishes by name, though not in the source tree.

    stencil's ``src/internal/stencil-core/index.js`` is copied to ``internal/stencil-core/``
    (its manifest's ``module``) and imports ``../client/index.js``, the bundle its
    ``exports`` publishes as ``./internal/client``; ``src/testing/testing.ts`` is bundled into
    ``testing/index.js`` and requires ``../compiler/stencil.js`` (``exports["./compiler"]``).

    Decision (issue 23, SPEC §0 is silent): the folder the build puts a file in is its
    package-relative folder without its first segment (a build copying ``src/`` to the
    package root), or that remainder below the tsconfig's ``outDir`` (below ``rootDir`` when
    set). Two facts must agree: that folder holds a file the manifest names, and the
    specifier read from there names one (exactly, or with a ``.js``/``/index.js`` ending).
    A stale import of a deleted source file names no manifest entry and is still judged."""
    if not specifier.startswith(("./", "../")):
        return False
    targets_by_package = project.resolver.manifest_targets()
    package = parent_dir(file)
    while package not in targets_by_package:
        if package == ".":
            return False
        package = parent_dir(package)
    published = frozenset(targets_by_package[package])
    if not published:
        return False
    folder = parent_dir(file)
    if folder == package:
        return False  # the file already lies where its package is published from
    inner = folder if package == "." else folder[len(package) + 1 :]
    rests = {inner.partition("/")[2]}
    options = project.resolver.tsconfigs.for_directory(folder)
    out_dirs: list[str] = []
    if options is not None and options.out_dir is not None:
        if is_within(options.out_dir, package) and options.out_dir != package:
            out_dirs.append(options.out_dir)
        if options.root_dir is not None and is_within(folder, options.root_dir):
            rests.add("" if folder == options.root_dir else folder[len(options.root_dir) + 1 :])
    places = {join_path(package, rest) if rest else package for rest in rests}
    places.update(join_path(out, rest) if rest else out for out in out_dirs for rest in rests)
    published_folders = {parent_dir(target) for target in published}
    for place in sorted(places & published_folders):
        base = join_path(place, specifier)
        if any(base + suffix in published for suffix in _PUBLISHED_SUFFIXES):
            return True
    return False


def _manifest_main_exists(root: Path, directory: str) -> bool:
    """A folder whose ``package.json`` ``main`` (or ``types``, ``typings``, ``module``) names a
    file that exists (a bundler resolves
    the folder to it: amplication's ``icons/`` folder publishes ``amplicationicon.css``) or
    would exist once built (``dist/``, ``build/``, ``lib/``, ``out/``: teable's prisma seed
    imports ``'../'``, its package, whose ``main`` is ``dist/index.js``)."""
    manifest = root / directory / "package.json"
    if not os.path.isfile(manifest):
        return False
    try:
        data = read_jsonc_file(root, f"{directory}/package.json")
    except InputError:
        return False
    if not isinstance(data, dict):
        return False
    for field in _ENTRY_FIELDS:
        main = data.get(field)
        if not isinstance(main, str) or not main:
            continue
        target = join_path(directory, main)
        if target.startswith("../"):
            continue
        built = join_path(".", main).split("/", 1)[0] in ("dist", "build", "lib", "out")
        if built or os.path.isfile(root / target):
            return True
    return False


# What resolves a folder import: Node's `main`, TypeScript's `types`/`typings`, a bundler's
# `module`.
_ENTRY_FIELDS = ("main", "types", "typings", "module")
