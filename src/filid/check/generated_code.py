"""Unresolved imports filid does not claim are broken: targets a build generates, files no
compiler reads, targets that exist outside the file universe (issue 23, SPEC §0)."""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from filid.check.project import Project
from filid.graph import DYNAMIC_SPECIFIER, SOURCE_EXTENSIONS
from filid.graph.candidates import DECLARATION_TWINS
from filid.graph.compiler_paths import join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.model.errors import InputError
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
    configs = _build_configs(project.tree.files)
    for item in project.file_graph.unresolved:
        if item.specifier == DYNAMIC_SPECIFIER:
            continue
        if item.specifier.startswith("/") and not _under_vite_root(item.file, configs):
            # Neither Node nor tsc resolves `/x.js` against the project (it is a path from
            # the file system's root); in browser code it is a URL on the serving origin, which
            # a dev server may answer (web-dev-server's `/__web-dev-server__web-socket.js`).
            # Vite resolves it against its root, so only there is a missing file a claim.
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
        for base in project.resolver.candidate_paths(parent_dir(item.file), item.specifier):
            # `./x.js` names `x.ts` (TypeScript's twin rule, as the resolver applies it)
            stem, dot, extension = base.rpartition(".")
            twins = (
                # `./jsx.js` names `jsx.ts`… or the declaration file `jsx.d.ts` (solid copies
                # one in and its `.gitignore` names it)
                (*(stem + e for e in SOURCE_EXTENSIONS), *_declarations(stem, extension))
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
    texts: dict[str, bytes] = {}  # each config read once, however many imports ask
    for file, specifier in sorted({key for keys in probes.values() for key in keys}):
        bases = project.resolver.candidate_paths(parent_dir(file), specifier)
        if any(_is_named_build_output(project.root, file, base, configs, texts) for base in bases):
            unjudged.add((file, specifier))
    return frozenset(unjudged)


def _declarations(stem: str, extension: str) -> tuple[str, ...]:
    """The declaration files a ``.js``-style ``stem.extension`` stands for (TypeScript's
    twin rule: ``x.js`` → ``x.d.ts``, ``x.mjs`` → ``x.d.mts``, ``x.cjs`` → ``x.d.cts``)."""
    return tuple(stem + twin for twin in DECLARATION_TWINS.get(f".{extension}", ()))


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


def _under_vite_root(importer: str, configs: dict[str, list[str]]) -> bool:
    """Whether a folder holding ``importer`` has a Vite config (``vite.config.*``): a root
    against which Vite resolves a root-absolute import (and its ``public/`` folder)."""
    directory = parent_dir(importer)
    while True:
        names = (config.rpartition("/")[2] for config in configs.get(directory, ()))
        if any(name.startswith("vite.config.") for name in names):
            return True
        if directory == ".":
            return False
        directory = parent_dir(directory)


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
