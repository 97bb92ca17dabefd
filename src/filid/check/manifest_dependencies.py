"""What a package's ``package.json`` says it depends on, for the undeclared claims that ask
which toolchain builds a folder (React Native's Metro, Redwood's directory-named imports, a
webpack 4 that reads no ``exports``).

A manifest that cannot be read (missing, not JSON, not an object) declares nothing: the
claims that ask fall back to their default, never to an error about the manifest.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from filid.graph.jsonc import read_jsonc_file
from filid.model.errors import InputError

__all__ = ["DEPENDENCY_FIELDS", "declared_dependencies"]

# The fields whose names a package builds or runs with (optional and bundled ones add none
# a build reads that these miss).
DEPENDENCY_FIELDS = ("dependencies", "devDependencies", "peerDependencies")


def declared_dependencies(root: Path, manifest: str) -> Iterator[tuple[str, object]]:
    """(name, version range) of every dependency ``manifest`` (root-relative) declares, in
    field order (``DEPENDENCY_FIELDS``) then key order; nothing when it cannot be read."""
    try:
        data = read_jsonc_file(root, manifest)
    except InputError:
        return
    if not isinstance(data, dict):
        return
    for field in DEPENDENCY_FIELDS:
        table = data.get(field)
        if isinstance(table, dict):
            yield from table.items()
