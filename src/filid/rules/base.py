"""What a rule is: metadata, an options type, and a pure ``check(context, options)``.

Rules never read files, print, or decide severity: the engine applies config (enabled,
severity, exempt), fills default locations and computes fingerprints.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Flag, StrEnum, auto
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast

from filid.graph.exports import ExportIndex
from filid.model.facts import FileFacts, ImportFact
from filid.model.graph import FileGraph, ModuleGraph
from filid.model.nodes import FractalNode, FractalTree, NodeCategory
from filid.model.violations import FixInfo, Location, Risk, Severity, SyncActionKind
from filid.scan.classify import entry_stem

if TYPE_CHECKING:
    from filid.config.model import StructureConfig


class RuleCategory(StrEnum):
    """The rule's area (CONTRACT: naming structure dependency documentation index module)."""

    NAMING = "naming"
    STRUCTURE = "structure"
    DEPENDENCY = "dependency"
    DOCUMENTATION = "documentation"
    INDEX = "index"
    MODULE = "module"


ALL_CATEGORIES: frozenset[NodeCategory] = frozenset(NodeCategory)


@dataclass(frozen=True, slots=True)
class RuleExample:
    """An executable example: a tiny project (path -> content) and what it shows."""

    description: str
    files: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class RuleMeta:
    """Everything ``rule-query get`` shows about a rule."""

    id: str
    category: RuleCategory
    default_severity: Severity
    applies_to: frozenset[NodeCategory]
    description: str
    rationale: str
    valid: tuple[RuleExample, ...]
    invalid: tuple[RuleExample, ...]
    fix_action: SyncActionKind | None = None
    fix_risk: Risk | None = None
    aliases: tuple[str, ...] = ()
    # False for the style rules the upstream plugin removed in its 1.0 (naming-convention,
    # index-barrel-pattern): they run only when the config says ``"enabled": true``.
    enabled_by_default: bool = True


@dataclass(frozen=True, slots=True)
class Finding:
    """What a rule reports; the engine turns it into a ``Violation``.

    ``node`` is the node the finding counts against; ``path`` the violation path (SPEC §5);
    ``location`` may be left ``None`` for directory-level findings (the engine fills it).
    ``severity`` is this kind of finding's own default where the upstream plugin gives one
    rule's findings different severities (an intent document's missing boundary section is a
    warning, its absence an error); a configured ``severity`` still replaces it.
    """

    node: str
    path: str
    message: str
    location: Location | None = None
    suggestion: str | None = None
    fix: FixInfo | None = None
    related: tuple[Location, ...] = ()
    members: tuple[str, ...] = ()
    fingerprint_parts: tuple[str, ...] = ()
    severity: Severity | None = None


@dataclass(frozen=True, slots=True)
class RuleContext:
    """What rules may look at: the classified tree, parse facts, both graphs, structure config.

    ``entry_files`` are the manifest-declared and configured entry files (``index.*`` and
    ``main.*`` are entries by name). ``legacy_ledger`` is the root-relative path of the
    upstream plugin's pre-1.0 criteria ledger (``.filid/criteria.md``) when the project has one
    (it lies under a dot folder, outside the file universe). ``declared`` is the regime
    (SPEC §0): false in a project that declares nothing, where no rule treats an ``index.*``
    as a boundary. ``source_directories`` are the folders holding a source file at any depth
    (``None``: not computed, every folder counts); ``package_directories`` the workspace
    packages' folders; ``unpublished_imports`` maps (importing file, specifier) to the folder
    of the workspace package whose manifest does not publish that path; ``generated_imports``
    are the (file, specifier) pairs of unresolved imports whose missing target git ignores.
    """

    tree: FractalTree
    facts: Mapping[str, FileFacts]
    file_graph: FileGraph
    module_graph: ModuleGraph
    structure: StructureConfig
    test_files: frozenset[str] = field(default_factory=frozenset)
    entry_files: frozenset[str] = field(default_factory=frozenset)
    route_directories: frozenset[str] = field(default_factory=frozenset)
    legacy_ledger: str | None = None
    declared: bool = True
    source_directories: frozenset[str] | None = None
    package_directories: frozenset[str] = field(default_factory=frozenset)
    unpublished_imports: Mapping[tuple[str, str], str] = field(default_factory=dict)
    generated_imports: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    # What several rules derive from the same inputs, computed once (``export_index``…).
    derived: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def holds_source(self, path: str) -> bool:
        """True when folder ``path`` holds a source file at any depth (SPEC: folders without
        source, such as numbered MDX docs folders or scaffold templates, are not nodes for
        the naming and depth rules)."""
        return self.source_directories is None or path in self.source_directories

    def is_in_route_tree(self, path: str) -> bool:
        """True for a folder at or below a file-routing framework's route folder (Next.js
        ``app/``, ``pages/``…): its names and nesting are URLs, not design."""
        return any(path == r or path.startswith(r + "/") for r in self.route_directories)

    def reexport_targets(self) -> Mapping[tuple[str, str], str]:
        """(file, specifier) → the project file each resolved re-export (``export … from``)
        of the file graph reaches; built once per context."""
        found = self.derived.get("reexport_targets")
        if found is None:
            found = self.derived["reexport_targets"] = {
                (edge.source, edge.fact.specifier): edge.target
                for edge in self.file_graph.edges
                if edge.fact.is_reexport and edge.fact.specifier is not None
            }
        return cast("Mapping[tuple[str, str], str]", found)

    def export_index(self) -> ExportIndex:
        """The ``export *`` closures of the facts, following the file graph's re-exports
        (:meth:`reexport_targets`); one per context, shared by the rules that ask (each
        closure is a property of the facts and the graph, whoever asks first)."""
        found = self.derived.get("export_index")
        if found is None:
            targets = self.reexport_targets()
            found = self.derived["export_index"] = ExportIndex(
                self.facts, lambda file, specifier: targets.get((file, specifier))
            )
        return cast("ExportIndex", found)

    def owner_of_file(self, file: str) -> FractalNode:
        """``tree.owner_of(file)`` for a file path, looked up once per folder (every file of a
        folder has the same owner; the rules ask it for both ends of every import)."""
        return self.file_owners()[file]

    def file_owners(self) -> Mapping[str, FractalNode]:
        """:meth:`owner_of_file` as a mapping, one per context: the rules that ask it for
        both ends of every import index it (a dictionary lookup at C speed) instead of
        calling a method per edge."""
        owners = self.derived.get("file_owners")
        if owners is None:
            owners = self.derived["file_owners"] = _FileOwners(self.tree)
        return cast("Mapping[str, FractalNode]", owners)

    def is_entry_file(self, file: str) -> bool:
        """True when ``file`` is an entry point of its directory (SPEC §1): ``index.*`` or
        ``main.*``, a file its package's manifest declares, or a config
        ``entryPointOverrides`` file."""
        return file in self.entry_files or entry_stem(file.rpartition("/")[2]) is not None


class _FileOwners(dict[str, FractalNode]):
    """File path → ``tree.owner_of(file)``, filled on first ask (each folder's owner looked
    up once)."""

    __slots__ = ("_folders", "_tree")

    def __init__(self, tree: FractalTree) -> None:
        super().__init__()
        self._tree = tree
        self._folders: dict[str, FractalNode] = {}

    def __missing__(self, file: str) -> FractalNode:
        folder = file.rpartition("/")[0] or "."
        found = self._folders.get(folder)
        if found is None:
            # the folder's node is the file's (a folder that is no node: as owner_of has it)
            tree = self._tree
            found = self._folders[folder] = tree.owner_of(folder if folder in tree.nodes else file)
        self[file] = found
        return found


@dataclass(frozen=True, slots=True)
class NoOptions:
    """Options type of a rule that takes none."""


def option_docs(options_type: type[Any]) -> tuple[tuple[str, str, str], ...]:
    """Each option of a rule's options type as (name, default as JSON, description); the
    description is the options type's docstring, which documents its fields."""
    import dataclasses
    import json

    if not dataclasses.is_dataclass(options_type):
        return ()
    doc = " ".join((options_type.__doc__ or "").split()).replace("``", "`")
    fields = dataclasses.fields(options_type)
    if len(fields) == 1:
        doc = doc.removeprefix(f"`{fields[0].name}`: ")
    return tuple((field.name, json.dumps(field.default), doc) for field in fields)


class Rule(Protocol):
    """A rule module's interface, satisfied by each ``rules/<rule_id>.py`` object."""

    meta: ClassVar[RuleMeta]
    options_type: ClassVar[type[Any]]

    def check(self, context: RuleContext, options: Any) -> Iterable[Finding]:
        """Yield the findings of this rule over ``context``."""
        ...


class Reads(Flag):
    """What a rule's findings are computed from (``RULE_READS``), so that a check which
    knows what changed can tell which rules' findings may change (the staged patch path,
    ``filid.check.staged_patch``).

    - ``TREE``: the classified tree and its documents, the configuration, the regime, the
      manifests and tsconfigs, which files are tests and entries: anything but parsed facts.
    - ``SURFACE``: parsed facts other than imports (exports, declarations, statements,
      side effects, test cases), of any file.
    - ``OWN_IMPORTS``: each file's resolved and unresolved imports, where every finding
      about an import is at (``path``) the importing file and follows from that import
      alone (with ``TREE``/``SURFACE``).
    - ``IMPORTED_FILES``: which files something imports: a file's findings may change when
      another file starts or stops importing it.
    - ``RE_EXPORTS``: where re-exports (``export … from``) resolve (export surfaces).
    - ``MODULE_GRAPH``: the module graph (edges between owners and their evidence).
    - ``FILE_GRAPH``: any other use of the file graph (whole-graph walks): no local
      re-evaluation is possible.
    """

    TREE = auto()
    SURFACE = auto()
    OWN_IMPORTS = auto()
    IMPORTED_FILES = auto()
    RE_EXPORTS = auto()
    MODULE_GRAPH = auto()
    FILE_GRAPH = auto()


_T = Reads.TREE
_S = Reads.SURFACE

# Every rule's inputs (``Reads``), by rule id; ``tests/rules/test_rule_reads.py`` checks
# each rule module's use of the ``RuleContext`` against it.
RULE_READS: Mapping[str, Reads] = {
    "naming-convention": _T,
    "organ-no-claudemd": _T,
    "index-barrel-pattern": _T | _S | Reads.IMPORTED_FILES,
    "module-entry-point": _T | _S,
    "max-depth": _T,
    "circular-dependency": _T | Reads.MODULE_GRAPH,
    "pure-function-isolation": _T | Reads.OWN_IMPORTS,
    "zero-peer-file": _T,
    "external-import-boundary": _T | _S | Reads.OWN_IMPORTS | Reads.RE_EXPORTS,
    "intent-document-contract": _T,
    "hybrid-node": _T,
    "detail-document-contract": _T,
    "entry-point-surface": _T | _S | Reads.RE_EXPORTS,
    "spec-document-case-cap": _T | _S,
    "test-record-case-cap": _T | _S,
    "spec-fragmentation": _T | _S,
    "spec-contract-link": _T | _S,
    "legacy-criteria-ledger": _T,
    # generated_imports asks whether any build reaches the importing file (through what
    # imports it, transitively), what the packages' entries load, which files are read only
    # as text: walks over the whole file graph; ``guarded`` is read from the facts
    "unresolved-import": _T | _S | Reads.FILE_GRAPH,
    "unpublished-package-import": _T | Reads.OWN_IMPORTS,
}

# Where a rule reads more in an undeclared project (SPEC §0): its cycles are package
# cycles and barrel loops, walks over the whole file graph; its depth claim leaves out
# generated code.
UNDECLARED_READS: Mapping[str, Reads] = {
    "circular-dependency": _T | _S | Reads.FILE_GRAPH,
    # which files a generator wrote (``FileFacts.generated``)
    "max-depth": _T | _S,
}


def rule_reads(rule_id: str, *, declared: bool) -> Reads:
    """What ``rule_id`` reads in a project of that regime (``FILE_GRAPH``, the widest, for
    a rule nobody declared)."""
    if not declared and rule_id in UNDECLARED_READS:
        return UNDECLARED_READS[rule_id]
    return RULE_READS.get(rule_id, _T | _S | Reads.FILE_GRAPH | Reads.MODULE_GRAPH)


def is_declared_module(node: FractalNode) -> bool:
    """True when the FCA 1.0 document contract asks ``node`` for its documents: the upstream
    plugin 1.0 sees it as a module (it holds an INTENT.md or a DETAIL.md, or a module entry
    ``index.*``) and it does not keep the legacy layout, whose intent document is a
    ``CLAUDE.md`` with the three boundary headings (filid accepts that layout as it is; a
    module moves to INTENT.md and DETAIL.md together)."""
    if node.intent_doc == "CLAUDE.md":
        return False
    return (
        node.intent_doc == "INTENT.md"
        or node.detail_doc == "DETAIL.md"
        or node.index_file is not None
    )


def import_location(file: str, fact: ImportFact) -> Location:
    """The location of an import statement or call, for import-level findings."""
    span = fact.span
    return Location(
        file=file,
        line=span.line,
        column=span.column,
        end_line=span.end_line,
        end_column=span.end_column,
        utf16_column=span.utf16_column,
    )


def parent_path(path: str) -> str:
    """The parent node path of a node path (the root's parent is the root)."""
    return path.rpartition("/")[0] or "."


def join_path(directory: str, name: str) -> str:
    """Join a node path and a name into a root-relative POSIX path."""
    return name if directory == "." else f"{directory}/{name}"
