"""Build output → source: where an unbuilt package's manifest target comes from (SPEC §4).

A manifest (or a deep import) may name ``dist/x.js`` of a workspace package that was never
built; its source is ``src/x.ts`` or ``x.ts``. These are the candidates, most literal first;
the resolver checks each against the file universe.
"""

from __future__ import annotations

BUILD_OUTPUT_DIRECTORIES = ("dist", "build", "lib", "out")
# Sub-folders bundlers and dual-package builds write one module format into
# (``dist/esm/x.js``, ``dist/cjs/x.js``, ``dist/types/x.d.ts``, ``lib/es/x.js``…).
FORMAT_DIRECTORIES = frozenset(
    {
        "esm",
        "cjs",
        "mjs",
        "es",
        "es5",
        "es6",
        "es2015",
        "es2017",
        "es2020",
        "esnext",
        "lib",
        "module",
        "modules",
        "commonjs",
        "umd",
        "iife",
        "types",
        "typings",
        "dts",
        "declarations",
        "node",
        "browser",
        "modern",
        "legacy",
        "production",
        "development",
        "prod",
        "dev",
    }
)
_DECLARATION_SUFFIXES = (".d.ts", ".d.mts", ".d.cts")
# What a build writes for one source module: its emitted extensions, and the format infixes
# of tsup/tsdown/unbuild/vite library builds (``index.es.js``, ``index.umd.cjs``).
_OUTPUT_SUFFIXES = (*_DECLARATION_SUFFIXES, ".js", ".mjs", ".cjs", ".jsx")
_FORMAT_INFIXES = (
    ".es",
    ".esm",
    ".cjs",
    ".mjs",
    ".umd",
    ".iife",
    ".min",
    ".modern",
    ".legacy",
    ".legacy-esm",
    ".module",
    ".browser",
    ".node",
    ".worker",
    ".development",
    ".production",
    ".prod",
    ".dev",
)


def _output_stem(path: str) -> str | None:
    """``a/index.es.js`` → ``a/index``: a build output path without its emitted extension and
    format infixes (the probe then tries every source extension); None when it has none."""
    head, _, name = path.rpartition("/")
    for suffix in _OUTPUT_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
            break
    else:
        return None
    stripped = True
    while stripped:
        stripped = False
        for infix in _FORMAT_INFIXES:
            if name.endswith(infix) and len(name) > len(infix):
                name = name[: -len(infix)]
                stripped = True
    return f"{head}/{name}" if head else name


def _bundle_names(package_name: str) -> set[str]:
    """File names a bundler gives a package's one entry bundle: ``@scope/ui`` →
    ``scope_ui`` (preconstruct, tsup's global name), ``scope-ui``, ``ui``."""
    scope, _, bare = package_name.lstrip("@").rpartition("/")
    names = {bare}
    if scope:
        names |= {f"{scope}_{bare}", f"{scope}-{bare}"}
    return names


def build_output_sources(
    package_dir: str, candidate: str, package_name: str | None = None
) -> list[str]:
    """Source candidates for a manifest target in unbuilt output (SPEC §4), most literal first.

    ``packages/ui/dist/icons/index.js`` → ``packages/ui/src/icons/index.js`` (the resolver's
    probe then finds ``index.ts``), then ``packages/ui/icons/index.js``. A format sub-folder
    is dropped too (``dist/esm/servers/h3.js`` → ``src/servers/h3``; also ``esm/x.js`` at the
    package root), and so are the extensions and infixes bundlers write (``dist/index.mjs``,
    ``dist/index.d.cts``, ``dist/ui.es.js`` → ``src/index``, ``src/ui``). A bundle named after
    the package (vite library mode, tsup, preconstruct: ``dist/scope_ui.modern.mjs`` of
    ``@scope/ui``) stands for the package's entry, ``src/index`` or ``src/main``. Every
    candidate is checked against the files that exist. Empty when the target is not under a
    build or format folder.
    """
    prefix = "" if package_dir == "." else package_dir + "/"
    if not candidate.startswith(prefix):
        return []
    parts = candidate[len(prefix) :].split("/")
    tails: list[str] = []
    if parts[0] in BUILD_OUTPUT_DIRECTORIES and len(parts) > 1:
        tails.append("/".join(parts[1:]))
        if parts[1] in FORMAT_DIRECTORIES and len(parts) > 2:
            tails.append("/".join(parts[2:]))
    elif parts[0] in FORMAT_DIRECTORIES and len(parts) > 1:
        tails.append("/".join(parts[1:]))
    found: list[str] = []
    for rest in tails:
        for suffix in _DECLARATION_SUFFIXES:
            if rest.endswith(suffix):
                rest = rest[: -len(suffix)]
                break
        stem = _output_stem(rest)
        for variant in (rest, stem):
            if variant is not None:
                found += [f"{prefix}src/{variant}", f"{prefix}{variant}"]
        if package_name and stem is not None and stem in _bundle_names(package_name):
            found += [f"{prefix}src/index", f"{prefix}src/main"]
    return list(dict.fromkeys(found))
