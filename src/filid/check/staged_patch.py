"""The staged patch path: proving that an import edit leaves the stored result as it is.

The early cutoff (``filid.check.staged``) answers from the staged state when a changed
file's facts are unchanged. Most commits change imports, and most import edits still change
no finding: the file imports one more helper of its own module, a sibling, another module's
entry. This module proves that case without recomputing the project, and answers None
(the caller computes the result afresh) whenever it cannot prove it. It runs only when

- the file set is the same and every changed file is a source file known to the state,
  not a vitest config, not read by the fix planner nor spelling a folder name it searched
  for, and mentioned nowhere in the stored result (no violation, related location, message
  or note) except in the note saying why another file's fix is refused (step 4 covers what
  that refusal read), at most ``MAX_REPARSED`` of them; no config, tsconfig, manifest or
  document changed (they would not be source files);
- the project is declared (SPEC §0: an undeclared project's cycle rule walks the whole
  file graph) and the state holds its graph summary (``graph_summary``);
- the work tree's copies of the staged files equal the index (as for a computed staged
  run: the unchanged files, documents and manifests are read from the work tree); asked of
  ``git diff-files``, which runs while the proof does, before the proof answers.

Each changed file's previous content is the blob the stored result was computed from (read
from git), so its old and new facts are both parsed, and the proof is:

1. The facts differ in ``imports`` only (exports, declarations, statements, side effects,
   test cases equal; positions too, except the lines of a non-entry file's exports, which no
   finding shows): every rule input declared ``SURFACE`` is unchanged, and so is the tree
   (side effects decide pure-function folders).
2. The re-exports (``export … from``) resolve as before: ``RE_EXPORTS`` inputs unchanged.
3. For each running rule (``rules.base.RULE_READS``): ``FILE_GRAPH`` → no proof;
   ``IMPORTED_FILES`` → the set of files the changed file imports (and imports at run time)
   is unchanged; ``OWN_IMPORTS`` → the rule, run on the changed files' new imports alone,
   finds nothing (it found nothing before: no violation names the files);
   ``MODULE_GRAPH`` (``circular-dependency``, type imports ignored) → the module edges the
   changed imports support are counted (the summary keeps, per module edge, how many runtime
   imports support it): no edge inside a cycle gains or loses an import (its route and
   evidence would change), no module edge appears that closes a cycle (a breadth-first
   search from its target back to its source over the new edges), and an edge that
   disappears lay in no cycle, so the strongly connected components are unchanged.
4. The refused-fix marks cannot change: the changed file's relative specifiers show the same
   styles (the planner follows the project's majority), and no file the changed imports
   reach or name, nor a folder holding one, is the path, location, related location or
   target of a violation with a safe or moderate fix (whose plan reads the imports of the
   files it moves or rewrites).

What the proof reads beyond the state (facts of unchanged files, documents, the rules that
read imports) is read on first use (``filid.check.staged_context``); the summary kept with
the state is ``filid.check.staged_summary``'s, and the module graph step is
``filid.check.staged_cycles``. Anything else falls back to the full
computation. ``tests/check/test_staged_patch.py``
checks the answers byte for byte against ``--no-cache`` runs after random import edits.
"""

from __future__ import annotations

import dataclasses
import marshal
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from filid.config.model import Config
    from filid.graph.resolve import Resolver
    from filid.model.facts import FileFacts
    from filid.model.graph import ImportEdge, UnresolvedImport

from filid.check.staged_context import (
    Documents,
    SourceFacts,
    finds_any,
    rule_context,
    watched_rules,
)
from filid.check.staged_cycles import changed_module_edges
from filid.check.staged_summary import (
    STYLE,
    GraphSummary,
    decode_tree,
    fix_involved,
    parent_dir,
    tally,
)
from filid.rules.base import Reads

# The graph code is imported where used (any ``filid.graph`` module loads them all).


__all__ = ["Edited", "unchanged_by_imports"]

# (path, universe index, blob in the index now, blob the stored result was computed from)
Edited = tuple[str, int, str, str]


def _edges(
    path: str, facts: Mapping[str, FileFacts], resolver: Resolver
) -> tuple[list[ImportEdge], list[UnresolvedImport]]:
    """The file's edges as ``build_file_graph`` makes them (``type_only`` marked) over
    ``facts``."""
    from filid.graph.file_graph import file_imports, runs_nothing
    from filid.graph.resolve import ResolutionKind
    from filid.graph.type_only import TypeOnlyIndex

    def target_of(file: str, specifier: str) -> str | None:
        found = facts.get(file)
        if found is None or not any(f.specifier == specifier for f in found.imports):
            return None
        resolution = resolver.resolve(file, specifier)
        if resolution.kind is ResolutionKind.FILE and resolution.target is not None:
            return resolution.target
        return None

    edges, unresolved = file_imports(path, facts[path], resolver)
    index = TypeOnlyIndex(facts, target_of)
    marked = [
        dataclasses.replace(e, type_only=True) if runs_nothing(e, index, resolver) else e
        for e in edges
    ]
    return marked, unresolved


def _pointed(path: str, specifier: str) -> str | None:
    """The root-relative path a relative specifier names (None: not relative, or outside)."""
    import posixpath

    if not specifier.startswith(("./", "../")) and specifier not in (".", ".."):
        return None
    joined = posixpath.normpath(posixpath.join(parent_dir(path), specifier))
    return None if joined == ".." or joined.startswith("../") else joined


def _surface(facts: FileFacts, *, lines: bool = True) -> FileFacts:
    """``facts`` without their imports: what ``Reads.SURFACE`` rules read. Without
    ``lines``, exports also lose their line, which only an entry file's findings show
    (``entry-point-surface``); a file parsed lean keeps no other position."""
    if lines:
        return dataclasses.replace(facts, imports=())
    exports = tuple(dataclasses.replace(e, line=0) for e in facts.exports)
    return dataclasses.replace(facts, imports=(), exports=exports)


def _fix_involved(summary: GraphSummary, violations: Sequence[bytes]) -> frozenset[str]:
    """:func:`staged_summary.fix_involved` of the stored result: kept with the summary, else
    found in the encoded ``violations``."""
    if summary.involved is not None:
        return frozenset(summary.involved.split("\0") if summary.involved else ())
    return fix_involved(marshal.loads(blob) for blob in violations)


def _touches(path: str, involved: frozenset[str]) -> bool:
    """``path`` or a folder holding it is in ``involved``."""
    current = path
    while True:
        if current in involved:
            return True
        if current in (".", ""):
            return False
        current = parent_dir(current)


def _styles(facts: FileFacts) -> Counter[str]:
    """:func:`tally` of one file."""
    return Counter(tally((facts,)))


def _tests(files: Sequence[str], bits: str) -> frozenset[str]:
    """The test files of ``files``, by their ``GraphSummary.tests`` bit."""
    if len(bits) != len(files):
        raise ValueError("the summary does not match the files")
    found = []
    at = bits.find("1")
    while at >= 0:
        found.append(files[at])
        at = bits.find("1", at + 1)
    return frozenset(found)


def _leader(counts: Mapping[str, int]) -> str | None:
    """The majority style of ``counts`` (None: a tie or none, left to the tsconfig)."""
    styles = {k: v for k, v in counts.items() if k.startswith(STYLE)}
    best = max(styles.values(), default=0)
    leaders = [k for k, v in styles.items() if v == best]
    return leaders[0] if len(leaders) == 1 and best > 0 else None


def unchanged_by_imports(
    root: Path,
    config: Config,
    files: Sequence[str],
    summary: GraphSummary,
    violations: Sequence[bytes],
    edited: Sequence[Edited],
    contents: Mapping[str, bytes],
    clean: Callable[[], bool],
) -> dict[str, int] | None:
    """The proof of the module docstring for the ``edited`` files (their old and new blobs'
    ``contents`` given): the module edges whose counts changed, with their new counts, when
    the stored result is still the result; None when that cannot be proven.

    The caller has checked what the state alone can tell (the file set, source files,
    mentions, fix-planner reads); ``clean()`` tells whether the work tree's copies of
    ``files`` equal the index. The proof reads the work tree (manifests, tsconfigs, the
    documents and facts it looks at) and asks ``clean()`` last, before it answers: git
    compares the work tree while the proof runs, and a proof over a work tree that differs
    from the index answers None.
    """
    from filid.check.project import gc_paused
    from filid.model.errors import FilidError

    try:
        with gc_paused():  # the tree's many small objects hold no cycles (as load_project)
            proven = _prove(root, config, files, summary, violations, edited, contents)
    except FilidError:
        # A manifest or tsconfig that does not parse (perhaps an unstaged edit: the work
        # tree is not asked first): the computation reports it, or reads the index's copy.
        return None
    return proven if proven is not None and clean() else None


def _parsed(
    edited: Sequence[Edited], contents: Mapping[str, bytes]
) -> tuple[dict[str, FileFacts], dict[str, FileFacts]] | None:
    """The edited files' facts before and after, when both parse without a syntax error
    and differ in imports only (step 1, export lines aside); else None."""
    from filid.parse.encoding import decode_facts
    from filid.parse.files import process_source

    old: dict[str, FileFacts] = {}
    new: dict[str, FileFacts] = {}
    for name, _, now, then in edited:
        before, after = contents.get(then), contents.get(now)
        if before is None or after is None:
            return None
        was, is_now = process_source(name, before), process_source(name, after)
        if was.note is not None or is_now.note is not None:
            return None
        if was.encoded is None or is_now.encoded is None:
            return None
        old[name], new[name] = decode_facts(was.encoded), decode_facts(is_now.encoded)
        if old[name].has_syntax_error or new[name].has_syntax_error:
            return None
        if _surface(old[name], lines=False) != _surface(new[name], lines=False):
            return None  # 1. more than imports changed
    return old, new


def _prove(
    root: Path,
    config: Config,
    files: Sequence[str],
    summary: GraphSummary,
    violations: Sequence[bytes],
    edited: Sequence[Edited],
    contents: Mapping[str, bytes],
) -> dict[str, int] | None:
    """:func:`unchanged_by_imports` but for the work tree's check, with the collector
    paused."""
    from filid.config.globs import matches_any_glob
    from filid.model.facts import ImportKind
    from filid.parse.files import is_entry_file

    if not summary.declared:
        return None
    parsed = _parsed(edited, contents)
    if parsed is None:
        return None
    old, new = parsed
    tests = _tests(files, summary.tests)
    styles: Counter[str] = Counter()
    for name in old:
        if name not in tests:
            styles.update(_styles(new[name]))
            styles.subtract(_styles(old[name]))
    updated = {k: summary.pairs.get(k, 0) + v for k, v in styles.items() if v}
    if any(v < 0 for v in updated.values()):
        return None  # the summary does not match these files: do not guess
    styled = {k: v for k, v in summary.pairs.items() if k.startswith(STYLE)}
    if _leader(styled) != _leader({**styled, **updated}):
        return None  # 4. the planner's majority style moves
    running = watched_rules(config)
    if running is None or any(reads & Reads.FILE_GRAPH for _, reads in running):
        return None
    from filid.graph import build_resolver

    resolver = build_resolver(root, files)
    entries = set(resolver.manifest_entry_files())
    overrides = config.structure.entry_point_overrides
    for name in old:
        entry = name in entries or (overrides and matches_any_glob(name, overrides))
        if (entry or is_entry_file(name)) and _surface(old[name]) != _surface(new[name]):
            return None  # 1. an entry's export lines are shown (entry-point-surface)
    universe = frozenset(files)
    old_view = SourceFacts(root, files, old, universe)
    new_view = SourceFacts(root, files, new, universe)
    before_edges: dict[str, list[ImportEdge]] = {}
    after_edges: dict[str, list[ImportEdge]] = {}
    after_unresolved: list[UnresolvedImport] = []
    involved = _fix_involved(summary, violations)
    for name in old:
        before_edges[name], unresolved_before = _edges(name, old_view, resolver)
        after_edges[name], unresolved_after = _edges(name, new_view, resolver)
        after_unresolved.extend(unresolved_after)

        def reexports(edges: list[ImportEdge]) -> set[tuple[str | None, str]]:
            return {(e.fact.specifier, e.target) for e in edges if e.fact.is_reexport}

        if reexports(before_edges[name]) != reexports(after_edges[name]):
            return None  # 2.
        reached = [e.target for e in (*before_edges[name], *after_edges[name])]
        for item in (*unresolved_before, *unresolved_after):
            pointed = _pointed(name, item.specifier)
            if pointed is not None:
                reached.append(pointed)
        for fact in (*old[name].imports, *new[name].imports):
            pointed = _pointed(name, fact.specifier or "")
            if pointed is not None:
                reached.append(pointed)
        if any(_touches(path, involved) for path in reached):
            return None  # 4. a fix the planner plans reads these imports
    if any(reads & Reads.IMPORTED_FILES for _, reads in running):
        for name in old:

            def imported(edges: list[ImportEdge]) -> tuple[set[str], set[str]]:
                return (
                    {e.target for e in edges},
                    {e.target for e in edges if e.fact.kind is not ImportKind.TYPE},
                )

            if imported(before_edges[name]) != imported(after_edges[name]):
                return None  # 3. another file's findings may follow who imports it
    # The tree, as load_project builds it: the same files, documents and side effects. The
    # documents are read as the rules ask for them.
    documents = Documents(root, files, universe)
    # The computed run's tree, kept with the summary: step 1 left every input of the
    # classification as it was (files, documents, side effects, config, route folders).
    tree = decode_tree(summary.tree, root, files, documents)
    if tree is None:
        from filid.scan.classify import build_tree

        side_effect_free = {
            name: bit == "1"
            for name, bit in zip(files, summary.side_effect_free, strict=True)
            if bit != " "
        }
        tree = build_tree(
            root,
            files,
            config.structure,
            side_effect_free,
            dict(documents),
            route_directories=resolver.route_directories(),
        )
    context: Any = None
    for rule, reads in running:
        if reads & Reads.MODULE_GRAPH:
            from filid.check.engine import build_options

            options = build_options(rule, config.rules.get(rule.meta.id), config)
            if getattr(options, "includeTypeImports", False):
                return None
            found = changed_module_edges(tree, summary, old, before_edges, after_edges, tests)
            if found is None:
                return None
            updated.update(found)
        if reads & Reads.OWN_IMPORTS:
            from filid.model.graph import FileGraph

            own = FileGraph(
                edges=tuple(e for name in sorted(old) for e in after_edges[name]),
                unresolved=tuple(after_unresolved),
            )
            if context is None:
                context = rule_context(
                    own, tree, new_view, tests, resolver, config, summary.folders
                )
            if finds_any(rule, context, config):
                return None  # 3. a new finding at the changed file
    return updated
