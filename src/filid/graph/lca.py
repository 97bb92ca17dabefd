"""Lowest common ancestor of two modules and where their shared code belongs (SPEC §7)."""

from __future__ import annotations

import difflib

from filid.model.errors import InputError
from filid.model.graph import LcaResult
from filid.model.nodes import FractalNode, FractalTree, NodeCategory

__all__ = ["normalize_module_path", "resolve_lca"]

_SUGGESTIONS = 3


def normalize_module_path(path: str) -> str:
    """A user-typed module path as a node path: POSIX, no ``./`` or trailing ``/``, ``.`` root."""
    cleaned = path.strip().replace("\\", "/")
    while cleaned.startswith("./"):
        cleaned = cleaned[2:]
    cleaned = cleaned.rstrip("/")
    return cleaned or "."


def _nearest_nodes(tree: FractalTree, path: str) -> list[str]:
    """Up to three node paths most similar to ``path`` (difflib ratio, ties by path)."""
    scored = []
    for candidate in tree.nodes:
        matcher = difflib.SequenceMatcher(None, path, candidate, autojunk=False)
        scored.append((-matcher.ratio(), candidate))
    scored.sort()
    return [candidate for _, candidate in scored[:_SUGGESTIONS]]


def _require_node(tree: FractalTree, raw: str) -> FractalNode:
    path = normalize_module_path(raw)
    node = tree.nodes.get(path)
    if node is None:
        nearest = _nearest_nodes(tree, path)
        hint = f"; nearest: {', '.join(nearest)}" if nearest else ""
        raise InputError(f"module '{raw}' is not a directory of the project{hint}")
    return node


def _ancestors(tree: FractalTree, node: FractalNode) -> list[str]:
    """``node`` and its ancestors up to the root, nearest first."""
    chain = [node.path]
    current = node
    while current.parent is not None:
        current = tree.nodes[current.parent]
        chain.append(current.path)
    return chain


def _describe(path: str) -> str:
    return "the root" if path == "." else path


def resolve_lca(tree: FractalTree, module_a: str, module_b: str) -> LcaResult:
    """Where code shared by ``module_a`` and ``module_b`` (node paths) belongs.

    The LCA is the deepest common ancestor-or-self node walked up to the nearest non-organ
    node (the root if none). Placement: ``src/shared`` (or ``shared`` without a ``src`` node)
    for the root; ``<lca>/shared`` for a fractal or hybrid LCA; the LCA itself for a
    pure-function node (a folder of shared pure functions already). Raises ``InputError``
    naming a module that is not a node, with the nearest node paths.
    """
    node_a = _require_node(tree, module_a)
    node_b = _require_node(tree, module_b)
    ancestors_b = set(_ancestors(tree, node_b))
    common = next(p for p in _ancestors(tree, node_a) if p in ancestors_b)
    lca = tree.owner_of(common)

    if lca.path == ".":
        placement = "src/shared" if "src" in tree.nodes else "shared"
        where = (
            "the LCA is the project root, so shared code goes under src/"
            if placement == "src/shared"
            else "the LCA is the project root and there is no src/ directory"
        )
    elif lca.category is NodeCategory.PURE_FUNCTION:
        placement = lca.path
        where = f"{lca.path} is a pure-function folder, which holds shared functions directly"
    else:
        placement = f"{lca.path}/shared"
        where = f"{lca.path} is a {lca.category.value} module, so shared code gets its own folder"

    if common != lca.path:
        walked = (
            f"their common ancestor {common} is an organ, so the LCA walks up to "
            f"{_describe(lca.path)}; "
        )
    else:
        walked = ""
    distance_a = node_a.depth - lca.depth
    distance_b = node_b.depth - lca.depth
    explanation = (
        f"{_describe(node_a.path)} and {_describe(node_b.path)} meet at "
        f"{_describe(lca.path)} ({distance_a} and {distance_b} levels up); {walked}"
        f"{where}: {placement}"
    )
    return LcaResult(
        lca=lca.path,
        lca_category=lca.category.value,
        lca_depth=lca.depth,
        distance_a=distance_a,
        distance_b=distance_b,
        suggested_placement=placement,
        explanation=explanation,
    )
