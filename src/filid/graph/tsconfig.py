"""tsconfig.json / jsconfig.json: ``paths`` and ``baseUrl`` for specifier resolution (SPEC §4).

Only the options that change where a specifier points are read: ``baseUrl``, ``paths`` and
the ``extends`` chain that supplies them. Semantics follow TypeScript:

- ``baseUrl`` is relative to the config file that sets it;
- ``paths`` substitutions are relative to the effective ``baseUrl``, or — when no config in
  the chain sets one — to the directory of the config that defines ``paths``;
- a config's own options override the ones it extends; ``extends`` may be a string or (TS 5)
  a list, applied in order;
- relative ``extends`` (``./base`` or ``./base.json``) are followed inside the project. Bases
  that come from packages (``@tsconfig/node20``) live in ``node_modules``, outside the file
  universe; they cannot map specifiers onto project files, so they are skipped without error,
  as is a relative base that is missing.

The config that applies to a folder is the nearest ``tsconfig.json`` (else ``jsconfig.json``)
in it or above, looked up once per directory. When that config is a solution
config (``"files": []``, no ``include``, and ``references``: it compiles nothing itself), the
folder is governed by the referenced project whose program takes its source files — the
first reference, in order, that compiles each (tsserver's choice; Termix's root tsconfig has
its own ``paths``, but `src/ui/` is built by `tsconfig.app.json` with others). A folder whose
files fall to several referenced projects, or to none, keeps the solution config.

The config that applies to a file (:meth:`TsconfigIndex.for_file`) is its folder's, unless
that config's program (with its references) leaves the file out: then it is the nearest
config above whose program takes the file in (itself, or a project it references), as
tsserver chooses since TypeScript 5.6 ("search ancestor configuration files for project
ownership") and as ``tsc -p`` of that config compiles it. Houdini's
``packages/houdini-react/runtime/tsconfig.json`` is shipped to users and includes none of the
runtime's own files, which the root ``tsconfig.json`` compiles with its ``paths``. A file no
config above takes in keeps its folder's config.

``include``/``exclude`` patterns are TypeScript's, not a shell's: only ``*``, ``?`` and
``**/`` are wildcards, and ``[`` is a literal character (houdini's ``"./[!ambient.d.ts]**"``
excludes nothing; a Next.js ``app/[slug]/`` folder is a folder name).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from filid.config.globs import folder_matcher, matches_any_glob
from filid.graph.candidates import SOURCE_EXTENSIONS
from filid.graph.compiler_paths import (
    CompilerPaths,
    PathAlias,
    is_within,
    join_path,
    parent_dir,
    parse_aliases,
)
from filid.graph.config_dir import in_use, relative_to
from filid.graph.jsonc import read_jsonc_file
from filid.graph.unread_configs import CONFIG_NAMES, needless_excuse, template_excuse
from filid.model.errors import InputError
from filid.scan.classify import broken_config_excuse

__all__ = ["CONFIG_NAMES", "JS_SUFFIXES", "TsconfigIndex"]
# JavaScript, which a program takes in only under ``allowJs`` (and checks only under ``checkJs``)
JS_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs")


@dataclass(frozen=True, slots=True)
class _RawOptions:
    """Options one config contributes after merging its extends chain."""

    base_url: str | None
    paths: tuple[PathAlias, ...] | None
    paths_dir: str
    out_dir: str | None = None
    root_dir: str | None = None
    module: str | None = None
    module_resolution: str | None = None
    custom_conditions: tuple[str, ...] = ()
    has_root_dirs: bool = False
    keeps_value_imports: bool | None = None
    # The program's root files, as root-relative globs (None: unset in the whole chain; tsc
    # inherits each of ``files``/``include``/``exclude`` from the nearest base that sets it).
    files: tuple[str, ...] | None = None
    includes: tuple[str, ...] | None = None
    excludes: tuple[str, ...] | None = None
    # ``references`` (project references) of this config itself, as config paths.
    references: tuple[str, ...] = ()
    # A base of the chain is not read: a package base (node_modules) or a missing file.
    has_unread_base: bool = False
    # ``allowJs`` (``checkJs`` implies it; a ``jsconfig.json`` sets it): None when unset.
    allow_js: bool | None = None
    # ``noEmit`` (inherited through ``extends``): None when unset.
    no_emit: bool | None = None
    # ``checkJs``: the program type-checks its JavaScript files (None when unset).
    check_js: bool | None = None

    def compiles(self, file: str, config_dir: str) -> bool:
        """Whether root-relative ``file`` is a root file of this config's program. tsc's
        ``include`` takes JavaScript files only under ``allowJs`` (mobx's root tsconfig,
        without it, compiles no vendored CodeMirror file of `docs/assets/`)."""
        if self.files is not None and file in self.files:
            return True
        if file.endswith(JS_SUFFIXES) and not self.allow_js:
            return False
        includes = self.includes
        if includes is None:
            includes = () if self.files is not None else (join_path(config_dir, "**"),)
        return matches_any_glob(file, _literal_brackets(includes)) and not self.excluded(file)

    def folder_compiles(self, config_dir: str, folder: str) -> Callable[[str], bool]:
        """:meth:`compiles` for the files directly inside ``folder`` (each pattern matched
        against the folder once)."""
        files = frozenset(self.files or ())
        includes = self.includes
        if includes is None:
            includes = () if self.files is not None else (join_path(config_dir, "**"),)
        included = folder_matcher(folder, _literal_brackets(includes))
        excluded = folder_matcher(folder, _literal_brackets(self.excludes or ()))
        takes_js = bool(self.allow_js)

        def compiles(file: str) -> bool:
            if file in files:
                return True
            if not takes_js and file.endswith(JS_SUFFIXES):
                return False
            name = file.rpartition("/")[2]
            return included(name) and not excluded(name)

        return compiles

    def covers_folder(self, config_dir: str, folder: str, sources: list[str]) -> bool:
        """True when :meth:`folder_compiles` is sure to take every one of ``sources`` (files
        directly inside ``folder``) without matching any pattern: an ``include`` that is a
        literal folder at or above ``folder`` (``"src"``, ``"src/**"``, ``"src/**/*"``), no
        ``exclude`` whose literal head could reach inside ``folder``, and no JavaScript file
        left out for want of ``allowJs``. False means "ask :meth:`folder_compiles`"."""
        return self.coverage(config_dir)(folder, any(f.endswith(JS_SUFFIXES) for f in sources))

    def coverage(self, config_dir: str) -> Callable[[str, bool], bool]:
        """:meth:`covers_folder` of this config (in ``config_dir``) for any folder, told
        whether the folder's sources hold JavaScript: the patterns' literal heads worked out
        once, not once per folder."""
        includes = self.includes
        if includes is None:
            includes = () if self.files is not None else (join_path(config_dir, "**"),)
        # `folder + "/"` starts with `head + "/"`: the folder is a literal include or lies in it
        covering = tuple(
            head + "/"
            for head in (_literal_folder(pattern) for pattern in includes)
            if not _has_wildcard(head)
        )
        excluded: list[str] = []
        for pattern in self.excludes or ():
            head = pattern.replace("\\", "/")
            for index, char in enumerate(head):
                if char in "*?[":
                    head = head[:index]
                    break
            excluded.append(head)
        takes_js = bool(self.allow_js)

        def covers(folder: str, has_js: bool) -> bool:
            if has_js and not takes_js:
                return False
            inside = folder + "/"
            if not inside.startswith(covering):
                return False
            return not any(
                head.startswith(inside) or inside.startswith(head) or head == folder
                for head in excluded
            )

        return covers

    def excluded(self, file: str) -> bool:
        """Whether root-relative ``file`` matches this config's ``exclude``."""
        return bool(self.excludes) and matches_any_glob(
            file, _literal_brackets(self.excludes or ())
        )


def _nothing_above(folder: str, has_js: bool) -> bool:
    """The ``_RawOptions.coverage`` ``_moved_in`` asks of a config with no config above it:
    no other program could take a file in."""
    return True


def _has_wildcard(pattern: str) -> bool:
    """Whether a tsconfig pattern holds a wildcard (or a ``[``, which filid escapes)."""
    return any(char in pattern for char in "*?[\\")


def _literal_folder(pattern: str) -> str:
    """``pattern`` less a trailing ``/**`` or ``/**/*``: the folder it covers whole when the rest
    is literal (tsc takes a folder named in ``include`` with everything below it)."""
    for tail in ("/**/*", "/**"):
        if pattern.endswith(tail):
            return pattern[: -len(tail)]
    return pattern


@lru_cache(maxsize=1024)
def _literal_brackets(patterns: tuple[str, ...]) -> tuple[str, ...]:
    """TypeScript ``include``/``exclude`` patterns as ``filid.config.globs`` patterns: tsc
    knows only ``*``, ``?`` and ``**/`` as wildcards, so a ``[`` is the literal character
    (escaped), and a backslash is a path separator (tsc normalises it to ``/``)."""
    return tuple(p.replace("\\", "/").replace("[", "\\[") for p in patterns)


def _globs(raw: object, config_dir: str) -> tuple[str, ...] | None:
    """A tsconfig ``files``/``include``/``exclude`` list as root-relative globs (None: unset)."""
    if not isinstance(raw, list):
        return None
    return tuple(relative_to(config_dir, p) for p in raw if isinstance(p, str) and p)


def _keeps_value_imports(options: dict[str, object]) -> bool | None:
    """Whether these compiler options keep imports read only as types (None: not said)."""
    said = [
        options[key] is True
        for key in ("verbatimModuleSyntax", "preserveValueImports")
        if isinstance(options.get(key), bool)
    ]
    unused = options.get("importsNotUsedAsValues")
    if isinstance(unused, str):
        said.append(unused.lower() in ("preserve", "error"))
    return any(said) if said else None


def _compiler_paths(config: str, raw: _RawOptions) -> CompilerPaths:
    """The resolution options of ``config`` from its merged ``raw`` options."""
    return CompilerPaths(
        config=config,
        base_url=raw.base_url,
        paths_base=raw.base_url if raw.base_url is not None else raw.paths_dir,
        aliases=raw.paths or (),
        out_dir=raw.out_dir,
        root_dir=raw.root_dir,
        module=raw.module,
        module_resolution=raw.module_resolution,
        custom_conditions=raw.custom_conditions,
        has_root_dirs=raw.has_root_dirs,
        keeps_value_imports=bool(raw.keeps_value_imports),
        has_unread_base=raw.has_unread_base,
    )


def _extends_values(raw: object) -> list[str]:
    """The bases an ``extends`` names (a string, or a list of them in TS 5)."""
    values = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    return [value for value in values if isinstance(value, str) and value]


class TsconfigIndex:
    """Every tsconfig.json/jsconfig.json of the universe, parsed eagerly (errors surface once)."""

    def __init__(self, root: Path, files: Collection[str]) -> None:
        self._root = root
        self._files = files
        self._raw: dict[str, _RawOptions] = {}
        # Options as the program built from each config reads them (``_in_use``).
        self._used: dict[str, _RawOptions] = {}
        self._by_dir: dict[str, CompilerPaths | None] = {}
        self._configs: dict[str, CompilerPaths] = {}
        # Solution configs (they compile nothing, only reference projects), and per folder
        # under one the referenced project that governs it (``_governing``).
        self._solutions: set[str] = set()
        self._governed: dict[str, CompilerPaths] = {}
        self._referenced: dict[str, CompilerPaths] = {}
        self._children: dict[str, list[str]] | None = None
        # Per folder, its source files a config above governs (``for_file``), and per config
        # the configs above it, nearest first.
        self._moved: dict[str, dict[str, CompilerPaths]] = {}
        self._above: dict[str, tuple[CompilerPaths, ...]] = {}
        # ``_RawOptions.coverage`` of each folder config ``_moved_in`` asks (``_nothing_above``
        # for a config no config lies above).
        self._coverage: dict[str, Callable[[str, bool], bool]] = {}
        # Folders with a JavaScript source file directly inside (``_children_of``).
        self._js_folders: set[str] = set()
        self.notes: tuple[str, ...] = ()
        self._config_folders: set[str] = set()  # the folder of each config of ``_configs``
        # Folders of configs left out as a generator's template data (``template_excuse``).
        self.template_folders: tuple[str, ...] = ()
        # Sorted after the filter: sorting 50,000 paths to read a hundred costs more.
        for file in sorted(f for f in files if f.rpartition("/")[2] in CONFIG_NAMES):
            name = file.rpartition("/")[2]
            if name in CONFIG_NAMES:
                try:
                    raw = self._load(file, frozenset())
                except InputError as error:
                    excuse = broken_config_excuse(file)
                    if excuse is None and not self._reads_itself(file):
                        # Its own JSON is broken (not a base's): nothing may need it
                        # (`graph.unread_configs`: stryker-js's invalid-tsconfig fixture).
                        excuse = needless_excuse(file, files, self._names)
                        if excuse is None:
                            excuse = template_excuse(file, error, files, self._names)
                            if excuse is not None:  # nestjs/schematics' `files/ts/`
                                self.template_folders += (parent_dir(file),)
                    if excuse is None:
                        raise
                    # A fixture that is broken on purpose (astro's
                    # `test/fixtures/tsconfig-handling/invalid/`, vite's
                    # `playground/tsconfig-json-load-error/`): its folder gets no config.
                    self.notes += (f"{error}; left out ({excuse})",)
                    continue
                self._configs[file] = _compiler_paths(file, raw)
                self._config_folders.add(parent_dir(file))
                if raw.references and raw.files == () and raw.includes is None:
                    self._solutions.add(file)

    def _reads_itself(self, config: str) -> bool:
        """Whether ``config``'s own text parses (a base it extends may not)."""
        try:
            read_jsonc_file(self._root, config, empty={})
        except InputError:
            return False
        return True

    def _names(self, config: str) -> tuple[str, ...]:
        """The configs ``config`` names in ``extends`` and ``references`` (nothing when its
        own text does not parse)."""
        try:
            data = read_jsonc_file(self._root, config, empty={})
        except InputError:
            return ()
        if not isinstance(data, dict):
            return ()
        folder = parent_dir(config)
        return (
            *self._extends_targets(data.get("extends"), folder),
            *self._references(data.get("references"), folder),
        )

    @property
    def configs(self) -> dict[str, CompilerPaths]:
        """Effective options of each tsconfig.json/jsconfig.json, by config path."""
        return self._configs

    def for_directory(self, directory: str) -> CompilerPaths | None:
        """The options of the config governing ``directory``: the nearest config at or above
        it, or under a solution config the referenced project that compiles its files
        (module docstring). Cached per directory."""
        nearest = self._nearest(directory)
        if nearest is None or nearest.config not in self._solutions:
            return nearest
        found = self._governed.get(directory)
        if found is None:
            found = self._governed[directory] = self._governing(nearest, directory)
        return found

    def for_file(self, file: str) -> CompilerPaths | None:
        """The options of the config governing the root-relative ``file``: its folder's
        (:meth:`for_directory`), unless that config's program leaves ``file`` out and a config
        above takes it in (module docstring). Computed once per folder."""
        directory = parent_dir(file)
        moved = self._moved_from(directory)
        found = moved.get(file) if moved else None
        if found is None and not file.endswith(SOURCE_EXTENSIONS):
            found = self._owner_above(file)  # not one of the folder's source files
        return found if found is not None else self.for_directory(directory)

    def governs_sources_in(self, directory: str) -> bool:
        """Whether :meth:`for_file` of every source file directly in ``directory`` is
        :meth:`for_directory` of it: no config above takes in one its folder's config leaves
        out (computed once per folder, as :meth:`for_file` asks it)."""
        return not self._moved_from(directory)

    def _moved_from(self, directory: str) -> dict[str, CompilerPaths]:
        """``_moved_in`` of ``directory``, kept once computed."""
        moved = self._moved.get(directory)
        if moved is None:
            moved = self._moved[directory] = self._moved_in(directory)
        return moved

    def _moved_in(self, directory: str) -> dict[str, CompilerPaths]:
        """The source files of ``directory`` that a config above its folder config governs."""
        nearest = self._nearest(directory)
        if nearest is None:
            return {}
        covers = self._coverage.get(nearest.config)
        if covers is None:
            covers = self._coverage[nearest.config] = (
                self._load(nearest.config).coverage(parent_dir(nearest.config))
                if self._configs_above(nearest.config)
                else _nothing_above
            )
        sources = self._children_of(directory)
        if not sources or covers(directory, directory in self._js_folders):
            # the folder's own program takes every source file in (no pattern asked), or no
            # config above could take one
            return {}
        raw = self._load(nearest.config)
        compiles = raw.folder_compiles(parent_dir(nearest.config), directory)
        left = [file for file in sources if not compiles(file)]
        for ref in raw.references if left else ():
            # `_program_leaves_out`: a project the config references may take the file in
            compiles = self._load(ref).folder_compiles(parent_dir(ref), directory)
            left = [file for file in left if not compiles(file)]
            if not left:
                break
        moved: dict[str, CompilerPaths] = {}
        for options in self._configs_above(nearest.config):
            raw = self._load(options.config)
            programs = [(options.config, raw), *((ref, self._load(ref)) for ref in raw.references)]
            for config, program in programs:  # as `_owner_above` asks, each folder once
                if not left:
                    return moved
                compiles = program.folder_compiles(parent_dir(config), directory)
                owner = options if config == options.config else self._options_of(config)
                moved.update((file, owner) for file in left if compiles(file))
                left = [file for file in left if file not in moved]
        return moved

    def _owner_above(self, file: str) -> CompilerPaths | None:
        """The options of the nearest config above ``file``'s folder config whose program
        takes ``file`` in, when its folder config's program (with references) does not."""
        nearest = self._nearest(parent_dir(file))
        if nearest is None:
            return None
        above = self._configs_above(nearest.config)
        if not above or self._program_leaves_out(nearest.config, file) is False:
            return None
        for options in above:
            raw = self._load(options.config)
            if raw.compiles(file, parent_dir(options.config)):
                return options
            for ref in raw.references:
                if self._load(ref).compiles(file, parent_dir(ref)):
                    return self._options_of(ref)
        return None

    def _configs_above(self, config: str) -> tuple[CompilerPaths, ...]:
        """The folder configs above ``config``'s folder, nearest first (cached per config)."""
        found = self._above.get(config)
        if found is None:
            chain: list[CompilerPaths] = []
            folder = parent_dir(config)
            while folder != ".":
                options = self._nearest(parent_dir(folder))
                if options is None:
                    break
                chain.append(options)
                folder = parent_dir(options.config)
            found = self._above[config] = tuple(chain)
        return found

    def _children_of(self, directory: str) -> list[str]:
        """The source files directly in ``directory`` (the first call also fills
        ``_js_folders``)."""
        children = self._children
        if children is None:
            children = self._children = {}
            js_folders = self._js_folders
            for file in self._files:
                if file.endswith(SOURCE_EXTENSIONS):
                    folder, slash, _ = file.rpartition("/")  # `parent_dir`, inline
                    folder = folder if slash else "."
                    children.setdefault(folder, []).append(file)
                    if file.endswith(JS_SUFFIXES):
                        js_folders.add(folder)
        return children.get(directory, [])

    def _options_of(self, config: str) -> CompilerPaths:
        """The options of ``config`` as the program built from it reads them."""
        found = self._configs.get(config) or self._referenced.get(config)
        if found is None:
            found = self._referenced[config] = _compiler_paths(config, self._load(config))
        return found

    def _governing(self, solution: CompilerPaths, directory: str) -> CompilerPaths:
        """The one project ``solution`` references that compiles the source files of
        ``directory`` (each file counted for the first reference that compiles it), else
        ``solution`` itself (files of several projects, or of none)."""
        references = [(ref, self._load(ref)) for ref in self._load(solution.config).references]
        owners: set[str] = set()
        for file in self._children_of(directory):
            for ref, raw in references:
                if raw.compiles(file, parent_dir(ref)):
                    owners.add(ref)
                    break
        if len(owners) != 1:
            return solution
        (owner,) = owners
        return self._options_of(owner)

    def _nearest(self, directory: str) -> CompilerPaths | None:
        """The options of the nearest config at or above ``directory`` (cached per directory)."""
        if directory in self._by_dir:
            return self._by_dir[directory]
        walked: list[str] = []
        current = directory
        found: CompilerPaths | None = None
        while True:
            if current in self._by_dir:
                found = self._by_dir[current]
                break
            walked.append(current)
            hit = self._config_in(current)
            if hit is not None:
                found = hit
                break
            if current == ".":
                break
            current = parent_dir(current)
        for d in walked:
            self._by_dir[d] = found
        return found

    def _config_in(self, directory: str) -> CompilerPaths | None:
        if directory not in self._config_folders:
            return None
        for name in CONFIG_NAMES:
            path = name if directory == "." else f"{directory}/{name}"
            if path in self._configs:
                return self._configs[path]
        return None

    def _load(self, config: str, visiting: frozenset[str] = frozenset()) -> _RawOptions:
        """The options of ``config`` with its ``extends`` chain applied.

        Iterative (an explicit stack, bases first), so a chain of thousands of ``extends``
        cannot exhaust Python's recursion limit; a cycle in ``extends`` (TypeScript reports
        it) is not followed.
        """
        cached = self._raw.get(config)
        if cached is not None:
            return self._in_use(config, cached)
        documents: dict[str, dict[str, object]] = {}
        on_path: set[str] = set(visiting)
        stack: list[tuple[str, bool]] = [(config, False)]
        while stack:
            current, expanded = stack.pop()
            if current in self._raw:
                continue
            if expanded:
                on_path.discard(current)
                self._raw[current] = self._combine(current, documents[current])
                continue
            if current in on_path:
                continue  # reached again through a cycle
            data = read_jsonc_file(self._root, current, empty={})
            documents[current] = data if isinstance(data, dict) else {}
            on_path.add(current)
            stack.append((current, True))
            bases = self._extends_targets(documents[current].get("extends"), parent_dir(current))
            for base in reversed(bases):
                if base not in self._raw and base not in on_path:
                    stack.append((base, False))
        return self._in_use(config, self._raw[config])

    def _in_use(self, config: str, raw: _RawOptions) -> _RawOptions:
        """``_in_use`` of ``config``'s options, kept once computed."""
        found = self._used.get(config)
        if found is None:
            found = self._used[config] = in_use(raw, config)
        return found

    def _combine(self, config: str, obj: dict[str, object]) -> _RawOptions:
        """``config``'s own options over those of its (already loaded) bases."""
        config_dir = parent_dir(config)
        base_url: str | None = None
        paths: tuple[PathAlias, ...] | None = None
        paths_dir = config_dir
        out_dir: str | None = None
        root_dir: str | None = None
        module: str | None = None
        module_resolution: str | None = None
        conditions: tuple[str, ...] = ()
        has_root_dirs = False
        keeps: bool | None = None
        program: dict[str, tuple[str, ...] | None] = {"files": None, "include": None}
        excludes: tuple[str, ...] | None = None
        allow_js: bool | None = True if config.endswith("jsconfig.json") else None
        no_emit: bool | None = None
        check_js: bool | None = None
        if self._has_missing_base(obj.get("extends"), config_dir):
            has_root_dirs = True  # options unknown (`.svelte-kit/tsconfig.json`): may map dirs
        bases = self._extends_targets(obj.get("extends"), config_dir)
        unread = len(bases) < len(_extends_values(obj.get("extends")))
        for base in bases:
            inherited = self._raw.get(base)
            if inherited is None or base == config:
                continue  # a cycle in extends: TypeScript errors; we just stop following it
            if inherited.base_url is not None:
                base_url = inherited.base_url
            if inherited.paths is not None:
                paths, paths_dir = inherited.paths, inherited.paths_dir
            out_dir = inherited.out_dir or out_dir
            root_dir = inherited.root_dir or root_dir
            module = inherited.module or module
            module_resolution = inherited.module_resolution or module_resolution
            conditions = inherited.custom_conditions or conditions
            has_root_dirs = has_root_dirs or inherited.has_root_dirs
            unread = unread or inherited.has_unread_base
            if inherited.keeps_value_imports is not None:
                keeps = inherited.keeps_value_imports
            if inherited.excludes is not None:
                excludes = inherited.excludes
            if inherited.allow_js is not None:
                allow_js = inherited.allow_js
            if inherited.no_emit is not None:
                no_emit = inherited.no_emit
            if inherited.check_js is not None:
                check_js = inherited.check_js
            if inherited.files is not None:
                program["files"] = inherited.files
            if inherited.includes is not None:
                program["include"] = inherited.includes
        for key in ("files", "include"):
            own = _globs(obj.get(key), config_dir)
            if own is not None:
                program[key] = own
        own_excludes = _globs(obj.get("exclude"), config_dir)
        if own_excludes is not None:
            excludes = own_excludes
        options = obj.get("compilerOptions")
        if isinstance(options, dict):
            if isinstance(options.get("rootDirs"), list):
                has_root_dirs = bool(options["rootDirs"])
            if isinstance(options.get("module"), str):
                module = str(options["module"]).lower()
            if isinstance(options.get("moduleResolution"), str):
                module_resolution = str(options["moduleResolution"]).lower()
            own_base = options.get("baseUrl")
            if isinstance(own_base, str):
                base_url = relative_to(config_dir, own_base)
            own_paths = parse_aliases(options.get("paths"))
            if own_paths is not None:
                paths, paths_dir = own_paths, config_dir
            # outDir/rootDir are relative to the config that sets them (as tsc reads them)
            if isinstance(options.get("outDir"), str):
                out_dir = relative_to(config_dir, str(options["outDir"]))
            if isinstance(options.get("rootDir"), str):
                root_dir = relative_to(config_dir, str(options["rootDir"]))
            own_keeps = _keeps_value_imports(options)
            if own_keeps is not None:
                keeps = own_keeps
            custom = options.get("customConditions")
            if isinstance(custom, list):
                conditions = tuple(c for c in custom if isinstance(c, str))
            if isinstance(options.get("noEmit"), bool):
                no_emit = bool(options["noEmit"])
            if isinstance(options.get("checkJs"), bool):
                check_js = bool(options["checkJs"])
            if isinstance(options.get("allowJs"), bool):
                allow_js = bool(options["allowJs"])
            elif options.get("checkJs") is True and allow_js is None:
                allow_js = True  # tsc: `allowJs` defaults to true under `checkJs`
        return _RawOptions(
            base_url,
            paths,
            paths_dir,
            out_dir,
            root_dir,
            module,
            module_resolution,
            conditions,
            has_root_dirs,
            keeps,
            program["files"],
            program["include"],
            excludes,
            self._references(obj.get("references"), config_dir),
            unread,
            allow_js,
            no_emit,
            check_js,
        )

    def leaves_out(self, file: str) -> bool:
        """Whether the tsconfig governing ``file`` (or, for a solution config that only lists
        ``references``, each config it references) leaves ``file`` out of its program, and at
        least one of them says so with ``exclude``. A file no ``include`` reaches but none
        excludes is not "left out": it may still be run by a bundler or a script runner."""
        options = self.for_file(file)
        if options is None:
            return False
        if self._program_leaves_out(options.config, file):
            return True
        # A folder with its own tsconfig that the enclosing project's program excludes by
        # name is a sub-project the project never builds (amplication's admin-UI template
        # `src/admin/static/`, excluded with `**/static/**`, and its one-off
        # `migration-scripts/`): no claim there either.
        # Only inside the file's own package: a root config excluding `packages/` (each
        # package builds itself) says nothing about a package's files.
        package = parent_dir(file)
        while package != "." and join_path(package, "package.json") not in self._files:
            package = parent_dir(package)
        above = parent_dir(parent_dir(options.config))
        while parent_dir(options.config) != package:
            enclosing = self.for_directory(above)
            if enclosing is None or enclosing.config == options.config:
                return False
            if not is_within(parent_dir(enclosing.config), package):
                return False
            verdict = self._program_leaves_out(enclosing.config, file)
            if verdict is not None:
                return verdict  # the enclosing project builds it, or excludes it by name
            options, above = enclosing, parent_dir(parent_dir(enclosing.config))
        return False

    def compiles(self, file: str) -> bool:
        """Whether a tsconfig program (the governing config, or a config it references)
        includes ``file``."""
        options = self.for_file(file)
        return options is not None and self._program_leaves_out(options.config, file) is False

    def checks_js(self, file: str) -> bool:
        """Whether a tsconfig program that takes the JavaScript ``file`` in (the governing
        config, or for a solution config one it references) type-checks it (``checkJs``):
        then tsc reports what it cannot resolve there, as in a TypeScript file."""
        options = self.for_file(file)
        if options is None:
            return False
        raw = self._load(options.config)
        configs = [(options.config, raw)]
        configs += [(ref, self._load(ref)) for ref in raw.references]
        return any(r.check_js is True and r.compiles(file, parent_dir(c)) for c, r in configs)

    def emits(self, config: str) -> bool:
        """Whether ``config`` (with its ``extends`` chain) lets tsc emit: ``noEmit`` is not
        set to true (unset in a base filid cannot read counts as emitting)."""
        return self._load(config).no_emit is not True

    def emit_dirs(self, config: str) -> tuple[str, str] | None:
        """(``rootDir``, ``outDir``) of ``config`` with its ``extends`` chain, root-relative,
        when it sets both and lets tsc emit; None otherwise or when it cannot be read."""
        try:
            raw = self._load(config)
        except InputError:
            return None
        if raw.root_dir is None or raw.out_dir is None or raw.no_emit is True:
            return None
        return raw.root_dir, raw.out_dir

    def literal_roots(self, config: str) -> frozenset[str]:
        """The root-relative paths ``config`` (with its ``extends`` chain) names without a
        wildcard in ``files`` or ``include``: files its program expects by name."""
        try:
            raw = self._load(config)
        except InputError:
            return frozenset()
        named = (*(raw.files or ()), *(raw.includes or ()))
        return frozenset(path for path in named if not _has_wildcard(path))

    def references_of(self, config: str) -> tuple[str, ...]:
        """The configs ``config`` lists in ``references`` (project references)."""
        return self._load(config).references

    def program_includes(self, config: str, file: str) -> bool:
        """Whether ``config``'s program (or, for a solution config, a config it references)
        takes ``file`` as a root file (``files``/``include``, less ``exclude``)."""
        return self._program_leaves_out(config, file) is False

    def maps_root_dirs(self, options: CompilerPaths) -> bool:
        """Whether the config of the governing ``options``, or a config it references, sets
        ``rootDirs`` (react-router's playgrounds set it in `tsconfig.vite.json`, which their
        solution `tsconfig.json` only references: the generated `./+types/*` resolve)."""
        return options.has_root_dirs or any(
            self._load(ref).has_root_dirs for ref in self._load(options.config).references
        )

    def _program_leaves_out(self, config: str, file: str) -> bool | None:
        """True when ``config``'s program (or, for a solution config, its references') leaves
        ``file`` out with an ``exclude``; False when one compiles it; None when neither."""
        raw = self._load(config)
        configs = [(config, raw)]
        if raw.references and not raw.compiles(file, parent_dir(config)):
            configs += [(ref, self._load(ref)) for ref in raw.references]
        if any(r.compiles(file, parent_dir(c)) for c, r in configs):
            return False
        if any(r.excluded(file) for _, r in configs):
            return True
        return None

    def _references(self, raw: object, config_dir: str) -> tuple[str, ...]:
        found: list[str] = []
        for item in raw if isinstance(raw, list) else []:
            path = item.get("path") if isinstance(item, dict) else None
            if not isinstance(path, str) or not path:
                continue
            target = join_path(config_dir, path)
            for candidate in (target, f"{target}/tsconfig.json"):
                if candidate in self._files and candidate.endswith(".json"):
                    found.append(candidate)
                    break
        return tuple(found)

    def _has_missing_base(self, raw: object, config_dir: str) -> bool:
        """A relative ``extends`` whose file is not in the universe (a generated config in a
        dot folder, such as SvelteKit's ``./.svelte-kit/tsconfig.json``), or a package base
        no registry can hold (``$`` is no npm name character): SvelteKit 3's ``$app/tsconfig``,
        which ``svelte-kit sync`` writes to ``node_modules/$app``."""
        values = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
        for value in values:
            if isinstance(value, str) and value.startswith("$"):
                return True
            if isinstance(value, str) and value.startswith(("./", "../")):
                base = join_path(config_dir, value)
                if base not in self._files and f"{base}.json" not in self._files:
                    return True
        return False

    def _extends_targets(self, raw: object, config_dir: str) -> list[str]:
        targets: list[str] = []
        for value in _extends_values(raw):
            if value.startswith("/"):
                try:
                    rel = Path(value).resolve().relative_to(self._root.resolve()).as_posix()
                except (ValueError, OSError):
                    continue
                base_path = rel
            elif value.startswith(("./", "../")) or value in (".", ".."):
                base_path = join_path(config_dir, value)
            else:
                continue  # a package base (node_modules): outside the project, see module doc
            for candidate in (base_path, f"{base_path}.json"):
                if candidate in self._files:
                    targets.append(candidate)
                    break
        return targets
