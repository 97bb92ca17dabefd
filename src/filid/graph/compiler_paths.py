"""Where a tsconfig's ``paths`` send a specifier: aliases, the effective options a resolver
reads, and the root-relative POSIX path arithmetic every graph stage shares."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from filid.graph.patterns import PatternIndex

__all__ = ["CompilerPaths", "PathAlias", "is_within", "join_path", "parent_dir", "parse_aliases"]


def parent_dir(path: str) -> str:
    """The root-relative directory holding ``path`` (``"."`` at the top)."""
    head, sep, _ = path.rpartition("/")
    return head if sep else "."


def is_within(path: str, directory: str) -> bool:
    """Whether root-relative ``path`` is ``directory`` or lies inside it (``.``: the root)."""
    return directory == "." or path == directory or path.startswith(directory + "/")


def join_path(directory: str, relative: str) -> str:
    """Join a root-relative directory and a relative path, normalised (may start with ``..``)."""
    if relative.startswith("/"):
        # An absolute filesystem path never names a root-relative universe file.
        return posixpath.normpath(relative)
    return posixpath.normpath(relative if directory == "." else f"{directory}/{relative}")


@dataclass(frozen=True, slots=True)
class PathAlias:
    """One ``compilerOptions.paths`` entry: a pattern with at most one ``*``."""

    pattern: str
    prefix: str
    suffix: str
    has_wildcard: bool
    substitutions: tuple[str, ...]

    def match(self, specifier: str) -> str | None:
        """The text ``*`` captures (``""`` for an exact pattern), or ``None`` if no match."""
        if not self.has_wildcard:
            return "" if specifier == self.pattern else None
        if (
            len(specifier) >= len(self.prefix) + len(self.suffix)
            and specifier.startswith(self.prefix)
            and specifier.endswith(self.suffix)
        ):
            return specifier[len(self.prefix) : len(specifier) - len(self.suffix)]
        return None

    @property
    def is_catch_all(self) -> bool:
        """True for the pattern ``*``, which matches every bare specifier (packages too)."""
        return self.has_wildcard and not self.prefix and not self.suffix


@dataclass(frozen=True, slots=True)
class CompilerPaths:
    """The resolution options in effect for files under one tsconfig/jsconfig.

    ``paths_base`` is the root-relative directory ``paths`` substitutions are joined to;
    ``base_url`` the root-relative ``baseUrl`` directory, if any config in the chain sets one.
    ``aliases`` are in match order: exact patterns first, then wildcards by longest prefix.
    """

    config: str
    base_url: str | None
    paths_base: str
    aliases: tuple[PathAlias, ...]
    out_dir: str | None = None
    root_dir: str | None = None
    # ``module``/``moduleResolution`` (lower case) as the chain sets them, for fixes that must
    # spell a new relative import the way the compiler demands (node16/nodenext: ``.js``).
    module: str | None = None
    module_resolution: str | None = None
    # ``customConditions``: extra ``exports``/``imports`` conditions, matched before the usual.
    custom_conditions: tuple[str, ...] = ()
    # ``rootDirs`` is set: relative imports may resolve through a virtual merged folder
    # (React Router's ``./+types/x`` into ``.react-router/types``), which filid does not model.
    has_root_dirs: bool = False
    # ``verbatimModuleSyntax``, ``preserveValueImports`` or ``importsNotUsedAsValues``
    # ``preserve``/``error``: an import whose bindings are read only as types stays at emit.
    keeps_value_imports: bool = False
    # A base of the ``extends`` chain could not be read (a package base in ``node_modules``,
    # a missing relative base): options it may set are unknown.
    has_unread_base: bool = False

    @property
    def honours_exports(self) -> bool | None:
        """Whether TypeScript's module resolution here reads a package's ``exports`` map:
        ``moduleResolution`` node16, nodenext or bundler (set, or implied by ``module``
        node16/nodenext/preserve). node10 (``node``) and classic ignore ``exports``; so does
        the default when neither option is set (classic, or node10 with ``module``
        commonjs). None when an unread base of the ``extends`` chain may set the answer."""
        resolution = self.module_resolution
        if resolution is None:
            implied = {"node16": "node16", "nodenext": "nodenext", "preserve": "bundler"}
            resolution = implied.get(self.module or "")
            if resolution is None and self.has_unread_base:
                return None
        return resolution in ("node16", "nodenext", "bundler")

    @property
    def needs_extensions(self) -> bool:
        """Whether relative imports must name their ``.js`` file (node16/nodenext)."""
        values = {self.module, self.module_resolution}
        if self.module_resolution in ("bundler", "node", "node10", "classic"):
            return False
        return bool(values & {"node16", "nodenext"})

    def match_alias(self, specifier: str) -> tuple[PathAlias, tuple[str, ...]] | None:
        """The alias that applies to ``specifier`` and its candidate paths, root-relative."""
        index = _ALIAS_INDEXES.get(id(self.aliases))
        if index is None or index[0] is not self.aliases:
            if len(_ALIAS_INDEXES) > 4096:
                _ALIAS_INDEXES.clear()  # a long-lived MCP server sees many projects
            index = (self.aliases, PatternIndex((a.pattern, a) for a in self.aliases))
            _ALIAS_INDEXES[id(self.aliases)] = index
        found = index[1].lookup(specifier)
        if found is None:
            return None
        alias, captured = found
        candidates = tuple(
            join_path(self.paths_base, sub.replace("*", captured or "", 1))
            for sub in alias.substitutions
        )
        return alias, candidates


# One pattern index per distinct `paths` tuple (configs that extend one base share it).
_ALIAS_INDEXES: dict[int, tuple[tuple[PathAlias, ...], PatternIndex[PathAlias]]] = {}


def parse_aliases(raw: object) -> tuple[PathAlias, ...] | None:
    if not isinstance(raw, dict):
        return None
    exact: list[PathAlias] = []
    wildcard: list[PathAlias] = []
    for pattern, targets in raw.items():
        if not isinstance(pattern, str) or not isinstance(targets, list):
            continue
        subs = tuple(t for t in targets if isinstance(t, str))
        stars = pattern.count("*")
        if stars == 0:
            exact.append(PathAlias(pattern, pattern, "", False, subs))
        elif stars == 1:
            prefix, _, suffix = pattern.partition("*")
            wildcard.append(PathAlias(pattern, prefix, suffix, True, subs))
        # TypeScript rejects patterns with several ``*``; they never match.
    # Stable sort: equal prefixes keep their declaration order, as in TypeScript.
    wildcard.sort(key=lambda a: -len(a.prefix))
    return (*exact, *wildcard)
