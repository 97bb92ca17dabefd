"""Workspace packages: a ``package.json`` with a ``name`` inside the project (SPEC §4).

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

from filid.graph.jsonc import read_jsonc_file
from filid.graph.tsconfig import join_path, parent_dir

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
        if key in self.exports:
            candidates += _expand_target(self.directory, self.exports[key], None)
        else:
            best: tuple[int, str, str] | None = None
            for pattern in self.exports:
                prefix, star, suffix = pattern.partition("*")
                if (
                    star
                    and len(key) >= len(prefix) + len(suffix)
                    and key.startswith(prefix)
                    and key.endswith(suffix)
                    and (best is None or len(prefix) > best[0])
                ):
                    best = (len(prefix), pattern, key[len(prefix) : len(key) - len(suffix)])
            if best is not None:
                candidates += _expand_target(self.directory, self.exports[best[1]], best[2])
        candidates.append(join_path(self.directory, sub))
        return candidates


class WorkspaceIndex:
    """Named packages of the universe by name (the shallowest manifest wins a duplicate name)."""

    def __init__(self, root: Path, files: Collection[str]) -> None:
        manifests = sorted(
            (f for f in files if f == "package.json" or f.endswith("/package.json")),
            key=lambda f: (f.count("/"), f),
        )
        self._packages: dict[str, WorkspacePackage] = {}
        self._entry_targets: dict[str, tuple[str, ...]] = {}
        self._route_directories: set[str] = set()
        # Every package of a name: nested workspaces (templates, examples) reuse names.
        self._namesakes: dict[str, list[WorkspacePackage]] = {}
        for manifest in manifests:
            data = read_jsonc_file(root, manifest)
            if not isinstance(data, dict):
                continue
            self._entry_targets[parent_dir(manifest)] = _declared_targets(
                parent_dir(manifest), data
            )
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
            package = WorkspacePackage(
                name=name,
                directory=directory,
                manifest=manifest,
                exports=_subpath_map(data.get("exports")),
                entry_fields=fields,
            )
            self._packages.setdefault(name, package)
            self._namesakes.setdefault(name, []).append(package)

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
