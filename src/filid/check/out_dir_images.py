"""Imports of a package's own tsc output: the ``outDir`` image of a tracked source.

Decision (issue 23, after blind judge J2): a relative import from a file of a package that
names a missing file inside the ``outDir`` of one of that package's own tsconfigs (a
``tsconfig*.json`` in the package folder that sets ``rootDir`` and ``outDir`` and emits),
where the source that tsc compiles into exactly that file exists and that config's program
takes it in, names build output: ``tsc -p`` writes it. artillery's `packages/artillery/util.js`
is a published shim, ``export * from './dist/lib/util.js'``, beside ``tsconfig.build.json``
(``rootDir: "."``, ``outDir: "./dist"``, ``include: ["./lib/**/*.ts"]``) and the tracked
``lib/util.ts``; its ``dist/`` is not git-ignored only because the root ``.gitignore``'s
``dist/**`` is anchored at the root. The output name must be the source's emitted name
(``x.ts``/``x.tsx`` → ``x.js``, ``x.mts`` → ``x.mjs``, ``x.cts`` → ``x.cjs``, and their
declaration files): a path in the ``outDir`` whose source is gone (a deleted
``lib/gone.ts``), or one no config of the package emits, is still claimed.
"""

from __future__ import annotations

from collections.abc import Iterable

from filid.check.project import Project
from filid.graph.compiler_paths import is_within, join_path, parent_dir

__all__ = ["OutDirImages"]

# An emitted file's extension → the sources tsc emits it from (JavaScript sources only under
# ``allowJs``, which ``program_includes`` decides).
_SOURCES_OF = (
    (".d.ts", (".ts", ".tsx")),
    (".d.mts", (".mts",)),
    (".d.cts", (".cts",)),
    (".js", (".ts", ".tsx", ".js", ".jsx")),
    (".mjs", (".mts", ".mjs")),
    (".cjs", (".cts", ".cjs")),
)


class OutDirImages:
    """Which unresolved relative imports name the ``outDir`` image of a tracked source."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files = frozenset(project.tree.files)
        self._layouts: dict[str, tuple[tuple[str, str, str], ...]] = {}
        self._configs: dict[str, list[str]] | None = None  # tsconfig*.json by folder

    def resolves(self, file: str, bases: Iterable[str]) -> bool:
        """Whether one of ``bases`` (the paths the relative import in ``file`` stands for)
        is the emitted image of a source under a tsconfig of ``file``'s package."""
        package = self._package_of(parent_dir(file))
        if package is None:
            return False
        layouts = self._layouts_of(package)
        return any(self._is_image(base, layout) for base in bases for layout in layouts if base)

    def _is_image(self, target: str, layout: tuple[str, str, str]) -> bool:
        config, root_dir, out_dir = layout
        if target in self._files or target == out_dir or not is_within(target, out_dir):
            return False
        rest = target[len(out_dir) + 1 :] if out_dir != "." else target
        source_base = join_path(root_dir, rest)
        if is_within(source_base, out_dir):
            return False  # rootDir holds the outDir: the image would be a source itself
        tsconfigs = self._project.resolver.tsconfigs
        for emitted, sources in _SOURCES_OF:
            if not source_base.endswith(emitted):
                continue
            stem = source_base[: -len(emitted)]
            for suffix in sources:
                source = stem + suffix
                if source in self._files and tsconfigs.program_includes(config, source):
                    return True
            return False
        return False

    def _package_of(self, directory: str) -> str | None:
        """The nearest folder at or above ``directory`` holding a ``package.json``."""
        current = directory
        while True:
            if join_path(current, "package.json") in self._files:
                return current
            if current == ".":
                return None
            current = parent_dir(current)

    def _layouts_of(self, package: str) -> tuple[tuple[str, str, str], ...]:
        """(config, rootDir, outDir) of each emitting ``tsconfig*.json`` in ``package``'s
        folder whose ``outDir`` lies inside the package."""
        found = self._layouts.get(package)
        if found is not None:
            return found
        if self._configs is None:
            self._configs = {}
            for path in self._files:
                name = path.rpartition("/")[2]
                if name.startswith("tsconfig") and name.endswith(".json"):
                    self._configs.setdefault(parent_dir(path), []).append(path)
        layouts: list[tuple[str, str, str]] = []
        tsconfigs = self._project.resolver.tsconfigs
        for config in sorted(self._configs.get(package, ())):
            dirs = tsconfigs.emit_dirs(config)
            if dirs is not None and is_within(dirs[1], package) and dirs[1] != package:
                layouts.append((config, *dirs))
        found = self._layouts[package] = tuple(layouts)
        return found
