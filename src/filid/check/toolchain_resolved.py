"""Unresolved imports the project's own toolchain resolves where filid can show how (issue 23,
after blind judges H1 and H2; docs/rules.md, "After blind judges H1 and H2").

One place for the answers ``check.generated_code`` asks of an import that finds no file:

- a folder's ``index.json`` from unchecked JavaScript (``check.json_index``);
- a scaled image Metro loads in a React Native project (``check.metro_assets``);
- a tsconfig alias in a file that tsconfig's program does not take in, which a build tool
  config's alias prefix maps (``check.bundler_aliases``, ``names_prefix``);
- a relative import of a TutorialKit lesson's ``_files``/``_solution``, laid over its
  template (``check.tutorialkit``);
- a folder module of rollup-plugin-content (``check.content_plugin``);
- wmr's extension and folder-index rule (``check.wmr_extensions``);
- a file in a private template folder no outside file imports, which a script copies and
  completes elsewhere (``_comp-template_``: ``template_folder``);
- a folder whose ``package.json`` entry fields name files (``manifest_targets``: their
  presence, or git ignoring them, says a build writes them).
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from filid.check.bundler_aliases import BundlerAliases
from filid.check.content_plugin import ContentPluginImports
from filid.check.json_index import JsonIndexImports
from filid.check.metro_assets import MetroAssets
from filid.check.private_templates import PrivateTemplates, template_folder
from filid.check.project import Project
from filid.check.tutorialkit import TutorialKitLessons
from filid.check.wmr_extensions import WmrResolved
from filid.graph.compiler_paths import join_path
from filid.graph.jsonc import read_jsonc_file
from filid.model.errors import InputError

__all__ = ["ENTRY_FIELDS", "ToolchainResolved", "manifest_targets", "template_folder"]

# What resolves a folder import: Node's `main`, TypeScript's `types`/`typings`, a bundler's
# `module`.
ENTRY_FIELDS = ("main", "types", "typings", "module")


class ToolchainResolved:
    """Answers whether the project's toolchain resolves an unresolved import (module
    docstring); each answer reads what it needs once."""

    def __init__(self, project: Project, configs: dict[str, list[str]]) -> None:
        self._project = project
        self._json_index = JsonIndexImports(project)
        self._metro = MetroAssets(project)
        self._aliases = BundlerAliases(project.root, configs)
        self._content = ContentPluginImports(project.root, configs)
        self._tutorialkit = TutorialKitLessons(project)
        self._wmr = WmrResolved(project)
        self._templates = PrivateTemplates(project.file_graph.edges)

    def resolves(self, file: str, specifier: str, bases: Collection[str]) -> bool:
        """Whether ``file``'s ``specifier`` (whose candidate paths are ``bases``) resolves in
        the project's toolchain by one of the rules of the module docstring."""
        if self._json_index.resolves(file, bases):
            return True  # a folder's `index.json` (primereact)
        if self._metro.resolves(file, bases):
            return True  # `icon@2x.png` for `icon.png` (reactotron)
        if self._tutorialkit.resolves(file, specifier):
            return True  # a lesson's `_files` over its template (ngxs's create-app tutorial)
        if (
            not specifier.startswith((".", "/"))
            and not self._project.resolver.tsconfigs.compiles(file)
            and self._aliases.names_prefix(file, specifier)
        ):
            # tsc (and vite-tsconfig-paths) apply a tsconfig's `paths` only to the files its
            # program takes in; outside it the bundler's own alias of that prefix maps the
            # specifier (tdesign-miniprogram's `site.config.mjs`: Vite's `'@'`)
            return True
        if self._wmr.resolves(file, specifier, bases):
            return True  # `./pages/home.js` → `pages/home/index.js` (wmr's demo)
        return self._content.resolves(file, specifier)  # casl's `pages.pages`

    def in_template(self, file: str) -> bool:
        """Whether ``file`` lies in a private template folder (``template_folder``) no file
        outside it imports (arco-design-mobile's ``_comp-template_``,
        ``check.private_templates``)."""
        return self._templates.holds(file)


def manifest_targets(root: Path, directory: str) -> tuple[str, ...]:
    """The files ``directory``'s ``package.json`` entry fields name (``ENTRY_FIELDS``),
    root-relative, inside the project; none when it has no readable manifest. TypeScript and
    Node resolve a folder through them (tutanota's ``@tutao/mimimi`` folder, whose ``types``
    and ``main`` lie in napi-rs's git-ignored ``napi-out/``)."""
    if directory in ("", ".") or directory.startswith(("../", "/")):
        return ()
    if not os.path.isfile(root / directory / "package.json"):
        return ()
    try:
        data = read_jsonc_file(root, f"{directory}/package.json")
    except InputError:
        return ()
    if not isinstance(data, dict):
        return ()
    targets = (data.get(field) for field in ENTRY_FIELDS)
    return tuple(
        target
        for target in (join_path(directory, t) for t in targets if isinstance(t, str) and t)
        if not target.startswith("../")
    )
