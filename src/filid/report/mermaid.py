"""Mermaid flowcharts: an import cycle (for the job summary) and a whole graph (``--format
mermaid``).

Node ids are generated (``n0``, ``n1``, … in sorted path order) and paths only appear in quoted
labels, so any path is safe; label text uses Mermaid's ``#code;`` entities for the characters
that would end or reinterpret a label.
"""

from __future__ import annotations

from collections.abc import Sequence

from filid.model.escape import mermaid_label
from filid.model.violations import Violation


def render_cycle(violation: Violation) -> str:
    """A flowchart of a circular-dependency violation: every member, then one edge per hop.

    ``violation.related`` holds one import location per hop of the shortest cycle, in cycle
    order, so hop *i* goes from the owner of its file to the owner of hop *i+1*'s file (the
    last hop closes the cycle). The owner is the longest member path containing the file.
    """
    members = list(violation.members)
    hops = violation.related
    owners = [_owner(hop.file, members) for hop in hops]
    nodes = sorted(set(members) | set(owners))
    edges = [
        (owners[i], owners[(i + 1) % len(hops)], f"{hop.file}:{hop.line}")
        for i, hop in enumerate(hops)
    ]
    return _flowchart(nodes, edges)


def render_graph(nodes: Sequence[str], edges: Sequence[tuple[str, str, str]]) -> str:
    """A flowchart of a graph: ``nodes`` plus every edge ``(from, to, label)`` (label may be
    empty). Nodes and edges are sorted, so equal graphs render identically."""
    all_nodes = sorted(set(nodes) | {e[0] for e in edges} | {e[1] for e in edges})
    return _flowchart(all_nodes, sorted(set(edges)))


def _flowchart(nodes: Sequence[str], edges: Sequence[tuple[str, str, str]]) -> str:
    ids = {node: f"n{i}" for i, node in enumerate(nodes)}
    lines = ["flowchart LR"]
    lines.extend(f'  {ids[node]}["{escape_label(node)}"]' for node in nodes)
    for source, target, label in edges:
        arrow = f'-->|"{escape_label(label)}"|' if label else "-->"
        lines.append(f"  {ids[source]} {arrow} {ids[target]}")
    return "\n".join(lines) + "\n"


def escape_label(text: str) -> str:
    """Make ``text`` safe inside a double-quoted Mermaid label (see
    :func:`filid.model.escape.mermaid_label`)."""
    return mermaid_label(text)


def _owner(file: str, members: Sequence[str]) -> str:
    """The longest member path that is ``file`` or one of its ancestors (``.`` is the root)."""
    containing = [
        member
        for member in members
        if member in (".", file) or file.startswith(member.rstrip("/") + "/")
    ]
    if not containing:
        # Evidence outside every member should not happen; show the file rather than lose it.
        return file
    return max(containing, key=lambda member: (0 if member == "." else len(member), member))
