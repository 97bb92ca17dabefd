"""The classified fractal tree: nodes (directories) and their categories (SPEC §1-2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from filid.model.facts import DocumentFacts


class NodeCategory(StrEnum):
    """The FCA category of a directory."""

    FRACTAL = "fractal"
    ORGAN = "organ"
    PURE_FUNCTION = "pure-function"
    HYBRID = "hybrid"


@dataclass(frozen=True, slots=True)
class FractalNode:
    """One directory of the file universe (or the root), classified.

    ``path`` is root-relative POSIX (``"."`` for the root); ``files`` are the names of the
    universe files directly inside it (sorted); ``children`` the paths of child nodes.
    """

    path: str
    name: str
    category: NodeCategory
    parent: str | None
    children: tuple[str, ...]
    organs: tuple[str, ...]
    files: tuple[str, ...]
    depth: int
    intent_doc: str | None = None
    detail_doc: str | None = None
    index_file: str | None = None
    main_file: str | None = None
    metadata: dict[str, object] = field(default_factory=dict, compare=False)

    @property
    def has_intent_doc(self) -> bool:
        """True when the node holds ``CLAUDE.md`` or ``INTENT.md``."""
        return self.intent_doc is not None

    @property
    def has_detail_doc(self) -> bool:
        """True when the node holds ``SPEC.md`` or ``DETAIL.md``."""
        return self.detail_doc is not None

    def file_path(self, name: str) -> str:
        """Root-relative path of a file named ``name`` directly in this node."""
        return name if self.path == "." else f"{self.path}/{name}"


@dataclass(frozen=True, slots=True)
class FractalTree:
    """The classified tree of a project.

    ``root`` is the absolute real path; ``nodes`` maps node path to node; ``files`` lists every
    universe file (root-relative POSIX, sorted); ``documents`` the facts of every intent
    document, by path; ``owners`` maps every node path to its owner's path (SPEC §4).
    """

    root: Path
    nodes: dict[str, FractalNode]
    files: tuple[str, ...]
    documents: Mapping[str, DocumentFacts] = field(default_factory=dict)
    owners: Mapping[str, str] = field(default_factory=dict)

    @property
    def depth(self) -> int:
        """The deepest node depth."""
        return max((n.depth for n in self.nodes.values()), default=0)

    def node_of_file(self, file: str) -> FractalNode:
        """The node (directory) directly holding ``file``."""
        parent = file.rsplit("/", 1)[0] if "/" in file else "."
        return self.nodes[parent]

    def owner_of(self, path: str) -> FractalNode:
        """The nearest ancestor-or-self node that is not an organ; the root if none (SPEC §4).

        ``path`` may be a node path or a file path. Uses the precomputed ``owners`` map (node
        path → owner path) when the tree has one.
        """
        node = self.nodes.get(path)
        if node is None:
            node = self.node_of_file(path)
        owner = self.owners.get(node.path)
        if owner is not None:
            return self.nodes[owner]
        current: FractalNode | None = node
        while current is not None:
            if current.path == "." or current.category is not NodeCategory.ORGAN:
                return current
            current = self.nodes[current.parent] if current.parent is not None else None
        return self.nodes["."]
