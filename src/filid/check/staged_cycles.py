"""Step 3 of the staged patch proof (``filid.check.staged_patch``) for the module graph
(``circular-dependency``, type imports ignored): the module edges an import edit changes
are counted against the kept summary (``GraphSummary.pairs``), and the proof holds only
when no edge inside a cycle gains or loses an import (its route and evidence would change),
no new module edge closes a cycle (a breadth-first search from its target back to its
source over the new edges) and an edge that disappears lay in no cycle: the strongly
connected components are unchanged.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Mapping
from typing import TYPE_CHECKING

from filid.check.staged_summary import PAIR, GraphSummary

if TYPE_CHECKING:
    from filid.model.facts import FileFacts
    from filid.model.graph import ImportEdge
    from filid.model.nodes import FractalTree

__all__ = ["changed_module_edges", "reaches"]


def changed_module_edges(
    tree: FractalTree,
    summary: GraphSummary,
    edited: Mapping[str, FileFacts],
    before: Mapping[str, list[ImportEdge]],
    after: Mapping[str, list[ImportEdge]],
    tests: frozenset[str],
) -> dict[str, int] | None:
    """The module edges whose count of runtime imports changed, with the new counts, when
    the cycles cannot have changed (step 3 of the module docstring); else None."""
    from filid.graph.cycles import is_type_import
    from filid.graph.module_graph import module_pair

    pair = module_pair(tree)
    delta: Counter[str] = Counter()
    touched: set[tuple[str, str]] = set()
    for name in edited:
        if name in tests:
            continue  # a test file's imports are no module edge
        for sign, edges in ((-1, before[name]), (1, after[name])):
            for edge in edges:
                if is_type_import(edge):
                    continue
                found = pair(edge.source, edge.target)
                if found is not None:
                    delta[found[0] + PAIR + found[1]] += sign
                    touched.add(found)
    component = {m: i for i, members in enumerate(summary.components) for m in members}
    for source, target in touched:
        at = component.get(source)
        if at is not None and at == component.get(target):
            return None  # an edge inside a cycle: its route or evidence may change
    updated: dict[str, int] = {}
    added: list[tuple[str, str]] = []
    for key, change in delta.items():
        if change == 0:
            continue
        was = summary.pairs.get(key, 0)
        now = was + change
        if now < 0:
            return None  # the summary does not match these files: do not guess
        updated[key] = now
        if was == 0 and now > 0:
            source, _, target = key.partition(PAIR)
            added.append((source, target))
    if added:
        adjacency: dict[str, list[str]] = {}
        for key, count in (*summary.pairs.items(), *updated.items()):
            if count > 0:
                source, _, target = key.partition(PAIR)
                adjacency.setdefault(source, []).append(target)
        for key, count in updated.items():
            if count == 0:
                source, _, target = key.partition(PAIR)
                if target in adjacency.get(source, []):
                    adjacency[source].remove(target)
        for source, target in added:
            if reaches(adjacency, target, source):
                return None  # the new edge closes a cycle
    return updated


def reaches(adjacency: Mapping[str, list[str]], start: str, goal: str) -> bool:
    """Whether ``goal`` is reached from ``start`` over ``adjacency`` (breadth first)."""
    seen = {start}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if node == goal:
            return True
        for nxt in adjacency.get(node, ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return False
