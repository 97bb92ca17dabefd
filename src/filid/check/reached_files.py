"""Which files a build, runner or tool of a project reaches, and which nested projects a
package ships as data (issue 23: an unresolved import in a file nothing reaches, or in a
template a package copies elsewhere, is no claim)."""

from __future__ import annotations

from filid.check.bundler_aliases import CONFIG_SUFFIXES
from filid.check.project import Project
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.graph.tsconfig import CONFIG_NAMES as _CONFIG_NAMES
from filid.graph.tsconfig import JS_SUFFIXES
from filid.model.errors import InputError

__all__ = ["BuiltFiles", "ShippedProjects"]


# Files whose folder a bundler or dev server serves entries from.
_BUNDLER_ENTRIES = (
    "index.html",
    *(
        f"{tool}.config.{extension}"
        for tool in ("vite", "webpack", "rollup", "rspack", "rsbuild", "esbuild", "parcel")
        for extension in ("ts", "mts", "cts", "js", "mjs", "cjs")
    ),
)


class BuiltFiles:
    """Which files a build, a runner or a tool of the project reaches (asked lazily, per file).

    A file is reached when a tsconfig program compiles it, when it is a package's entry,
    a test file, a build tool config (``*.config.*``), a route of a file-routing framework, a
    file a ``package.json`` script names (``tsx scripts/seed.ts``), or a file none of the
    project's tsconfigs governs (nothing says what builds it, so it is judged); and when a
    file reached imports it. Decision (issue 23, SPEC §0 is silent): an unresolved import in
    a file nothing reaches is no claim — it is a sample or an input a tool copies, and no
    toolchain of the repository ever resolves it.

    With ``compilers=False`` a tsconfig program reaches nothing (what does a tool other than
    the type checker reach?), and a file below a bundler's config or an ``index.html`` is
    reached (the config or the page may name it as an entry).

    With ``compiled_is_reached=False`` a tsconfig program alone reaches no file, and nothing
    else stands in for it (a bundler's view: tsc resolves no side-effect import, so only files
    a bundle holds matter; ``check.run_time_paths``)."""

    def __init__(
        self, project: Project, *, compilers: bool = True, compiled_is_reached: bool = True
    ) -> None:
        self._project = project
        self._compilers = compilers
        self._compiled_is_reached = compiled_is_reached
        self._memo: dict[str, bool] = {}
        self._importers: dict[str, list[str]] | None = None
        self._entries: frozenset[str] | None = None
        self._words: dict[str, frozenset[str]] = {}
        self._scripts: dict[str, list[str]] = {}
        self._checked: dict[str, frozenset[str]] = {}
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
        if tsconfigs.for_file(file) is None:
            return True
        if self._compilers:
            # a program reaches a file when something runs it, or a bundler may (its entry);
            # a program above that sweeps in a file its folder's config leaves out reaches it
            # only as an editor reads it (`_program_runs`)
            if (
                self._compiled_is_reached
                and tsconfigs.compiles(file)
                and (
                    self._program_runs(file)
                    or (not self._moved(file) and self._under_a_bundler(file))
                )
            ):
                return True
        elif self._under_a_bundler(file):
            return True
        if file in project.test_files:
            return True
        name = file.rpartition("/")[2]
        if name.endswith(CONFIG_SUFFIXES):
            return True
        if any(is_within(file, route) for route in project.resolver.route_directories()):
            return True
        if self._entries is None:
            self._entries = project.resolver.manifest_entry_files()
        if file in self._entries:
            return True
        return self._named_by_a_script(file)

    def _program_runs(self, file: str) -> bool:
        """Whether something runs a tsconfig program that compiles ``file``: its governing
        config emits (a build compiles with it), or a ``package.json`` script or Nx command
        in a folder holding it runs a type checker on a program that takes ``file`` in.

        Decision (issue 23): a ``noEmit`` program no script checks is read by an editor alone.
        The editor's type checker reports an unresolved import of a TypeScript file (TS2307:
        lunary's dead `access-control/authorization.ts` importing a moved `./roles`, which its
        maintainers would fix), so it reaches TypeScript files; in a JavaScript file it reports
        none (``allowJs`` without ``checkJs`` only reads types), so it reaches no JavaScript
        file (webdriverio's docs site: Docusaurus's ``tsconfig.json`` sets ``noEmit`` and
        ``allowJs``, its scripts run only ``docusaurus``, and its ``recipes/*.js`` snippets,
        which nothing imports, import the reader's own `./reporter/my.custom.reporter`).

        A program that takes ``file`` in only because its folder's config leaves it out (a
        config above governs it: ``TsconfigIndex.for_file``) counts as read by an editor
        alone, whether it emits or not: no build is shown to compile the sub-project's files
        with it. mermaid's root ``tsconfig.json`` (``allowJs``, every file) sweeps in
        ``cypress/platform/*.js``, which ``cypress/tsconfig.json`` leaves out and its dev
        server serves beside each package's ``dist/`` (`./mermaid.esm.mjs`)."""
        tsconfigs = self._project.resolver.tsconfigs
        options = tsconfigs.for_file(file)
        if options is None:
            return True
        if not self._moved(file) and tsconfigs.emits(options.config):
            return True
        if not file.endswith(JS_SUFFIXES):
            return True
        directory = parent_dir(file)
        while True:
            for config in self._checked_configs(directory):
                if tsconfigs.program_includes(config, file):
                    return True
            if directory == ".":
                return False
            directory = parent_dir(directory)

    def _moved(self, file: str) -> bool:
        """Whether a config above ``file``'s folder config governs it (its folder's config
        leaves it out): ``TsconfigIndex.for_file``."""
        tsconfigs = self._project.resolver.tsconfigs
        return tsconfigs.for_file(file) is not tsconfigs.for_directory(parent_dir(file))

    def _checked_configs(self, directory: str) -> frozenset[str]:
        """The tsconfigs the commands of ``directory`` type-check: for a command that runs a
        checker (``tsc``, ``vue-tsc``, ``next``, ``ng``…), each config it names (``-p x``,
        ``cd x && tsc``: a config file, or a folder's ``tsconfig.json``) or, naming none, every
        config of ``directory`` itself; with the configs they reference (``tsc -b``)."""
        known = self._checked.get(directory)
        if known is not None:
            return known
        tsconfigs = self._project.resolver.tsconfigs
        if self._files is None:
            self._files = frozenset(self._project.tree.files)
        files = self._files
        found: set[str] = set()
        for command in self._commands(directory):
            words = [_word(w) for w in command.split()]
            if not _CHECKERS.intersection(words):
                continue
            named = set()
            for word in words:
                if not word or word.startswith("-"):
                    continue
                path = join_path(directory, word)
                if path.endswith(".json") and path in files:
                    named.add(path)
                for name in _CONFIG_NAMES:
                    if join_path(path, name) in files:
                        named.add(join_path(path, name))
            if not named:
                named = {
                    join_path(directory, name)
                    for name in _CONFIG_NAMES
                    if join_path(directory, name) in files
                }
            found |= named
        stack = list(found)
        while stack:
            for reference in tsconfigs.references_of(stack.pop()):
                if reference not in found:
                    found.add(reference)
                    stack.append(reference)
        answer = frozenset(found)
        self._checked[directory] = answer
        return answer

    def _under_a_bundler(self, file: str) -> bool:
        """Whether a folder holding ``file`` holds a bundler's or dev server's config or an
        ``index.html``: any file below it may be an entry the config names, or one a page
        loads."""
        if self._files is None:
            self._files = frozenset(self._project.tree.files)
        directory = parent_dir(file)
        while True:
            for name in _BUNDLER_ENTRIES:
                if join_path(directory, name) in self._files:
                    return True
            if directory == ".":
                return False
            directory = parent_dir(directory)

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
        found: set[str] = set()
        for command in self._commands(directory):
            for word in command.split():
                found.add(_word(word))
        words = frozenset(found)
        self._words[directory] = words
        return words

    def _commands(self, directory: str) -> list[str]:
        """The commands of ``directory``'s ``package.json`` scripts and Nx ``project.json``
        targets (every string in them)."""
        known = self._scripts.get(directory)
        if known is not None:
            return known
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
        self._scripts[directory] = commands
        return commands


# Commands that type-check a tsconfig program (Next's and Angular's builds do).
_CHECKERS = frozenset(
    {"tsc", "vue-tsc", "svelte-check", "tsgo", "tsc-files", "next", "ng", "nuxi", "astro"}
)


def _word(word: str) -> str:
    """A command word without quotes, a leading ``./`` or a trailing ``/``."""
    word = word.strip("'\"")
    word = word[2:] if word.startswith("./") else word
    return word.rstrip("/") or word


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


class ShippedProjects:
    """Projects a package ships as data: a folder with its own ``package.json``, no workspace
    package, inside a package whose manifest ``files`` publishes it (electron/forge's
    ``packages/template/vite-typescript/tmpl/``, which the template copies into a new app's
    ``src/`` beside an ``index.css`` another template writes) or whose Angular workspace
    config (``angular.json``) copies it verbatim as ``assets`` (angular/components' StackBlitz
    project under ``docs/src/assets/``, into which the docs site writes each example). Its
    relative imports are written for the place it is copied to.

    A source file its package publishes verbatim (below a folder its manifest ``files``
    lists) while the package's own tsconfig (one inside the package, governing the file's
    folder) leaves it out of its program is shipped as data too: the package ships sources it
    does not compile for another project to compile (create-houdini publishes
    ``fragments/localSchema/react-typescript/src/routes/+page.tsx``, which imports the
    ``./$types`` houdini generates in the app the CLI writes; its tsconfig compiles
    ``bin.js`` alone, and only the root tsconfig's ``packages/**/*.tsx`` sweeps the fragment in).

    Decision (issue 23, SPEC §0 is silent): a nested project its package neither publishes nor
    copies (sentry's e2e test applications) is judged like any project, as is a published
    source file the package's own tsconfig compiles (a library shipping its ``src/``)."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files: frozenset[str] | None = None
        self._memo: dict[str, bool] = {}
        self._publishes: dict[str, list[str]] = {}

    def holds(self, file: str) -> bool:
        """Whether ``file`` lies in a project a package ships as data, or is a source file its
        package publishes but does not compile (class docstring)."""
        inner = self._manifest_folder(parent_dir(file))
        if inner is None:
            return False
        if self._ships_uncompiled(inner, file):
            return True
        if inner == ".":
            return False
        found = self._memo.get(inner)
        if found is None:
            found = self._shipped(inner)
            self._memo[inner] = found
        return found

    def _ships_uncompiled(self, package: str, file: str) -> bool:
        """Whether the manifest of ``package`` publishes ``file`` by a folder of ``files``
        while the package's own tsconfig governing ``file``'s folder leaves it out."""
        published = self._publishes.get(package)
        if published is None:
            published = self._publishes[package] = self._published(package)
        if not any(is_within(file, folder) and file != folder for folder in published):
            return False
        tsconfigs = self._project.resolver.tsconfigs
        options = tsconfigs.for_directory(parent_dir(file))
        return (
            options is not None
            and is_within(parent_dir(options.config), package)
            and not tsconfigs.program_includes(options.config, file)
        )

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
        if inner in self._project.resolver.workspace_members():
            # A workspace member is built in place. Without a workspace declaration a nested
            # package is no member: arco-design-pro publishes its `arco-design-pro-vite/`
            # and `-cra/` templates (named like the root package), which `arco init` fills
            # with the shared files of `arco-design-pro-next/` (judge N2).
            return False
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
