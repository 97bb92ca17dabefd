"""Graphviz DOT rendering of an import graph."""

from __future__ import annotations

from collections.abc import Sequence

from filid.model.escape import visible


def _quote(text: str) -> str:
    """A DOT quoted string: one line, control and bidi characters shown as escapes."""
    return '"' + visible(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_graph(nodes: Sequence[str], edges: Sequence[tuple[str, str, str]]) -> str:
    """A ``digraph`` with one node per path and one labelled edge per (from, to, label)."""
    lines = ["digraph filid {", "  rankdir=LR;", "  node [shape=box, fontname=monospace];"]
    lines.extend(f"  {_quote(n)};" for n in nodes)
    lines.extend(f"  {_quote(a)} -> {_quote(b)} [label={_quote(label)}];" for a, b, label in edges)
    lines.append("}")
    return "\n".join(lines) + "\n"
