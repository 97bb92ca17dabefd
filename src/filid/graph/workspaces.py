"""Workspace packages: a ``package.json`` with a ``name`` inside the project (SPEC §4).

Membership is real: when the project declares workspaces (``pnpm-workspace.yaml``
``packages:``, read with a YAML library; ``package.json`` ``workspaces``), only the packages
a declaration includes and does not exclude with a ``!`` glob are linked by name (excluded
example folders are not: importing one is *unresolved* with that reason); a project that
declares none links every named package (a lenient default for repositories that link
packages some other way). A declaration filid cannot read is a note, and links every named
package below its folder.

The nearest manifest above the importer that declares the dependency decides what its name
installs (:func:`dependency_link`: ``workspace:``, ``npm:``, ``file:``/``link:``/``portal:``,
``catalog:``, ``patch:``, remote specifiers); see the README, "Formats and protocols filid
reads".

An import of ``name`` or ``name/sub`` from anywhere in the project goes to that package's
files instead of ``node_modules``. The entry of ``name`` is looked for, first hit wins, in:
``exports["."]`` (a string, an array of fallbacks, or a conditions object — conditions
``types``, ``import``, ``default``, ``require`` preferred in that order, then any other
condition in document order, nested objects followed), ``types``, ``typings``, ``module``,
``main``, the package directory's ``index.*``, and finally ``src/index.*`` (monorepo packages
whose ``main`` points into an unbuilt ``dist/``, which is never part of the file universe).
``name/sub`` looks in ``exports["./sub"]`` (``*`` subpath patterns included), then the path
``sub`` under the package directory.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from filid.config.globs import matches_glob
from filid.graph.jsonc import read_jsonc_file
from filid.graph.patterns import PatternIndex
from filid.graph.tsconfig import join_path, parent_dir
from filid.graph.yamlfile import read_yaml_file

__all__ = [
    "PackageLookup",
    "WorkspaceIndex",
    "WorkspacePackage",
    "dependency_link",
    "split_package_specifier",
]

PREFERRED_CONDITIONS = ("types", "import", "default", "require")
ENTRY_FIELDS = ("types", "typings", "module", "main")
# Conditions objects nest; real manifests stay shallow, this only stops pathological input.
_MAX_CONDITION_DEPTH = 16


def split_package_specifier(specifier: str) -> tuple[str, str] | None:
    """Split a bare specifier into ``(package name, subpath)``; ``None`` if it has no name."""
    if specifier.startswith("@"):
        scope, sep, rest = specifier.partition("/")
        if not sep or len(scope) < 2:
            return None
        name, _, sub = rest.partition("/")
        return (f"{scope}/{name}", sub) if name else None
    name, _, sub = specifier.partition("/")
    return (name, sub) if name else None


def _expand_target(
    directory: str,
    target: object,
    star: str | None,
    depth: int = 0,
    conditions: tuple[str, ...] = (),
) -> list[str]:
    """Root-relative candidate paths an ``exports`` target stands for, in preference order
    (``conditions``, the tsconfig's ``customConditions``, come before the usual ones)."""
    if depth > _MAX_CONDITION_DEPTH:
        return []
    if isinstance(target, str):
        value = target.replace("*", star) if star is not None else target
        return [join_path(directory, value)] if value else []
    if isinstance(target, list):
        return [
            p
            for item in target
            for p in _expand_target(directory, item, star, depth + 1, conditions)
        ]
    if isinstance(target, dict):
        preferred = (*conditions, *PREFERRED_CONDITIONS) if conditions else PREFERRED_CONDITIONS
        keys = list(dict.fromkeys(k for k in preferred if k in target))
        keys += [k for k in target if isinstance(k, str) and k not in preferred]
        return [
            p
            for k in keys
            for p in _expand_target(directory, target[k], star, depth + 1, conditions)
        ]
    return []  # null blocks a subpath; anything else is malformed


def _subpath_map(exports: object) -> dict[str, object]:
    """``exports`` in its long form: a map from ``"."``/``"./sub"`` to a target."""
    if exports is None:
        return {}
    if isinstance(exports, dict):
        if any(isinstance(k, str) and k.startswith(".") for k in exports):
            return {k: v for k, v in exports.items() if isinstance(k, str) and k.startswith(".")}
        return {".": exports}
    return {".": exports}


# Frameworks whose folders are routes (an index.* there is a page, not a module's barrel).
ROUTING_FRAMEWORKS = frozenset(
    {
        "next",
        "nuxt",
        "astro",
        "@sveltejs/kit",
        "@remix-run/react",
        "@remix-run/dev",
        "@react-router/dev",
        "expo-router",
        "@tanstack/react-router",
        "@solidjs/start",
        "gatsby",
    }
)
ROUTE_DIRECTORIES = ("pages", "app", "routes", "src/pages", "src/app", "src/routes")


def _uses_file_routing(data: dict[str, object]) -> bool:
    for field in ("dependencies", "devDependencies", "peerDependencies"):
        deps = data.get(field)
        if isinstance(deps, dict) and any(name in ROUTING_FRAMEWORKS for name in deps):
            return True
    return False


def _workspace_globs(value: object) -> list[str] | None:
    """The package globs of a ``workspaces`` field: a list, or ``{"packages": [...]}`` (yarn
    and bun; ``{}`` or a missing list declares none); ``None`` for any other shape."""
    if isinstance(value, dict):
        value = value.get("packages", [])
    if not isinstance(value, list) or not all(isinstance(g, str) for g in value):
        return None
    return [g.strip() for g in value if g.strip()]


class _Declarations:
    """Every workspace declaration of the universe, read with the parser its format deserves.

    ``globs``: (declaring folder, globs with ``!``). ``notes``: one line per declaration filid
    cannot read (the file named); such a declaration links every named package below its
    folder, never none. ``catalogs``: pnpm's and bun's catalog entries by (folder, catalog
    name, package name). ``no_link``: folders of pnpm workspaces (their root package.json and
    pnpm-workspace.yaml).
    """

    def __init__(self, root: Path, files: Collection[str], manifests: dict[str, object]) -> None:
        self.globs: list[tuple[str, list[str]]] = []
        self.notes: list[str] = []
        self.catalogs: dict[tuple[str, str, str], str] = {}
        for file in sorted(files):
            name = file.rpartition("/")[2]
            if name == "pnpm-workspace.yaml":
                self._read_pnpm(root, file)
            elif name == "package.json":
                data = manifests.get(file)
                if isinstance(data, dict) and "workspaces" in data:
                    globs = _workspace_globs(data["workspaces"])
                    if globs is None:
                        self._unreadable(
                            file,
                            "`workspaces` is neither a list of globs nor "
                            "an object with a `packages` list",
                        )
                    else:
                        self.globs.append((parent_dir(file), globs))
                if isinstance(data, dict):
                    self._read_catalogs(parent_dir(file), data)
                    workspaces = data.get("workspaces")
                    if isinstance(workspaces, dict):
                        self._read_catalogs(parent_dir(file), workspaces)

    def _unreadable(self, file: str, reason: str) -> None:
        self.notes.append(
            f"{file}: {reason}; every named package below its folder is linked as a workspace"
        )
        self.globs.append((parent_dir(file), ["**"]))

    def _read_pnpm(self, root: Path, file: str) -> None:
        data, problem = read_yaml_file(root, file)
        if problem is not None:
            self._unreadable(file, problem[len(file) + 2 :])
            return
        if data is None:
            data = {}  # an empty file: the root package alone
        if not isinstance(data, dict):
            self._unreadable(file, "the top level is not a mapping")
            return
        packages = data.get("packages", [])
        if packages is None:
            packages = []
        if not isinstance(packages, list) or not all(isinstance(g, str) for g in packages):
            self._unreadable(file, "`packages` is not a list of glob strings")
            return
        self.globs.append((parent_dir(file), [g.strip() for g in packages if g.strip()]))
        self._read_catalogs(parent_dir(file), data)

    def _read_catalogs(self, directory: str, data: dict[object, object]) -> None:
        """``catalog`` (the default catalog) and ``catalogs.<name>`` of a manifest."""
        tables: list[tuple[str, object]] = [("default", data.get("catalog"))]
        named = data.get("catalogs")
        if isinstance(named, dict):
            tables += [(str(k), v) for k, v in named.items()]
        for catalog, table in tables:
            if isinstance(table, dict):
                for package, spec in table.items():
                    if isinstance(package, str) and isinstance(spec, str):
                        self.catalogs[(directory, catalog, package)] = spec.strip()

    def catalog_entry(self, importer_dir: str, catalog: str, package: str) -> str | None:
        """The specifier catalog ``catalog`` gives ``package``, from the nearest declaring
        folder above ``importer_dir``."""
        current = importer_dir
        while True:
            found = self.catalogs.get((current, catalog, package))
            if found is not None:
                return found
            if current == ".":
                return None
            current = parent_dir(current)


def _is_member(directory: str, declarations: list[tuple[str, list[str]]]) -> bool:
    """Is the package folder ``directory`` included by a declaration and not excluded?"""
    for base, globs in declarations:
        if directory == base:
            return True  # the declaring package itself
        prefix = "" if base == "." else base + "/"
        if not directory.startswith(prefix):
            continue
        relative = directory[len(prefix) :]
        included = any(matches_glob(relative, g) for g in globs if not g.startswith("!"))
        excluded = any(matches_glob(relative, g[1:]) for g in globs if g.startswith("!"))
        if included and not excluded:
            return True
    return False


_INDEXES: dict[int, tuple[dict[str, object], PatternIndex[object]]] = {}


def _index_of(mapping: dict[str, object]) -> PatternIndex[object]:
    """The pattern index of an ``exports``/``imports`` map (built once per map)."""
    cached = _INDEXES.get(id(mapping))
    if cached is None or cached[0] is not mapping:
        if len(_INDEXES) > 4096:
            _INDEXES.clear()  # a long-lived MCP server sees many projects
        cached = (mapping, PatternIndex((k, v) for k, v in mapping.items() if isinstance(k, str)))
        _INDEXES[id(mapping)] = cached
    return cached[1]


def _shared_depth(a: str, b: str) -> int:
    """How many leading folders two root-relative paths share."""
    depth = 0
    for left, right in zip(a.split("/"), b.split("/"), strict=False):
        if left != right or left == ".":
            break
        depth += 1
    return depth


def _declared_targets(directory: str, data: dict[str, object]) -> tuple[str, ...]:
    """Every file a manifest declares as an entry (SPEC §1): each ``exports`` target (every
    subpath and condition; ``*`` patterns left out), ``main``, ``module``, ``types``,
    ``typings`` and ``bin`` (a string or a map)."""
    targets: list[str] = []
    for key, target in _subpath_map(data.get("exports")).items():
        if "*" not in key:
            targets += [t for t in _expand_target(directory, target, None) if "*" not in t]
    for field in ENTRY_FIELDS:
        value = data.get(field)
        if isinstance(value, str) and value.strip():
            targets.append(join_path(directory, value))
    bins = data.get("bin")
    values = (
        [bins] if isinstance(bins, str) else list(bins.values()) if isinstance(bins, dict) else []
    )
    targets += [join_path(directory, v) for v in values if isinstance(v, str) and v.strip()]
    return tuple(dict.fromkeys(targets))


@dataclass(frozen=True, slots=True)
class WorkspacePackage:
    """One named package of the project: its directory and the raw manifest fields we use."""

    name: str
    directory: str
    manifest: str
    exports: dict[str, object]
    entry_fields: tuple[str, ...]

    def entry_candidates(self, conditions: tuple[str, ...] = ()) -> list[str]:
        """Root-relative candidate paths for the bare package name, in preference order."""
        candidates = _expand_target(self.directory, self.exports.get("."), None, 0, conditions)
        candidates += [join_path(self.directory, v) for v in self.entry_fields]
        candidates.append(self.directory)
        candidates.append(join_path(self.directory, "src"))
        return candidates

    def subpath_candidates(self, sub: str, conditions: tuple[str, ...] = ()) -> list[str]:
        """Root-relative candidate paths for ``name/sub``, in preference order."""
        key = f"./{sub}"
        candidates: list[str] = []
        found = _index_of(self.exports).lookup(key)
        if found is not None:
            candidates += _expand_target(self.directory, found[0], found[1], 0, conditions)
        candidates.append(join_path(self.directory, sub))
        return candidates


DEPENDENCY_FIELDS = ("peerDependencies", "optionalDependencies", "devDependencies", "dependencies")
_REMOTE_PREFIXES = ("git+", "git:", "github:", "gitlab:", "bitbucket:", "http:", "https:", "jsr:")
_TARBALLS = (".tgz", ".tar.gz", ".tar")


def _declared_dependencies(data: dict[str, object]) -> dict[str, str]:
    """Every dependency a manifest declares, name → specifier (``dependencies`` win)."""
    found: dict[str, str] = {}
    for field in DEPENDENCY_FIELDS:
        table = data.get(field)
        if isinstance(table, dict):
            found.update(
                (k, v.strip())
                for k, v in table.items()
                if isinstance(k, str) and isinstance(v, str)
            )
    return found


@dataclass(frozen=True, slots=True)
class _Link:
    """What a declared dependency installs under its name: a workspace package by ``name``, a
    folder by ``directory`` (``file:``, ``link:``, ``portal:``, ``workspace:<path>``), or
    something else than the repository's package (``refusal`` says what)."""

    name: str | None = None
    directory: str | None = None
    refusal: str | None = None


def _alias_target(rest: str) -> tuple[str, str] | None:
    """``other@range`` (or ``@scope/other@range``) → ``(other, range)``; None without a name."""
    at = rest.find("@", 1)
    if at <= 0:
        return None
    return rest[:at], rest[at + 1 :]


def dependency_link(
    name: str, spec: str, manifest: str, catalogs: _Declarations | None = None, depth: int = 0
) -> _Link:
    """What the package managers install for ``"name": "spec"`` declared in ``manifest``
    (see the README, "Formats and protocols filid reads"): ``workspace:`` links the workspace
    package (an alias ``workspace:other@*`` links ``other``, a path links that folder);
    ``npm:`` installs the registry's package; ``file:``/``link:``/``portal:`` link a folder
    (a tarball is not a folder); ``catalog:`` stands for its catalog entry; ``patch:`` for the
    specifier it patches; git, URL and ``jsr:`` specifiers install from elsewhere; a version
    range, tag or ``*`` links the workspace package of that name."""
    folder = parent_dir(manifest)
    declared = f"declared as `{spec}` in {manifest}"
    if spec.startswith("workspace:"):
        rest = spec[len("workspace:") :].strip()
        if rest.startswith(("./", "../", "/")) or rest in (".", ".."):
            return _Link(directory=join_path(folder, rest))
        alias = _alias_target(rest)
        return _Link(name=alias[0] if alias is not None else name)
    if spec.startswith("npm:"):
        return _Link(refusal=f"{declared}: the registry's package is installed, not this one")
    if spec.startswith(("file:", "link:", "portal:")):
        path = spec.partition(":")[2].strip()
        if path.endswith(_TARBALLS):
            return _Link(refusal=f"{declared}: a tarball is installed, not this package")
        target = join_path(folder, path)
        if target == ".." or target.startswith("../") or path.startswith("/"):
            return _Link(refusal=f"{declared}: a folder outside the project is linked")
        return _Link(directory=target)
    if spec.startswith("catalog:") and depth < 2:
        catalog = spec[len("catalog:") :].strip() or "default"
        entry = catalogs.catalog_entry(folder, catalog, name) if catalogs is not None else None
        if entry is None:
            return _Link(name=name)  # pnpm refuses to install; the name is what was meant
        return dependency_link(name, entry, manifest, catalogs, depth + 1)
    if spec.startswith("patch:") and depth < 2:
        inner = _alias_target(unquote(spec[len("patch:") :].partition("#")[0]))
        if inner is not None:
            return dependency_link(name, inner[1], manifest, catalogs, depth + 1)
    if spec.startswith(_REMOTE_PREFIXES) or "://" in spec:
        return _Link(refusal=f"{declared}: installed from elsewhere, not this package")
    return _Link(name=name)


@dataclass(frozen=True, slots=True)
class PackageLookup:
    """Where a bare specifier that names a package of the repository may lead.

    ``candidates`` as :meth:`WorkspaceIndex.candidates` gives them; ``package`` names the
    package for messages; ``refusal`` says why the import does not reach the repository's
    package at all (a non-member, an ``npm:`` alias…), in which case there are no candidates.
    """

    candidates: tuple[tuple[str, bool, str], ...]
    package: str
    subpath: str
    has_exports: bool = False
    refusal: str | None = None


class WorkspaceIndex:
    """Named packages of the universe by name (the shallowest manifest wins a duplicate name)."""

    def __init__(self, root: Path, files: Collection[str]) -> None:
        manifests = sorted(
            (f for f in files if f == "package.json" or f.endswith("/package.json")),
            key=lambda f: (f.count("/"), f),
        )
        parsed = {manifest: read_jsonc_file(root, manifest) for manifest in manifests}
        declarations = _Declarations(root, files, parsed)
        self._declarations = declarations
        self.notes: tuple[str, ...] = tuple(declarations.notes)
        self._packages: dict[str, WorkspacePackage] = {}
        self._entry_targets: dict[str, tuple[str, ...]] = {}
        self._route_directories: set[str] = set()
        self._imports: dict[str, dict[str, object]] = {}
        # Every package of a name: nested workspaces (templates, examples) reuse names.
        self._namesakes: dict[str, list[WorkspacePackage]] = {}
        # Named packages no workspace declaration includes, and every manifest by folder.
        self._outsiders: dict[str, WorkspacePackage] = {}
        self._by_directory: dict[str, WorkspacePackage] = {}
        self._dependencies: dict[str, dict[str, str]] = {}
        self._manifests: dict[str, str] = {}
        for manifest in manifests:
            data = parsed[manifest]
            if not isinstance(data, dict):
                continue
            directory = parent_dir(manifest)
            self._entry_targets[directory] = _declared_targets(directory, data)
            imports = data.get("imports")
            self._imports[directory] = imports if isinstance(imports, dict) else {}
            self._dependencies[directory] = _declared_dependencies(data)
            self._manifests[directory] = manifest
            if _uses_file_routing(data):
                self._route_directories.update(join_path(directory, r) for r in ROUTE_DIRECTORIES)
            name = data.get("name")
            fields = tuple(
                v for f in ENTRY_FIELDS if isinstance(v := data.get(f), str) and v.strip()
            )
            package = WorkspacePackage(
                name=name if isinstance(name, str) else "",
                directory=directory,
                manifest=manifest,
                exports=_subpath_map(data.get("exports")),
                entry_fields=fields,
            )
            self._by_directory[directory] = package
            if not isinstance(name, str) or not name:
                continue
            if declarations.globs and not _is_member(directory, declarations.globs):
                self._outsiders.setdefault(name, package)
                continue  # not included by any workspace declaration (or excluded with `!`)
            self._packages.setdefault(name, package)
            self._namesakes.setdefault(name, []).append(package)

    def import_candidates(
        self, specifier: str, importer_dir: str, conditions: tuple[str, ...] = ()
    ) -> tuple[list[str], str] | None:
        """Targets of a ``#x`` package import (the nearest package.json's ``imports``, with
        conditions and ``*`` patterns) and that package's folder; None without a package."""
        current = importer_dir
        while current not in self._imports:
            if current == ".":
                return None
            current = parent_dir(current)
        found = _index_of(self._imports[current]).lookup(specifier)
        if found is None:
            return [], current
        return _expand_target(current, found[0], found[1], 0, conditions), current

    @property
    def route_directories(self) -> frozenset[str]:
        """Folders that may hold file-system routes: ``pages``, ``app``, ``routes`` (and under
        ``src/``) of every package that depends on a file-routing framework."""
        return frozenset(self._route_directories)

    @property
    def entry_targets(self) -> dict[str, tuple[str, ...]]:
        """Every package root's declared entry targets (root-relative, possibly unbuilt)."""
        return self._entry_targets

    @property
    def packages(self) -> dict[str, WorkspacePackage]:
        """Every named package, by name."""
        return self._packages

    def name_of(self, directory: str) -> str | None:
        """The ``name`` of the package whose manifest is in ``directory``, if any."""
        package = self._by_directory.get(directory)
        return package.name or None if package is not None else None

    def package_at(self, directory: str) -> WorkspacePackage | None:
        """The named package whose folder is ``directory`` (namesakes included), or None."""
        for packages in self._namesakes.values():
            for package in packages:
                if package.directory == directory:
                    return package
        return None

    def package_directories(self) -> frozenset[str]:
        """The folder of every named workspace package (namesakes included)."""
        return frozenset(p.directory for ps in self._namesakes.values() for p in ps)

    def declared_link(self, name: str, importer_dir: str) -> _Link | None:
        """What the nearest manifest above ``importer_dir`` that declares dependency ``name``
        installs under that name; None when no manifest declares it."""
        current = importer_dir
        while True:
            spec = self._dependencies.get(current, {}).get(name)
            if spec is not None:
                return dependency_link(name, spec, self._manifests[current], self._declarations)
            if current == ".":
                return None
            current = parent_dir(current)

    def lookup(
        self, specifier: str, importer_dir: str = ".", conditions: tuple[str, ...] = ()
    ) -> PackageLookup | None:
        """Where ``specifier`` leads when it names a package of the repository (a workspace
        member, a named package no declaration includes, or a folder a ``file:``/``link:``
        dependency links); None when it names none (an ordinary external package).

        The nearest manifest that declares the dependency decides (see
        :func:`dependency_link`); an undeclared name links the workspace package. When several
        packages share the name (nested workspaces: each template of a repository with its
        own ``@workspace/ui``), the one closest to the importer wins: the longest common
        folder prefix, then the shallowest.
        """
        split = split_package_specifier(specifier)
        if split is None:
            return None
        name, sub = split
        link = self.declared_link(name, importer_dir)
        package: WorkspacePackage | None = None
        if link is not None and link.directory is not None:
            package = self._by_directory.get(link.directory) or WorkspacePackage(
                name, link.directory, join_path(link.directory, "package.json"), {}, ()
            )
        elif link is not None and link.refusal is not None:
            if name not in self._namesakes and name not in self._outsiders:
                return None
            return PackageLookup((), name, sub, refusal=link.refusal)
        else:
            target = link.name if link is not None and link.name is not None else name
            namesakes = self._namesakes.get(target)
            if not namesakes:
                outsider = self._outsiders.get(target)
                if outsider is None:
                    return None
                return PackageLookup(
                    (),
                    target,
                    sub,
                    refusal=f"package {target} ({outsider.directory}) is not a member of the "
                    "declared workspaces",
                )
            package = namesakes[0]
            if len(namesakes) > 1:
                package = max(namesakes, key=lambda p: _shared_depth(p.directory, importer_dir))
        directory = package.directory
        label = f"{package.name or name} ({directory})"
        if not sub:
            found = tuple((c, True, directory) for c in package.entry_candidates(conditions))
            return PackageLookup(found, label, sub, bool(package.exports))
        subpath = package.subpath_candidates(sub, conditions)
        found = (*((c, True, directory) for c in subpath[:-1]), (subpath[-1], False, directory))
        return PackageLookup(found, label, sub, bool(package.exports))

    def candidates(
        self, specifier: str, importer_dir: str = "."
    ) -> list[tuple[str, bool, str]] | None:
        """``(candidate path, through the manifest, package directory)`` in preference order
        if ``specifier`` names a package of the repository it reaches, else ``None``.

        Every candidate is "through the manifest" (an entry point the package publishes)
        except the plain ``<package>/<sub>`` path that a subpath falls back on.
        """
        found = self.lookup(specifier, importer_dir)
        return list(found.candidates) if found is not None else None
