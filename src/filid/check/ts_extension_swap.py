"""A type-only import spelled with the other TypeScript extension (issue 23, judge F1 P4).

TypeScript resolves a specifier ending in ``.ts`` or ``.tsx`` by dropping the extension and
probing again, ``.ts`` then ``.tsx`` (then ``.d.ts``) for either spelling, whatever the
``moduleResolution`` (checked with ``ts.resolveModuleName``, TypeScript 5.9): unleash's
``import type { NavigationMode } from './NavigationMode.tsx'`` finds ``NavigationMode.ts``,
``'../demo-topics.ts'`` finds ``demo-topics.tsx``. An import erased at emit (``import type``,
or one whose bindings are read only as types) is resolved by the type checker alone, so such
an import is no claim. A value import keeps its claim: a bundler (Vite, esbuild) looks for
the file as spelled, and the emitted or bundled code fails to load it.
"""

from __future__ import annotations

from collections.abc import Collection

from filid.graph.compiler_paths import join_path, parent_dir
from filid.model.facts import FileFacts, ImportKind

__all__ = ["resolves_by_ts_substitution"]

# The extension TypeScript also tries for a specifier spelled with the key.
_SIBLINGS = {".ts": (".tsx", ".d.ts"), ".tsx": (".ts", ".d.ts")}


def resolves_by_ts_substitution(
    files: Collection[str], facts: FileFacts | None, file: str, line: int, specifier: str
) -> bool:
    """Whether ``file``'s type-only import of the relative ``specifier`` at ``line`` finds a
    file by TypeScript's extension substitution (``./x.tsx`` → ``x.ts``)."""
    if facts is None or not specifier.startswith(("./", "../")):
        return False
    if specifier.endswith((".d.ts", ".d.tsx")):
        return False
    found = [f for f in facts.imports if f.line == line and f.specifier == specifier]
    if not found or any(f.kind is not ImportKind.TYPE and f.value_used for f in found):
        return False
    path = join_path(parent_dir(file), specifier)
    for extension, siblings in _SIBLINGS.items():
        if path.endswith(extension):
            stem = path[: -len(extension)]
            return any(f"{stem}{sibling}" in files for sibling in siblings)
    return False
