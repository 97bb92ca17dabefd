"""Imports only the type checker reads, typed by an ambient wildcard module (issue 23).

lwc's ``packages/@lwc/integration-types`` is a type-test package: its ``test`` script is
``tsc``, and no bundler, test runner or script reaches ``src/static/stylesheets.ts``, whose
``import unscoped from './stylesheet.css'`` names no file. Its tsconfig's program includes
``@lwc/types``, which declares ``declare module '*.css' { … }``: tsc types the import through
that declaration and never looks for a file; no other tool ever resolves it. So it is no
broken import.

Decision (SPEC §0 is silent): an unresolved import is not claimed when (1) its specifier
matches a wildcard ambient module (``declare module '<prefix>*<suffix>'``) declared in a
file of the importer's tsconfig program — a root file of that program, or a file one of them
imports — and (2) nothing but a compiler reaches the importer: no package entry, test file,
tool config, route, script or importer reached by something else reaches it, and no folder
holding it has a bundler's config or an ``index.html`` (``check.reached_files.BuiltFiles``
with ``compilers=False``). Where a bundler or a runner reaches the file, it resolves the path
and fails: the claim stays, as it does when no program declares such a module (tsc then
reports the import itself).

An exact ambient module (``declare module '@app/local-contracts'``) declared in a declaration
file of the importer's program answers a bare specifier wherever it is imported: tsc tries a
matching ``paths`` alias first and, when it finds no file, takes the declaration (ens-app-v3's
``typings-custom/local-contracts.d.ts``, beside ``"@app/*": ["./src/*"]``). The maintainers
declared the module on purpose; filid makes no claim there either.
"""

from __future__ import annotations

from filid.check.project import Project
from filid.check.reached_files import BuiltFiles
from filid.graph.resolve import ResolutionKind
from filid.model.errors import InputError
from filid.parse.extract import parse_source
from filid.store.files import read_regular_file

__all__ = ["AmbientModules"]

_DECLARATION_SUFFIXES = (".d.ts", ".d.mts", ".d.cts")
# A declaration file larger than this is not read (a generated API surface, not a shim).
_MAX_BYTES = 1 << 20


class AmbientModules:
    """Answers "is this unresolved import only type-checked, through a wildcard module?".

    Declaration files are not parsed by the pipeline (they hold no run-time imports); the
    ones a program holds are parsed here, with tree-sitter, only when an import needs it.
    """

    def __init__(self, project: Project) -> None:
        self._project = project
        self._reached: BuiltFiles | None = None
        self._declarations: tuple[str, ...] | None = None
        self._parsed: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self._programs: dict[str, tuple[tuple[str, str], ...]] = {}
        self._exact: dict[str, frozenset[str]] = {}

    def declares(self, file: str, specifier: str) -> bool:
        """Whether an exact ambient module of ``file``'s program is named ``specifier``: tsc
        takes it when no file answers the specifier (module docstring)."""
        if specifier.startswith((".", "/")):
            return False  # an ambient module name is never relative
        tsconfigs = self._project.resolver.tsconfigs
        options = tsconfigs.for_file(file)
        if options is None or not tsconfigs.program_includes(options.config, file):
            return False
        self._wildcards(options.config)
        return specifier in self._exact[options.config]

    def types_only(self, file: str, specifier: str) -> bool:
        """Whether ``file``'s import of ``specifier`` is typed by a wildcard ambient module of
        its program and read by no tool but the type checker (module docstring)."""
        tsconfigs = self._project.resolver.tsconfigs
        options = tsconfigs.for_file(file)
        if options is None or not tsconfigs.program_includes(options.config, file):
            return False
        if self._reached is None:
            self._reached = BuiltFiles(self._project, compilers=False)
        if file in self._reached:
            return False  # a bundler, runner or script resolves the path
        return any(
            len(specifier) >= len(prefix) + len(suffix)
            and specifier.startswith(prefix)
            and specifier.endswith(suffix)
            for prefix, suffix in self._wildcards(options.config)
        )

    def _wildcards(self, config: str) -> tuple[tuple[str, str], ...]:
        """(prefix, suffix) of every ``declare module 'a*b'`` in a declaration file of
        ``config``'s program: a root file of it, or one such a file imports."""
        known = self._programs.get(config)
        if known is not None:
            return known
        if self._declarations is None:
            self._declarations = tuple(
                sorted(f for f in self._project.tree.files if f.endswith(_DECLARATION_SUFFIXES))
            )
        tsconfigs = self._project.resolver.tsconfigs
        stack = [f for f in self._declarations if tsconfigs.program_includes(config, f)]
        seen = set(stack)
        found: list[tuple[str, str]] = []
        exact: set[str] = set()
        while stack:
            current = stack.pop()
            modules, specifiers = self._read(current)
            for name in modules:
                if name.count("*") == 1:
                    prefix, _, suffix = name.partition("*")
                    found.append((prefix, suffix))
                elif "*" not in name:
                    exact.add(name)
            for specifier in specifiers:
                resolution = self._project.resolver.resolve(current, specifier)
                target = resolution.target
                if (
                    resolution.kind is ResolutionKind.FILE
                    and target is not None
                    and target.endswith(_DECLARATION_SUFFIXES)
                    and target not in seen
                ):
                    seen.add(target)
                    stack.append(target)
        answer = tuple(sorted(set(found)))
        self._programs[config] = answer
        self._exact[config] = frozenset(exact)
        return answer

    def _read(self, path: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(ambient module names, import specifiers) of the declaration file ``path``."""
        known = self._parsed.get(path)
        if known is not None:
            return known
        try:
            source = read_regular_file(self._project.root / path, _MAX_BYTES)
        except (OSError, InputError):
            source = b""
        modules: tuple[str, ...] = ()
        specifiers: tuple[str, ...] = ()
        # tree-sitter decides; the bytes only spare parsing a file that cannot declare one
        if b"module" in source or b"import" in source or b"export" in source:
            facts = parse_source(path, source)
            modules = tuple(
                d.name for d in facts.declarations if d.kind == "namespace" and d.name is not None
            )
            specifiers = tuple(i.specifier for i in facts.imports if i.specifier is not None)
        self._parsed[path] = (modules, specifiers)
        return modules, specifiers
