"""One ``package.json`` as resolution reads it: ``exports``/``imports`` targets with their
conditions, the entry fields, every file it declares as an entry (SPEC §1), and whether the
package uses a file-routing framework."""

from __future__ import annotations

from dataclasses import dataclass

from filid.graph.patterns import PatternIndex
from filid.graph.tsconfig import join_path

PREFERRED_CONDITIONS = ("types", "import", "default", "require")
ENTRY_FIELDS = ("types", "typings", "module", "main")
# Conditions objects nest; real manifests stay shallow, this only stops pathological input.
_MAX_CONDITION_DEPTH = 16


def expand_target(
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
            for p in expand_target(directory, item, star, depth + 1, conditions)
        ]
    if isinstance(target, dict):
        preferred = (*conditions, *PREFERRED_CONDITIONS) if conditions else PREFERRED_CONDITIONS
        keys = list(dict.fromkeys(k for k in preferred if k in target))
        keys += [k for k in target if isinstance(k, str) and k not in preferred]
        return [
            p
            for k in keys
            for p in expand_target(directory, target[k], star, depth + 1, conditions)
        ]
    return []  # null blocks a subpath; anything else is malformed


def subpath_map(exports: object) -> dict[str, object]:
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


def uses_file_routing(data: dict[str, object]) -> bool:
    """Whether a manifest depends on a file-routing framework (:data:`ROUTING_FRAMEWORKS`)."""
    for field in ("dependencies", "devDependencies", "peerDependencies"):
        deps = data.get(field)
        if isinstance(deps, dict) and any(name in ROUTING_FRAMEWORKS for name in deps):
            return True
    return False


_INDEXES: dict[int, tuple[dict[str, object], PatternIndex[object]]] = {}


def index_of(mapping: dict[str, object]) -> PatternIndex[object]:
    """The pattern index of an ``exports``/``imports`` map (built once per map)."""
    cached = _INDEXES.get(id(mapping))
    if cached is None or cached[0] is not mapping:
        if len(_INDEXES) > 4096:
            _INDEXES.clear()  # a long-lived MCP server sees many projects
        cached = (mapping, PatternIndex((k, v) for k, v in mapping.items() if isinstance(k, str)))
        _INDEXES[id(mapping)] = cached
    return cached[1]


def declared_targets(directory: str, data: dict[str, object]) -> tuple[str, ...]:
    """Every file a manifest declares as an entry (SPEC §1): each ``exports`` target (every
    subpath and condition; ``*`` patterns left out), ``main``, ``module``, ``types``,
    ``typings`` and ``bin`` (a string or a map)."""
    targets: list[str] = []
    for key, target in subpath_map(data.get("exports")).items():
        if "*" not in key:
            targets += [t for t in expand_target(directory, target, None) if "*" not in t]
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
        candidates = expand_target(self.directory, self.exports.get("."), None, 0, conditions)
        candidates += [join_path(self.directory, v) for v in self.entry_fields]
        candidates.append(self.directory)
        candidates.append(join_path(self.directory, "src"))
        return candidates

    def subpath_candidates(self, sub: str, conditions: tuple[str, ...] = ()) -> list[str]:
        """Root-relative candidate paths for ``name/sub``, in preference order."""
        key = f"./{sub}"
        candidates: list[str] = []
        found = index_of(self.exports).lookup(key)
        if found is not None:
            candidates += expand_target(self.directory, found[0], found[1], 0, conditions)
        candidates.append(join_path(self.directory, sub))
        return candidates
