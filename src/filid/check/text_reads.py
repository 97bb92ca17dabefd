"""Files a project reads only as text (``?raw``/``?url``, from a source file or an Astro
component's frontmatter): data, not modules, whose imports are never judged (issue 23)."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from filid.check.project import Project
from filid.graph.compiler_paths import parent_dir
from filid.graph.module_graph import package_of
from filid.model.errors import InputError
from filid.parse import parse_source
from filid.store.files import read_regular_file

__all__ = ["read_as_text"]

_TEXT_QUERIES = frozenset({"raw", "url"})
_MAX_COMPONENT_BYTES = 1024 * 1024


def _reads_as_text(specifier: str) -> bool | None:
    """True for a bundler query that reads a file as text or a URL (``?raw``, ``?url``), False
    for any other import, None for a specifier without a query."""
    head, mark, query = specifier.partition("?")
    if not mark or not head:
        return None
    return any(part.partition("=")[0] in _TEXT_QUERIES for part in query.split("&"))


def read_as_text(project: Project, files: Collection[str]) -> frozenset[str]:
    """Those of ``files`` the project reads only as text: some import names them with
    ``?raw``/``?url`` and none imports them as a module (a source file's import, or one in the
    frontmatter of an Astro component, which filid does not otherwise read).

    Decision (issue 23, SPEC §0 is silent): such a file is data, not a module of the program;
    its imports are shown, never resolved. Hey API's website shows
    ``previews/trading/typescript/output.ts`` with ``import codeOutput from
    './previews/trading/typescript/output?raw'`` in ``HowItWorks.astro``; the sample's
    ``./trading-client`` exists in no project, on purpose."""
    module: set[str] = set()
    text: set[str] = set()
    wanted = set(files)
    for edge in project.file_graph.edges:
        if edge.target in wanted:
            (text if _reads_as_text(edge.fact.specifier or "") else module).add(edge.target)
    pending = wanted - module
    if not pending:
        return frozenset()
    packages = project.resolver.package_directories() | {"."}
    by_package: dict[str | None, set[str]] = {}
    for file in pending:
        by_package.setdefault(package_of(file, packages), set()).add(file)
    stems = {file.rpartition("/")[2].partition(".")[0].encode() for file in pending}
    for component in project.tree.files:
        if not component.endswith(".astro"):
            continue
        targets = by_package.get(package_of(component, packages))
        if not targets:
            continue
        script = _astro_frontmatter(project.root, component)
        if not script or not any(stem in script for stem in stems):
            continue
        directory = parent_dir(component)
        for fact in parse_source(f"{component}.ts", script, full=False).imports:
            if fact.specifier is None:
                continue
            head = fact.specifier.partition("?")[0]
            target = project.resolver.resolve_from(directory, head).target
            if target in targets:
                (text if _reads_as_text(fact.specifier) else module).add(target)
    return frozenset(text - module)


def _astro_frontmatter(root: Path, component: str) -> bytes:
    """The component script of an Astro file: the lines between its opening ``---`` fence
    (the file's first non-blank line) and the next ``---`` line; empty without one."""
    try:
        text = read_regular_file(root / component, _MAX_COMPONENT_BYTES)
    except (OSError, InputError):
        return b""
    lines = text.splitlines(keepends=True)
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start == len(lines) or lines[start].strip() != b"---":
        return b""
    for end in range(start + 1, len(lines)):
        if lines[end].strip() == b"---":
            # blank lines keep the script's line numbers those of the file
            return b"\n" * (start + 1) + b"".join(lines[start + 1 : end])
    return b""
