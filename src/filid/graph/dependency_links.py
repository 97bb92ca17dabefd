"""What a declared dependency installs under its name: the protocols of ``workspace:``,
``npm:``, ``file:``/``link:``/``portal:``, ``catalog:``, ``patch:`` and remote specifiers
(see the README, "Formats and protocols filid reads")."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote

from filid.graph.tsconfig import join_path, parent_dir
from filid.graph.workspace_declarations import WorkspaceDeclarations

DEPENDENCY_FIELDS = ("peerDependencies", "optionalDependencies", "devDependencies", "dependencies")
_REMOTE_PREFIXES = ("git+", "git:", "github:", "gitlab:", "bitbucket:", "http:", "https:", "jsr:")
_TARBALLS = (".tgz", ".tar.gz", ".tar")


def declared_dependencies(data: dict[str, object]) -> dict[str, str]:
    """Every dependency a manifest declares, name → specifier (``dependencies`` win)."""
    found: dict[str, str] = {}
    for field in DEPENDENCY_FIELDS:
        table = data.get(field)
        if isinstance(table, dict):
            found.update(
                (k, v.strip())
                for k, v in table.items()
                if isinstance(k, str) and isinstance(v, str)
            )
    return found


@dataclass(frozen=True, slots=True)
class DependencyLink:
    """What a declared dependency installs under its name: a workspace package by ``name``, a
    folder by ``directory`` (``file:``, ``link:``, ``portal:``, ``workspace:<path>``), or
    something else than the repository's package (``refusal`` says what)."""

    name: str | None = None
    directory: str | None = None
    refusal: str | None = None


def _alias_target(rest: str) -> tuple[str, str] | None:
    """``other@range`` (or ``@scope/other@range``) → ``(other, range)``; None without a name."""
    at = rest.find("@", 1)
    if at <= 0:
        return None
    return rest[:at], rest[at + 1 :]


def dependency_link(
    name: str,
    spec: str,
    manifest: str,
    catalogs: WorkspaceDeclarations | None = None,
    depth: int = 0,
) -> DependencyLink:
    """What the package managers install for ``"name": "spec"`` declared in ``manifest``
    (see the README, "Formats and protocols filid reads"): ``workspace:`` links the workspace
    package (an alias ``workspace:other@*`` links ``other``, a path links that folder);
    ``npm:`` installs the registry's package; ``file:``/``link:``/``portal:`` link a folder
    (a tarball is not a folder); ``catalog:`` stands for its catalog entry; ``patch:`` for the
    specifier it patches; git, URL and ``jsr:`` specifiers install from elsewhere; a version
    range, tag or ``*`` links the workspace package of that name."""
    folder = parent_dir(manifest)
    declared = f"declared as `{spec}` in {manifest}"
    if spec.startswith("workspace:"):
        rest = spec[len("workspace:") :].strip()
        if rest.startswith(("./", "../", "/")) or rest in (".", ".."):
            return DependencyLink(directory=join_path(folder, rest))
        alias = _alias_target(rest)
        return DependencyLink(name=alias[0] if alias is not None else name)
    if spec.startswith("npm:"):
        return DependencyLink(
            refusal=f"{declared}: the registry's package is installed, not this one"
        )
    if spec.startswith(("file:", "link:", "portal:")):
        path = spec.partition(":")[2].strip()
        if path.endswith(_TARBALLS):
            return DependencyLink(refusal=f"{declared}: a tarball is installed, not this package")
        target = join_path(folder, path)
        if target == ".." or target.startswith("../") or path.startswith("/"):
            return DependencyLink(refusal=f"{declared}: a folder outside the project is linked")
        return DependencyLink(directory=target)
    if spec.startswith("catalog:") and depth < 2:
        catalog = spec[len("catalog:") :].strip() or "default"
        entry = catalogs.catalog_entry(folder, catalog, name) if catalogs is not None else None
        if entry is None:
            return DependencyLink(name=name)  # pnpm refuses to install; the name is what was meant
        return dependency_link(name, entry, manifest, catalogs, depth + 1)
    if spec.startswith("patch:") and depth < 2:
        inner = _alias_target(unquote(spec[len("patch:") :].partition("#")[0]))
        if inner is not None:
            return dependency_link(name, inner[1], manifest, catalogs, depth + 1)
    if spec.startswith(_REMOTE_PREFIXES) or "://" in spec:
        return DependencyLink(refusal=f"{declared}: installed from elsewhere, not this package")
    return DependencyLink(name=name)
