"""Missing files the importer's own tsconfig names by a literal path (issue 23, K2 P13).

grpc-web's `examples/echo/ts-example/client.ts` imports `./echo_pb` and `./echo_grpc_web_pb`,
which `protoc --js_out=…:./ts-example --grpc-web_out=…:./ts-example` writes beside it in the
Docker build; no `.gitignore` lists them, but the folder's tsconfig names them one by one:
`"include": ["client.ts", "echo_pb.js", "echo_pb.d.ts", "echo_grpc_web_pb.js", …]`.

Decision (SPEC §0 is silent): when the tsconfig governing the importer (or a config it
references) names the missing target by a wildcard-free path in ``files`` or ``include``, the
project expects the file to be there once it is built, so the import is no claim. A pattern
(``"src/**/*.ts"``), a folder that exists (``"include": ["src"]`` says nothing of ``./src``
without an index) or a name that is not the target's keeps the import judged.
"""

from __future__ import annotations

import os

from filid.check.project import Project
from filid.graph.candidates import DECLARATION_TWINS, SOURCE_EXTENSIONS, TS_TWINS

__all__ = ["TsconfigNamedFiles"]

_DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")


class TsconfigNamedFiles:
    """Which missing targets the importer's tsconfig program names by a literal path."""

    def __init__(self, project: Project) -> None:
        self._root = project.root
        self._tsconfigs = project.resolver.tsconfigs
        self._named: dict[str, frozenset[str]] = {}

    def names(self, file: str, bases: list[str]) -> bool:
        """Whether the tsconfig governing ``file`` (or one it references) names one of the
        files the candidate paths ``bases`` stand for, without a wildcard."""
        options = self._tsconfigs.for_file(file)
        if options is None:
            return False
        named = self._named.get(options.config)
        if named is None:
            configs = (options.config, *self._tsconfigs.references_of(options.config))
            named = frozenset().union(*(self._tsconfigs.literal_roots(c) for c in configs))
            self._named[options.config] = named
        # a folder `include` names (`"src"`) is no generated file: `./src` without an index
        # stays judged
        return bool(named) and any(
            path in named and not os.path.isdir(self._root / path)
            for base in bases
            for path in _targets(base)
        )


def _targets(base: str) -> tuple[str, ...]:
    """The files a candidate path stands for: itself, with a source or declaration extension,
    and for ``x.js`` its TypeScript twins (``x.ts``, ``x.d.ts``)."""
    stem, dot, extension = base.rpartition(".")
    suffix = f".{extension}"
    twins = (
        tuple(stem + t for t in (*TS_TWINS.get(suffix, ()), *DECLARATION_TWINS.get(suffix, ())))
        if dot and "/" not in extension
        else ()
    )
    return (
        base,
        *(base + e for e in SOURCE_EXTENSIONS),
        *(base + d for d in _DECLARATIONS),
        *twins,
    )
