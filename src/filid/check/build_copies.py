"""Imports of a file a build script writes beside the copy it makes of the importer
(issue 23, judge round F2).

vercel's CLI keeps ``packages/cli/src/vc.js``, which ``await import('./version.mjs')`` on its
fast path. The package's ``build`` script, ``node scripts/build.mjs``, copies the file into
``dist/`` (``copyFileSync(new URL('src/vc.js', repoRoot), new URL('vc.js', distRoot))``),
writes ``dist/version.mjs`` beside it (``writeFileSync(new URL('version.mjs', distRoot),
…)``), and the manifest's ``bin`` is ``./dist/vc.js``: the import is written for the copy,
where it resolves.

Decision (SPEC §0 is silent): an unresolved ``./<name>`` (a sibling, no folder) is no claim
when a script file that a ``package.json`` script of the importer's package runs holds both
a copy call (``copyFile``, ``copyFileSync``, ``cp``, ``cpSync``, ``copy``, ``copySync``)
whose source names the importer by its package-relative path and a write call
(``writeFile``, ``writeFileSync``, ``outputFile``, ``outputFileSync``) whose target names
``<name>``, the two targets spelling the same destination folder (a shared identifier such
as ``distRoot``, or the same literal folder). The script is read with tree-sitter; a stale
sibling no build script writes stays a claim.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from filid.check.project import Project
from filid.check.syntax_nodes import named_calls
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.model.errors import InputError
from filid.parse.files import MAX_FILE_BYTES
from filid.parse.grammar import toolkit_for
from filid.store.files import read_regular_file

__all__ = ["BuildCopies"]

_COPIES = frozenset({b"copyFile", b"copyFileSync", b"cp", b"cpSync", b"copy", b"copySync"})
_WRITES = frozenset({b"writeFile", b"writeFileSync", b"outputFile", b"outputFileSync"})
_SCRIPT_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")


@dataclass(frozen=True)
class _Call:
    """One copy or write call: the string literals and identifiers of its arguments."""

    source: tuple[str, ...]
    target: tuple[str, ...]
    target_names: frozenset[str] = field(default_factory=frozenset)


@dataclass
class _Script:
    copies: list[_Call] = field(default_factory=list)
    writes: list[_Call] = field(default_factory=list)


class BuildCopies:
    """Answers whether a sibling import is written for the copy a build script makes."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files = frozenset(project.tree.files)
        self._packages = project.resolver.package_directories() | {"."}
        self._scripts: dict[str, list[str]] = {}
        self._parsed: dict[str, _Script] = {}

    def writes_beside_copy(self, file: str, specifier: str) -> bool:
        """Whether a build script of ``file``'s package copies it and writes ``specifier``'s
        file beside the copy (module docstring)."""
        if not specifier.startswith("./") or "/" in specifier[2:] or "?" in specifier:
            return False
        name = specifier[2:]
        package = parent_dir(file)
        while package not in self._packages:
            package = parent_dir(package)
        relative = file if package == "." else file[len(package) + 1 :]
        base = relative.rpartition("/")[2]
        for script in self._package_scripts(package):
            parsed = self._parse(script)
            for copy in parsed.copies:
                if not any(_names(text, relative) for text in copy.source):
                    continue
                copy_folders = {parent_dir(t) for t in copy.target if _names(t, base)}
                for write in parsed.writes:
                    write_folders = {parent_dir(t) for t in write.target if _names(t, name)}
                    if not write_folders:
                        continue
                    if copy.target_names & write.target_names or copy_folders & write_folders:
                        return True
        return False

    def _package_scripts(self, package: str) -> list[str]:
        known = self._scripts.get(package)
        if known is not None:
            return known
        found: set[str] = set()
        manifest = join_path(package, "package.json")
        try:
            data = read_jsonc_file(self._project.root, manifest)
        except InputError:
            data = None
        scripts = data.get("scripts") if isinstance(data, dict) else None
        if isinstance(scripts, dict):
            for command in scripts.values():
                if not isinstance(command, str):
                    continue
                for word in command.split():
                    word = word.strip("'\"")
                    if not word.endswith(_SCRIPT_SUFFIXES) or word.startswith("-"):
                        continue
                    path = join_path(package, word)
                    if path in self._files and is_within(path, package):
                        found.add(path)
        answer = sorted(found)
        self._scripts[package] = answer
        return answer

    def _parse(self, script: str) -> _Script:
        known = self._parsed.get(script)
        if known is not None:
            return known
        parsed = _Script()
        try:
            source = read_regular_file(self._project.root / script, MAX_FILE_BYTES)
        except (OSError, InputError):
            source = b""
        if source:
            root = toolkit_for(script).parser.parse(source).root_node
            for name, _, values in named_calls(root):
                if name in _COPIES and len(values) >= 2:
                    parsed.copies.append(
                        _Call(_literals(values[0]), _literals(values[1]), _identifiers(values[1]))
                    )
                elif name in _WRITES and values:
                    parsed.writes.append(_Call((), _literals(values[0]), _identifiers(values[0])))
        self._parsed[script] = parsed
        return parsed


def _names(text: str, path: str) -> bool:
    """Whether the literal ``text`` names ``path`` (exactly, or as its last segments)."""
    text = text.removeprefix("./")
    return text == path or text.endswith("/" + path)


def _literals(node: Node) -> tuple[str, ...]:
    found: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "string_fragment" and current.text is not None:
            found.append(current.text.decode("utf-8", "replace"))
        stack.extend(current.named_children)
    return tuple(found)


def _identifiers(node: Node) -> frozenset[str]:
    """The identifiers an argument reads, but not the functions it calls (``URL``, ``join``)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier" and current.text is not None:
            parent = current.parent
            callee = None if parent is None else parent.child_by_field_name("constructor")
            function = None if parent is None else parent.child_by_field_name("function")
            if not any(n is not None and n.id == current.id for n in (callee, function)):
                found.add(current.text.decode("utf-8", "replace"))
        stack.extend(current.named_children)
    return frozenset(found)
