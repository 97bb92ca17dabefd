"""Unresolved imports filid does not claim are broken: targets a build generates, files no
compiler reads, targets that exist outside the file universe (issue 23, SPEC §0)."""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from filid.check.project import Project
from filid.graph import DYNAMIC_SPECIFIER, SOURCE_EXTENSIONS
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.graph.module_graph import package_of
from filid.model.errors import InputError
from filid.parse import parse_source
from filid.scan.classify import is_fixture_path
from filid.scan.universe import git_ignored
from filid.store.files import read_regular_file

__all__ = ["generated_imports"]

_JS_EXTENSIONS = frozenset(("js", "jsx", "mjs", "cjs"))
_PLAIN_JS = (".js", ".jsx", ".mjs", ".cjs")


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
    data = _read_as_text(
        project, {i.file for i in project.file_graph.unresolved if i.specifier != DYNAMIC_SPECIFIER}
    )
    for item in project.file_graph.unresolved:
        if item.specifier == DYNAMIC_SPECIFIER:
            continue
        if item.file in data:
            unjudged.add((item.file, item.specifier))
            continue
        if is_fixture_path(item.file):
            # written to exercise a tool: vite's `playground/hmr/missing-file` imports a file
            # its test creates, qwik's optimizer fixtures are sample build output
            unjudged.add((item.file, item.specifier))
            continue
        if (
            item.file not in imported
            and item.file.endswith(_PLAIN_JS)
            and (not project.resolver.tsconfigs.compiles(item.file))
        ):
            # A JavaScript file nothing imports and no tsconfig compiles is not a module of
            # the build: a script copies it, or a tool loads it from where it ends up
            # (stencil's jest helpers import './index.js' beside the bundled testing/).
            unjudged.add((item.file, item.specifier))
            continue
        if item.file not in imported and project.resolver.tsconfigs.leaves_out(item.file):
            # no compiler ever reads it (a codemod's `*.input.ts` fixture, read as text)
            unjudged.add((item.file, item.specifier))
            continue
        if not project.resolver.is_judged_unresolved(parent_dir(item.file), item.specifier):
            unjudged.add((item.file, item.specifier))
            continue
        if _names_a_published_file(project, item.file, item.specifier):
            unjudged.add((item.file, item.specifier))
            continue
        for base in project.resolver.candidate_paths(parent_dir(item.file), item.specifier):
            # `./x.js` names `x.ts` (TypeScript's twin rule, as the resolver applies it)
            stem, dot, extension = base.rpartition(".")
            twins = (
                tuple(stem + e for e in SOURCE_EXTENSIONS)
                if dot and "/" not in extension and extension in _JS_EXTENSIONS
                else (f"{stem}.d.{extension}",)  # `./types.ts` finds `types.d.ts` (qwik)
                if dot and "/" not in extension and extension in ("ts", "mts", "cts")
                else ()
            )
            for path in (
                base,
                *(base + e for e in SOURCE_EXTENSIONS),
                *twins,
                base + ".json",  # Node's require() tries `.json` (vendure's `…/core/package`)
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
    unjudged.update(key for path in ignored for key in probes.get(path, ()))
    probes = {path: keys for path, keys in probes.items() if path not in ignored}
    configs = _build_configs(project.tree.files)
    texts: dict[str, bytes] = {}  # each config read once, however many imports ask
    for file, specifier in sorted({key for keys in probes.values() for key in keys}):
        bases = project.resolver.candidate_paths(parent_dir(file), specifier)
        if any(_is_named_build_output(project.root, file, base, configs, texts) for base in bases):
            unjudged.add((file, specifier))
    return frozenset(unjudged)


_TEXT_QUERIES = frozenset({"raw", "url"})
_MAX_COMPONENT_BYTES = 1024 * 1024


def _reads_as_text(specifier: str) -> bool | None:
    """True for a bundler query that reads a file as text or a URL (``?raw``, ``?url``), False
    for any other import, None for a specifier without a query."""
    head, mark, query = specifier.partition("?")
    if not mark or not head:
        return None
    return any(part.partition("=")[0] in _TEXT_QUERIES for part in query.split("&"))


def _read_as_text(project: Project, files: Collection[str]) -> frozenset[str]:
    """Those of ``files`` the project reads only as text: some import names them with
    ``?raw``/``?url`` and none imports them as a module (a source file's import, or one in the
    frontmatter of an Astro component, which filid does not otherwise read).

    Decision (issue 23, SPEC §0 is silent): such a file is data, not a module of the program;
    its imports are shown, never resolved. Hey API's website shows
    ``previews/trading/typescript/output.ts`` with ``import codeOutput from
    './previews/trading/typescript/output?raw'`` in ``HowItWorks.astro``; the sample's
    ``./trading-client`` exists in no project, on purpose."""
    module: set[str] = set()
    text: set[str] = set()
    wanted = set(files)
    for edge in project.file_graph.edges:
        if edge.target in wanted:
            (text if _reads_as_text(edge.fact.specifier or "") else module).add(edge.target)
    pending = wanted - module
    if not pending:
        return frozenset()
    packages = project.resolver.package_directories() | {"."}
    by_package: dict[str | None, set[str]] = {}
    for file in pending:
        by_package.setdefault(package_of(file, packages), set()).add(file)
    stems = {file.rpartition("/")[2].partition(".")[0].encode() for file in pending}
    for component in project.tree.files:
        if not component.endswith(".astro"):
            continue
        targets = by_package.get(package_of(component, packages))
        if not targets:
            continue
        script = _astro_frontmatter(project.root, component)
        if not script or not any(stem in script for stem in stems):
            continue
        directory = parent_dir(component)
        for fact in parse_source(f"{component}.ts", script, full=False).imports:
            if fact.specifier is None:
                continue
            head = fact.specifier.partition("?")[0]
            target = project.resolver.resolve_from(directory, head).target
            if target in targets:
                (text if _reads_as_text(fact.specifier) else module).add(target)
    return frozenset(text - module)


def _astro_frontmatter(root: Path, component: str) -> bytes:
    """The component script of an Astro file: the lines between its opening ``---`` fence
    (the file's first non-blank line) and the next ``---`` line; empty without one."""
    try:
        text = read_regular_file(root / component, _MAX_COMPONENT_BYTES)
    except (OSError, InputError):
        return b""
    lines = text.splitlines(keepends=True)
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start == len(lines) or lines[start].strip() != b"---":
        return b""
    for end in range(start + 1, len(lines)):
        if lines[end].strip() == b"---":
            # blank lines keep the script's line numbers those of the file
            return b"\n" * (start + 1) + b"".join(lines[start + 1 : end])
    return b""


# Build tool configs (`vite.config.ts`, `astro.config.mjs`, `next.config.js`…) name the
# folders their plugins write into.
_CONFIG_SUFFIXES = tuple(
    f".config.{extension}" for extension in ("ts", "mts", "cts", "js", "mjs", "cjs")
)
_MAX_CONFIG_BYTES = 256 * 1024
_QUOTES = (b"'", b'"', b"`")


def _build_configs(files: Collection[str]) -> dict[str, list[str]]:
    """Folder → the build tool configs in it (``*.config.{ts,js,…}``)."""
    found: dict[str, list[str]] = {}
    for file in files:
        if file.rpartition("/")[2].endswith(_CONFIG_SUFFIXES):
            found.setdefault(parent_dir(file), []).append(file)
    return found


def _is_named_build_output(
    root: Path,
    importer: str,
    missing: str,
    configs: dict[str, list[str]],
    texts: dict[str, bytes],
) -> bool:
    """Whether ``missing`` lies in a folder that does not exist and that a build tool config
    of the importer's folder or one above it names as a path (Paraglide's Vite plugin writes
    ``src/paraglide/`` from ``outdir: './src/paraglide'``): a build generates it.

    Decision (issue 23, SPEC §0 is silent): only a whole missing folder counts, so an import
    of a deleted file beside its siblings is still judged; the folder's name must appear in a
    config as a path segment inside a string (``'./src/paraglide'``, ``"paraglide"``)."""
    folder = parent_dir(missing)
    absent = None
    while folder not in (".", "") and not os.path.isdir(root / folder):
        absent = folder
        folder = parent_dir(folder)
    if absent is None:
        return False
    name = absent.rpartition("/")[2].encode()
    needles = [q + name + end for q in (*_QUOTES, b"/") for end in (*_QUOTES, b"/")]
    directory = parent_dir(importer)
    while True:
        for config in configs.get(directory, ()):
            if config == importer:
                continue  # a config importing a missing file does not generate it
            text = texts.get(config)
            if text is None:
                try:
                    text = read_regular_file(root / config, _MAX_CONFIG_BYTES)
                except OSError:
                    text = b""
                texts[config] = text
            if any(needle in text for needle in needles):
                return True
        if directory == ".":
            return False
        directory = parent_dir(directory)


_PUBLISHED_SUFFIXES = ("", ".js", ".mjs", ".cjs", "/index.js", "/index.mjs", "/index.cjs")


def _names_a_published_file(project: Project, file: str, specifier: str) -> bool:
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
