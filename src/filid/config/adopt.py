"""``filid init``: look at a repository before writing its configuration.

The survey reads only the file listing (git's, as every check does): which FCA boundary
documents the project declares, which folders hold generated code, and which hold examples,
fixtures, demos, playgrounds or scaffold templates — code that is not the project's own
structure. Generated folders become ``structure.generatedPaths`` (left out of every check,
the upstream plugin's key). Example-like folders are left out by **name**, once, in
``structure.additionalExcludedDirectories`` (a key filid and the upstream plugin both load,
and both apply to every folder of that name at any depth), not as the same ``exempt`` globs
under every rule. A name is not proposed when a folder of that name is a route of a
file-routing framework (Next.js ``app/sandbox``, ``pages/playground``: its names are URLs,
and the project's own code); init says so instead. Nothing is guessed from file contents.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from filid.model.escape import glob_literal

__all__ = ["EXAMPLE_NAMES", "GENERATED_NAMES", "Survey", "survey"]

# Folder names that hold generated code (codegen output, compiled clients).
GENERATED_NAMES = frozenset({"generated", "__generated__", "codegen", "gen"})
# Folder names whose code shows or tests the project rather than being part of it.
EXAMPLE_NAMES = frozenset(
    {
        "example",
        "examples",
        "demo",
        "demos",
        "playground",
        "playgrounds",
        "sandbox",
        "sandboxes",
        "fixture",
        "fixtures",
        "__fixtures__",
        "__mocks__",
        "templates",
    }
)
_DOCUMENTS = ("INTENT.md", "DETAIL.md", "CLAUDE.md", "SPEC.md")
_SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


@dataclass(frozen=True, slots=True)
class Survey:
    """What ``filid init`` saw: documents per name, and the folders it proposes to leave out."""

    source_files: int
    documents: dict[str, int]
    generated: tuple[str, ...]
    examples: tuple[str, ...]
    # Example-like folders left alone because their name is also a route folder's.
    kept: tuple[str, ...] = ()
    # The routes that made init keep them (route folder paths).
    routes: tuple[str, ...] = ()

    @property
    def generated_globs(self) -> tuple[str, ...]:
        """``structure.generatedPaths`` entries: each generated folder and what it holds."""
        return tuple(f"{glob_literal(folder)}/**" for folder in self.generated)

    @property
    def excluded_names(self) -> tuple[str, ...]:
        """``structure.additionalExcludedDirectories`` entries: the example-like folder names."""
        return tuple(sorted({folder.rpartition("/")[2] for folder in self.examples}))


def survey(files: Sequence[str], route_directories: Collection[str] = ()) -> Survey:
    """Survey root-relative POSIX ``files`` (a project's listing); ``route_directories`` are
    the route folders of file-routing frameworks (``Resolver.route_directories``)."""
    documents: Counter[str] = Counter()
    sources = 0
    generated: set[str] = set()
    examples: set[str] = set()
    for path in files:
        name = path.rpartition("/")[2]
        if name in _DOCUMENTS:
            documents[name] += 1
        if not name.endswith(_SOURCE_SUFFIXES):
            continue
        sources += 1
        parts = path.split("/")[:-1]
        for depth, part in enumerate(parts):
            folder = "/".join(parts[: depth + 1])
            if part in GENERATED_NAMES:
                generated.add(folder)
                break
            if part in EXAMPLE_NAMES:
                examples.add(folder)
                break
    outermost = _outermost(examples)
    routed = {
        folder.rpartition("/")[2]
        for folder in outermost
        if any(_is_within(folder, route) for route in route_directories)
    }
    return Survey(
        source_files=sources,
        documents={name: documents[name] for name in _DOCUMENTS if documents[name]},
        generated=_outermost(generated),
        examples=tuple(f for f in outermost if f.rpartition("/")[2] not in routed),
        kept=tuple(f for f in outermost if f.rpartition("/")[2] in routed),
        routes=tuple(
            sorted(
                route
                for route in route_directories
                if any(_is_within(f, route) for f in outermost if f.rpartition("/")[2] in routed)
            )
        ),
    )


def _is_within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder + "/")


def _outermost(folders: set[str]) -> tuple[str, ...]:
    """The folders not inside another one of them, sorted."""
    kept: list[str] = []
    for folder in sorted(folders):
        if not any(folder.startswith(k + "/") for k in kept):
            kept.append(folder)
    return tuple(kept)
