"""Evaluating the rules over a loaded project (``filid.check.project``) → ValidationResult.

``evaluate`` runs the rules, applies config (enabled, severity, exempt, options), fills
default locations and fingerprints, and scopes the result to a subtree or to a set of files
(pre-commit). The inputs rules need beyond the graph (source folders, generated and
unpublished imports) are computed here, once per evaluation.
"""

from __future__ import annotations

import bisect
import hashlib
import types
import typing
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

from filid.check.alias_patterns import AliasPatterns
from filid.check.bundler_aliases import BundlerAliases, build_configs, bundler_aliases
from filid.check.clock import timestamp
from filid.check.exports_blind import ExportsBlind
from filid.check.generated_code import generated_imports
from filid.check.jest_mappers import JestMappers
from filid.check.ng_packagr_entries import NgPackagrEntryPoints
from filid.check.private_templates import PrivateTemplates
from filid.check.project import Project, gc_paused
from filid.check.scoping import restrict, select_rules
from filid.config.globs import matches_any_glob, matches_glob
from filid.config.model import Config, RuleConfig
from filid.graph.compiler_paths import is_within, parent_dir
from filid.graph.resolve import Resolver
from filid.model.errors import ConfigError
from filid.model.graph import ImportEdge
from filid.model.nodes import FractalNode, FractalTree, NodeCategory
from filid.model.report import Regime, ValidationResult
from filid.model.violations import Location, Severity, Violation
from filid.rules.base import Finding, Rule, RuleContext
from filid.rules.catalogue import regime_severity, rule_runs
from filid.scan.classify import is_fixture_path
from filid.scan.universe import (
    is_source_file,
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
    from filid.rules.registry import RULES  # every rule: imported when they run

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
    # The node paths of each category, once (each rule reports the nodes it evaluated).
    by_category: dict[NodeCategory, list[str]] = {}
    for node in project.tree.nodes.values():
        by_category.setdefault(node.category, []).append(node.path)
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
        nodes: set[str] = set()
        for category in meta.applies_to:
            paths = by_category.get(category, ())
            # every node lies within the root: no test per path for a whole-project check
            nodes.update(paths if scope == "." else (p for p in paths if is_within(p, scope)))
        occurrences: dict[tuple[str, ...], int] = {}
        for finding in rule.check(context, options):
            if not (is_within(finding.node, scope) or is_within(finding.path, scope)):
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
    return folders_holding([f for f in files if is_source_file(f)])


def folders_holding(files: Iterable[str]) -> frozenset[str]:
    """Every folder (the root ``.`` included) that holds one of ``files`` at any depth."""
    found: set[str] = set()
    for file in files:
        directory = parent_dir(file)
        while directory not in found:
            found.add(directory)
            if directory == ".":
                break
            directory = parent_dir(directory)
    return frozenset(found)


def unpublished_imports(project: Project) -> dict[tuple[str, str], str]:
    """(importing file, specifier) → the workspace package folder whose manifest does not
    publish that path, for every bare specifier that reached a file outside the manifest.
    An import erased at emit (``is_erased_at_emit``) is left out unless the importer's
    TypeScript resolution reads ``exports`` (node16/nodenext/bundler): Node never loads it,
    and node10/classic resolution finds the file all the same. A guarded module call
    (``ImportFact.guarded``: a fallback inside ``try``/``catch``, or one the author silenced the
    compiler on) is left out too: the code expects the path may not load. So is a specifier a
    build tool config above the importer spells or matches with an alias ``find`` pattern (a
    bundler alias: preact's demo, uppy's dev app), and an
    import in a test fixture (``scan.classify.is_fixture_path``), one whose importer's
    toolchain never reads ``exports`` or whose aliases filid cannot read
    (``check.exports_blind``), and one in a private template folder a script copies into a
    new package (``check.private_templates``: react-native-firebase's ``_TEMPLATE_``). A
    subpath ng-packagr publishes as a secondary entry point (``check.ng_packagr_entries``:
    flex-layout's ``@angular/flex-layout/_private-utils``) is published: ng-packagr writes
    its ``exports`` entry into the dist manifest."""
    aliases: BundlerAliases | None = None
    patterns: AliasPatterns | None = None
    blind: ExportsBlind | None = None

    templates = PrivateTemplates(project.file_graph.edges)
    jest: JestMappers | None = None
    entry_points = NgPackagrEntryPoints(project)

    def aliased(importer: str, specifier: str) -> bool:
        nonlocal aliases, patterns, blind, jest
        if entry_points.publishes(specifier):
            return True  # ng-packagr writes its `exports` entry (`check.ng_packagr_entries`)
        if templates.holds(importer):
            # a private template folder a script copies into a new package
            # (react-native-firebase's `scripts/_TEMPLATE_`): its imports are checked there
            return True
        if aliases is None:
            aliases = bundler_aliases(project)
        if aliases.names(importer, specifier):
            return True
        if patterns is None:
            patterns = AliasPatterns(project.root, build_configs(project.tree.files))
        if patterns.matches(importer, specifier):
            return True  # an alias `find: /…/` matches it (uppy's dev app: `check.alias_patterns`)
        if jest is None:
            jest = _jest_mappers(project)
        if jest.maps(importer, specifier):
            return True  # a file only Jest runs, whose config maps it (`check.jest_mappers`)
        if blind is None:
            blind = ExportsBlind(project)
        # aliases filid cannot read (a generated tsconfig base), or a toolchain that never
        # reads `exports` (webpack 4 with node10 resolution): `check.exports_blind`
        return blind.holds(importer)

    return unpublished_of(project.file_graph.edges, project.resolver, aliased)


def _jest_mappers(project: Project) -> JestMappers:
    by_target: dict[str, list[str]] = {}
    for edge in project.file_graph.edges:
        by_target.setdefault(edge.target, []).append(edge.source)
    return JestMappers(
        project.root,
        frozenset(project.tree.files),
        project.test_files,
        lambda file: by_target.get(file, ()),
    )


def unpublished_of(
    edges: Iterable[ImportEdge],
    resolver: Resolver,
    aliased: Callable[[str, str], bool] | None = None,
) -> dict[tuple[str, str], str]:
    """:func:`unpublished_imports` over ``edges`` alone; ``aliased(importer, specifier)`` says
    whether a bundler alias maps the specifier (None: no alias is known, so a proof that
    uses this answer can only be more cautious than the full run)."""
    from filid.rules.unpublished_package_import import is_erased_at_emit

    found: dict[tuple[str, str], str] = {}
    for edge in edges:
        specifier = edge.fact.specifier
        if edge.via_manifest or specifier is None or specifier.startswith((".", "/", "#")):
            continue
        if edge.fact.guarded:
            continue  # the file handles its failure, or silenced the compiler on it
        if is_fixture_path(edge.source):
            continue  # written to exercise a tool (workers-sdk's fixtures import on purpose)
        if is_erased_at_emit(edge) and resolver.honours_exports(edge.source) is not True:
            continue
        package = resolver.unpublished_package(edge.source, specifier)
        if package is not None:
            if aliased is not None and aliased(edge.source, specifier):
                continue  # a bundler alias maps it (a Vite or webpack config spells it)
            found[(edge.source, specifier)] = package
    return found


def _display_path(root: Path, path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return path.resolve().relative_to(root).as_posix()
    except (ValueError, OSError):
        return str(path)
