"""The resolved import graph (file level) and the module graph between owners (SPEC §4)."""

from __future__ import annotations

from dataclasses import dataclass

from filid.model.facts import ImportFact


@dataclass(frozen=True, slots=True)
class ImportEdge:
    """A resolved import from project file ``source`` to project file ``target``.

    ``via_manifest``: the specifier named a workspace package and reached ``target`` through
    that package's manifest (``exports``, ``main``…), i.e. through a published entry point.
    ``type_only``: every binding the import names resolves, in the target, to an interface,
    a type alias or a declared type (``import { Props }`` without ``type``): it runs nothing.
    """

    source: str
    target: str
    fact: ImportFact
    via_manifest: bool = False
    type_only: bool = False


@dataclass(frozen=True, slots=True)
class UnresolvedImport:
    """A relative, root or aliased specifier that found no file (or a non-literal dynamic),
    or a bare one naming a package of the repository that it does not reach; ``reason``
    says why."""

    file: str
    line: int
    specifier: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class FileGraph:
    """Every resolved import between project files, plus what could not be resolved.

    ``edges`` are sorted by (source, line, column, target).
    """

    edges: tuple[ImportEdge, ...]
    unresolved: tuple[UnresolvedImport, ...]


@dataclass(frozen=True, slots=True)
class ModuleEdge:
    """An edge ``owner(f) -> owner(r)`` with every import that supports it (``evidence``)."""

    source: str
    target: str
    evidence: tuple[ImportEdge, ...]


@dataclass(frozen=True, slots=True)
class ModuleGraph:
    """Edges between owner nodes; self-edges dropped; only imports from non-test files."""

    nodes: tuple[str, ...]
    edges: tuple[ModuleEdge, ...]


@dataclass(frozen=True, slots=True)
class LcaResult:
    """Where code shared by two modules belongs (SPEC §7). ``lca`` is root-relative."""

    lca: str
    lca_category: str
    lca_depth: int
    distance_a: int
    distance_b: int
    suggested_placement: str
    explanation: str
