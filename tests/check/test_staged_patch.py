"""Differential test of the staged patch path (``filid.check.staged_patch``): after every
random import edit, staged as pre-commit stages it, ``check --staged`` (which may answer from
the staged state by proving the edit changes nothing) reports exactly what ``check --staged
--no-cache`` reports. The edits import other source files of a generated monorepo (relative
specifiers, siblings and other modules, so some close import cycles, cross boundaries or add
findings) and drop them again. Set ``FILID_PATCH_SEED`` to replay another sequence.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import filid.check.staged_patch
from tests.check.test_incremental import GIT, check_json, git, short_diff

SEED = int(os.environ.get("FILID_PATCH_SEED", "30"))
EDITS = 40
GENERATOR = Path(__file__).resolve().parents[2] / "benchmarks" / "generate.py"
EXPORTED = re.compile(r"^export (?:const|function|class) (\w+)", re.MULTILINE)


class CountedProofs:
    """Counts the patch path's proofs (runs answered without recomputing)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.proven = self.tried = 0
        original = filid.check.staged_patch.unchanged_by_imports

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.tried += 1
            found = original(*args, **kwargs)
            self.proven += found is not None
            return found

        monkeypatch.setattr(filid.check.staged_patch, "unchanged_by_imports", counted)


def _generate(root: Path, files: int) -> None:
    subprocess.run(
        [sys.executable, str(GENERATOR), "--files", str(files), "--out", str(root)],
        check=True,
        capture_output=True,
    )
    subprocess.run([*GIT, "init", "-q", "-b", "main"], cwd=root, check=True, capture_output=True)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "generated")


def _sources(root: Path) -> list[str]:
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules"]
        rel = Path(folder).relative_to(root).as_posix()
        found += [
            f"{rel}/{n}" if rel != "." else n
            for n in names
            if n.endswith((".ts", ".tsx")) and ".test." not in n
        ]
    return sorted(found)


def _import_line(root: Path, source: str, target: str, alias: str) -> str:
    spec = os.path.relpath(root / target, (root / source).parent).replace(os.sep, "/")
    spec = re.sub(r"\.tsx?$", "", spec)
    spec = spec if spec.startswith(".") else "./" + spec
    match = EXPORTED.search((root / target).read_text(encoding="utf-8"))
    if match:
        return f"import {{ {match.group(1)} as {alias} }} from '{spec}';\n"
    return f"import * as {alias} from '{spec}';\n"


def _staged(root: Path, file: str, what: str, *others: str) -> dict[str, Any]:
    """The pre-commit hook's run on ``file`` (and ``others``), staged and warm, equal to
    ``--no-cache``."""
    args = ("--staged", str(root / file), *(str(root / other) for other in others))
    cached = check_json(root, *args)
    fresh = check_json(root, "--no-cache", *args)
    assert cached == fresh, f"{what}: differs from --no-cache\n{short_diff(cached, fresh)}"
    return cached


def _cycles(report: dict[str, Any]) -> int:
    return sum(v["ruleId"] == "circular-dependency" for v in report["result"]["violations"])


def test_staged_runs_after_random_import_edits_equal_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    print(f"seed {SEED} (replay with FILID_PATCH_SEED={SEED})")
    root = tmp_path / "repo"
    _generate(root, 300)
    rng = random.Random(SEED)
    sources = _sources(root)
    proofs = CountedProofs(monkeypatch)
    import filid.scan.classify

    def no_rebuild(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the proof rebuilt the tree: the kept one did not decode")

    # The proof imports build_tree when it runs (load_project bound it at import): every
    # proof below answers with the computed run's kept tree.
    monkeypatch.setattr(filid.scan.classify, "build_tree", no_rebuild)
    first = sources[len(sources) // 2]
    _staged(root, first, "the initial project")
    added: dict[str, list[str]] = {}
    for number in range(EDITS):
        file = rng.choice(sources) if rng.random() < 0.6 else first
        path = root / file
        text = path.read_text(encoding="utf-8")
        if added.get(file) and rng.random() < 0.35:
            line = added[file].pop(rng.randrange(len(added[file])))
            text = text.replace(line, "", 1)
            what = f"edit {number}: {file} drops {line.strip()}"
        else:
            folder = file.rpartition("/")[0]
            near = [s for s in sources if s != file and s.startswith(folder.rpartition("/")[0])]
            target = rng.choice(near if near and rng.random() < 0.7 else sources)
            line = _import_line(root, file, target, f"patchEdit{number}")
            # appended, or at the top (every position below it shifts)
            text = text + line if rng.random() < 0.6 else line + text
            added.setdefault(file, []).append(line)
            what = f"edit {number}: {file} imports {target}"
        path.write_text(text, encoding="utf-8")
        git(root, "add", "--", file)
        _staged(root, file, what)
    print(f"{EDITS} import edits: {proofs.tried} patch attempts, {proofs.proven} proven")
    # The patch path answered some runs (not only fallbacks), and refused others.
    assert proofs.proven >= 5, (proofs.tried, proofs.proven)
    assert proofs.tried > proofs.proven


def test_an_import_that_closes_a_cycle_is_recomputed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "repo"
    files = {
        "package.json": '{"name": "acme", "private": true}\n',
        "tsconfig.json": '{"compilerOptions": {"module": "ESNext", "strict": true}}\n',
        "src/INTENT.md": "# app\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n",
        "src/a/index.ts": "export { a } from './a';\n",
        "src/a/a.ts": "import { b } from '../b';\nexport const a = () => b;\n",
        "src/b/index.ts": "export { b } from './b';\n",
        "src/b/b.ts": "export const b = 1;\n",
        "src/c/index.ts": "export const c = 2;\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    subprocess.run([*GIT, "init", "-q", "-b", "main"], cwd=root, check=True, capture_output=True)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    proofs = CountedProofs(monkeypatch)
    _staged(root, "src/b/b.ts", "the initial project")
    # An import of another module's entry: a new module edge, no cycle, no finding.
    (root / "src/b/b.ts").write_text(
        "import { c } from '../c';\nexport const b = c;\n", encoding="utf-8"
    )
    git(root, "add", "--", "src/b/b.ts")
    report = _staged(root, "src/b/b.ts", "an import of another module")
    assert proofs.proven == 1, (proofs.tried, proofs.proven)
    assert _cycles(report) == 0
    # b now imports a back: a new module edge that closes a cycle must be recomputed.
    (root / "src/b/b.ts").write_text(
        "import { c } from '../c';\nimport { a } from '../a';\nexport const b = () => a + c;\n",
        encoding="utf-8",
    )
    git(root, "add", "--", "src/b/b.ts")
    report = _staged(root, "src/b/b.ts", "an import closing a cycle")
    assert _cycles(report) == 1
    assert proofs.proven == 1, (proofs.tried, proofs.proven)
    # Dropping it again breaks the cycle: an edge inside a cycle, recomputed too.
    (root / "src/b/b.ts").write_text(
        "import { c } from '../c';\nexport const b = c;\n", encoding="utf-8"
    )
    git(root, "add", "--", "src/b/b.ts")
    report = _staged(root, "src/b/b.ts", "the cycle broken again")
    assert _cycles(report) == 0
    assert proofs.proven == 1, (proofs.tried, proofs.proven)


def _project(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    subprocess.run([*GIT, "init", "-q", "-b", "main"], cwd=root, check=True, capture_output=True)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")


def _edit(root: Path, rel: str, text: str, what: str, *others: str) -> dict[str, Any]:
    """Stage ``text`` as ``rel``; the hook's run on it (and ``others``)."""
    (root / rel).write_text(text, encoding="utf-8")
    git(root, "add", "--", rel)
    return _staged(root, rel, what, *others)


INTENT = "# app\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"


def test_imports_inside_a_cycle_are_recomputed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a -> b -> a is the route; c joins the cycle through an organ file no finding names.
    root = tmp_path / "repo"
    _project(
        root,
        {
            "package.json": '{"name": "acme", "private": true}\n',
            "tsconfig.json": '{"compilerOptions": {"module": "ESNext"}}\n',
            "src/INTENT.md": INTENT,
            "src/a/index.ts": "export { a } from './a';\n",
            "src/a/a.ts": "import { b } from '../b';\nexport const a = () => b;\n",
            "src/b/index.ts": "export { b } from './z';\n",
            "src/b/z.ts": (
                "import { a } from '../a';\nimport { c } from '../c';\n"
                "export const b = () => a() + c;\n"
            ),
            "src/b/utils/u.ts": "export const u = 1;\n",
            "src/c/index.ts": "export { c } from './c';\n",
            "src/c/c.ts": "export const c = 1;\n",
            "src/c/utils/c0.ts": "import { a } from '../../a';\nexport const c0 = () => a;\n",
        },
    )
    proofs = CountedProofs(monkeypatch)
    report = _staged(root, "src/b/utils/u.ts", "the initial project", "src/a/a.ts")
    assert _cycles(report) == 1
    # A second import supporting b -> a, sorting before the route's: the evidence moves.
    report = _edit(
        root,
        "src/b/utils/u.ts",
        "import { a } from '../../a';\nexport const u = () => a;\n",
        "a new first evidence of a hop",
        "src/a/a.ts",
    )
    assert "src/b/utils/u.ts" in str(report["result"]["violations"])
    # c's only import of a goes: c leaves the cycle.
    report = _edit(
        root, "src/c/utils/c0.ts", "export const c0 = 1;\n", "c leaves the cycle", "src/a/a.ts"
    )
    assert _cycles(report) == 1
    assert "cycle between 2 modules" in str(report["result"]["violations"])
    assert proofs.proven == 0, (proofs.tried, proofs.proven)


def test_an_edit_that_changes_more_than_imports_is_recomputed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # src/math holds side-effect-free files only: a pure-function folder. An edit that
    # imports and runs something makes it a module folder.
    root = tmp_path / "repo"
    _project(
        root,
        {
            "package.json": '{"name": "acme", "private": true}\n',
            "tsconfig.json": '{"compilerOptions": {"module": "ESNext"}}\n',
            "src/INTENT.md": INTENT,
            "src/index.ts": "export { add } from './math/add';\n",
            "src/log/index.ts": "export const log = (x: number) => x;\n",
            "src/math/add.ts": "export const add = (a: number, b: number) => a + b;\n",
            "src/math/sub.ts": "export const sub = (a: number, b: number) => a - b;\n",
        },
    )
    proofs = CountedProofs(monkeypatch)
    before = _staged(root, "src/math/add.ts", "the initial project", "src/math/sub.ts")
    after = _edit(
        root,
        "src/math/add.ts",
        "import { log } from '../log';\nlog(1);\n"
        "export const add = (a: number, b: number) => a + b;\n",
        "a side effect and an import",
        "src/math/sub.ts",
    )
    assert before["regime"] == after["regime"]
    assert proofs.tried == 1 and proofs.proven == 0, (proofs.tried, proofs.proven)


def test_a_file_imported_from_outside_anew_is_recomputed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # index-barrel-pattern (enabled here) checks an index.* only once a file outside its
    # folder imports it at run time: the finding lands on src/m, not on the edited file.
    root = tmp_path / "repo"
    _project(
        root,
        {
            "package.json": '{"name": "acme", "private": true}\n',
            "tsconfig.json": '{"compilerOptions": {"module": "ESNext"}}\n',
            ".filid/config.json": (
                '{"version": "2.0", "rules": {"index-barrel-pattern": {"enabled": true}}}\n'
            ),
            "src/INTENT.md": INTENT,
            "src/m/index.ts": (
                "import { m } from './m';\nexport const api = m;\nconsole.log(api);\n"
            ),
            "src/m/m.ts": "export const m = 1;\n",
            "src/x/index.ts": "export { x } from './x';\n",
            "src/x/x.ts": "export const x = 2;\n",
        },
    )
    proofs = CountedProofs(monkeypatch)
    before = _staged(root, "src/x/x.ts", "the initial project", "src/m/index.ts")
    rules = [v["ruleId"] for v in before["result"]["violations"]]
    assert "index-barrel-pattern" not in rules
    after = _edit(
        root,
        "src/x/x.ts",
        "import { api } from '../m';\nexport const x = api;\n",
        "src/m's barrel imported from outside",
        "src/m/index.ts",
    )
    assert "index-barrel-pattern" in [v["ruleId"] for v in after["result"]["violations"]]
    assert proofs.proven == 0, (proofs.tried, proofs.proven)


def test_an_import_a_planned_fix_must_rewrite_is_recomputed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # zero-peer-file's fix would move src/m/peer.ts into src/m/peer/: once m.ts imports it
    # under a bundler query the planner cannot rewrite, the fix is refused (a note names
    # m.ts, the file edited, though no violation does).
    root = tmp_path / "repo"
    _project(
        root,
        {
            "package.json": '{"name": "acme", "private": true}\n',
            "tsconfig.json": '{"compilerOptions": {"module": "ESNext"}}\n',
            "src/INTENT.md": INTENT,
            "src/m/index.ts": "export { m } from './m';\n",
            "src/m/m.ts": "export const m = 1;\n",
            "src/m/peer.ts": "export const p = 2;\n",
        },
    )
    proofs = CountedProofs(monkeypatch)
    before = _staged(root, "src/m/m.ts", "the initial project", "src/m/peer.ts")
    assert not before.get("notes")
    # the paths planned fixes read are kept with the summary: those of the stored result
    import marshal

    from filid.check.staged_summary import GraphSummary, fix_involved
    from filid.store.location import project_cache_dir
    from filid.store.sealed import read_sealed

    cache = project_cache_dir(root.resolve())
    assert cache is not None
    state = _stored_state(cache)
    kept = read_sealed(cache / "staged-snapshot-graph.marshal")["graph"]
    summary = GraphSummary.decode(kept, len(state.file_list()))
    assert summary is not None and summary.involved is not None
    stored = fix_involved(marshal.loads(blob) for blob in state.violations)
    assert "src/m/peer.ts" in stored
    assert frozenset(summary.involved.split("\0")) == stored
    after = _edit(
        root,
        "src/m/m.ts",
        "import { p } from './peer?raw';\nexport const m = p;\n",
        "an import the move cannot rewrite",
        "src/m/peer.ts",
    )
    assert any("could not be rewritten" in note for note in after["notes"])
    assert proofs.proven == 0, (proofs.tried, proofs.proven)


def test_the_kept_tree_is_the_tree_the_proof_would_build(tmp_path: Path) -> None:
    """The proof answers with the computed run's tree kept in the staged state (encoded,
    marshalled, decoded) instead of rebuilding it: every node, owner, file and document of
    the decoded tree equals the computed one and what ``build_tree`` rebuilds."""
    import marshal

    from filid.check.project import load_project
    from filid.check.staged_summary import decode_tree, encode_tree
    from filid.scan.classify import build_tree

    root = tmp_path / "repo"
    _generate(root, 300)
    # an organ, a route-less pure-function candidate and intent documents are generated;
    # add an organ under an organ so owners skip more than one level
    (root / "packages" / "extra" / "src" / "utils" / "helpers").mkdir(parents=True)
    (root / "packages" / "extra" / "src" / "utils" / "helpers" / "a.ts").write_text(
        "export const a = 1;\n", encoding="utf-8"
    )
    project = load_project(root, use_cache=False)
    tree = project.tree
    assert any(node.category.value == "organ" for node in tree.nodes.values())
    assert any(owner != path for path, owner in tree.owners.items())
    kept = marshal.loads(marshal.dumps(encode_tree(tree)))
    # Nodes looked up one by one (built on first use) equal the computed ones, and so do
    # the owners found through them, before anything asks for the whole tree.
    looked_up = decode_tree(kept, tree.root, tree.files, tree.documents)
    assert looked_up is not None
    for file in tree.files[::7]:
        assert looked_up.owner_of(file) == tree.owner_of(file)
    for path in tree.nodes:
        assert path in looked_up.nodes
        assert looked_up.nodes[path] == tree.nodes[path] == looked_up.nodes.get(path)
    assert looked_up.nodes.get("no/such/folder") is None
    assert "no/such/folder" not in looked_up.nodes
    assert looked_up == tree
    decoded = decode_tree(kept, tree.root, tree.files, tree.documents)
    assert decoded == tree
    assert decoded is not None and list(decoded.nodes) == list(tree.nodes)
    side_effect_free = {p: f.is_side_effect_free for p, f in project.facts.items()}
    rebuilt = build_tree(
        tree.root,
        tree.files,
        project.config.structure,
        side_effect_free,
        tree.documents,
        route_directories=project.resolver.route_directories(),
    )
    assert decoded == rebuilt
    # the source folders kept beside it are the engine's
    from filid.check.engine import source_directories
    from filid.check.staged_summary import graph_summary

    summary = graph_summary(
        tree.files, project.facts, project.test_files, project.module_graph, True, tree
    )
    assert summary.folders is not None
    assert frozenset(summary.folders.split("\0")) == source_directories(tree.files)


def test_a_malformed_kept_tree_is_rebuilt(tmp_path: Path) -> None:
    """A kept tree that does not decode (another version's layout) is not used: the proof
    falls back to building the tree."""
    from filid.check.staged_summary import decode_tree

    for bad in (
        None,
        [],
        (("src", "organ"),),
        (("src", "bogus", (), (), (), None, None, None, None, "."),),
    ):
        assert decode_tree(bad, tmp_path, ["src/a.ts"], {}) is None


def test_source_folders_from_the_listed_sources_equal_the_engines(tmp_path: Path) -> None:
    """The proof's rule context takes its source folders from the source files it already
    listed: the same set ``check.engine.source_directories`` finds over every file."""
    from filid.check.engine import folders_holding as _folders_holding
    from filid.check.engine import source_directories
    from filid.scan.universe import is_source_file

    root = tmp_path / "repo"
    _generate(root, 200)
    listed = subprocess.run(
        [*GIT, "ls-files"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    files = sorted([*listed, "docs/only.md", "a/b/c/readme.txt"])
    sources = [f for f in files if is_source_file(f)]
    assert _folders_holding(sources) == source_directories(files)
    assert "docs" not in _folders_holding(sources)


def test_every_rule_loads_on_its_own_as_registered() -> None:
    """The proof imports only the rules that read imports (``staged_context.load_rule``):
    each rule id loads the rule the registry holds for it."""
    from filid.check.staged_context import load_rule
    from filid.rules.registry import RULES_BY_ID

    for rule_id, rule in RULES_BY_ID.items():
        loaded = load_rule(rule_id)
        assert type(loaded) is type(rule)
        assert loaded.meta == rule.meta


def _stored_state(cache: Path) -> Any:
    """The staged state stored in ``cache``, whatever its key."""
    from filid.check.staged_state import load_staged_state
    from filid.store.sealed import read_sealed_sections

    sealed = read_sealed_sections(cache / "staged-snapshot.marshal")
    assert sealed is not None
    state = load_staged_state(cache, sealed.head["key"])
    assert state is not None
    return state


def _state(result: dict[str, Any], violations: list[bytes]) -> Any:
    import marshal

    from filid.check.staged_state import StagedState

    encoded = [marshal.loads(blob) for blob in violations]
    return StagedState.of(
        "t", "tree", {}, ["a.ts"], [None], (), (), result, encoded
    )  # fmt: skip


def test_a_mention_is_found_whatever_its_spelling_in_repr() -> None:
    """A path is mentioned when a string of the result holds it: a path whose ``repr``
    escapes a quote or a backslash is found too (the repr of the result missed it)."""
    import marshal

    for name in ('src/it\'s "odd".ts', "src/back\\slash.ts"):
        state = _state({"scope": ".", "refused": [f"see {name}"], "notes": []}, [])
        assert state.mentions(name)
        assert state.mentions_beyond_refusals(name)
        note = f"fix not possible: zero-peer-file at {name}: no peer"
        assert _state({"notes": [note]}, []).mentions_beyond_refusals(name)
        other = f"fix not possible: zero-peer-file at src/other.ts: reads {name}"
        assert not _state({"notes": [other]}, []).mentions_beyond_refusals(name)
        assert _state({"notes": [other]}, []).mentions(name)
        location = ("x.ts", 1, 1, 1, 1, 1)
        blob = marshal.dumps(("r", "error", "m", name, location, ".", None, None, [], [], "f"))
        assert _state({"notes": []}, [blob]).mentions_beyond_refusals(name)
        assert not _state({"notes": []}, [blob]).mentions_beyond_refusals("src/elsewhere.ts")
    # the nodes a rule evaluated are folders of the unchanged tree: not a mention the
    # patch path needs, still one for the early cutoff
    evaluated = {"evaluated": {"max-depth": ["src/a.ts.d"]}, "notes": []}
    assert not _state(evaluated, []).mentions_beyond_refusals("src/a.ts")
    assert _state(evaluated, []).mentions("src/a.ts")


def test_an_unstaged_edit_is_checked_as_without_the_proof(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The proof reads the work tree before it asks git whether it equals the index (git
    runs meanwhile): with an unstaged edit anywhere, an import edit the proof proves
    otherwise is not answered from the state; the run checks what a run without a stored
    state checks."""
    root = tmp_path / "repo"
    _generate(root, 300)
    sources = _sources(root)
    proofs = CountedProofs(monkeypatch)
    _staged(root, sources[0], "the initial project")
    proven = None
    middle = len(sources) // 2
    for number, first in enumerate((sources[middle:] + sources[:middle])[:30]):
        folder = first.rpartition("/")[0]
        near = [s for s in sources if s != first and s.rpartition("/")[0] == folder]
        if len(near) < 2:
            continue
        text = (root / first).read_text(encoding="utf-8")
        text += _import_line(root, first, near[0], f"unstagedEdit{number}")
        (root / first).write_text(text, encoding="utf-8")
        git(root, "add", "--", first)
        before = proofs.proven
        _staged(root, first, f"{first} imports {near[0]}")
        if proofs.proven > before:
            proven = first
            break
    assert proven is not None, "no import edit was proven"
    # The same kind of edit, with another file edited and not staged.
    other = sources[0] if sources[0] != first else sources[1]
    (root / other).write_text("// not staged\n", encoding="utf-8")
    target = near[1]
    text += _import_line(root, first, target, "unstagedEditLast")
    (root / first).write_text(text, encoding="utf-8")
    git(root, "add", "--", first)
    tried, done = proofs.tried, proofs.proven
    _staged(root, first, f"{first} imports {target}, {other} edited and not staged")
    assert proofs.tried == tried + 1 and proofs.proven == done, (proofs.tried, proofs.proven)
