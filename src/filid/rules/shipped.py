"""What a package ships: the source files its entry points load (issue 23, SPEC §0).

Claims about shipped code (a package cycle, an import only a bundler resolves) start at each
package's entry points and follow runtime imports."""

from __future__ import annotations

from collections import deque

from filid.graph.compiler_paths import parent_dir
from filid.graph.cycles import is_type_import
from filid.graph.module_graph import package_of
from filid.rules.base import RuleContext
from filid.scan.classify import entry_stem
from filid.scan.universe import is_source_file

__all__ = ["is_tool_config", "unshipped_files"]


def unshipped_files(context: RuleContext, packages: frozenset[str]) -> frozenset[str]:
    """Source files of a package that its entry points never load.

    Decision (issue 23, SPEC §0 is silent): a package cycle is a claim about shipped code, so
    only an import from a file the packages load closes one. What loads starts at each
    package's entry points (manifest ``exports``/``main``/``bin``…, and ``index.*`` at the
    package root; every file of a package that declares none, such as an app) and follows
    runtime imports (not types, not from tests), across packages too. A seed script, a
    one-off migration or a local tool that imports another package is left out: documenso's
    ``packages/prisma/seed/*.ts`` imports test constants from ``app-tests``, which depends on
    ``prisma`` through ``lib``, yet no shipped code of ``prisma`` loads the seed. A tool's
    config (``is_tool_config``) is run by the tool, not loaded by the package: it is shipped
    only when shipped code imports it (webiny's ``packages/wcp/webiny.config.js`` requires
    the build kit ``@webiny/project-utils``, which closes no runtime cycle).
    """
    sources = [f for f in context.tree.files if is_source_file(f) and f not in context.test_files]
    by_package: dict[str, list[str]] = {}
    for file in sources:
        package = package_of(file, packages)
        if package is not None:
            by_package.setdefault(package, []).append(file)
    roots: set[str] = set()
    for package, files in by_package.items():
        prefix = "" if package == "." else package + "/"
        entries = [
            f
            for f in files
            if f in context.entry_files
            or (parent_dir(f) == package and entry_stem(f[len(prefix) :]) == "index")
        ]
        roots.update(entries or [f for f in files if not is_tool_config(f)])
    adjacency: dict[str, list[str]] = {}
    for edge in context.file_graph.edges:
        if not is_type_import(edge):
            adjacency.setdefault(edge.source, []).append(edge.target)
    loaded = set(roots)
    queue = deque(sorted(roots))
    while queue:
        for target in adjacency.get(queue.popleft(), []):
            if target not in loaded and target not in context.test_files:
                loaded.add(target)
                queue.append(target)
    return frozenset(f for files in by_package.values() for f in files if f not in loaded)


_SCRIPT_EXTENSIONS = frozenset({"js", "cjs", "mjs", "ts", "cts", "mts"})


def is_tool_config(path: str) -> bool:
    """Whether ``path`` names a tool's configuration script: ``<name>.config.<ext>``
    (``vite.config.ts``, ``jest.config.js``, ``webiny.config.js``) or a dot file
    (``.babelrc.js``, ``.eslintrc.cjs``), which a build, test or lint tool loads itself."""
    name = path.rpartition("/")[2]
    stem, _, extension = name.rpartition(".")
    if extension not in _SCRIPT_EXTENSIONS or not stem:
        return False
    return name.startswith(".") or stem.endswith(".config")
