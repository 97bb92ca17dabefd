"""Which universe file a candidate path stands for: TypeScript's extension probing.

A candidate resolves by: the exact file; a ``.js/.jsx/.mjs/.cjs`` extension swapped for its
TypeScript twin; each source extension appended; ``<path>/index`` plus each extension.
Existence is checked against the file universe (a set), never the filesystem.
"""

from __future__ import annotations

from collections.abc import Collection

SOURCE_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
# What an extensionless candidate tries, in order: sources, then declaration files.
PROBE_EXTENSIONS = (*SOURCE_EXTENSIONS, ".d.ts", ".d.mts", ".d.cts")
DECLARATION_TWINS = {".js": (".d.ts",), ".mjs": (".d.mts",), ".cjs": (".d.cts",)}
# What a specifier spelled with a declaration extension finds when that file is absent.
DECLARATION_SOURCES = {".d.ts": (".ts", ".tsx"), ".d.mts": (".mts",), ".d.cts": (".cts",)}
TS_TWINS = {
    ".js": (".ts", ".tsx"),
    ".jsx": (".tsx",),
    ".mjs": (".mts",),
    ".cjs": (".cts",),
}


def strip_query(path: str) -> list[str]:
    """``path``, then ``path`` without a bundler suffix (``./x.svg?raw``, ``./x#frag``): the
    suffix names the file before it."""
    candidates = [path]
    for mark in ("?", "#"):
        if mark in path:
            candidates.append(path.split(mark, 1)[0])
    return candidates


def probe_candidate(files: Collection[str], path: str) -> str | None:
    """The file of ``files`` the root-relative candidate ``path`` stands for, or ``None``."""
    if path.startswith(("../", "/")) or path == "..":
        return None  # outside the project root
    # TypeScript's order: a .js-style extension tries its TypeScript twin first (x.ts
    # wins over x.js), then the exact file, then each extension appended (declaration
    # files last), then the folder's index likewise.
    stem, dot, ext = path.rpartition(".")
    if dot and "/" not in ext:
        for twin in TS_TWINS.get(f".{ext}", ()):
            if f"{stem}{twin}" in files:
                return f"{stem}{twin}"
        for declaration in DECLARATION_TWINS.get(f".{ext}", ()):
            if f"{stem}{declaration}" in files and path not in files:
                return f"{stem}{declaration}"
    if path in files:
        return path
    for declaration, sources in DECLARATION_SOURCES.items():
        # `import type { T } from './types.d.ts'` finds `types.ts` (tsc strips `.d.ts` and
        # probes like an extensionless path: netlify/cli under nodenext)
        if path.endswith(declaration):
            base = path[: -len(declaration)]
            for source in sources:
                if f"{base}{source}" in files:
                    return f"{base}{source}"
    for ext_ in PROBE_EXTENSIONS:
        if f"{path}{ext_}" in files:
            return f"{path}{ext_}"
    index = "index" if path == "." else f"{path}/index"
    for ext_ in PROBE_EXTENSIONS:
        if f"{index}{ext_}" in files:
            return f"{index}{ext_}"
    return None
