"""Classification, SPEC §2: every step, first match wins; nodes, owners, test files."""

from __future__ import annotations

from pathlib import Path

import pytest

from filid.config.model import StructureConfig
from filid.model.nodes import NodeCategory
from filid.scan.classify import build_tree, classify, entry_stem, is_infra_name, is_test_file

ORGANS = frozenset({"utils", "components"})


def cat(name: str, files: list[str], pure: bool = False) -> NodeCategory:
    return classify(name, files, ORGANS, lambda: pure)


@pytest.mark.parametrize(
    ("step", "name", "files", "pure", "expected"),
    [
        (1, "utils", ["CLAUDE.md"], False, NodeCategory.HYBRID),
        (1, "utils", ["SPEC.md", "index.ts"], True, NodeCategory.HYBRID),
        (2, "auth", ["INTENT.md"], False, NodeCategory.FRACTAL),
        (2, "__mocks__", ["DETAIL.md"], False, NodeCategory.FRACTAL),
        (3, "__generated__", ["index.ts"], True, NodeCategory.ORGAN),
        (4, "components", ["index.tsx", "a.tsx"], False, NodeCategory.HYBRID),
        (5, "utils", ["a.ts"], True, NodeCategory.ORGAN),
        (6, "auth", ["index.js"], False, NodeCategory.FRACTAL),
        (7, "math", ["add.ts", "add.test.ts"], True, NodeCategory.PURE_FUNCTION),
        (8, "scripts", ["run.ts"], False, NodeCategory.ORGAN),
        (8, "docs", ["a.md"], False, NodeCategory.ORGAN),
    ],
)
def test_each_classification_step(
    step: int, name: str, files: list[str], pure: bool, expected: NodeCategory
) -> None:
    assert cat(name, files, pure) is expected, f"step {step}"


def test_main_alone_never_makes_a_fractal() -> None:
    assert cat("cli", ["main.ts"], False) is NodeCategory.ORGAN


def test_boundary_document_names_are_case_sensitive() -> None:
    assert cat("auth", ["claude.md", "a.ts"], False) is NodeCategory.ORGAN


@pytest.mark.parametrize(
    ("name", "stem"),
    [("index.ts", "index"), ("main.mjs", "main"), ("index.test.ts", None), ("index.d.ts", None)],
)
def test_entry_points(name: str, stem: str | None) -> None:
    assert entry_stem(name) == stem


def test_infra_names() -> None:
    assert is_infra_name("__tests__")
    assert not is_infra_name("____")
    assert not is_infra_name("__x")


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("src/a.test.ts", True),
        ("src/a.spec.tsx", True),
        ("src/Button.stories.tsx", True),
        ("src/__tests__/a.ts", True),
        ("src/e2e/flow.ts", True),
        ("tests/x.ts", True),
        ("src/testing.ts", False),
        ("src/contest/a.ts", False),
    ],
)
def test_test_files(path: str, expected: bool) -> None:
    assert is_test_file(path) is expected


def tree_of(files: list[str], pure: dict[str, bool] | None = None, **structure: object) -> object:
    return build_tree(Path("/p/proj"), files, StructureConfig(**structure), pure or {})  # type: ignore[arg-type]


def test_tree_nodes_parents_children_depth_and_owner() -> None:
    files = [
        "src/auth/index.ts",
        "src/auth/utils/hash.ts",
        "src/auth/utils/deep/x.ts",
        "src/math/add.ts",
        "README.md",
    ]
    tree = build_tree(Path("/p/proj"), files, StructureConfig(), {"src/math/add.ts": True})
    assert sorted(tree.nodes) == [
        ".",
        "src",
        "src/auth",
        "src/auth/utils",
        "src/auth/utils/deep",
        "src/math",
    ]
    auth = tree.nodes["src/auth"]
    assert auth.category is NodeCategory.FRACTAL
    assert auth.parent == "src"
    assert auth.children == ("src/auth/utils",)
    assert auth.organs == ("src/auth/utils",)
    assert auth.depth == 2
    assert auth.index_file == "index.ts"
    assert tree.nodes["."].name == "proj"
    assert tree.nodes["src/math"].category is NodeCategory.PURE_FUNCTION
    # owner: nearest non-organ ancestor-or-self; the root when there is none
    assert tree.owner_of("src/auth/utils/deep/x.ts").path == "src/auth"
    assert tree.owner_of("src/auth/utils").path == "src/auth"
    assert tree.owner_of("README.md").path == "."
    assert tree.nodes["src"].category is NodeCategory.ORGAN
    assert tree.owner_of("src").path == "."


def test_pure_function_needs_every_non_test_source_to_be_side_effect_free() -> None:
    files = ["lib2/a.ts", "lib2/b.ts", "lib2/a.test.ts", "only-tests/x.test.ts", "big/huge.ts"]
    tree = build_tree(
        Path("/p"),
        files,
        StructureConfig(),
        {"lib2/a.ts": True, "lib2/b.ts": False, "only-tests/x.test.ts": True},
    )
    assert tree.nodes["lib2"].category is NodeCategory.ORGAN
    assert tree.nodes["only-tests"].category is NodeCategory.ORGAN
    # a source file missing from the facts (skipped) is not side-effect free
    assert tree.nodes["big"].category is NodeCategory.ORGAN
    tree = build_tree(Path("/p"), files, StructureConfig(), {"lib2/a.ts": True, "lib2/b.ts": True})
    assert tree.nodes["lib2"].category is NodeCategory.PURE_FUNCTION


def test_additional_organ_names_from_config() -> None:
    tree = build_tree(
        Path("/p"),
        ["src/widgets/a.ts"],
        StructureConfig(additional_organ_names=("widgets",)),
        {"src/widgets/a.ts": True},
    )
    assert tree.nodes["src/widgets"].category is NodeCategory.ORGAN
