"""PatternIndex: the compilers' precedence, whatever the number of patterns."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from filid.graph.patterns import PatternIndex


def test_exact_then_longest_prefix_then_longest_suffix_then_order() -> None:
    index = PatternIndex(
        [
            ("@/*", "short"),
            ("@/components/*", "long"),
            ("@/components/*.css", "css"),
            ("@/components/button", "exact"),
            ("a*b*c", "never"),
            ("*", "catch-all"),
        ]
    )
    assert index.lookup("@/components/button") == ("exact", None)
    assert index.lookup("@/components/card") == ("long", "card")
    assert index.lookup("@/components/card.css") == ("css", "card")
    assert index.lookup("@/lib/x") == ("short", "lib/x")
    assert index.lookup("react") == ("catch-all", "react")
    assert PatternIndex([("./icons/*.js", 1)]).lookup("./icons/.js") == (1, "")
    assert PatternIndex([("./icons/*.js", 1)]).lookup("./icons/a.ts") is None


@given(
    st.lists(st.text(alphabet="ab/*.", max_size=6), max_size=12),
    st.text(alphabet="ab/.", max_size=8),
)
def test_agrees_with_a_linear_scan(patterns: list[str], key: str) -> None:
    def linear(key: str) -> tuple[int, str | None] | None:
        for i, pattern in enumerate(patterns):
            if "*" not in pattern and pattern == key:
                return i, None
        best: tuple[int, int, int, str] | None = None
        for i, pattern in enumerate(patterns):
            if pattern.count("*") != 1:
                continue
            prefix, _, suffix = pattern.partition("*")
            if (
                len(key) >= len(prefix) + len(suffix)
                and key.startswith(prefix)
                and key.endswith(suffix)
            ):
                rank = (-len(prefix), -len(suffix), i, key[len(prefix) : len(key) - len(suffix)])
                if best is None or rank < best:
                    best = rank
        return (best[2], best[3]) if best else None

    first: dict[str, int] = {}
    for i, pattern in enumerate(patterns):
        first.setdefault(pattern, i)
    index = PatternIndex([(p, first[p]) for p in patterns])
    assert index.lookup(key) == linear(key)
