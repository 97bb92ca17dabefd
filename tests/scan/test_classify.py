"""Classification, SPEC §2: every step, first match wins; nodes, owners, test files."""

from __future__ import annotations

from pathlib import Path

import pytest

from filid.config.model import StructureConfig
from filid.model.facts import DocumentFacts
from filid.model.nodes import NodeCategory
from filid.scan.classify import build_tree, classify, entry_stem, is_infra_name, is_test_file
from filid.scan.documents import declared_documents

ORGANS = frozenset({"utils", "components"})
HEADINGS = "# X\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"


def cat(
    name: str,
    files: list[str],
    pure: bool = False,
    *,
    declared_pure: bool = False,
    is_root: bool = False,
) -> NodeCategory:
    """Classify one folder whose CLAUDE.md (if any) carries the boundary headings."""
    documents = {
        f"d/{f}": DocumentFacts(
            f"d/{f}",
            9,
            ((3, "Always do"), (6, "Ask first"), (9, "Never do")),
            lines=("# d", "", "## Always do", "-", "", "## Ask first", "-", "", "## Never do"),
        )
        for f in files
        if f == "CLAUDE.md"
    }
    intent, detail = declared_documents("d", files, documents)
    return classify(
        name,
        files,
        ORGANS,
        lambda: pure,
        intent_doc=intent,
        detail_doc=detail,
        declared_pure=declared_pure,
        is_root=is_root,
    )


@pytest.mark.parametrize(
    ("step", "name", "files", "expected"),
    [
        (1, "utils", ["INTENT.md"], NodeCategory.HYBRID),
        (1, "utils", ["CLAUDE.md", "a.ts"], NodeCategory.HYBRID),
        (2, "utils", ["INTENT.md", "index.ts"], NodeCategory.FRACTAL),
        (2, "utils", ["INTENT.md", "DETAIL.md"], NodeCategory.FRACTAL),
        (2, "auth", ["INTENT.md"], NodeCategory.FRACTAL),
        (2, "__mocks__", ["DETAIL.md"], NodeCategory.FRACTAL),
        (4, "__generated__", ["index.ts"], NodeCategory.ORGAN),
        (5, "components", ["index.tsx", "a.tsx"], NodeCategory.ORGAN),
        (5, "utils", ["a.ts"], NodeCategory.ORGAN),
        (6, "auth", ["index.js"], NodeCategory.FRACTAL),
        (6, "ui", ["package.json", "index.ts"], NodeCategory.FRACTAL),
        # a manifest states an entry surface; it does not classify (SPEC §2 row 6)
        (8, "ui", ["package.json", "button.tsx"], NodeCategory.ORGAN),
        (8, "scripts", ["run.ts"], NodeCategory.ORGAN),
        (8, "docs", ["a.md"], NodeCategory.ORGAN),
    ],
)
def test_each_classification_step(
    step: int, name: str, files: list[str], expected: NodeCategory
) -> None:
    assert cat(name, files) is expected, f"step {step}"


def test_declared_pure_function_wins_over_organ_names_and_entries() -> None:
    assert cat("utils", ["index.ts", "a.ts"], declared_pure=True) is NodeCategory.PURE_FUNCTION
    # ... but not over a boundary document (step 2 comes first)
    assert cat("math", ["INTENT.md"], declared_pure=True) is NodeCategory.FRACTAL


def test_claude_md_without_boundary_headings_is_a_memory_file() -> None:
    documents = {"pkg/CLAUDE.md": DocumentFacts("pkg/CLAUDE.md", 3, ((1, "Notes"),))}
    assert declared_documents("pkg", ["CLAUDE.md", "SPEC.md"], documents) == (None, None)
    # INTENT.md always declares; SPEC.md counts only beside an intent document.
    assert declared_documents("pkg", ["INTENT.md", "SPEC.md"], {}) == ("INTENT.md", "SPEC.md")
    assert declared_documents("pkg", ["DETAIL.md"], {}) == (None, "DETAIL.md")


def test_the_root_is_never_pure_function_or_hybrid() -> None:
    assert cat("repo", ["eslint.config.js"], pure=True, is_root=True) is NodeCategory.ORGAN
    assert cat("repo", ["package.json", "index.ts"], is_root=True) is NodeCategory.ORGAN
    assert cat("utils", ["INTENT.md"], is_root=True) is NodeCategory.FRACTAL


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
    tree = build_tree(
        Path("/p/proj"),
        files,
        StructureConfig(pure_function_paths=("src/math",)),
        {"src/math/add.ts": True},
    )
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


def test_inferred_pure_function_needs_every_non_test_source_to_be_side_effect_free() -> None:
    files = [
        *(f"{d}/sub/x.ts" for d in ("lib2", "only-tests", "big", "leaf-parent")),
        "lib2/a.ts",
        "lib2/b.ts",
        "lib2/a.test.ts",
        "only-tests/x.test.ts",
        "big/huge.ts",
        "leaf/a.ts",
    ]
    infer = StructureConfig(infer_pure_functions=True)
    tree = build_tree(
        Path("/p"),
        files,
        infer,
        {"lib2/a.ts": True, "lib2/b.ts": False, "only-tests/x.test.ts": True, "leaf/a.ts": True},
    )
    assert tree.nodes["lib2"].category is NodeCategory.ORGAN
    assert tree.nodes["only-tests"].category is NodeCategory.ORGAN
    # a source file missing from the facts (skipped) is not side-effect free
    assert tree.nodes["big"].category is NodeCategory.ORGAN
    # a leaf is never inferred pure-function
    assert tree.nodes["leaf"].category is NodeCategory.ORGAN
    pure = {"lib2/a.ts": True, "lib2/b.ts": True}
    assert build_tree(Path("/p"), files, infer, pure).nodes["lib2"].category is (
        NodeCategory.PURE_FUNCTION
    )
    # without inferPureFunctions nothing is inferred
    assert build_tree(Path("/p"), files, StructureConfig(), pure).nodes["lib2"].category is (
        NodeCategory.ORGAN
    )


def test_a_folder_with_fractal_children_is_not_inferred_pure() -> None:
    files = ["core/a.ts", "core/feature/index.ts"]
    tree = build_tree(
        Path("/p"), files, StructureConfig(infer_pure_functions=True), {"core/a.ts": True}
    )
    assert tree.nodes["core/feature"].category is NodeCategory.FRACTAL
    assert tree.nodes["core"].category is NodeCategory.ORGAN


def test_every_node_is_reachable_from_the_root_through_children() -> None:
    # Regression: a folder registered as an ancestor lost the children recorded before it.
    files = [
        "src/UserProfile/index.ts",
        "src/reports/charts/bar/axis/ticks/ticks.ts",
        "src/app/index.ts",
        "a/b/c/d.ts",
        "a/x.ts",
        "z.ts",
    ]
    tree = build_tree(Path("/p"), files, StructureConfig(), {})
    seen: set[str] = set()
    stack = ["."]
    while stack:
        path = stack.pop()
        seen.add(path)
        stack.extend(tree.nodes[path].children)
    assert seen == set(tree.nodes)


def test_additional_organ_names_from_config() -> None:
    tree = build_tree(
        Path("/p"),
        ["src/widgets/a.ts"],
        StructureConfig(additional_organ_names=("widgets",)),
        {"src/widgets/a.ts": True},
    )
    assert tree.nodes["src/widgets"].category is NodeCategory.ORGAN
