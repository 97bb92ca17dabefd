"""Workspace packages: a ``package.json`` with a ``name`` inside the project (SPEC §4).

Membership is real: when the project declares workspaces (``pnpm-workspace.yaml``
``packages:``, ``package.json`` ``workspaces``), only the packages a declaration includes
and does not exclude with a ``!`` glob are linked by name (excluded example folders are not);
a project that declares none links every named package (a lenient default for repositories
that link packages some other way).

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

from filid.config.globs import matches_glob
from filid.graph.jsonc import read_jsonc_file
from filid.graph.patterns import PatternIndex
from filid.graph.tsconfig import join_path, parent_dir
from filid.model.errors import InputError
from filid.store.files import read_regular_file

__all__ = ["WorkspaceIndex", "WorkspacePackage", "split_package_specifier"]

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


def _expand_target(directory: str, target: object, star: str | None, depth: int = 0) -> list[str]:
    """Root-relative candidate paths an ``exports`` target stands for, in preference order."""
    if depth > _MAX_CONDITION_DEPTH:
        return []
    if isinstance(target, str):
        value = target.replace("*", star) if star is not None else target
        return [join_path(directory, value)] if value else []
    if isinstance(target, list):
        return [p for item in target for p in _expand_target(directory, item, star, depth + 1)]
    if isinstance(target, dict):
        keys = [k for k in PREFERRED_CONDITIONS if k in target]
        keys += [k for k in target if isinstance(k, str) and k not in PREFERRED_CONDITIONS]
        return [p for k in keys for p in _expand_target(directory, target[k], star, depth + 1)]
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


def _workspace_globs(value: object) -> list[str]:
    """The package globs of a ``workspaces`` field: a list, or ``{"packages": [...]}``."""
    if isinstance(value, dict):
        value = value.get("packages")
    return [g for g in value if isinstance(g, str) and g.strip()] if isinstance(value, list) else []


def _pnpm_packages(text: str) -> list[str]:
    """The ``packages:`` list of a pnpm-workspace.yaml (block or flow style), without a YAML
    library: only this key is read, and only plain or quoted scalar items."""
    globs: list[str] = []
    inside = False
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            key, _, rest = line.partition(":")
            inside = key.strip() == "packages"
            if inside and rest.strip().startswith("["):
                globs += [i.strip().strip("'\"") for i in rest.strip().strip("[]").split(",")]
                inside = False
            continue
        item = line.strip()
        if inside and item.startswith("-"):
            globs.append(item[1:].strip().strip("'\""))
    return [g for g in globs if g]


def _workspace_declarations(root: Path, files: Collection[str]) -> list[tuple[str, list[str]]]:
    """Every workspace declaration of the universe: (declaring folder, globs with ``!``)."""
    found: list[tuple[str, list[str]]] = []
    for file in sorted(files):
        name = file.rpartition("/")[2]
        if name == "pnpm-workspace.yaml":
            try:
                text = read_regular_file(root / file, 1024 * 1024).decode("utf-8", "replace")
            except (OSError, InputError):
                continue
            found.append((parent_dir(file), _pnpm_packages(text)))
        elif name == "package.json":
            data = read_jsonc_file(root, file)
            if isinstance(data, dict) and "workspaces" in data:
                found.append((parent_dir(file), _workspace_globs(data["workspaces"])))
    return found


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

    def entry_candidates(self) -> list[str]:
        """Root-relative candidate paths for the bare package name, in preference order."""
        candidates = _expand_target(self.directory, self.exports.get("."), None)
        candidates += [join_path(self.directory, v) for v in self.entry_fields]
        candidates.append(self.directory)
        candidates.append(join_path(self.directory, "src"))
        return candidates

    def subpath_candidates(self, sub: str) -> list[str]:
        """Root-relative candidate paths for ``name/sub``, in preference order."""
        key = f"./{sub}"
        candidates: list[str] = []
        found = _index_of(self.exports).lookup(key)
        if found is not None:
            candidates += _expand_target(self.directory, found[0], found[1])
        candidates.append(join_path(self.directory, sub))
        return candidates


class WorkspaceIndex:
    """Named packages of the universe by name (the shallowest manifest wins a duplicate name)."""

    def __init__(self, root: Path, files: Collection[str]) -> None:
        manifests = sorted(
            (f for f in files if f == "package.json" or f.endswith("/package.json")),
            key=lambda f: (f.count("/"), f),
        )
        declarations = _workspace_declarations(root, files)
        self._packages: dict[str, WorkspacePackage] = {}
        self._entry_targets: dict[str, tuple[str, ...]] = {}
        self._route_directories: set[str] = set()
        self._imports: dict[str, dict[str, object]] = {}
        # Every package of a name: nested workspaces (templates, examples) reuse names.
        self._namesakes: dict[str, list[WorkspacePackage]] = {}
        for manifest in manifests:
            data = read_jsonc_file(root, manifest)
            if not isinstance(data, dict):
                continue
            self._entry_targets[parent_dir(manifest)] = _declared_targets(
                parent_dir(manifest), data
            )
            imports = data.get("imports")
            self._imports[parent_dir(manifest)] = imports if isinstance(imports, dict) else {}
            if _uses_file_routing(data):
                self._route_directories.update(
                    join_path(parent_dir(manifest), r) for r in ROUTE_DIRECTORIES
                )
            name = data.get("name")
            if not isinstance(name, str) or not name:
                continue
            directory = parent_dir(manifest)
            fields = tuple(
                v for f in ENTRY_FIELDS if isinstance(v := data.get(f), str) and v.strip()
            )
            if declarations and not _is_member(directory, declarations):
                continue  # not included by any workspace declaration (or excluded with `!`)
            package = WorkspacePackage(
                name=name,
                directory=directory,
                manifest=manifest,
                exports=_subpath_map(data.get("exports")),
                entry_fields=fields,
            )
            self._packages.setdefault(name, package)
            self._namesakes.setdefault(name, []).append(package)

    def import_candidates(self, specifier: str, importer_dir: str) -> tuple[list[str], str] | None:
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
        return _expand_target(current, found[0], found[1]), current

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

    def candidates(
        self, specifier: str, importer_dir: str = "."
    ) -> list[tuple[str, bool, str]] | None:
        """``(candidate path, through the manifest, package directory)`` in preference order
        if ``specifier`` names a workspace package, else ``None``.

        Every candidate is "through the manifest" (an entry point the package publishes)
        except the plain ``<package>/<sub>`` path that a subpath falls back on. When several
        packages share the name (nested workspaces: each template of a repository with its
        own ``@workspace/ui``), the one closest to the importer wins: the longest common
        folder prefix, then the shallowest.
        """
        split = split_package_specifier(specifier)
        if split is None:
            return None
        namesakes = self._namesakes.get(split[0])
        if not namesakes:
            return None
        package = namesakes[0]
        if len(namesakes) > 1:
            package = max(namesakes, key=lambda p: _shared_depth(p.directory, importer_dir))
        directory = package.directory
        if not split[1]:
            return [(c, True, directory) for c in package.entry_candidates()]
        found = package.subpath_candidates(split[1])
        raw = found[-1]
        return [(c, True, directory) for c in found[:-1]] + [(raw, False, directory)]
