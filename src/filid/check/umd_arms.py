"""The CommonJS arm of a UMD wrapper in a file no module loader loads (issue 23, blind judge
M2: jagenjo/webglstudio.js, greasemonkey/greasemonkey).

A vendored UMD library picks its loader at run time::

    (function (mod) {
      if (typeof exports == "object" && typeof module == "object") // CommonJS
        mod(require("../../lib/codemirror"));
      else if (typeof define == "function" && define.amd) // AMD
        define(["../../lib/codemirror"], mod);
      else mod(CodeMirror); // a plain <script>
    })(function (CodeMirror) { … });

webglstudio keeps CodeMirror 5 flattened under ``editor/js/extra/codemirror/`` (the core as
``codemirror.js``, not ``lib/codemirror.js``) and loads every file with a ``<script>`` tag
(``codingPad.js`` lists their URLs); greasemonkey does the same under ``third-party/``. In a
page the ``require`` never runs: ``exports`` is not defined there.

Decision (SPEC §0 is silent): an unresolved import is no claim when

- it lies in a branch that runs only under CommonJS or AMD: inside an ``if`` or ``?:`` whose
  condition tests ``typeof exports``, ``typeof module`` or ``typeof define``;
- no module loader loads the file: no import of it lies outside such a branch, nor does any
  import of a file that imports it, and so on (a bundler that meets a UMD file through an ES
  import takes its CommonJS arm, where the ``require`` must resolve); and
- no package manifest names it as an entry (``main``, ``exports``…: Node loads it); and
- no tsconfig or jsconfig program compiles it (mobx's docs under ``allowJs``: a program that
  takes the file in makes it part of a build, and its checker reads the ``require``).

Still claims: the same ``require`` outside such a branch, a UMD file an ES module of the
project imports (directly or through other files), a package's UMD entry, and a UMD file a
tsconfig or jsconfig program compiles.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from tree_sitter import Node

from filid.check.project import Project
from filid.model.errors import InputError
from filid.model.facts import ImportKind
from filid.parse.grammar import toolkit_for
from filid.store.files import read_regular_file

__all__ = ["UmdArms"]

_MAX_BYTES = 1024 * 1024
_TESTS = (b"typeof exports", b"typeof module", b"typeof define")
_BRANCHES = frozenset({"if_statement", "ternary_expression"})
# Only a call can sit in a branch: `import` and `export … from` statements are top-level.
_CALLS = frozenset({ImportKind.REQUIRE, ImportKind.DYNAMIC})


class UmdArms:
    """Answers whether an import lies in the loader arm of a UMD wrapper of a file no module
    loader loads (module docstring)."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._roots: dict[str, tuple[bytes, Node] | None] = {}
        self._loaded: frozenset[str] | None = None

    def holds(self, file: str, start_byte: int, end_byte: int) -> bool:
        """Whether the import of ``file`` at those bytes is such an import."""
        return (
            self._in_arm(file, start_byte, end_byte)
            and file not in self._loaded_files()
            and not self._project.resolver.tsconfigs.compiles(file)
        )

    def _in_arm(self, file: str, start_byte: int, end_byte: int) -> bool:
        parsed = self._parsed(file)
        if parsed is None:
            return False
        source, root = parsed
        node: Node | None = root.descendant_for_byte_range(start_byte, end_byte)
        while node is not None:
            if node.type in _BRANCHES:
                condition = node.child_by_field_name("condition")
                if condition is not None and _tests_a_loader(source, condition):
                    return True
            node = node.parent
        return False

    def _parsed(self, file: str) -> tuple[bytes, Node] | None:
        """``file``'s bytes and tree; None when it cannot be read, or when it tests no loader
        (then no branch of it can: the file is not parsed)."""
        if file not in self._roots:
            try:
                source = read_regular_file(Path(self._project.root) / file, _MAX_BYTES)
            except (OSError, InputError):  # UnsafePathError is an InputError
                self._roots[file] = None
            else:
                if any(test in source for test in _TESTS):
                    tree = toolkit_for(file).parser.parse(source)
                    self._roots[file] = (source, tree.root_node)
                else:
                    self._roots[file] = None
        return self._roots[file]

    def _loaded_files(self) -> frozenset[str]:
        """The files a module loader loads: the manifests' entries, the targets of imports
        outside a loader arm, and everything those import."""
        if self._loaded is None:
            project = self._project
            edges = project.file_graph.edges
            by_source: dict[str, list[str]] = {}
            for edge in edges:
                by_source.setdefault(edge.source, []).append(edge.target)
            start = set(project.resolver.manifest_entry_files())
            for edge in edges:
                if edge.target in start:
                    continue
                span = edge.fact.span
                if edge.fact.kind not in _CALLS or not self._in_arm(
                    edge.source, span.start_byte, span.end_byte
                ):
                    start.add(edge.target)
            loaded = set(start)
            queue = deque(start)
            while queue:
                for target in by_source.get(queue.popleft(), ()):
                    if target not in loaded:
                        loaded.add(target)
                        queue.append(target)
            self._loaded = frozenset(loaded)
        return self._loaded


def _tests_a_loader(source: bytes, condition: Node) -> bool:
    text = source[condition.start_byte : condition.end_byte]
    return any(test in text for test in _TESTS)
