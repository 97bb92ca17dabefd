"""Unresolved imports whose authors silenced their linter's unresolved-import rule on them.

meetfranz/franz's ``src/index.js`` reads
``import { appId } from './package.json'; // eslint-disable-line import/no-unresolved``: its
build copies the root ``package.json`` into ``build/`` beside the compiled file, where the
import resolves (judge J1 F3). The comment is the authors' own statement, read by the linter
they run, that the path resolves only where the file ends up.

Decision (issue 23, SPEC is silent): an unresolved import on a line that an eslint or oxlint
directive naming an unresolved-import rule silences — ``eslint-disable-line`` on its line,
``eslint-disable-next-line`` on the line before it, a ``/* eslint-disable … */`` block before
it not yet re-enabled — or that biome's ``biome-ignore lint/…/noUnresolvedImports`` precedes,
is not claimed (``parse.directives.silenced_lines``, the semantics the cycle directives use).
A bare directive naming no rule says nothing about resolution (it silences whatever its author
was looking at) and leaves the import claimed, as does a directive naming another rule. Only
the files holding an unresolved import and one of the rule names are parsed again.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from filid.model.errors import InputError
from filid.model.graph import UnresolvedImport
from filid.parse.directives import silenced_lines
from filid.parse.files import MAX_FILE_BYTES
from filid.parse.grammar import toolkit_for
from filid.store.files import read_regular_file

__all__ = ["UNRESOLVED_RULES", "lint_silenced"]

UNRESOLVED_RULES = frozenset(
    {
        "import/no-unresolved",
        "import-x/no-unresolved",
        "i/no-unresolved",
        "n/no-missing-import",
        "n/no-missing-require",
        "node/no-missing-import",
        "node/no-missing-require",
        "lint/correctness/noUnresolvedImports",
        "lint/nursery/noUnresolvedImports",
    }
)
_MARKS = (b"no-unresolved", b"no-missing-", b"noUnresolvedImports")


def lint_silenced(root: Path, unresolved: Iterable[UnresolvedImport]) -> set[tuple[str, str]]:
    """(file, specifier) of the ``unresolved`` imports whose line a directive naming an
    unresolved-import rule silences."""
    by_file: dict[str, list[UnresolvedImport]] = {}
    for item in unresolved:
        by_file.setdefault(item.file, []).append(item)
    silenced: set[tuple[str, str]] = set()
    for file, items in sorted(by_file.items()):
        try:
            source = read_regular_file(root / file, MAX_FILE_BYTES)
        except (OSError, InputError):
            continue
        if not any(mark in source for mark in _MARKS):
            continue
        tree = toolkit_for(file).parser.parse(source)
        ranges = silenced_lines(tree.root_node, UNRESOLVED_RULES)
        silenced.update(
            (item.file, item.specifier)
            for item in items
            if any(first <= item.line <= last for first, last in ranges)
        )
    return silenced
