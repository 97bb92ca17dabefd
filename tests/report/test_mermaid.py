"""Mermaid flowcharts of a cycle and of a graph."""

from __future__ import annotations

import re
from collections.abc import Callable

from filid.model.report import ValidationResult
from filid.report.mermaid import escape_label, render_cycle, render_graph

NODE = re.compile(r'^  (n\d+)\["(.*)"\]$')
EDGE = re.compile(r'^  (n\d+) -->(?:\|"(.*)"\|)? (n\d+)$')


def _parse(chart: str) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    lines = chart.splitlines()
    assert lines[0] == "flowchart LR"
    labels: dict[str, str] = {}
    edges: list[tuple[str, str, str]] = []
    for line in lines[1:]:
        if node := NODE.match(line):
            labels[node.group(1)] = node.group(2)
        elif edge := EDGE.match(line):
            edges.append((edge.group(1), edge.group(3), edge.group(2) or ""))
        else:
            raise AssertionError(f"unexpected line {line!r}")
    return labels, [(labels[a], labels[b], label) for a, b, label in edges]


def test_golden(sample_result: ValidationResult, check_golden: Callable[[str, str], None]) -> None:
    check_golden("mermaid-cycle.txt", render_cycle(sample_result.violations[0]))
    graph = render_graph(
        ["src", "src/a", 'src/we"ird|<name>#1'],
        [("src/a", "src", "index.ts:3"), ("src", 'src/we"ird|<name>#1', "")],
    )
    check_golden("mermaid-graph.txt", graph)


def test_cycle_draws_members_and_one_edge_per_hop(sample_result: ValidationResult) -> None:
    cycle = sample_result.violations[0]
    labels, edges = _parse(render_cycle(cycle))
    assert sorted(labels.values()) == sorted(cycle.members)
    # Each hop goes from the (longest) member owning its file to the owner of the next hop;
    # src/c is in the component but not on the shortest cycle, so it has no edge.
    assert edges == [
        ("src/a", "src/b", "src/a/index.ts:2"),
        ("src/b", "src/c/util", "src/b/index.ts:1"),
        ("src/c/util", "src/a", "src/c/util/helpers.ts:5"),
    ]


def test_graph_is_sorted_and_includes_edge_endpoints() -> None:
    edges = [("b", "c", "x"), ("a", "b", "")]
    chart = render_graph(["b", "a"], edges)
    assert chart == render_graph(["a", "b"], list(reversed(edges)))
    labels, parsed = _parse(chart)
    assert list(labels.values()) == ["a", "b", "c"]
    assert parsed == [("a", "b", ""), ("b", "c", "x")]


def test_label_escaping() -> None:
    # A line break is shown as an escape, like every control character (one label, one line).
    assert escape_label('a"b|c<d>e#f\ng') == "a#quot;b#124;c#lt;d#gt;e#35;f\\x0ag"
    assert escape_label("&amp;`x`\u202e") == "#38;amp;#96;x#96;\\u202e"
