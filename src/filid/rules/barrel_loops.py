"""Runtime barrel loops: the folder cycles ``circular-dependency`` claims in a project that
declares nothing (SPEC §0, issue 23), and how severe each claim is.

A loop counts only if it loads at import time, passes through the ``index.*`` of two or more
folders of one package and through a barrel; it is an error when a file imports the
re-exporting entry of a folder that holds it, for names that entry only re-exports, the
folder or package does not do so by habit, and some import of the loop reads a binding while
its file loads (``ImportFact.load_read``: a loop whose every import is read only inside
functions cannot fail at load time; nor can a read of a file that only its reader imports,
which has always finished loading first); a warning otherwise. docs/rules.md says why.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections import deque
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence

from filid.graph.compiler_paths import is_within, parent_dir
from filid.graph.cycles import Cycle, find_cycles, is_type_import
from filid.graph.module_graph import edge_sort_key, package_of
from filid.model.facts import ExportKind, FileFacts, ImportKind, Span, StatementKind
from filid.model.graph import ImportEdge, ModuleEdge, ModuleGraph
from filid.model.violations import Severity
from filid.rules.base import Finding, RuleContext
from filid.rules.index_barrel_pattern import barrel_offenders
from filid.scan.classify import entry_stem

__all__ = ["barrel_loops", "is_cycle_silenced", "is_reexporting_barrel", "runtime_edges"]


def barrel_loops(
    context: RuleContext,
    packages: frozenset[str],
    finding: Callable[[RuleContext, Cycle, str], Finding],
) -> Iterator[Finding]:
    """Runtime import cycles between files (inside one package) that pass through the
    ``index.*`` of two or more folders, lifted to those folders.

    Only what loads at import time counts: no type imports (nor imports of types only), no
    test files, no lazy ``import()``, no import read only in thunks (``forwardRef(() => X)``,
    ``@ManyToOne(() => User)``, ``references(() => users.id)``: the maintainers' own way of
    breaking a load-time cycle; ``filid.parse.thunks``). A loop of deep imports that never
    enters a barrel, or a folder-level "cycle" no file-level cycle backs, is no claim in an
    undeclared project.
    """
    grouped: dict[tuple[str, str], list[ImportEdge]] = {}
    for edge in runtime_edges(context, context.test_files):
        if package_of(edge.source, packages) != package_of(edge.target, packages):
            continue
        grouped.setdefault((edge.source, edge.target), []).append(edge)
    graph = ModuleGraph(
        nodes=tuple(sorted({f for pair in grouped for f in pair})),
        edges=tuple(ModuleEdge(s, t, tuple(e)) for (s, t), e in sorted(grouped.items())),
    )
    # The loops' runtime edges by importing file, less the imports of an importer's own
    # barrel: each of those is a slip its own finding asks to undo.
    following: dict[str, list[str]] = {}
    for source, target in grouped:
        if not _is_own_barrel_import(source, target, context.facts):
            following.setdefault(source, []).append(target)
    habits = _barrel_habits(grouped, context.facts, packages)
    # A part of the folder whose files import its barrel by convention, type-only imports
    # included: the convention is how the files write their imports.
    written = {
        (edge.source, edge.target)
        for edge in context.file_graph.edges
        if edge.source not in context.test_files
        and package_of(edge.source, packages) == package_of(edge.target, packages)
    }
    conventions = _barrel_conventions(written, context.facts)
    tree = context.tree
    seen: set[tuple[str, ...]] = set()
    # target file → every file importing it (any import, tests too), built when first needed
    importers: dict[str, set[str]] | None = None
    for component in find_cycles(graph, include_type_imports=False):
        files = frozenset(component.members)
        owners = {f: tree.owner_of(parent_dir(f)).path for f in files}
        barrels = {
            owner
            for file, owner in owners.items()
            if entry_stem(file.rpartition("/")[2]) == "index" and parent_dir(file) == owner
        }
        if len(barrels) < 2:
            continue
        if not _enters_a_barrel(files, owners, grouped, context.facts):
            continue  # two implementations named index.* that use each other: no claim
        # A file importing, through an entry that re-exports, a folder that holds it (the
        # loop its own barrel closes) is an error, unless the folder's or package's files do
        # so by habit; a loop only through sibling barrels or an implementation entry is real
        # but often how the code is meant to be: a warning.
        owns = [
            pair
            for pair in sorted(grouped)
            if pair[0] in files and pair[1] in files and _is_own_barrel_import(*pair, context.facts)
        ]
        # Lift the component's own edges to folders: each folder hop lies on a file cycle.
        lifted: dict[tuple[str, str], list[ImportEdge]] = {}
        for (source, target), evidence in grouped.items():
            if source in files and target in files and owners[source] != owners[target]:
                lifted.setdefault((owners[source], owners[target]), []).extend(evidence)
        folder_graph = ModuleGraph(
            nodes=tuple(sorted(set(owners.values()))),
            edges=tuple(ModuleEdge(s, t, tuple(e)) for (s, t), e in sorted(lifted.items())),
        )
        links = {
            (source, target): min(evidence, key=edge_sort_key)
            for (source, target), evidence in grouped.items()
            if source in files and target in files
        }
        if importers is None:
            importers = {}
            for edge in context.file_graph.edges:
                importers.setdefault(edge.target, set()).add(edge.source)
        reads = {
            pair: _reads_at_load(grouped[pair])
            and not _entered_only_from(pair, importers, context.is_entry_file)
            for pair in links
        }
        for cycle in find_cycles(folder_graph, include_type_imports=False):
            if cycle.members not in seen:
                seen.add(cycle.members)
                severity: Severity | None = Severity.WARNING
                route = _file_loop(cycle.route, owners, links)
                inside = [
                    pair
                    for pair in owns
                    if {owners[pair[0]], owners[pair[1]]} <= set(cycle.members)
                ]

                # The self-import a one-line change removes first: that is the claim. A habit,
                # or an import of what the barrel itself declares (fixing it moves code),
                # stays a warning.
                def is_slip(pair: tuple[str, str]) -> bool:
                    if pair[1] in habits or _part_of(*pair) in conventions:
                        return False
                    return _names_only_reexports(grouped[pair], context.facts.get(pair[1]))

                # show the loop the importer's own barrel closes, when it crosses folders (a
                # loop inside one folder is no folder cycle: stencil's runtime barrel); a slip
                # whose loop reads at load first
                candidates: list[tuple[bool, tuple[ImportEdge, ...]]] = []
                for own in inside:
                    closing = _file_path(own[1], own[0], _adjacency(links), lambda _f: True)
                    loop = (links[own], *(closing or ()))
                    if closing is not None and len({parent_dir(e.source) for e in loop}) > 1:
                        candidates.append((is_slip(own), loop))
                if candidates:
                    ranked = sorted(
                        range(len(candidates)),
                        key=lambda i: (
                            not candidates[i][0],
                            not _loads(candidates[i][1], reads),
                            i,
                        ),
                    )
                    slip, route = candidates[ranked[0]]
                    severity = None if slip else Severity.WARNING
                cycle = Cycle(cycle.members, route, _folders_of(route))
                # Say "through their index files" only when the loop shown passes one: two
                # files of two folders importing each other directly (decap-cms's
                # `actions/config.ts` <-> `reducers/collections.ts`) do not.
                units = (
                    "folders, through their index files, at run time"
                    if any(_is_index(e.source) or _is_index(e.target) for e in route)
                    else "folders, at run time"
                )
                found = finding(context, cycle, units)
                direct = _direct_import(route, context, following)
                if direct is not None:
                    found = dataclasses.replace(found, suggestion=direct)
                if not _loads(route, reads):
                    # Nothing on the loop is read while the files load: it cannot fail then.
                    severity = Severity.WARNING
                    found = dataclasses.replace(
                        found,
                        message=found.message + "; every import in the loop is read only inside"
                        " functions, so it cannot fail at load time",
                    )
                yield dataclasses.replace(found, severity=severity)


def _is_index(file: str) -> bool:
    """Whether ``file`` is an ``index.*`` source file."""
    return entry_stem(file.rpartition("/")[2]) == "index"


def _direct_import(
    route: Sequence[ImportEdge], context: RuleContext, following: Mapping[str, Sequence[str]]
) -> str | None:
    """What the maintainers do for a loop their own barrel closes: import the file that
    provides the names instead of the barrel (``import { List } from '..'`` becomes
    ``from '../List'``). The suggestion for the first import of ``route`` that goes through a
    barrel holding its file, when every name it imports comes through one re-export of that
    barrel (``export { List } from './List'``, or an ``export * from './List'`` whose target
    exports it), and when that file does not import the importer back through the runtime
    imports ``following`` (devpod's ``pro/client.ts`` imports ``client`` from ``@/client``,
    whose ``client.ts`` imports the ``./pro`` barrel: importing ``client.ts`` itself keeps the
    loop, judge N2); None otherwise (a name the barrel declares, a namespace import).
    ``following`` leaves out the imports of an importer's own barrel: undoing those is what
    their own findings ask."""
    facts = context.facts
    targets: dict[tuple[str, str], str] = {}
    for e in context.file_graph.edges:
        if e.fact.is_reexport and e.fact.specifier is not None:
            targets.setdefault((e.source, e.fact.specifier), e.target)
    for edge in route:
        if not _is_own_barrel_import(edge.source, edge.target, facts):
            continue
        names = edge.fact.names
        if not names or "*" in names or edge.fact.specifier is None:
            continue
        barrel: str | None = edge.target
        target: str | None = None
        # Through every barrel that holds the importer: one of them loads it back.
        while barrel is not None and _holds(barrel, edge.source) and _is_index(barrel):
            through = {_reexported_from(barrel, name, facts, targets) for name in names}
            target = through.pop() if len(through) == 1 else None
            barrel = target
        if target is None or target == edge.source or _reaches(target, edge.source, following):
            continue
        direct = _direct_specifier(edge, target)
        listed = ", ".join(names)
        return (
            f"import {{ {listed} }} from '{direct}' in {edge.source} instead of "
            f"'{edge.fact.specifier}', the barrel that holds it"
        )
    return None


def _reaches(start: str, goal: str, following: Mapping[str, Sequence[str]]) -> bool:
    """Whether ``goal`` is reached from ``start`` along ``following`` (file → imported
    files)."""
    seen = {start}
    stack = [start]
    while stack:
        for target in following.get(stack.pop(), ()):
            if target == goal:
                return True
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return False


def _reexported_from(
    barrel: str,
    name: str,
    facts: Mapping[str, FileFacts],
    targets: Mapping[tuple[str, str], str],
) -> str | None:
    """The file ``barrel`` re-exports ``name`` from (its own re-export's target), or None
    when it declares the name itself or filid cannot tell."""
    found = facts.get(barrel)
    if found is None:
        return None
    stars: list[str] = []
    for export in found.exports:
        if export.kind is ExportKind.STAR:
            if export.source is not None and (barrel, export.source) in targets:
                stars.append(targets[(barrel, export.source)])
        elif export.name == name:
            if export.source is None:
                return None  # declared (or exported as a local) here
            return targets.get((barrel, export.source))
    providers = [t for t in stars if _provides(t, name, facts, targets, {barrel})]
    return providers[0] if len(providers) == 1 else None


def _provides(
    file: str,
    name: str,
    facts: Mapping[str, FileFacts],
    targets: Mapping[tuple[str, str], str],
    seen: set[str],
) -> bool:
    """Whether ``file`` exports ``name``, itself or through its ``export *`` re-exports."""
    if file in seen:
        return False
    seen.add(file)
    found = facts.get(file)
    if found is None:
        return False
    for export in found.exports:
        if export.kind is ExportKind.STAR:
            target = targets.get((file, export.source)) if export.source is not None else None
            if target is not None and _provides(target, name, facts, targets, seen):
                return True
        elif export.name == name:
            return True
    return False


def _direct_specifier(edge: ImportEdge, file: str) -> str:
    """The specifier of ``file`` written like ``edge``'s: without an extension (a folder for
    an ``index.*``), or with ``.js`` when that one spells one; through the same alias when it
    uses one (``'~/components/form'`` gives ``'~/components/form/TextInput'``), else relative
    to the importer."""
    written = edge.fact.specifier or ""
    stem = file.rsplit(".", 1)[0]
    if written.endswith((".js", ".mjs", ".cjs", ".jsx")):
        stem += ".js"
    elif stem.endswith("/index"):
        stem = stem[: -len("/index")]
    barrel = parent_dir(edge.target)
    if not written.startswith(".") and is_within(stem, barrel) and stem != barrel:
        return written.rstrip("/") + "/" + posixpath.relpath(stem, barrel)
    source = parent_dir(edge.source)
    relative = posixpath.relpath(stem, source)
    return relative if relative.startswith("../") or relative == ".." else "./" + relative


def _reads_at_load(edges: Sequence[ImportEdge]) -> bool:
    """Whether one of ``edges`` (the imports of one file from another) reads a binding while
    the importer loads. A re-export reads nothing: an ES module re-export is a live binding,
    and TypeScript's, Babel's and esbuild's CommonJS output re-exports through getters over
    names every module declares before it requires anything. A side-effect import counts (the
    importer relies on what the target's evaluation did), as does any import filid could not
    read (``ImportFact.load_read`` is True when unsure)."""
    return any(edge.fact.load_read and not edge.fact.is_reexport for edge in edges)


def _entered_only_from(
    pair: tuple[str, str],
    importers: Mapping[str, set[str]],
    is_entry_file: Callable[[str], bool],
) -> bool:
    """Whether the target of ``pair`` can start loading only from its source: no other file
    imports it in any way (``importers``: tests, type-only and lazy imports included), and it
    is no entry point (``index.*``, ``main.*``, a manifest's). Then the target has finished
    loading before its importer's body runs, in every load order: the importer's load-time
    reads of it cannot fail, whatever loop the two lie on (judge M2, vue-naive-admin:
    ``utils/storage/index.js`` calls ``createStorage`` of ``./storage.js`` at load, and only
    it imports ``storage.js``, which reads the ``@/utils`` barrel inside methods only)."""
    source, target = pair
    return not is_entry_file(target) and importers.get(target) == {source}


def _loads(route: Sequence[ImportEdge], reads: Mapping[tuple[str, str], bool]) -> bool:
    """Whether some import of the file loop ``route`` reads a binding at load time."""
    return any(reads.get((edge.source, edge.target), True) for edge in route)


def _file_loop(
    hops: tuple[ImportEdge, ...],
    owners: Mapping[str, str],
    links: Mapping[tuple[str, str], ImportEdge],
) -> tuple[ImportEdge, ...]:
    """The folder route ``hops`` closed file by file, so the message shows the whole loop:
    after each hop, the imports that lead, inside the folder it reaches, from the file it
    reaches to the file the next hop leaves. When a folder holds no such path, the loop is
    the shortest file cycle through the first hop instead (a simple cycle, never a walk)."""
    adjacency = _adjacency(links)
    loop: list[ImportEdge] = []
    for index, hop in enumerate(hops):
        loop.append(hop)
        goal = hops[(index + 1) % len(hops)].source
        folder = owners[hop.target]

        def in_folder(file: str, folder: str = folder) -> bool:
            return owners[file] == folder

        path = _file_path(hop.target, goal, adjacency, in_folder)
        if path is None:
            closing = _file_path(hops[0].target, hops[0].source, adjacency, lambda _f: True)
            return (hops[0], *(closing or []))
        loop.extend(path)
    return tuple(loop)


def _adjacency(
    links: Mapping[tuple[str, str], ImportEdge],
) -> dict[str, list[tuple[str, ImportEdge]]]:
    """``links`` as sorted adjacency lists: file → [(imported file, its import)]."""
    adjacency: dict[str, list[tuple[str, ImportEdge]]] = {}
    for (source, target), edge in sorted(links.items()):
        adjacency.setdefault(source, []).append((target, edge))
    return adjacency


def _file_path(
    start: str,
    goal: str,
    adjacency: Mapping[str, list[tuple[str, ImportEdge]]],
    allowed: Callable[[str], bool],
) -> list[ImportEdge] | None:
    """The imports of one shortest path ``start`` -> ``goal`` through ``allowed`` files (BFS in
    sorted order), ``[]`` when they are the same file, None when there is none."""
    if start == goal:
        return []
    came: dict[str, ImportEdge] = {}
    queue: deque[str] = deque([start])
    while queue:
        node = queue.popleft()
        for target, edge in adjacency.get(node, []):
            if target in came or target == start or not allowed(target):
                continue
            came[target] = edge
            if target == goal:
                path = [edge]
                while path[-1].source != start:
                    path.append(came[path[-1].source])
                return path[::-1]
            queue.append(target)
    return None


def _folders_of(route: tuple[ImportEdge, ...]) -> tuple[str, ...]:
    """The folders a file loop passes through, in order, each stay counted once: the files'
    own folders, so a hop through folders without an ``index.*`` (owned by an ancestor, even
    the root ``.``) still names where the files are."""
    folders: list[str] = []
    for edge in route:
        folder = parent_dir(edge.source)
        if not folders or folders[-1] != folder:
            folders.append(folder)
    if len(folders) > 1 and folders[-1] == folders[0]:
        folders.pop()
    return tuple(folders)


def runtime_edges(context: RuleContext, left_out: frozenset[str]) -> Iterator[ImportEdge]:
    """The file edges that load at import time and may close a claimed cycle: no type
    imports, no tests or ``left_out`` files, no lazy ``import()``, no import read only in
    thunks, no import the maintainers silenced the cycle rule on (``is_cycle_silenced``)."""
    facts = context.facts
    for edge in context.file_graph.edges:
        if edge.source in left_out or is_type_import(edge):
            continue
        if edge.fact.kind is ImportKind.DYNAMIC or edge.fact.deferred:
            continue
        if is_cycle_silenced(edge, facts):
            continue
        yield edge


def is_cycle_silenced(edge: ImportEdge, facts: Mapping[str, FileFacts]) -> bool:
    """Whether the maintainers silenced the import cycle rule on ``edge``'s import
    (``// eslint-disable-next-line import/no-cycle`` above it, ``FileFacts.cycle_silenced``).

    Decision (issue 23; docs/rules.md): they have accepted that edge, so an undeclared
    project's cycle detection drops it; a cycle that needs it is no claim, one that does not
    still is."""
    found = facts.get(edge.source)
    if found is None or not found.cycle_silenced:
        return False
    imports = found.imports
    return any(imports[i] == edge.fact for i in found.cycle_silenced if i < len(imports))


def _is_own_barrel_import(source: str, target: str, facts: Mapping[str, FileFacts]) -> bool:
    """Whether ``source`` imports the entry of a folder that holds it (``'..'``,
    ``@/components/x`` from inside ``x``, its package's own entry) and that entry re-exports:
    the importer's own barrel, which loads it back."""
    if entry_stem(target.rpartition("/")[2]) != "index" or not _holds(target, source):
        return False
    found = facts.get(target)
    return found is not None and any(
        statement.kind is StatementKind.RE_EXPORT for statement in found.statements
    )


def _names_only_reexports(edges: Sequence[ImportEdge], barrel: FileFacts | None) -> bool:
    """Whether every name ``edges`` import from ``barrel`` is one it re-exports (declared in
    another file, so importing that file instead is the whole fix), not one it declares."""
    if barrel is None:
        return False
    declared = {d.name for d in barrel.declarations if d.name is not None}
    local_default = any(e.name == "default" and e.source is None for e in barrel.exports)
    for edge in edges:
        for name in edge.fact.names:
            if name == "*" and declared:
                return False
            if name in declared or (name == "default" and local_default):
                return False
    return True


# A barrel imported from inside by this many files, or a package with this many files
# importing a barrel that holds them, does so by habit (issue 23's judges: "about 40 files of
# plane's web app do the same", "payload/src imports its root index throughout").
HABIT_PER_BARREL = 3
HABIT_PER_PACKAGE = 10


def _part_of(importer: str, barrel: str) -> tuple[str, str]:
    """(barrel, the child of the barrel's folder that holds ``importer``; ``""`` when the
    importer sits in that folder itself)."""
    folder = parent_dir(barrel)
    rest = importer if folder == "." else importer[len(folder) + 1 :]
    child, slash, _ = rest.partition("/")
    return barrel, child if slash else ""


def _barrel_conventions(
    pairs: Collection[tuple[str, str]], facts: Mapping[str, FileFacts]
) -> frozenset[tuple[str, str]]:
    """The (barrel, child folder) parts of a folder whose files import the folder's barrel by
    convention: ``HABIT_PER_BARREL`` or more files of one child folder import it, type-only
    imports included (``pairs``: every import the files write).

    Decision (issue 23): the convention is how the files of one part of the code write their
    imports, and an import erased at emit follows it as much as one that loads the barrel.
    webiny's ``Domain/Repositories/**`` import their layer's ``~/Domain`` barrel in six files,
    five for types only: the one that reads a value there follows the convention (a warning).
    Files of another part doing so make no convention for this one: teable's
    ``image-toolbar-button.tsx`` importing the ``components`` barrel from ``comment/`` is a
    one-off, whatever ``grid-enhancements/hooks`` do.
    """
    importers: dict[tuple[str, str], set[str]] = {}
    for source, target in pairs:
        if _is_own_barrel_import(source, target, facts):
            importers.setdefault(_part_of(source, target), set()).add(source)
    return frozenset(part for part, files in importers.items() if len(files) >= HABIT_PER_BARREL)


def _barrel_habits(
    grouped: Mapping[tuple[str, str], list[ImportEdge]],
    facts: Mapping[str, FileFacts],
    packages: frozenset[str],
) -> frozenset[str]:
    """The barrels whose own files import them by habit, not as a one-off.

    Decision (issue 23, SPEC §0 is silent): a file that imports its own folder's barrel where
    its neighbours import the files themselves is a slip its maintainers fix in one line; the
    same import made by many files of the folder or of the package is the code base's
    convention, and a loop it closes is reported as a warning.
    """
    importers: dict[str, set[str]] = {}
    for source, target in grouped:
        if _is_own_barrel_import(source, target, facts):
            importers.setdefault(target, set()).add(source)
    per_package: dict[str | None, set[str]] = {}
    for entry, files in importers.items():
        per_package.setdefault(package_of(entry, packages), set()).update(files)
    return frozenset(
        entry
        for entry, files in importers.items()
        if len(files) >= HABIT_PER_BARREL
        or len(per_package[package_of(entry, packages)]) >= HABIT_PER_PACKAGE
    )


def _holds(entry: str, importer: str) -> bool:
    """Whether the folder of ``entry`` holds ``importer``."""
    return is_within(parent_dir(importer), parent_dir(entry))


def _enters_a_barrel(
    files: frozenset[str],
    owners: Mapping[str, str],
    grouped: Mapping[tuple[str, str], list[ImportEdge]],
    facts: Mapping[str, FileFacts],
) -> bool:
    """Whether a file loop passes through a barrel: one of its ``index.*`` only re-exports, or
    one of its imports reaches the entry of a folder that holds the importing file."""
    for file in files:
        folder = parent_dir(file)
        is_index = owners[file] == folder and entry_stem(file.rpartition("/")[2]) == "index"
        if is_index and is_reexporting_barrel(facts.get(file)):
            return True
    for source, target in grouped:
        if source not in files or target not in files:
            continue
        if entry_stem(target.rpartition("/")[2]) == "index" and _holds(target, source):
            return True
    return False


_TYPE_KINDS = frozenset({"interface", "type"})
_NAME_EXPORTS = (StatementKind.EXPORT_NAMES, StatementKind.EXPORT_DEFAULT_NAME)


def is_reexporting_barrel(facts: FileFacts | None) -> bool:
    """Whether a file is a barrel: it re-exports at least one binding and holds nothing
    ``index-barrel-pattern`` would flag (``barrel_offenders``) but type declarations."""
    if facts is None or facts.has_syntax_error:
        return False
    kinds: dict[Span, set[str]] = {}
    for declaration in facts.declarations:
        kinds.setdefault(declaration.span, set()).add(declaration.kind)
    if any(not kinds.get(o.span, {""}) <= _TYPE_KINDS for o in barrel_offenders(facts)):
        return False
    return any(
        s.kind is StatementKind.RE_EXPORT or (s.kind in _NAME_EXPORTS and s.names)
        for s in facts.statements
    )
