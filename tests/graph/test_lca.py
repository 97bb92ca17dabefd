"""Lowest common ancestor and the placement of shared code (SPEC §7)."""

from __future__ import annotations

import pytest

from filid.graph import resolve_lca
from filid.model.errors import InputError
from filid.model.nodes import NodeCategory
from tests.graph.conftest import make_tree

TREE = make_tree(
    [
        "src/index.ts",
        "src/features/auth/index.ts",
        "src/features/auth/login/index.ts",
        "src/features/billing/index.ts",
        "src/features/components/a/index.ts",
        "src/features/components/b/index.ts",
        "src/lib/fmt/index.ts",
        "src/lib/parse/index.ts",
        "tools/x/index.ts",
    ],
    {
        ".": NodeCategory.ORGAN,
        "src": NodeCategory.ORGAN,
        "src/features/components": NodeCategory.ORGAN,
        "src/lib": NodeCategory.PURE_FUNCTION,
    },
)


def test_siblings_share_their_fractal_parent() -> None:
    result = resolve_lca(TREE, "src/features/auth", "src/features/billing")
    assert result.lca == "src/features"
    assert result.lca_category == "fractal"
    assert result.lca_depth == 2
    assert (result.distance_a, result.distance_b) == (1, 1)
    assert result.suggested_placement == "src/features/shared"
    assert "src/features" in result.explanation


def test_ancestor_and_descendant() -> None:
    result = resolve_lca(TREE, "src/features/auth/login", "./src/features/auth/")
    assert result.lca == "src/features/auth"
    assert (result.distance_a, result.distance_b) == (1, 0)
    assert result.suggested_placement == "src/features/auth/shared"


def test_organ_ancestor_walks_up_to_the_owner() -> None:
    result = resolve_lca(TREE, "src/features/components/a", "src/features/components/b")
    assert result.lca == "src/features"
    assert (result.distance_a, result.distance_b) == (2, 2)
    assert "organ" in result.explanation


def test_root_placement_uses_src_when_present() -> None:
    result = resolve_lca(TREE, "src/features/auth", "tools/x")
    assert result.lca == "."
    assert result.lca_depth == 0
    assert (result.distance_a, result.distance_b) == (3, 2)
    assert result.suggested_placement == "src/shared"
    # "src" itself is an organ here, so two modules under it also meet at the root.
    assert resolve_lca(TREE, "src/features/auth", "src/lib/fmt").lca == "."


def test_root_placement_without_src() -> None:
    tree = make_tree(["a/index.ts", "b/index.ts"])
    result = resolve_lca(tree, "a", "b")
    assert result.lca == "."
    assert result.suggested_placement == "shared"


def test_pure_function_lca_holds_shared_code_itself() -> None:
    result = resolve_lca(TREE, "src/lib/fmt", "src/lib/parse")
    assert result.lca == "src/lib"
    assert result.lca_category == "pure-function"
    assert result.suggested_placement == "src/lib"


def test_unknown_module_names_it_and_suggests_nearest() -> None:
    with pytest.raises(InputError) as info:
        resolve_lca(TREE, "src/features/auht", "src/features/billing")
    message = str(info.value)
    assert "src/features/auht" in message
    suggestions = message.split("nearest: ", 1)[1].split(", ")
    assert len(suggestions) == 3
    assert suggestions[0] == "src/features/auth"
    assert all(s in TREE.nodes for s in suggestions)


def test_second_module_is_checked_too() -> None:
    with pytest.raises(InputError, match="tools/y"):
        resolve_lca(TREE, "tools/x", "tools/y")
