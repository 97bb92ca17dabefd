"""The one orchestrator: config → scan → parse → graph → rules → ValidationResult.

``load_project`` runs every analysis stage once; ``evaluate`` runs rules over the loaded
project, applies config (enabled, severity, exempt, options), fills default locations and
fingerprints, and scopes the result to a subtree or to a set of files (pre-commit).
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import gc
import hashlib
import os
import types
import typing
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filid.config.globs import matches_any_glob, matches_glob
from filid.config.load import load_config
from filid.config.model import Config, RuleConfig
from filid.graph import (
    DYNAMIC_SPECIFIER,
    SOURCE_EXTENSIONS,
    Resolver,
    build_file_graph,
    build_module_graph,
    build_resolver,
)
from filid.graph.jsonc import read_jsonc_file
from filid.graph.tsconfig import join_path, parent_dir
from filid.model.errors import ConfigError, InputError
from filid.model.facts import DocumentFacts, FileFacts
from filid.model.graph import FileGraph, ModuleGraph
from filid.model.nodes import FractalNode, FractalTree
from filid.model.report import Regime, ValidationResult
from filid.model.violations import Location, Severity, Violation
from filid.parse import parse_files
from filid.parse.vitest import read_typecheck_globs
from filid.rules.base import Finding, Rule, RuleContext
from filid.rules.catalogue import regime_severity, rule_runs
from filid.rules.registry import ALIASES, RULES, RULES_BY_ID
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
    git_ignored,
    is_source_file,
    resolve_root,
)
from filid.scoping import restrict, select_rules, timestamp
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
        config = load_config(
            resolved, config_path, known_rule_ids=tuple(RULES_BY_ID), rule_aliases=ALIASES
        )
    universe = listed or list_project_universe(resolved, config)
    sources = [f for f in universe.files if is_source_file(f)]
    if stats is None and len(universe.stats) == len(universe.files):
        stats = dict(zip(universe.files, universe.stats, strict=True))
    cache_dir = project_cache_dir(resolved) if use_cache else None
    borrow_dir = None
    if cache_dir is None and borrow_cache_from is not None:
        borrow_dir = project_cache_dir(borrow_cache_from)
    parsed = parse_files(
        resolved,
        sources,
        cache_dir=cache_dir,
        progress=progress,
        borrow_dir=borrow_dir,
        stats=stats,
    )
    documents: dict[str, DocumentFacts] = {}
    doc_notes: list[str] = []
    for file in universe.files:
        if file.rpartition("/")[2] in DOCUMENTS_READ:
            facts, note = read_document(resolved, file)
            if facts is not None:
                documents[file] = facts
            if note is not None:
                doc_notes.append(note)
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
    side_effect_free = {path: f.is_side_effect_free for path, f in parsed.facts.items()}
    resolver = build_resolver(resolved, universe.files)
    if resolutions is not None:
        resolver.seed(resolutions)
    tree = build_tree(
        resolved,
        universe.files,
        config.structure,
        side_effect_free,
        documents,
        route_directories=resolver.route_directories(),
    )
    file_graph = build_file_graph(parsed.facts, resolver)
    typecheck_globs = read_typecheck_globs(resolved, universe.files)
    test_files = frozenset(
        f
        for f in sources
        if is_test_file(f) or (typecheck_globs and matches_any_glob(f, typecheck_globs))
    )
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
    )


def _type_accepts(expected: Any, value: object) -> bool:
    origin = typing.get_origin(expected)
    if origin in (typing.Union, types.UnionType):
        return any(_type_accepts(arg, value) for arg in typing.get_args(expected))
    if expected is type(None):
        return value is None
    if expected is bool:
        return isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(expected, type):
        return isinstance(value, expected)
    return True


def build_options(rule: Rule, rule_config: RuleConfig | None, config: Config) -> Any:
    """The rule's options object from its defaults and the config's ``options`` mapping."""
    options_type = rule.options_type
    given = dict(rule_config.options) if rule_config is not None else {}
    if not given:
        return options_type()
    hints = typing.get_type_hints(options_type)
    source = str(config.path) if config.path is not None else "config"
    problems: list[str] = []
    for key, value in sorted(given.items()):
        if key not in hints:
            valid = ", ".join(sorted(hints)) or "none"
            problems.append(
                f"rules.{rule.meta.id}.options.{key}: unknown option (valid options: {valid})"
            )
        elif not _type_accepts(hints[key], value):
            problems.append(
                f"rules.{rule.meta.id}.options.{key}: expected {hints[key]} (got {value!r})"
            )
    if problems:
        raise ConfigError(f"{source}: " + "; ".join(problems))
    return options_type(**given)


def default_location(tree: FractalTree, node: FractalNode) -> Location:
    """Where a directory-level finding points: its document, else entry point, else first file."""
    for name in (node.intent_doc, node.detail_doc, node.index_file, node.main_file):
        if name is not None:
            return Location(file=node.file_path(name))
    if node.files:
        return Location(file=node.file_path(node.files[0]))
    # tree.files is sorted, so the files under a folder are one contiguous run: find its
    # start by bisection instead of scanning every file once per finding.
    prefix = "" if node.path == "." else node.path + "/"
    at = bisect.bisect_left(tree.files, prefix)
    if at < len(tree.files) and tree.files[at].startswith(prefix):
        return Location(file=tree.files[at])
    return Location(file=node.path)


def _in_scope(path: str, scope: str) -> bool:
    return scope == "." or path == scope or path.startswith(scope + "/")


def _is_exempt(finding: Finding, location: Location, patterns: Collection[str]) -> bool:
    return any(matches_glob(finding.path, p) or matches_glob(location.file, p) for p in patterns)


def _fingerprint(rule_id: str, finding: Finding, occurrence: int) -> str:
    text = "\x1f".join((rule_id, finding.path, *finding.fingerprint_parts, str(occurrence)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def evaluate(
    project: Project,
    *,
    rule_ids: Sequence[str] | None = None,
    scope: str = ".",
    files: Sequence[str] | None = None,
) -> ValidationResult:
    """Run the enabled (and selected) rules and build the sorted ``ValidationResult``.

    ``scope`` keeps the nodes at or below one node path; ``files`` keeps only violations whose
    path, location or import evidence touches one of those files or their directories.
    """
    with gc_paused():
        return _evaluate(project, rule_ids, scope, files)


def _evaluate(
    project: Project,
    rule_ids: Sequence[str] | None,
    scope: str,
    files: Sequence[str] | None,
) -> ValidationResult:
    selected = select_rules(rule_ids)
    config = project.config
    overrides = config.structure.entry_point_overrides
    entry_files = project.resolver.manifest_entry_files()
    if overrides:
        entry_files |= {f for f in project.tree.files if matches_any_glob(f, overrides)}
    declared = project.regime is Regime.DECLARED
    running: list[Rule] = []
    skipped: list[str] = []
    for rule in RULES:
        meta = rule.meta
        rule_config = config.rules.get(meta.id)
        runs = rule_runs(
            meta.id,
            enabled_by_default=meta.enabled_by_default,
            configured=rule_config.enabled if rule_config else None,
            declared=declared,
        )
        if runs and (selected is None or meta.id in selected):
            running.append(rule)
        else:
            skipped.append(meta.id)
    ids = {rule.meta.id for rule in running}
    context = RuleContext(
        tree=project.tree,
        facts=project.facts,
        file_graph=project.file_graph,
        module_graph=project.module_graph,
        structure=config.structure,
        test_files=project.test_files,
        entry_files=frozenset(entry_files),
        route_directories=project.resolver.route_directories(),
        legacy_ledger=project.legacy_ledger,
        declared=declared,
        source_directories=source_directories(project.tree.files),
        package_directories=project.resolver.package_directories(),
        # Resolver and git work that only one rule reads: skipped when that rule does not run.
        unpublished_imports=(
            unpublished_imports(project) if "unpublished-package-import" in ids else {}
        ),
        generated_imports=(
            generated_imports(project) if "unresolved-import" in ids else frozenset()
        ),
    )
    violations: list[Violation] = []
    evaluated: dict[str, tuple[str, ...]] = {}
    applied: list[str] = []
    for rule in running:
        meta = rule.meta
        rule_config = config.rules.get(meta.id)
        applied.append(meta.id)
        options = build_options(rule, rule_config, config)
        configured = rule_config.severity if rule_config else None
        # SPEC §0: an undeclared project gets some claims at a lower default (max-depth)
        by_regime = regime_severity(meta.id, declared=declared)
        regime_default = Severity(by_regime) if by_regime is not None else None
        exempt = rule_config.exempt if rule_config else ()
        nodes = {
            n.path
            for n in project.tree.nodes.values()
            if n.category in meta.applies_to and _in_scope(n.path, scope)
        }
        occurrences: dict[tuple[str, ...], int] = {}
        for finding in rule.check(context, options):
            if not (_in_scope(finding.node, scope) or _in_scope(finding.path, scope)):
                continue
            location = finding.location or default_location(
                project.tree, project.tree.nodes[finding.node]
            )
            if exempt and _is_exempt(finding, location, exempt):
                continue
            key = (finding.path, *finding.fingerprint_parts)
            occurrence = occurrences.get(key, 0)
            occurrences[key] = occurrence + 1
            nodes.add(finding.node)
            violations.append(
                Violation(
                    rule_id=meta.id,
                    severity=configured
                    or regime_default
                    or finding.severity
                    or meta.default_severity,
                    message=finding.message,
                    path=finding.path,
                    location=location,
                    node=finding.node,
                    suggestion=finding.suggestion,
                    fix=finding.fix,
                    related=finding.related,
                    members=finding.members,
                    fingerprint=_fingerprint(meta.id, finding, occurrence),
                )
            )
        evaluated[meta.id] = tuple(sorted(nodes))
    violations.sort(key=Violation.sort_key)
    config_path = _display_path(project.root, config.path)
    scope_node = project.tree.nodes.get(scope)
    result = ValidationResult(
        root=project.root,
        scope=scope,
        violations=tuple(violations),
        evaluated=evaluated,
        rules_applied=tuple(applied),
        rules_skipped=tuple(skipped),
        config_path=config_path,
        timestamp=timestamp(),
        notes=project.notes,
        extra={"category": scope_node.category.value} if scope_node is not None else {},
        regime=project.regime,
        declared_by=project.declared_by,
    )
    return restrict(result, files=files)


def source_directories(files: Sequence[str]) -> frozenset[str]:
    """Every folder (the root ``.`` included) that holds a source file at any depth."""
    found: set[str] = set()
    for file in files:
        if not is_source_file(file):
            continue
        directory = parent_dir(file)
        while directory not in found:
            found.add(directory)
            if directory == ".":
                break
            directory = parent_dir(directory)
    return frozenset(found)


_JS_EXTENSIONS = frozenset(("js", "jsx", "mjs", "cjs"))


def generated_imports(project: Project) -> frozenset[tuple[str, str]]:
    """(file, specifier) of the unresolved imports filid does not claim are broken: those
    ``Resolver.is_judged_unresolved`` leaves alone, those whose target exists on disk but
    lies outside the file universe (a `build/` or dot folder, a file over 1 MiB: the compiler
    resolves them), and those whose missing target git ignores (a file a build generates:
    ``CompaniesUsing.script.output.ts``, a codegen'd ``routers/`` folder), which resolve once
    the project is built."""
    probes: dict[str, set[tuple[str, str]]] = {}
    unjudged: set[tuple[str, str]] = set()
    imported = {edge.target for edge in project.file_graph.edges}
    for item in project.file_graph.unresolved:
        if item.specifier == DYNAMIC_SPECIFIER:
            continue
        if item.file not in imported and project.resolver.is_left_out_by_tsconfig(item.file):
            # no compiler ever reads it (a codemod's `*.input.ts` fixture, read as text)
            unjudged.add((item.file, item.specifier))
            continue
        if not project.resolver.is_judged_unresolved(parent_dir(item.file), item.specifier):
            unjudged.add((item.file, item.specifier))
            continue
        for base in project.resolver.candidate_paths(parent_dir(item.file), item.specifier):
            # `./x.js` names `x.ts` (TypeScript's twin rule, as the resolver applies it)
            stem, dot, extension = base.rpartition(".")
            twins = (
                tuple(stem + e for e in SOURCE_EXTENSIONS)
                if dot and "/" not in extension and extension in _JS_EXTENSIONS
                else ()
            )
            for path in (
                base,
                *(base + e for e in SOURCE_EXTENSIONS),
                *twins,
                base + "/index.ts",
            ):
                if path.startswith("../") or path in ("", "."):
                    continue
                probes.setdefault(path, set()).add((item.file, item.specifier))
    present = {path for path in probes if os.path.isfile(project.root / path)}
    present.update(path for path in probes if _manifest_main_exists(project.root, path))
    unjudged.update(key for path in present for key in probes[path])
    probes = {path: keys for path, keys in probes.items() if path not in present}
    if not probes:
        return frozenset(unjudged)
    ignored = git_ignored(project.root, probes)
    return frozenset(unjudged | {key for path in ignored for key in probes.get(path, ())})


def _manifest_main_exists(root: Path, directory: str) -> bool:
    """A folder whose ``package.json`` ``main`` names a file that exists (a bundler resolves
    the folder to it: amplication's ``icons/`` folder publishes ``amplicationicon.css``) or
    would exist once built (``dist/``, ``build/``, ``lib/``, ``out/``: teable's prisma seed
    imports ``'../'``, its package, whose ``main`` is ``dist/index.js``)."""
    manifest = root / directory / "package.json"
    if not os.path.isfile(manifest):
        return False
    try:
        data = read_jsonc_file(root, f"{directory}/package.json")
    except InputError:
        return False
    main = data.get("main") if isinstance(data, dict) else None
    if not isinstance(main, str) or not main:
        return False
    target = join_path(directory, main)
    if target.startswith("../"):
        return False
    built = join_path(".", main).split("/", 1)[0] in ("dist", "build", "lib", "out")
    return built or os.path.isfile(root / target)


def unpublished_imports(project: Project) -> dict[tuple[str, str], str]:
    """(importing file, specifier) → the workspace package folder whose manifest does not
    publish that path, for every bare specifier that reached a file outside the manifest."""
    found: dict[tuple[str, str], str] = {}
    resolver = project.resolver
    for edge in project.file_graph.edges:
        specifier = edge.fact.specifier
        if edge.via_manifest or specifier is None or specifier.startswith((".", "/", "#")):
            continue
        package = resolver.unpublished_package(parent_dir(edge.source), specifier)
        if package is not None:
            found[(edge.source, specifier)] = package
    return found


def _display_path(root: Path, path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return path.resolve().relative_to(root).as_posix()
    except (ValueError, OSError):
        return str(path)
