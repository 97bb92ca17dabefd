"""Imports written for another tree of the same repository: course snapshots, overlay
templates, and the start and finish of one package (issue 23, judge round K2 P11, P4, P10).

Course and starter repositories keep files that are copies or pieces of another tree in the
same repository. An import that is broken where such a file sits resolves where it is used:

- **Loose copies** (wesbos/Advanced-React: ``stepped-solutions/46/Cart.js`` is a flat
  snapshot of ``finished-application/frontend/components/Cart.js`` and imports ``./User``,
  ``../lib/cartState``). The file lies outside every program: no ``package.json``,
  ``tsconfig.json`` or ``jsconfig.json`` in its folder or any folder above it, the root
  included, so no install, build or type check ever reads it where it is. Its relative import
  is no claim when it resolves from the folder of a file of the same name elsewhere that a
  ``package.json`` does cover (the copy's home).
- **Loose files beside projects** (academind's ``attachments/27 Patterns/places.ts``, a
  lecture's download bundle beside the course's ``code/*/package.json`` projects, imports
  ``./assets/*.jpg`` it does not ship). In a repository that holds packages, a file outside
  every program — no ``package.json``, ``tsconfig.json``, ``jsconfig.json`` or
  ``deno.json(c)`` in its folder or above — is read by no install, build or type check of the
  repository: its relative imports are no claim, twin or not. A repository with no
  ``package.json`` at all (a site of plain browser modules) keeps them claimed: there the
  files are the program.
- **Two states of one package** (``sick-fits/backend`` and ``finished-application/backend``,
  both ``"name": "sick-fits-backend"``). Two manifests with one name cannot be two packages of
  a workspace (npm, yarn and pnpm refuse the pair); they are versions of one package, the
  course's start and its finish. An import inside one of them whose target, at the same path
  inside the package, exists in the other is no claim: the file is missing by design.
- **Overlay templates** (ionic-team/starters: the build copies ``vue-vite/base/`` and then
  ``vue-vite/official/tabs/`` over it; ``base/src/main.ts`` imports ``./App.vue``, which each
  starter supplies). A package whose import target, at the same path inside the package,
  exists in a partial tree beside it is no claim. The partial tree lies under the package's
  parent folder, outside the package, and it has no ``package.json`` of its own nor any between
  it and that parent: it cannot be installed or built alone, so it is only ever used on top of
  another tree.

Why this is safe enough: an application that really lost a file a sibling application still
has is a package with its own ``package.json`` and its own name, beside siblings that have
theirs; none of the three shapes covers it, and its import stays a claim. So does a copy that
a program does cover (relay-examples' ``newsfeed/future/Sidebar.tsx`` lies under
``newsfeed/tsconfig.json``, whose type check fails on it), and a course starter whose package
has no name shared with its finished twin (vercel/next-learn's
``dashboard/starter-example``, round K2 P10: the claim is literally true, and without a shared
name nothing tells it apart from a lost file). Only relative imports and aliases that land
inside the importer's package are judged so, and only files that exist count.
"""

from __future__ import annotations

from collections.abc import Iterable

from filid.check.project import Project
from filid.graph import SOURCE_EXTENSIONS
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.model.errors import InputError

__all__ = ["TwinTrees"]

_PROGRAM_FILES = ("package.json", "tsconfig.json", "jsconfig.json", "deno.json", "deno.jsonc")


class TwinTrees:
    """Answers whether an unresolved import resolves in another tree of the repository that
    the importer is a copy or a piece of (module docstring)."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._files = frozenset(project.tree.files)
        self._manifests = frozenset(
            parent_dir(path) for path in self._files if path.rpartition("/")[2] == "package.json"
        )
        self._programs = frozenset(
            parent_dir(path) for path in self._files if path.rpartition("/")[2] in _PROGRAM_FILES
        )
        self._names: dict[str, str | None] = {}
        self._by_name: dict[str, list[str]] | None = None
        self._by_basename: dict[str, list[str]] | None = None
        self._under: dict[str, set[str]] = {}
        self._twin_cache: dict[str, list[str]] = {}

    def resolves(self, file: str, specifier: str, bases: Iterable[str]) -> bool:
        """Whether the import of ``specifier`` in ``file`` (candidate paths ``bases``)
        resolves in the tree ``file`` is a loose copy, a state or an overlay piece of."""
        own = [base for base in bases if base not in ("", ".") and not base.startswith("../")]
        if not self._in_program(parent_dir(file)):
            return specifier.startswith(".") and (
                bool(self._manifests) or self._home_resolves(file, specifier)
            )
        package = self._package_of(parent_dir(file))
        if package is None or package == ".":
            return False
        inner = [base[len(package) + 1 :] for base in own if is_within(base, package)]
        return bool(inner) and any(
            self._exists(join_path(twin, path)) for twin in self._twins(package) for path in inner
        )

    def _home_resolves(self, file: str, specifier: str) -> bool:
        name = file.rpartition("/")[2]
        for home in self._basenames().get(name, ()):
            if parent_dir(home) == parent_dir(file) or self._package_of(parent_dir(home)) is None:
                continue
            bases = self._project.resolver.candidate_paths(home, specifier)
            if any(self._exists(base) for base in bases if not base.startswith("../")):
                return True
        return False

    def _twins(self, package: str) -> list[str]:
        """Same-named packages, then the partial trees beside ``package``."""
        known = self._twin_cache.get(package)
        if known is None:
            known = self._twin_cache[package] = self._find_twins(package)
        return known

    def _find_twins(self, package: str) -> list[str]:
        twins: list[str] = []
        name = self._name(package)
        if name:
            twins.extend(other for other in self._named().get(name, ()) if other != package)
        parent = parent_dir(package)
        if parent == ".":
            # a package at the top: every folder of the repository would be "beside" it
            return twins
        twins.extend(
            folder
            for folder in sorted(self._folders_under(parent))
            if not is_within(folder, package)
            and not is_within(package, folder)
            and not self._manifest_between(folder, parent)
        )
        return twins

    def _folders_under(self, parent: str) -> set[str]:
        known = self._under.get(parent)
        if known is not None:
            return known
        prefix = "" if parent == "." else parent + "/"
        folders: set[str] = set()
        for path in self._files:
            if path.startswith(prefix):
                folder = parent_dir(path)
                while folder != parent and folder != "." and folder not in folders:
                    folders.add(folder)
                    folder = parent_dir(folder)
        self._under[parent] = folders
        return folders

    def _manifest_between(self, folder: str, parent: str) -> bool:
        """A ``package.json`` in ``folder`` or a folder between it and ``parent``."""
        while folder != parent and folder != ".":
            if folder in self._manifests:
                return True
            folder = parent_dir(folder)
        return False

    def _exists(self, base: str) -> bool:
        return base in self._files or any(
            base + extension in self._files or join_path(base, "index") + extension in self._files
            for extension in SOURCE_EXTENSIONS
        )

    def _in_program(self, directory: str) -> bool:
        while True:
            if directory in self._programs:
                return True
            if directory == ".":
                return False
            directory = parent_dir(directory)

    def _package_of(self, directory: str) -> str | None:
        while True:
            if directory in self._manifests:
                return directory
            if directory == ".":
                return None
            directory = parent_dir(directory)

    def _name(self, package: str) -> str | None:
        if package not in self._names:
            name: str | None = None
            try:
                data = read_jsonc_file(self._project.root, join_path(package, "package.json"))
            except InputError:
                data = None
            if isinstance(data, dict) and isinstance(data.get("name"), str):
                name = data["name"] or None
            self._names[package] = name
        return self._names[package]

    def _named(self) -> dict[str, list[str]]:
        if self._by_name is None:
            self._by_name = {}
            for package in sorted(self._manifests):
                name = self._name(package)
                if name:
                    self._by_name.setdefault(name, []).append(package)
        return self._by_name

    def _basenames(self) -> dict[str, list[str]]:
        if self._by_basename is None:
            self._by_basename = {}
            for path in sorted(self._files):
                self._by_basename.setdefault(path.rpartition("/")[2], []).append(path)
        return self._by_basename
