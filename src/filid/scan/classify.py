"""Nodes and their categories (SPEC §1 "Node", §2 classification, first match wins)."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

from filid.config.globs import matches_glob
from filid.config.model import StructureConfig
from filid.model.builders import builder
from filid.model.facts import DocumentFacts
from filid.model.nodes import FractalNode, FractalTree, NodeCategory
from filid.scan.documents import declared_documents
from filid.scan.universe import is_source_file

# One node per folder of the universe: the fast constructor (every field, in order).
_NODE = builder(FractalNode)

ORGAN_NAMES = frozenset(
    {
        "components",
        "utils",
        "types",
        "hooks",
        "helpers",
        "lib",
        "styles",
        "assets",
        "constants",
        "test",
        "tests",
        "spec",
        "specs",
        "fixtures",
        "e2e",
    }
)
# `__testfixtures__` is jscodeshift's folder of codemod test inputs and outputs (`defineTest`
# reads it; TanStack Query's codemods keep imports there that resolve to nothing on purpose).
TEST_DIRECTORIES = frozenset({"__tests__", "__mocks__", "__testfixtures__", "test", "tests", "e2e"})
# vitest's type tests (`*.test-d.ts`, `*.spec-d.ts`) are tests too: tsc checks them, nothing
# ships them.
_TEST_NAME_PATTERNS = ("*.test.*", "*.spec.*", "*.test-d.*", "*.spec-d.*", "*.stories.*")
# The same patterns as one compiled alternation of ``fnmatch.translate``: a name matches it
# exactly when ``fnmatch.fnmatchcase`` matches one of them (asked of every source file; five
# ``fnmatchcase`` calls each cost more than the rest of the test).
_TEST_NAME = re.compile("|".join(fnmatch.translate(p) for p in _TEST_NAME_PATTERNS))


# Folders of code written to exercise a tool rather than to run: test fixtures, and the
# playgrounds a tool's own e2e tests build on (vite's `playground/hmr/missing-file` imports a
# file its test creates). A broken config there is a note, and an import there is no claim.
# lit's analyzer reads the projects under `test-files/` as its test inputs. jest and vitest
# write snapshots into `__snapshots__/` and compare them as text (vitest's
# `toMatchFileSnapshot` keeps whole copies of generated code there: orval's samples).
FIXTURE_DIRECTORIES = TEST_DIRECTORIES | {
    *("fixture", "fixtures", "__fixtures__", "test-fixtures", "test-files", "__snapshots__"),
    # inputs of a tool's integration tests (formatjs's `integration-tests/extract/<case>/`,
    # sources `formatjs extract` reads as text, broken on purpose)
    "integration-tests",
    *("playground", "playgrounds"),
    # test data: the go tool ignores every folder named `testdata` (`go help packages`), where
    # Go and Deno keep their tests' inputs and goldens (octant's `pkg/view/tsgen/testdata/
    # link-config.ts` is the expected text of a generator); stryker-js keeps the sources its
    # tests instrument, mutate and type-check on purpose in `testResources/`
    *("testdata", "testResources", "test-resources"),
}


# Folders a CLI copies projects from (qwik's `starters/adapters/*` overlay `starters/apps/base`,
# vue's playground zips `download/template/`, quasar's EJS `templates/**/package.json`).
SCAFFOLD_FOLDERS = frozenset({"templates", "template", "starters", "starter", "boilerplates"})


def is_scaffold_path(path: str) -> bool:
    """Whether ``path`` lies below a scaffold folder (``SCAFFOLD_FOLDERS``)."""
    return any(segment in SCAFFOLD_FOLDERS for segment in path.split("/")[:-1])


def broken_config_excuse(path: str) -> str | None:
    """Why a config file that does not parse at ``path`` is a note rather than a stop: it lies
    in a test fixture (broken on purpose) or a scaffold template (EJS markup the CLI fills in);
    None anywhere else."""
    if is_fixture_path(path):
        return "a test fixture"
    return "a scaffold template" if is_scaffold_path(path) else None


def is_fixture_path(path: str) -> bool:
    """Whether ``path`` lies in a test, fixture or playground folder (see
    ``FIXTURE_DIRECTORIES``)."""
    return any(segment in FIXTURE_DIRECTORIES for segment in path.split("/")[:-1])


def is_infra_name(name: str) -> bool:
    """``__x__``: starts and ends with ``__`` and is longer than 4 characters."""
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def is_test_file(path: str) -> bool:
    """A source file named ``*.test.*``/``*.spec.*``/``*.test-d.*``/``*.spec-d.*``/
    ``*.stories.*`` or under a test folder (a vitest config's ``typecheck.include`` is added
    by the engine, which reads the configs)."""
    segments = path.split("/")
    name = segments[-1]
    # every pattern holds one of these words: most names are out without the match
    if (".test" in name or ".spec" in name or ".stories" in name) and _TEST_NAME.match(name):
        return True
    return any(segment in TEST_DIRECTORIES for segment in segments[:-1])


# The stem before the last dot is "index" or "main" only in a name starting with one of these.
_ENTRY_PREFIXES = ("index.", "main.")


def _never() -> bool:
    """Step 7's question when pure-function inference is off: never pure."""
    return False


def entry_stem(name: str) -> str | None:
    """``"index"`` or ``"main"`` when ``name`` is an entry point source file, else None."""
    # Most names are out without the suffix tests.
    if not name.startswith(_ENTRY_PREFIXES) or not is_source_file(name):
        return None
    stem = name.rsplit(".", 1)[0]
    return stem if stem in ("index", "main") else None


def classify(
    name: str,
    files: Collection[str],
    organ_names: Collection[str],
    is_pure: Callable[[], bool],
    *,
    intent_doc: str | None = None,
    detail_doc: str | None = None,
    declared_pure: bool = False,
    is_root: bool = False,
    in_route_tree: bool = False,
) -> NodeCategory:
    """The category of one directory (SPEC §2, first match wins).

    ``intent_doc``/``detail_doc`` are the boundary documents the directory really declares
    (``scan.documents.declared_documents``); ``declared_pure`` is step 3 (config
    ``pureFunctionPaths``); ``is_pure`` is asked only when steps 1-6 did not decide and answers
    step 7 (inference enabled, not a leaf, no fractal children, direct sources all side-effect
    free). The root is fractal only with a boundary document, never pure-function or hybrid.
    In a framework's route tree (``in_route_tree``) an ``index.*`` is a page, not a barrel, so
    it does not make a fractal.
    """
    is_organ_name = name in organ_names
    has_index = any(entry_stem(f) == "index" for f in files)
    if is_root:
        return NodeCategory.FRACTAL if intent_doc or detail_doc else NodeCategory.ORGAN
    if is_organ_name and intent_doc and not detail_doc and not has_index:
        return NodeCategory.HYBRID
    if intent_doc or detail_doc:
        return NodeCategory.FRACTAL
    if declared_pure:
        return NodeCategory.PURE_FUNCTION
    if is_infra_name(name) or is_organ_name:
        return NodeCategory.ORGAN
    # A package.json states an entry surface (manifest entries stay entry points for the
    # rules); it does not classify (SPEC §2 row 6, the upstream classifier's step 5).
    if has_index and not in_route_tree:
        return NodeCategory.FRACTAL
    if is_pure():
        return NodeCategory.PURE_FUNCTION
    return NodeCategory.ORGAN


def build_tree(
    root: Path,
    files: Collection[str],
    structure: StructureConfig,
    side_effect_free: Mapping[str, bool],
    documents: Mapping[str, DocumentFacts] | None = None,
    route_directories: Collection[str] = (),
) -> FractalTree:
    """Build the classified tree from the universe ``files``.

    ``side_effect_free`` maps parsed source files to their side-effect freedom; a source file
    missing from it (skipped: too large, not UTF-8) counts as not side-effect free.
    ``documents`` holds the facts of the boundary-document candidates that could be read;
    ``route_directories`` the route folders of file-routing frameworks (Next.js ``pages``…).
    Directories are classified deepest first, so step 7 knows whether a folder has fractal
    children (the upstream classifier's order).
    """
    documents = dict(documents or {})
    organ_names = ORGAN_NAMES | frozenset(structure.additional_organ_names)
    direct: dict[str, list[str]] = {".": []}
    children: dict[str, set[str]] = {".": set()}
    ordered = sorted(files)
    for file in ordered:
        parent, _, name = file.rpartition("/")
        parent = parent or "."
        # register the directory and every ancestor as a node, each linked to its parent
        current = parent
        while current not in direct:
            direct[current] = []
            children.setdefault(current, set())
            above = current.rpartition("/")[0] or "."
            children.setdefault(above, set()).add(current)
            current = above
        direct[parent].append(name)

    def pure_check(path: str, names: list[str], kids: set[str]) -> Callable[[], bool]:
        def check() -> bool:
            if not structure.infer_pure_functions or not kids:
                return False
            if any(categories[k] is NodeCategory.FRACTAL for k in kids):
                return False
            sources = [
                n
                for n in names
                if is_source_file(n) and not is_test_file(n if path == "." else f"{path}/{n}")
            ]
            return bool(sources) and all(
                side_effect_free.get(n if path == "." else f"{path}/{n}", False) for n in sources
            )

        return check

    declared: dict[str, tuple[str | None, str | None]] = {}
    categories: dict[str, NodeCategory] = {}
    pure_paths = structure.pure_function_paths
    infer = structure.infer_pure_functions  # else no folder is inferred pure (`pure_check`)
    routes = tuple(route_directories)
    for path in sorted(direct, key=lambda p: (-(0 if p == "." else p.count("/") + 1), p)):
        names = direct[path]
        name = root.name if path == "." else path.rpartition("/")[2]
        intent, detail = declared_documents(path, names, documents)
        declared[path] = (intent, detail)
        categories[path] = classify(
            name,
            names,
            organ_names,
            pure_check(path, names, children.get(path, set())) if infer else _never,
            intent_doc=intent,
            detail_doc=detail,
            declared_pure=bool(pure_paths)
            and path != "."
            and any(matches_glob(path, g) for g in pure_paths),
            is_root=path == ".",
            in_route_tree=bool(routes)
            and any(path == r or path.startswith(r + "/") for r in routes),
        )

    nodes: dict[str, FractalNode] = {}
    make_node = _NODE
    for path in sorted(direct):
        names = sorted(direct[path])
        kids = tuple(sorted(children.get(path, ())))
        index_file = main_file = None
        for n in names:  # the first (sorted) index.* and main.*
            if not n.startswith(_ENTRY_PREFIXES):
                continue  # no entry point (``entry_stem``'s first test, without the call)
            stem = entry_stem(n)
            if stem == "index" and index_file is None:
                index_file = n
            elif stem == "main" and main_file is None:
                main_file = n
        intent, detail = declared[path]
        nodes[path] = make_node(
            path,
            root.name if path == "." else path.rpartition("/")[2],
            categories[path],
            None if path == "." else (path.rpartition("/")[0] or "."),
            kids,
            tuple([k for k in kids if categories[k] is NodeCategory.ORGAN]) if kids else (),
            tuple(names),
            0 if path == "." else path.count("/") + 1,
            intent,
            detail,
            index_file,
            main_file,
            {},
        )
    owners: dict[str, str] = {}
    for path in sorted(nodes, key=lambda p: (0 if p == "." else p.count("/") + 1, p)):
        node = nodes[path]
        if path == "." or node.category is not NodeCategory.ORGAN or node.parent is None:
            owners[path] = path
        else:
            owners[path] = owners[node.parent]
    return FractalTree(
        root=root,
        nodes=nodes,
        files=tuple(ordered),
        documents=documents,
        owners=owners,
    )
