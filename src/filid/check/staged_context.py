"""What the staged patch proof (``filid.check.staged_patch``) reads beyond the stored state:
the project's facts and boundary documents read on first use, the rules whose findings an
import edit could change (imported one by one, not the whole registry), and the rule context
those rules run over when the proof asks them about the changed files' new imports.

Reading on first use keeps the proof's cost to what the edited imports reach: the few files
whose facts the type-only marking asks for, the documents of the folders a rule looks at
(``external-import-boundary`` reads the importer's DETAIL.md), not the project's 2,000
documents. Every read is of the work tree, which the caller checks equals the index before
it trusts the answer.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from filid.config.model import Config
    from filid.graph.resolve import Resolver
    from filid.model.facts import DocumentFacts, FileFacts
    from filid.model.graph import FileGraph
    from filid.model.nodes import FractalTree
    from filid.rules.base import Reads, Rule

__all__ = ["Documents", "SourceFacts", "finds_any", "load_rule", "rule_context", "watched_rules"]


class SourceFacts(Mapping[str, "FileFacts"]):
    """Facts of the project's source files (the universe ``files`` that are source files),
    parsed on first use from the work tree, except the edited files, whose facts are given."""

    def __init__(
        self,
        root: Path,
        files: Sequence[str],
        given: Mapping[str, FileFacts],
        known: frozenset[str],
    ):
        """``known`` is ``files`` as a set."""
        self._root = root
        self._files = files
        self._known = known
        self._sources: list[str] | None = None
        self._memo: dict[str, FileFacts | None] = dict(given)

    def _load(self, path: str) -> FileFacts | None:
        if path not in self._memo:
            from filid.parse.encoding import decode_facts
            from filid.parse.files import process_file
            from filid.scan.universe import is_source_file

            found = None
            if path in self._known and is_source_file(path):
                outcome = process_file(self._root, path)
                if outcome.note is None and outcome.encoded is not None:
                    found = decode_facts(outcome.encoded)
            self._memo[path] = found
        return self._memo[path]

    def sources(self) -> list[str]:
        """The universe's source files, in its order."""
        if self._sources is None:
            from filid.scan.universe import is_source_file

            self._sources = [f for f in self._files if is_source_file(f)]
        return self._sources

    def __getitem__(self, path: str) -> FileFacts:
        found = self._load(path)
        if found is None:
            raise KeyError(path)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self.sources())

    def __len__(self) -> int:
        return len(self.sources())


class Documents(Mapping[str, "DocumentFacts"]):
    """The facts of the universe's boundary documents that can be read, as ``load_project``
    collects them (``check.project.DOCUMENTS_READ``), each read on first use."""

    def __init__(self, root: Path, files: Sequence[str], known: frozenset[str]):
        """``known`` is ``files`` as a set."""
        from filid.check.project import DOCUMENTS_READ

        self._root = root
        self._files = files
        self._known = known
        self._names = DOCUMENTS_READ
        self._memo: dict[str, DocumentFacts | None] = {}

    def _load(self, path: str) -> DocumentFacts | None:
        if path.rpartition("/")[2] not in self._names or path not in self._known:
            return None
        if path not in self._memo:
            from filid.scan.documents import read_document

            self._memo[path] = read_document(self._root, path)[0]
        return self._memo[path]

    def __getitem__(self, path: str) -> DocumentFacts:
        found = self._load(path)
        if found is None:
            raise KeyError(path)
        return found

    def __iter__(self) -> Iterator[str]:
        candidates = [f for f in self._files if f.rpartition("/")[2] in self._names]
        return (path for path in candidates if self._load(path) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def load_rule(rule_id: str) -> Rule:
    """The registered rule ``rule_id``, importing its module alone (``filid.rules.<id>``,
    class ``<Id>``: the registry's naming; ``tests/check/test_staged_patch.py`` checks every
    rule): the registry imports every rule, a tenth of a second the proof does not need."""
    module = importlib.import_module("filid.rules." + rule_id.replace("-", "_"))
    name = "".join(part.capitalize() for part in rule_id.split("-"))
    rule: Rule = getattr(module, name)()
    if rule.meta.id != rule_id:
        raise LookupError(f"filid.rules: {name} is not rule {rule_id}")
    return rule


def watched_rules(config: Config) -> list[tuple[Rule, Reads]] | None:
    """The rules running in a declared project whose findings an import edit could change
    (they read imports: ``OWN_IMPORTS``, ``IMPORTED_FILES``, ``MODULE_GRAPH`` or
    ``FILE_GRAPH``), in registry order, with what they read; None when a rule cannot be
    loaded on its own (the proof then proves nothing). The other rules read the tree and
    facts other than imports, which step 1 of the proof keeps as they were."""
    from filid.rules.base import Reads, rule_reads
    from filid.rules.catalogue import RULE_IDS, rule_runs

    imports = Reads.OWN_IMPORTS | Reads.IMPORTED_FILES | Reads.MODULE_GRAPH | Reads.FILE_GRAPH
    found: list[tuple[Rule, Reads]] = []
    for rule_id in RULE_IDS:
        reads = rule_reads(rule_id, declared=True)
        if not reads & imports:
            continue
        rule_config = config.rules.get(rule_id)
        configured = rule_config.enabled if rule_config else None
        if configured is False:
            continue
        try:
            rule = load_rule(rule_id)
        except (ImportError, AttributeError, LookupError):
            return None
        if rule_runs(
            rule_id,
            enabled_by_default=rule.meta.enabled_by_default,
            configured=configured,
            declared=True,
        ):
            found.append((rule, reads))
    return found


def rule_context(
    graph: FileGraph,
    tree: FractalTree,
    facts: SourceFacts,
    tests: frozenset[str],
    resolver: Resolver,
    config: Config,
    folders: str | None,
) -> Any:
    """The ``RuleContext`` of the engine with the changed files' imports alone (``graph``)
    as the file graph and no module graph; the source folders are ``folders`` (kept by the
    computed run, ``GraphSummary.folders``), else those of ``facts``'s source files (what
    ``source_directories`` keeps of the tree's files)."""
    from filid.check.engine import folders_holding, unpublished_of
    from filid.config.globs import matches_any_glob
    from filid.model.graph import ModuleGraph
    from filid.rules.base import RuleContext
    from filid.scan.documents import LEGACY_LEDGER, has_legacy_ledger

    entry_files = set(resolver.manifest_entry_files())
    overrides = config.structure.entry_point_overrides
    if overrides:
        entry_files |= {f for f in tree.files if matches_any_glob(f, overrides)}
    return RuleContext(
        tree=tree,
        facts=facts,
        file_graph=graph,
        module_graph=ModuleGraph(nodes=(), edges=()),
        structure=config.structure,
        test_files=tests,
        entry_files=frozenset(entry_files),
        route_directories=resolver.route_directories(),
        legacy_ledger=LEGACY_LEDGER if has_legacy_ledger(tree.root) else None,
        declared=True,
        source_directories=(
            frozenset(folders.split("\0") if folders else ())
            if folders is not None
            else folders_holding(facts.sources())
        ),
        package_directories=resolver.package_directories(),
        unpublished_imports=unpublished_of(graph.edges, resolver),
        generated_imports=frozenset(),
    )


def finds_any(rule: Rule, context: Any, config: Config) -> bool:
    """Whether ``rule`` finds anything over ``context`` (the changed files' imports)."""
    from filid.check.engine import build_options

    if rule.meta.id == "unresolved-import" and any(
        item.specifier != "<dynamic>" for item in context.file_graph.unresolved
    ):
        return True  # its generated-code exemption is not recomputed here: no proof
    options = build_options(rule, config.rules.get(rule.meta.id), config)
    return any(True for _ in rule.check(context, options))
