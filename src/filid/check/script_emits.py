"""Relative requires written for where a package script's ``tsc`` emits the file (issue 23,
judge round K2, P14).

graphql-voyager's ``src/middleware/hapi.ts`` calls ``require('../package.json')``. Its package
script ``compile:middleware`` runs ``tsc -d src/middleware/index.ts --outDir middleware``, so
what Node runs is ``middleware/hapi.js``, from where ``../package.json`` is the package's own
manifest; from the source folder it names nothing. tsc does not resolve a ``require()`` call
in a TypeScript file: Node does, from the emitted file. ``check.build_layout`` maps a
tsconfig's ``rootDir`` onto its ``outDir`` for the same reason; this module does it for a
``tsc`` run on the command line.

Decision (SPEC §0 is silent): a ``tsc`` command of a ``package.json`` script (``tsc``, or
``npx``/``pnpm``/``yarn``/``bunx`` ``tsc``; words split as ``check.copy_steps`` splits them)
that names TypeScript input files and a literal ``--outDir`` maps its root — ``--rootDir``
when given, else the one folder all its input files share (tsc's common source folder when
the program's other files lie below it) — onto that ``outDir``, both relative to the
script's package folder. A relative ``require()`` in a TypeScript file below such a root
that resolves from the folder it is emitted into is no claim. An ``import`` is resolved by
tsc itself and stays judged, as does a ``require()`` that finds nothing from there either.
"""

from __future__ import annotations

import os

from filid.check.copy_steps import package_scripts, shell_commands
from filid.check.project import Project
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.graph.resolve import ResolutionKind
from filid.model.facts import ImportKind

__all__ = ["ScriptEmits"]

_TS_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
_DECLARATION_SUFFIXES = (".d.ts", ".d.mts", ".d.cts")
_RUNNERS = frozenset({"npx", "pnpm", "yarn", "bunx", "pnpx"})
_UNFOLLOWED = frozenset("$`*?[")


class ScriptEmits:
    """Answers whether a relative ``require`` resolves from where a script's ``tsc`` emits
    its file (module docstring). The scripts are read on the first question."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._mappings: list[tuple[str, str]] | None = None

    def resolves(self, file: str, line: int, specifier: str) -> bool:
        """Whether ``require(specifier)`` on ``line`` of ``file`` finds a file from the folder a
        script's ``tsc`` emits ``file`` into."""
        if not specifier.startswith(("./", "../")) or not file.endswith(_TS_SUFFIXES):
            return False
        facts = self._project.facts.get(file)
        if facts is None or not any(
            fact.kind is ImportKind.REQUIRE and fact.specifier == specifier and fact.line == line
            for fact in facts.imports
        ):
            return False
        if self._mappings is None:
            self._mappings = sorted(set(self._read()))
        directory = parent_dir(file)
        for root, out_dir in self._mappings:
            if root == out_dir or not is_within(directory, root):
                continue
            inside = os.path.relpath(directory, root) if directory != root else "."
            emitted = join_path(out_dir, inside)
            if emitted.startswith("../"):
                continue
            resolution = self._project.resolver.resolve_from(emitted, specifier)
            if resolution.kind is ResolutionKind.FILE:
                return True
        return False

    def _read(self) -> list[tuple[str, str]]:
        """(root, outDir) of every ``tsc`` command of every package script, root-relative."""
        found: list[tuple[str, str]] = []
        for script, folder in package_scripts(self._project):
            if "tsc" not in script:
                continue
            for words in shell_commands(script):
                mapping = _tsc_mapping(words, folder)
                if mapping is not None:
                    found.append(mapping)
        return found


def _tsc_mapping(words: list[str], folder: str) -> tuple[str, str] | None:
    """(root, outDir) of one ``tsc`` command run in ``folder``, or None when it is no such
    command (no input file, no literal ``--outDir``, an input outside a plain path)."""
    if words and words[0] in _RUNNERS:
        words = words[1:]
    if not words or words[0] != "tsc":
        return None
    args = words[1:]
    out_dir = _option(args, "--outDir")
    root_dir = _option(args, "--rootDir")
    inputs = [
        arg
        for arg in args
        if not arg.startswith("-")
        and arg.endswith(_TS_SUFFIXES)
        and not arg.endswith(_DECLARATION_SUFFIXES)
    ]
    if out_dir is None or not inputs or any(not _plain(arg) for arg in inputs):
        return None
    if root_dir is None:
        parents = {parent_dir(join_path(".", arg)) for arg in inputs}
        if len(parents) != 1:
            return None
        root_dir = parents.pop()
    root = join_path(folder, root_dir)
    out = join_path(folder, out_dir)
    if root.startswith("../") or out.startswith("../"):
        return None
    return root, out


def _option(args: list[str], name: str) -> str | None:
    """The literal value of ``name`` (``--outDir x`` or ``--outDir=x``; tsc's option names
    ignore case), or None when absent or not a plain path."""
    lowered = name.lower()
    for index, arg in enumerate(args):
        key, equals, value = arg.partition("=")
        if key.lower() != lowered:
            continue
        if not equals:
            value = args[index + 1] if index + 1 < len(args) else ""
        return value if _plain(value) else None
    return None


def _plain(path: str) -> bool:
    """A relative path filid can follow: no expansion, glob or absolute start."""
    return bool(path) and not (_UNFOLLOWED & set(path)) and not path.startswith(("/", "~"))
