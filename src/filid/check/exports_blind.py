"""Importers whose toolchain never reads a package's ``exports`` map, or whose import
aliases filid cannot know, so an unpublished deep import is no claim there (issue 23, judge
round E; docs/rules.md says why).

- The importer's tsconfig extends a relative config that is not in the project: a config the
  framework generates (Nuxt's ``./.nuxt/tsconfig.json``, SvelteKit's
  ``./.svelte-kit/tsconfig.json``), which carries the ``paths`` of the aliases the framework
  and its modules set. vuestic-ui's docs (a Nuxt app) alias ``vuestic-ui/src`` to the UI
  package's sources in a local module (``nuxt.options.alias[…] = …``): the deep import is an
  alias Nuxt's bundler and tsc resolve first, and filid cannot see the aliases.
- The importer's package is bundled by webpack 4 or older (its nearest manifest that names
  ``webpack`` allows no major above 4) and its TypeScript resolution ignores ``exports``
  (node10/classic, ``Resolver.honours_exports`` is False): webpack supports ``exports`` from
  version 5 and node10 resolution never reads it, so the import resolves through the
  workspace link in every tool that reads the file (react-select's ``docs/`` workspace,
  ``module: commonjs`` and ``webpack ^4.30.0``).
"""

from __future__ import annotations

import re

from filid.check.manifest_dependencies import declared_dependencies
from filid.check.project import Project
from filid.graph.compiler_paths import join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.model.errors import InputError

__all__ = ["ExportsBlind"]

_MAJOR = re.compile(r"^[\^~=v]*(\d+)")
_FIRST_EXPORTS_WEBPACK = 5


class ExportsBlind:
    """Answers, per importing file, whether its toolchain is blind to ``exports`` or its
    aliases are unknown (see the module docstring); each config and manifest read once."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files = frozenset(project.tree.files)
        self._generated_base: dict[str, bool] = {}
        self._old_webpack: dict[str, bool] = {}

    def holds(self, importer: str) -> bool:
        """Whether an unpublished deep import in ``importer`` is no claim."""
        directory = parent_dir(importer)
        resolver = self._project.resolver
        options = resolver.tsconfigs.for_file(importer)
        if options is not None and self._extends_generated_config(options.config):
            return True
        return resolver.honours_exports(importer) is False and self._bundled_by_old_webpack(
            directory
        )

    def _extends_generated_config(self, config: str) -> bool:
        """Whether ``config`` or a relative base it extends names a relative base that is not
        a file of the project (a generated config)."""
        found = self._generated_base.get(config)
        if found is not None:
            return found
        self._generated_base[config] = False  # a cycle in `extends` ends here
        try:
            data = read_jsonc_file(self._project.root, config)
        except InputError:
            data = None
        raw = data.get("extends") if isinstance(data, dict) else None
        values = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
        found = False
        for value in values:
            if not isinstance(value, str) or not value.startswith(("./", "../")):
                continue
            base = join_path(parent_dir(config), value)
            present = next((c for c in (base, f"{base}.json") if c in self._files), None)
            if present is None or self._extends_generated_config(present):
                found = True
                break
        self._generated_base[config] = found
        return found

    def _bundled_by_old_webpack(self, directory: str) -> bool:
        """Whether the nearest manifest at or above ``directory`` that names ``webpack``
        among its dependencies allows only majors below 5."""
        walked: list[str] = []
        current = directory
        found = False
        while True:
            if current in self._old_webpack:
                found = self._old_webpack[current]
                break
            walked.append(current)
            verdict = self._webpack_verdict(join_path(current, "package.json"))
            if verdict is not None:
                found = verdict
                break
            if current == ".":
                break
            current = parent_dir(current)
        for folder in walked:
            self._old_webpack[folder] = found
        return found

    def _webpack_verdict(self, manifest: str) -> bool | None:
        """None when ``manifest`` is absent or names no ``webpack``; else whether its range
        allows only majors below 5."""
        if manifest not in self._files:
            return None
        for name, version in declared_dependencies(self._project.root, manifest):
            if name == "webpack" and isinstance(version, str):
                return _only_majors_below(version, _FIRST_EXPORTS_WEBPACK)
        return None


def _only_majors_below(version_range: str, limit: int) -> bool:
    """Whether every alternative of an npm ``version_range`` is bounded below major
    ``limit`` (``^4.30.0``, ``~4.46``, ``4.x``); an open lower bound (``>=4``), a tag or a
    workspace protocol may reach a newer major and answers False."""
    alternatives = [part.strip() for part in version_range.split("||")]
    if not alternatives or not all(alternatives):
        return False
    for alternative in alternatives:
        comparators = alternative.split()
        if any(c.startswith(">") for c in comparators) and not any(
            c.startswith("<") for c in comparators
        ):
            return False
        for comparator in comparators:
            if comparator.startswith(">"):
                continue
            match = _MAJOR.match(comparator.lstrip("<="))
            if match is None:
                return False
            major = int(match.group(1))
            if comparator.startswith("<") and not comparator.startswith("<="):
                if major > limit:
                    return False
            elif major >= limit:
                return False
    return True
