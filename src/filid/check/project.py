"""Loading a project: config → scan → parse → graph, every analysis stage once.

``load_project`` returns the :class:`Project` the rules run over (``filid.check.engine``
evaluates them); the result snapshot, the fix planner, the hooks and the MCP tools all start
from it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from filid.config.globs import matches_any_glob
from filid.config.load import load_config
from filid.config.model import Config
from filid.graph import (
    Resolver,
    build_file_graph,
    build_module_graph,
    build_resolver,
)
from filid.graph.file_graph import FileImports, file_imports
from filid.model.facts import DocumentFacts, FileFacts
from filid.model.graph import FileGraph, ModuleGraph
from filid.model.nodes import FractalTree
from filid.model.report import Regime
from filid.parse import parse_files
from filid.parse.vitest import read_typecheck_globs
from filid.rules.catalogue import ALIASES, RULE_IDS
from filid.scan.classify import build_tree, is_test_file
from filid.scan.documents import (
    INTENT_DOCUMENTS,
    LEGACY_LEDGER,
    has_legacy_ledger,
    read_document,
)
from filid.scan.regime import detect_regime, list_project_universe
from filid.scan.universe import (
    Universe,
    is_source_file,
    resolve_root,
)
from filid.store.location import project_cache_dir

# Intent-document candidates (their headings decide whether a CLAUDE.md declares a module)
# and DETAIL.md (its boundary exemptions).
DOCUMENTS_READ = frozenset((*INTENT_DOCUMENTS, "DETAIL.md"))

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Project:
    """A fully analysed project: every stage's output, computed once."""

    root: Path
    config: Config
    tree: FractalTree
    facts: Mapping[str, FileFacts]
    file_graph: FileGraph
    module_graph: ModuleGraph
    resolver: Resolver
    test_files: frozenset[str]
    notes: tuple[str, ...]
    parsed_files: int = 0
    # Each parsed source file's facts and shape digests (``parse.cache.digest_pair``).
    fact_digests: Mapping[str, str] = dataclasses.field(default_factory=dict)
    # The root-relative path of the upstream plugin's legacy criteria ledger, when present.
    legacy_ledger: str | None = None
    # SPEC §0: declared (FCA rules) or undeclared (claims any TypeScript project holds), and
    # the root-relative file that declared it.
    regime: Regime = Regime.DECLARED
    declared_by: str | None = None
    # Listed files the work tree lacks (``Universe.absent``: tracked assets, and files whose
    # blob the clone lacks, a partial clone's): files of the project that nothing reads.
    absent_files: frozenset[str] = frozenset()


def load_project(
    root: str | os.PathLike[str],
    *,
    config_path: Path | None = None,
    config: Config | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
    universe: Universe | None = None,
    borrow_cache_from: Path | None = None,
    stats: Mapping[str, tuple[int, int]] | None = None,
    resolutions: object = None,
) -> Project:
    """Scan, parse and resolve the project at ``root``.

    ``universe`` may pass a file listing the caller already made with the same config (the
    result snapshot does), so the project is not listed twice. ``borrow_cache_from`` (with
    ``use_cache`` false) names another checkout of the project whose parse cache is read, not
    written: files with the same path and content take their facts from it. ``stats`` maps
    files to the (size, mtime_ns) the caller already took (each file is stat'ed once).
    ``resolutions`` are ``Resolver.memo_data`` of an earlier run whose file set, tsconfigs
    and manifests are the same as now (the caller checks): they are not resolved again.

    Raises ``InputError`` for a bad root or broken tsconfig and ``ConfigError`` for a bad
    configuration file.
    """
    with gc_paused():
        return _load_project(
            root,
            config_path,
            config,
            use_cache,
            progress,
            universe,
            borrow_cache_from,
            stats,
            resolutions,
        )


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while the pipeline builds its many small objects.

    Facts, nodes and edges hold no reference cycles (reference counting frees them), but the
    collector would rescan every live object every few hundred allocations: a third of a warm
    run's time on a 10k-file project.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _load_project(
    root: str | os.PathLike[str],
    config_path: Path | None,
    config: Config | None,
    use_cache: bool,
    progress: Progress | None,
    listed: Universe | None,
    borrow_cache_from: Path | None = None,
    stats: Mapping[str, tuple[int, int]] | None = None,
    resolutions: object = None,
) -> Project:
    resolved = resolve_root(root)
    if config is None:
        config = load_config(resolved, config_path, known_rule_ids=RULE_IDS, rule_aliases=ALIASES)
    universe = listed or list_project_universe(resolved, config)
    # a source file the clone lacks (``Universe.absent``) is a file of the project, never read
    absent = universe.absent
    sources = [f for f in universe.files if is_source_file(f) and f not in absent]
    if stats is None and len(universe.stats) == len(universe.files):
        stats = dict(zip(universe.files, universe.stats, strict=True))
    cache_dir = project_cache_dir(resolved) if use_cache else None
    borrow_dir = None
    if cache_dir is None and borrow_cache_from is not None:
        borrow_dir = project_cache_dir(borrow_cache_from)
    resolver = build_resolver(resolved, universe.files)
    if resolutions is not None:
        resolver.seed(resolutions)

    known_imports: dict[str, FileImports] = {}

    def resolve_imports(path: str, facts: FileFacts) -> None:
        # What build_file_graph needs of each file (its resolved imports), computed while
        # the workers parse the other files instead of after them all.
        known_imports[path] = file_imports(path, facts, resolver)

    documents: dict[str, DocumentFacts] = {}
    doc_notes: list[str] = []
    early: list[FractalTree] = []
    ran: list[bool] = []

    def build(side_effect_free: Mapping[str, bool]) -> FractalTree:
        return build_tree(
            resolved,
            universe.files,
            config.structure,
            side_effect_free,
            documents,
            route_directories=resolver.route_directories(),
        )

    tests: list[frozenset[str]] = []

    def meanwhile() -> None:
        # Run while the workers parse: the documents, the test files, and the tree when it
        # needs no facts.
        ran.append(True)
        documents.update(_read_documents(resolved, universe.files, config, doc_notes))
        typecheck_globs = read_typecheck_globs(resolved, universe.files)
        tests.append(
            frozenset(
                f
                for f in sources
                if is_test_file(f) or (typecheck_globs and matches_any_glob(f, typecheck_globs))
            )
        )
        if not config.structure.infer_pure_functions:
            # Only pure-function inference (scan.classify, step 7, off by default) asks
            # whether a file is side-effect free: without it the tree is the same built now.
            early.append(build({}))

    parsed = parse_files(
        resolved,
        sources,
        cache_dir=cache_dir,
        progress=progress,
        borrow_dir=borrow_dir,
        stats=stats,
        on_parsed=resolve_imports,
        meanwhile=meanwhile,
    )
    if not ran:  # parse_files always runs it; never read the documents twice, nor skip them
        meanwhile()
    tree = (
        early[0]
        if early
        else build({path: f.is_side_effect_free for path, f in parsed.facts.items()})
    )
    file_graph = build_file_graph(parsed.facts, resolver, known_imports)
    known_imports.clear()
    test_files = tests[0]
    regime, declared_by = detect_regime(
        resolved, config.path, tree, config.structure.skipped_directories
    )
    module_graph = build_module_graph(tree, file_graph, test_files)
    notes = (*config.notes, *universe.notes, *parsed.notes, *doc_notes, *resolver.notes)
    return Project(
        root=resolved,
        config=config,
        tree=tree,
        facts=parsed.facts,
        file_graph=file_graph,
        module_graph=module_graph,
        resolver=resolver,
        test_files=test_files,
        notes=tuple(notes),
        parsed_files=parsed.parsed,
        fact_digests=parsed.digests,
        legacy_ledger=LEGACY_LEDGER if has_legacy_ledger(resolved) else None,
        regime=regime,
        declared_by=declared_by,
        absent_files=absent.intersection(universe.files),
    )


def _read_documents(
    root: Path, files: tuple[str, ...], config: Config, notes: list[str]
) -> dict[str, DocumentFacts]:
    """The intent documents and DETAIL.md files of ``files`` that could be read (a note for
    each that could not), with a pinned policy's exemptions in place of DETAIL.md's own."""
    documents: dict[str, DocumentFacts] = {}
    for file in files:
        if file.rpartition("/")[2] in DOCUMENTS_READ:
            facts, note = read_document(root, file)
            if facts is not None:
                documents[file] = facts
            if note is not None:
                notes.append(note)
    if config.pinned_exemptions is not None:
        # The policy comes from another commit: a DETAIL.md exemption the change added (or
        # widened) grants nothing; one the pinned commit had still does.
        pinned = dict(config.pinned_exemptions)
        documents = {
            path: dataclasses.replace(facts, exemptions=pinned.get(path, ()))
            if path.rpartition("/")[2] == "DETAIL.md"
            else facts
            for path, facts in documents.items()
        }
    return documents
