"""Deno's compiler options: ``compilerOptions.rootDirs`` in a ``deno.json``/``deno.jsonc``.

Decision (issue 23, after blind judge J2): a Deno project carries its compiler options in
its ``deno.json``/``deno.jsonc`` (JSON with comments and trailing commas), not in a tsconfig.
Where no tsconfig nearer than that file governs a source file, its ``rootDirs`` merge folders
as a tsconfig's do: react-router-templates' `deno/` template sets
``"rootDirs": [".", "./.react-router/types"]``, and `app/root.tsx` imports
``"./+types/root.ts"``, which `react-router typegen` writes into the git-ignored
`.react-router/types/app/`. Such a relative import is then not judged, exactly as under a
tsconfig with ``rootDirs`` (``Resolver.is_judged_unresolved``). A Deno config without
``rootDirs``, or one a nearer tsconfig overrides, changes nothing. Its ``imports`` map is not
read: with no tsconfig, filid judges no bare or aliased specifier, so an unmapped
``~/x`` is never claimed.
"""

from __future__ import annotations

from filid.check.project import Project
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.model.errors import InputError

__all__ = ["DenoRootDirs"]

_NAMES = ("deno.json", "deno.jsonc")


class DenoRootDirs:
    """Which folders a Deno config's ``rootDirs`` governs (no nearer tsconfig)."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files = frozenset(project.tree.files)
        self._maps: dict[str, bool] = {}

    def maps(self, file: str) -> bool:
        """Whether the Deno config nearest ``file`` sets ``rootDirs`` and no tsconfig nearer
        than it governs ``file``."""
        directory = parent_dir(file)
        current = directory
        while True:
            config = next(
                (join_path(current, n) for n in _NAMES if join_path(current, n) in self._files),
                None,
            )
            if config is not None:
                break
            if current == ".":
                return False
            current = parent_dir(current)
        options = self._project.resolver.tsconfigs.for_file(file)
        if options is not None and is_within(parent_dir(options.config), current):
            return False  # a tsconfig at or below the Deno config's folder governs the file
        found = self._maps.get(config)
        if found is None:
            found = self._maps[config] = self._sets_root_dirs(config)
        return found

    def _sets_root_dirs(self, config: str) -> bool:
        try:
            data = read_jsonc_file(self._project.root, config, empty={})
        except InputError:
            return False
        options = data.get("compilerOptions") if isinstance(data, dict) else None
        root_dirs = options.get("rootDirs") if isinstance(options, dict) else None
        return isinstance(root_dirs, list) and bool(root_dirs)
