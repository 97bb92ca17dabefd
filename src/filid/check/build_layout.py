"""Paths that resolve in a project's real build or published layout but not in its source
tree: globs a glob resolver expands, run-time requires read from the emitted file, relative
paths written for the published package layout (issue 23)."""

from __future__ import annotations

import os
from pathlib import Path

from filid.check.project import Project
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.graph.resolve import ResolutionKind
from filid.model.facts import ImportKind

__all__ = [
    "emitted_data_target",
    "glob_matches",
    "names_a_published_file",
    "resolves_from_emitted_file",
]

_GLOB_MARKS = ("*", "[", "{")  # `?` starts a bundler query (`./x.svg?raw`), not a glob


def glob_matches(root: Path, directory: str, specifier: str) -> bool:
    """Whether a relative ``specifier`` is a glob pattern (``*``, ``[…]``, ``{a,b}``)
    that matches at least one file of the project. A glob resolver reads such a specifier
    (Parcel's ``@parcel/resolver-glob``, babel's ``transform-glob-import``: react-spectrum's
    ``import intlMessages from '../../intl/tree/*.json'``); TypeScript types it through an
    ambient ``declare module '*.json'``. A pattern that matches nothing is still claimed:
    the resolver finds nothing either."""
    if not specifier.startswith(("./", "../")) or not any(m in specifier for m in _GLOB_MARKS):
        return False
    for pattern in _expand_braces(specifier.split("?", 1)[0]):
        path = join_path(directory, pattern)
        if path.startswith("../") or path == "..":
            continue  # outside the project
        segments = path.split("/")
        fixed = 0
        while fixed < len(segments) and not any(m in segments[fixed] for m in "*["):
            fixed += 1
        if fixed == len(segments):
            if os.path.isfile(root / path):
                return True
            continue
        base = root.joinpath(*segments[:fixed])
        rest = "/".join(segments[fixed:])
        try:
            if base.is_dir() and any(hit.is_file() for hit in base.glob(rest)):
                return True
        except (OSError, ValueError):
            continue
    return False


def _expand_braces(pattern: str) -> list[str]:
    """``a/{b,c}/*.json`` → ``a/b/*.json``, ``a/c/*.json`` (nested braces expand too)."""
    done: list[str] = []
    pending = [pattern]
    while pending and len(done) < 64:
        current = pending.pop()
        close = current.find("}")
        open_ = current.rfind("{", 0, close) if close >= 0 else -1
        if open_ < 0:
            done.append(current)
            continue
        head, body, tail = current[:open_], current[open_ + 1 : close], current[close + 1 :]
        pending.extend(head + choice + tail for choice in body.split(","))
    return done


_TS_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")


def resolves_from_emitted_file(project: Project, file: str, line: int, specifier: str) -> bool:
    """Whether a relative ``require`` in a TypeScript file finds a file from where tsc emits
    it (``rootDir`` → ``outDir``). tsc does not resolve a ``require()`` call in a TypeScript
    file: Node does, at run time, from the emitted JavaScript (lit's CLI runs
    ``createRequire(import.meta.url)('../package.json')`` from ``lib/lit-cli.js``, emitted
    from ``src/lib/lit-cli.ts`` under ``rootDir: "src/"``, ``outDir: "./"``). Only a config
    that sets both is mapped (tsc's implied ``rootDir`` depends on the whole program)."""
    emitted = _emitted_folder(project, file, line, specifier)
    if emitted is None:
        return False
    resolution = project.resolver.resolve_from(emitted[0], specifier)
    return resolution.kind is ResolutionKind.FILE


def emitted_data_target(project: Project, file: str, line: int, specifier: str) -> str | None:
    """The path a relative ``require`` of a data file (``'./catalog.json'``: an extension that
    is no script's) names from where tsc emits ``file`` (``rootDir`` → ``outDir``), when that
    path lies inside the ``outDir``; else None.

    tsc writes into ``outDir`` only what it compiles from sources; a data file there, which
    no source stands for, is written by another step of the build or the install (theia's
    ``afterInstall`` downloads ``lib/browser/catalog.json`` beside the emitted
    ``lib/browser/json-schema-store.js``). Whether such a path is build output is for git to
    say (``generated_code`` asks whether it ignores it); a script or a path leaving the
    ``outDir`` is not mapped, so a stale source import stays judged."""
    emitted = _emitted_folder(project, file, line, specifier)
    if emitted is None:
        return None
    name = specifier.rpartition("/")[2]
    stem, dot, extension = name.rpartition(".")
    if not (dot and stem) or f".{extension}" in _SCRIPT_EXTENSIONS:
        return None
    folder, out_dir = emitted
    target = join_path(folder, specifier)
    if target == out_dir or not is_within(target, out_dir) or target.startswith("../"):
        return None
    return target


def _emitted_folder(
    project: Project, file: str, line: int, specifier: str
) -> tuple[str, str] | None:
    """(the folder tsc emits ``file`` into, the ``outDir``) for a relative ``require`` in a
    TypeScript file under a config setting both ``rootDir`` and ``outDir``; else None."""
    if not specifier.startswith(("./", "../")) or not file.endswith(_TS_SUFFIXES):
        return None
    facts = project.facts.get(file)
    if facts is None or not any(
        fact.kind is ImportKind.REQUIRE and fact.specifier == specifier and fact.span.line == line
        for fact in facts.imports
    ):
        return None
    directory = parent_dir(file)
    options = project.resolver.tsconfigs.for_file(file)
    if options is None or options.root_dir is None or options.out_dir is None:
        return None
    if not is_within(directory, options.root_dir) or options.root_dir == options.out_dir:
        return None
    if directory == options.root_dir:
        emitted = options.out_dir
    elif options.root_dir == ".":
        emitted = join_path(options.out_dir, directory)
    else:
        emitted = join_path(options.out_dir, directory[len(options.root_dir) + 1 :])
    return emitted, options.out_dir


_SCRIPT_EXTENSIONS = frozenset(
    {".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".d.ts"}
)


_PUBLISHED_SUFFIXES = ("", ".js", ".mjs", ".cjs", "/index.js", "/index.mjs", "/index.cjs")


def names_a_published_file(project: Project, file: str, specifier: str) -> bool:
    """Whether relative ``specifier`` is written for the layout of the published package: read
    from the folder the build puts ``file`` in, it names a file the package's manifest
    publishes by name, though not in the source tree.

    stencil's ``src/internal/stencil-core/index.js`` is copied to ``internal/stencil-core/``
    (its manifest's ``module``) and imports ``../client/index.js``, the bundle its
    ``exports`` publishes as ``./internal/client``; ``src/testing/testing.ts`` is bundled into
    ``testing/index.js`` and requires ``../compiler/stencil.js`` (``exports["./compiler"]``).

    Decision (issue 23, SPEC §0 is silent): the folder the build puts a file in is its
    package-relative folder without its first segment (a build copying ``src/`` to the
    package root), or that remainder below the tsconfig's ``outDir`` (below ``rootDir`` when
    set). Two facts must agree: that folder holds a file the manifest names, and the
    specifier read from there names one (exactly, or with a ``.js``/``/index.js`` ending).
    A stale import of a deleted source file names no manifest entry and is still judged."""
    if not specifier.startswith(("./", "../")):
        return False
    targets_by_package = project.resolver.manifest_targets()
    package = parent_dir(file)
    while package not in targets_by_package:
        if package == ".":
            return False
        package = parent_dir(package)
    published = frozenset(targets_by_package[package])
    if not published:
        return False
    folder = parent_dir(file)
    if folder == package:
        return False  # the file already lies where its package is published from
    inner = folder if package == "." else folder[len(package) + 1 :]
    rests = {inner.partition("/")[2]}
    options = project.resolver.tsconfigs.for_directory(folder)
    out_dirs: list[str] = []
    if options is not None and options.out_dir is not None:
        if is_within(options.out_dir, package) and options.out_dir != package:
            out_dirs.append(options.out_dir)
        if options.root_dir is not None and is_within(folder, options.root_dir):
            rests.add("" if folder == options.root_dir else folder[len(options.root_dir) + 1 :])
    places = {join_path(package, rest) if rest else package for rest in rests}
    places.update(join_path(out, rest) if rest else out for out in out_dirs for rest in rests)
    published_folders = {parent_dir(target) for target in published}
    for place in sorted(places & published_folders):
        base = join_path(place, specifier)
        if any(base + suffix in published for suffix in _PUBLISHED_SUFFIXES):
            return True
    return False
