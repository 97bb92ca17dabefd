"""Hostile inputs, round 2: shared caches, names that become code, patterns that never end.

Each test is one attack (issue 26) and its safe outcome. Attacks come from a pull request's
content (file and folder names, configs, DETAIL.md, .gitattributes), from another user of a
shared machine (a planted cache or fix journal), or from a name that reaches a medium filid
writes (a generated index.ts, a diff header, a terminal, a CI log, Mermaid).

A hang is detected with a generous subprocess timeout (the backtracking versions run for
hours or forever); it is not a performance assertion.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from filid.store.journal import JOURNAL_NAME, _record_line
from tests.conftest import ProjectFactory, write_files

FILID = [sys.executable, "-m", "filid"]
# Seconds: far beyond any of these runs when nothing backtracks or blocks.
HANG = float(os.environ.get("FILID_TEST_HANG_SECONDS", "120"))
# A declared FCA project (SPEC §0) whose src/app imports past src/auth's entry point: one
# external-import-boundary error, so a run that reads everything exits 1.
DEEP = {
    ".filid/config.json": '{"version": "2.0"}\n',
    "src/auth/index.ts": "export { login } from './login';\n",
    "src/auth/login.ts": "export const login = 1;\n",
    "src/app/index.ts": "import { login } from '../auth/login';\nexport { login };\n",
}
NASTY = "x\n::error::forged\n::add-mask::s\x1b[31m\u202eY"


def run_filid(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = HANG
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*FILID, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


# --- Everything persisted: trusted only in a private folder of this user ------------------


def _journal_dir(cache: Path, root: Path) -> Path:
    key = hashlib.sha256(os.path.realpath(root).encode()).hexdigest()[:32]
    return cache / "projects" / key


def _plant_journal(
    cache: Path, root: Path, files: dict[str, tuple[bytes, int]], *, journal_mode: int = 0o600
) -> Path:
    """A journal that says "restore these files"; folders 0700, as filid makes them."""
    directory = _journal_dir(cache, root)
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    for folder in (cache, cache / "projects", directory):
        os.chmod(folder, 0o700)
    lines = [{"t": "begin", "v": 1, "root": os.path.realpath(root)}]
    for path, (content, mode) in files.items():
        lines.append(
            {
                "t": "file",
                "path": path,
                "new": None,
                "before": base64.b64encode(content).decode(),
                "mode": mode,
            }
        )
    journal = directory / JOURNAL_NAME
    journal.write_bytes(b"".join(_record_line(line) for line in lines))
    os.chmod(journal, journal_mode)
    return journal


def _cache_env(cache: Path) -> dict[str, str]:
    return {**os.environ, "FILID_CACHE_DIR": str(cache)}


needs_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown to another user needs root"
)


@needs_root
def test_a_journal_planted_by_another_user_is_never_restored(
    make_project: ProjectFactory, tmp_path: Path
) -> None:
    root = make_project(DEEP)
    cache = tmp_path / "shared-cache"
    _plant_journal(cache, root, {"src/pwned.ts": (b"evil\n", 0o644)})
    for folder, _, names in os.walk(cache):
        os.chown(folder, 4242, 4242)
        for name in names:
            os.chown(Path(folder) / name, 4242, 4242)
    done = run_filid("check", ".", cwd=root, env=_cache_env(cache))
    assert done.returncode == 1, done.stderr
    assert not (root / "src/pwned.ts").exists()
    notes = [line for line in done.stderr.splitlines() if "another user" in line]
    assert len(notes) == 1 and "uid 4242" in notes[0]


def test_a_journal_in_a_cache_others_can_write_is_never_restored(
    make_project: ProjectFactory, tmp_path: Path
) -> None:
    root = make_project(DEEP)
    cache = tmp_path / "tmp-cache"
    _plant_journal(cache, root, {"src/pwned.ts": (b"evil\n", 0o644)})
    os.chmod(cache, 0o777)
    done = run_filid("check", ".", cwd=root, env=_cache_env(cache))
    assert done.returncode == 1, done.stderr
    assert not (root / "src/pwned.ts").exists()
    assert "others can write" in done.stderr


def test_a_project_folder_others_can_write_is_never_trusted(
    make_project: ProjectFactory, tmp_path: Path
) -> None:
    root = make_project(DEEP)
    cache = tmp_path / "cache"
    _plant_journal(cache, root, {"src/pwned.ts": (b"evil\n", 0o644)})
    os.chmod(_journal_dir(cache, root), 0o777)
    done = run_filid("check", ".", cwd=root, env=_cache_env(cache))
    assert not (root / "src/pwned.ts").exists(), done.stderr


def test_a_journal_filid_did_not_write_0600_is_never_restored(
    make_project: ProjectFactory, tmp_path: Path
) -> None:
    root = make_project(DEEP)
    cache = tmp_path / "cache"
    _plant_journal(cache, root, {"src/pwned.ts": (b"evil\n", 0o644)}, journal_mode=0o644)
    run_filid("check", ".", cwd=root, env=_cache_env(cache))
    assert not (root / "src/pwned.ts").exists()


def test_a_journal_never_writes_inside_dot_git(
    make_project: ProjectFactory, tmp_path: Path
) -> None:
    root = make_project(DEEP)
    git(root, "init", "-q")
    cache = tmp_path / "cache"
    hook = ".git/hooks/pre-commit"
    _plant_journal(cache, root, {hook: (b"#!/bin/sh\necho pwned\n", 0o755)})
    run_filid("check", ".", cwd=root, env=_cache_env(cache))
    assert not (root / hook).exists()


def test_a_restored_file_never_gets_setuid_or_group_write(
    make_project: ProjectFactory, tmp_path: Path
) -> None:
    root = make_project(DEEP)
    cache = tmp_path / "cache"
    _plant_journal(
        cache, root, {"bin/tool.sh": (b"#!/bin/sh\n", 0o6777), "src/open.ts": (b"x\n", 0o666)}
    )
    run_filid("check", ".", cwd=root, env=_cache_env(cache))
    assert stat.S_IMODE(os.lstat(root / "bin/tool.sh").st_mode) == 0o755
    assert stat.S_IMODE(os.lstat(root / "src/open.ts").st_mode) == 0o644


def test_a_restored_folder_never_gets_the_sticky_bit_or_group_write(tmp_path: Path) -> None:
    from filid.store.restore import restore_records

    root = tmp_path / "p"
    root.mkdir()
    restore_records(root, [{"t": "rmdir", "path": "gone", "mode": 0o1777}])
    assert stat.S_IMODE(os.lstat(root / "gone").st_mode) == 0o755


def test_a_cache_inside_the_enclosing_checkout_is_never_trusted(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    root = checkout / "web"
    write_files(root, DEEP)
    git(checkout, "init", "-q")
    # The pull request commits a cache folder (and journal) elsewhere in the checkout; the
    # CI job points FILID_CACHE_DIR there (a cache step restored into the workspace).
    cache = checkout / ".filid-cache"
    _plant_journal(cache, root, {"src/pwned.ts": (b"evil\n", 0o644)})
    done = run_filid("check", ".", cwd=root, env=_cache_env(cache))
    assert done.returncode == 1, done.stderr
    assert not (root / "src/pwned.ts").exists()


def test_no_cache_is_written_inside_the_enclosing_checkout(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    root = checkout / "web"
    write_files(root, DEEP)
    git(checkout, "init", "-q")
    cache = checkout / ".filid-cache"
    done = run_filid("check", ".", cwd=root, env=_cache_env(cache))
    assert done.returncode == 1, done.stderr
    assert not (cache / "projects").exists()


def test_a_cache_in_a_separate_repository_above_the_project_is_used(tmp_path: Path) -> None:
    # A home folder kept in git does not contain the project's own repository's files.
    home = tmp_path / "home"
    root = home / "code" / "shop"
    write_files(root, DEEP)
    git(home, "init", "-q")
    git(root, "init", "-q")
    cache = home / ".cache" / "filid"
    done = run_filid("check", ".", cwd=root, env=_cache_env(cache))
    assert done.returncode == 1, done.stderr
    assert (cache / "projects").is_dir() and done.stderr == ""


@needs_root
def test_a_signing_secret_planted_by_another_user_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hmac
    import marshal

    from filid.store.sealed import MAGIC, read_sealed

    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    secret = b"k" * 32
    (cache / "secret").write_bytes(secret)
    os.chmod(cache / "secret", 0o600)
    os.chown(cache / "secret", 4242, 4242)
    monkeypatch.setenv("FILID_CACHE_DIR", str(cache))
    target = cache / "forged.marshal"
    payload = marshal.dumps({"forged": True})
    target.write_bytes(MAGIC + hmac.new(secret, payload, hashlib.sha256).digest() + payload)
    assert read_sealed(target) is None


@pytest.mark.parametrize("first, second", [("outer", "inner"), ("inner", "outer")])
def test_fixes_on_nested_roots_never_run_at_once(tmp_path: Path, first: str, second: str) -> None:
    from filid.model.errors import FixError
    from filid.store.journal import fix_transaction

    roots = {"outer": tmp_path / "repo", "inner": tmp_path / "repo" / "web"}
    roots["inner"].mkdir(parents=True)
    # A lock held by another process: a child holds the first fix's lock.
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from pathlib import Path\n"
            "from filid.store.journal import fix_transaction\n"
            "with fix_transaction(Path(sys.argv[1])):\n"
            "    print('held', flush=True)\n"
            "    time.sleep(60)\n",
            str(roots[first]),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with (
            pytest.raises(FixError, match="another filid fix is running"),
            fix_transaction(roots[second]),
        ):
            pass
    finally:
        holder.kill()
        holder.wait()
    with fix_transaction(roots[second]):  # free again once the first fix is gone
        pass


# --- One escaping module: names never become code, headers or commands -------------------

HOSTILE_SPECIFIERS = [
    "./b';require('x');'",
    './b";require("x");"',
    "./b\\';require('x');//",
    "./b\nrequire('x')",
    "./b\u2028require('x')",
    "./b\u202e",
    "./b`${require('x')}`*/",
]


@pytest.mark.parametrize("specifier", HOSTILE_SPECIFIERS)
@pytest.mark.parametrize("quote", ["'", '"'])
def test_a_name_in_a_generated_barrel_stays_one_string_literal(specifier: str, quote: str) -> None:
    from filid.fix.barrel import export_lines
    from filid.parse.grammar import toolkit_for

    line = export_lines(["b"], [], specifier, quote)[0]
    tree = toolkit_for("index.ts").parser.parse(line.encode("utf-8"))
    statements = tree.root_node.children
    assert [s.type for s in statements] == ["export_statement"], line
    assert not tree.root_node.has_error, line
    source = statements[0].child_by_field_name("source")
    assert source is not None
    # The literal means exactly the name: evaluated by node, it is the same string.
    assert json.loads(_js_string_value(source.text.decode("utf-8"))) == specifier


def _js_string_value(literal: str) -> str:
    """The value of a JS string literal as JSON, by node when present, else by Python."""
    node = _node()
    if node is None:
        import ast

        return json.dumps(ast.literal_eval(literal))
    done = subprocess.run(
        [node, "-e", f"process.stdout.write(JSON.stringify({literal}))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def _node() -> str | None:
    import shutil

    return shutil.which("node")


DIFF_NAMES = [
    "src/x\nrename to .husky/pre-commit",
    "src/é.ts",
    'src/q"uote.ts',
    "src/back\\slash.ts",
    "src/tab\there.ts",
]


@pytest.mark.parametrize("name", DIFF_NAMES)
def test_git_apply_of_a_diff_creates_exactly_the_named_file(tmp_path: Path, name: str) -> None:
    from filid.fix.apply import file_diff

    diff = "".join(file_diff(name, None, b"export const a = 1;\n"))
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (tmp_path / "fix.diff").write_text(diff, encoding="utf-8")
    subprocess.run(["git", "apply", str(tmp_path / "fix.diff")], cwd=repo, check=True)
    created = sorted(
        p.relative_to(repo).as_posix()
        for p in repo.rglob("*")
        if p.is_file() and ".git" not in p.parts
    )
    assert created == [name]
    assert not (repo / ".husky").exists()


def test_a_rename_header_cannot_be_forged_by_a_name(tmp_path: Path) -> None:
    from filid.fix.preview import diff_trees

    before, after = tmp_path / "before", tmp_path / "after"
    write_files(before, {"a.ts": "x\n"})
    hostile = "b.ts\nrename to .husky/pre-commit"
    write_files(after, {hostile: "x\n"})
    diff = diff_trees(before, after, ["a.ts"])
    assert "\nrename to .husky/pre-commit\n" not in diff
    repo = tmp_path / "repo"
    write_files(repo, {"a.ts": "x\n"})
    git(repo, "init", "-q")
    (tmp_path / "fix.diff").write_text(diff, encoding="utf-8")
    subprocess.run(["git", "apply", str(tmp_path / "fix.diff")], cwd=repo, check=True)
    assert (repo / hostile).is_file() and not (repo / ".husky").exists()


def test_the_mcp_preview_splits_a_diff_of_hostile_names_and_contents() -> None:
    from filid.fix.apply import file_diff
    from filid.mcp.fix_plans import split_diff

    names = ["src/é.ts", "src/x\ny.ts", "src/form\x0cfeed.ts"]
    diff = "".join("".join(file_diff(name, b"a\n", "a\x0cb\u2028c\n".encode())) for name in names)
    assert [chunk["file"] for chunk in split_diff(diff)] == names


def _hostile_project(make_project: ProjectFactory) -> Path:
    return make_project(
        {
            **DEEP,
            f"src/{NASTY}/index.ts": "import { login } from '../auth/login';\n"
            "export const m = login;\n",
            f"src/{NASTY}/deep.ts": "export const d = 1;\n",
        }
    )


COMMANDS = [
    ("check", "--format", "text"),
    ("check", "--format", "github"),
    ("drift",),
    ("drift", "--format", "text", "--plan"),
    ("scan",),
    ("scan", "--format", "mermaid"),
    ("graph", "--format", "dot"),
    ("graph", "--format", "mermaid"),
    ("graph", "--level", "file", "--format", "dot"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_text_output_shows_hostile_names_escaped(
    make_project: ProjectFactory, command: tuple[str, ...]
) -> None:
    root = _hostile_project(make_project)
    done = run_filid(*command, ".", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    out = done.stdout
    assert "\x1b" not in out and "\u202e" not in out
    forged = [line for line in out.splitlines() if line.lstrip().startswith("::add-mask::")]
    forged += [line for line in out.splitlines() if line.lstrip().startswith("::error::forged")]
    assert forged == []


@pytest.mark.parametrize(
    "command",
    [("check", "--format", "json"), ("scan", "--format", "json"), ("graph", "--level", "file")],
    ids=" ".join,
)
def test_json_outputs_keep_hostile_names_exact(
    make_project: ProjectFactory, command: tuple[str, ...]
) -> None:
    root = _hostile_project(make_project)
    done = run_filid(*command, ".", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    strings = set(_strings(json.loads(done.stdout)))
    assert any(text.startswith(f"src/{NASTY}") for text in strings)


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def test_lca_text_shows_hostile_names_escaped(make_project: ProjectFactory) -> None:
    root = make_project(
        {
            f"{NASTY}/a/index.ts": "export const a = 1;\n",
            f"{NASTY}/b/index.ts": "export const b = 1;\n",
            f"{NASTY}/index.ts": "export {};\n",
        }
    )
    done = run_filid("lca", f"{NASTY}/a", f"{NASTY}/b", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\u202e" not in done.stdout
    assert not any(line.startswith("::") for line in done.stdout.splitlines())


def test_mermaid_labels_show_bidi_overrides_and_html_entities() -> None:
    from filid.report.mermaid import render_graph

    text = render_graph(["src/&lt;img&gt;", "src/a\u202egpj"], [])
    assert "\u202e" not in text and "\\u202e" in text
    assert "&lt;" not in text  # an entity in a name is shown, not decoded by the renderer


# --- Linear-time matching -----------------------------------------------------------------

CATASTROPHIC_GLOB = "src/" + "a*" * 25 + "b"
LONG_NAME = "a" * 200


def test_an_exempt_glob_that_backtracks_ends(make_project: ProjectFactory) -> None:
    root = make_project(
        {
            **DEEP,
            f"src/{LONG_NAME}/index.ts": "import { login } from '../auth/login';\n"
            "export const x = login;\n",
        },
        config={
            "version": "2.0",
            "rules": {"external-import-boundary": {"exempt": [CATASTROPHIC_GLOB]}},
        },
    )
    done = run_filid("check", ".", "--no-cache", "--format", "json", cwd=root)
    assert done.returncode == 1, done.stderr
    paths = {v["path"] for v in json.loads(done.stdout)["result"]["violations"]}
    assert f"src/{LONG_NAME}/index.ts" in paths


def test_a_generated_paths_glob_that_backtracks_ends(make_project: ProjectFactory) -> None:
    root = make_project(
        {**DEEP, f"src/{LONG_NAME}.ts": "export {};\n"},
        config={"version": "2.0", "structure": {"generatedPaths": [CATASTROPHIC_GLOB]}},
    )
    done = run_filid("check", ".", "--no-cache", cwd=root)
    assert done.returncode == 1, done.stderr


def test_a_detail_md_consumers_glob_that_backtracks_ends(make_project: ProjectFactory) -> None:
    files = {
        **DEEP,
        "src/auth/DETAIL.md": "# auth\n\n## Boundary Exemptions\n\n"
        "### login.ts — legacy\n\n"
        f"- **Direct import**: allowed\n- **Consumers**: {CATASTROPHIC_GLOB}, src/app/**\n"
        "- **Reason**: legacy\n",
        f"src/{LONG_NAME}/index.ts": "import { login } from '../auth/login';\n"
        "export const x = login;\n",
    }
    root = make_project(files)
    done = run_filid("check", ".", "--no-cache", "--format", "json", cwd=root)
    assert done.returncode == 1, done.stderr
    paths = {v["path"] for v in json.loads(done.stdout)["result"]["violations"]}
    assert f"src/{LONG_NAME}/index.ts" in paths
    assert "src/app/index.ts" not in paths  # the exemption itself is read


def test_glob_matching_ends_on_the_catastrophic_pattern() -> None:
    script = (
        "from filid.config.globs import matches_any_glob\n"
        f"print(matches_any_glob('src/{LONG_NAME}', [{CATASTROPHIC_GLOB!r}]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG, check=True
    )
    assert done.stdout.strip() == "False"


def test_a_tsconfig_include_glob_that_backtracks_ends() -> None:
    script = (
        "from filid.fix.protected import _included\n"
        f"print(_included('src/{LONG_NAME}.js', '.', ('src/**' + '*a' * 25 + '.ts',)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG, check=True
    )
    assert done.stdout.strip() == "False"


def test_a_naming_pattern_that_backtracks_ends(make_project: ProjectFactory) -> None:
    root = make_project(
        {**DEEP, f"src/{'a' * 60}!/index.ts": "export {};\n"},
        config={
            "version": "2.0",
            "structure": {"namingPatterns": ["^(a+)+$"]},
            "rules": {"naming-convention": {"enabled": True}},  # off unless enabled (FCA 1.0)
        },
    )
    done = run_filid("check", ".", "--no-cache", "--format", "json", cwd=root)
    assert done.returncode == 1, done.stderr
    rules = [v["ruleId"] for v in json.loads(done.stdout)["result"]["violations"]]
    assert "naming-convention" in rules


@pytest.mark.parametrize("pattern", ["^(?=x)", "^(a)\\1$"])
def test_a_naming_pattern_no_linear_engine_can_run_is_a_config_error(
    make_project: ProjectFactory, pattern: str
) -> None:
    root = make_project(DEEP, config={"version": "2.0", "structure": {"namingPatterns": [pattern]}})
    done = run_filid("check", ".", "--no-cache", cwd=root)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "structure.namingPatterns[0]" in lines[0], lines


# --- --new-since -------------------------------------------------------------------------


_DOCUMENT_RULES = ("intent-document-contract", "detail-document-contract")


def _repo_with_base(tmp_path: Path, project: str, extra: dict[str, str]) -> tuple[Path, str]:
    repo = tmp_path / "repo"
    # The PR's new folder is a new fractal node: leave its INTENT.md/DETAIL.md findings out,
    # so the sets below hold exactly the boundary findings whose newness is in question.
    off = {"enabled": False}
    config = {"version": "2.0", "rules": dict.fromkeys(_DOCUMENT_RULES, off)}
    write_files(repo / project, {**DEEP, ".filid/config.json": json.dumps(config)})
    write_files(repo, extra)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    base = git(repo, "rev-parse", "HEAD")
    write_files(repo / project, {"src/new/index.ts": "import { login } from '../auth/login';\n"})
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "pr")
    return repo, base


@pytest.mark.parametrize("project", ["frontend", "-web"])
def test_new_since_works_for_a_project_in_a_sub_folder(tmp_path: Path, project: str) -> None:
    repo, base = _repo_with_base(tmp_path, project, {})
    done = run_filid("check", "--new-since", base, "--format", "json", "--", project, cwd=repo)
    assert done.returncode == 1, done.stderr
    paths = {v["path"] for v in json.loads(done.stdout)["result"]["violations"]}
    assert paths == {"src/new/index.ts"}


def test_new_since_does_not_honour_export_ignore(tmp_path: Path) -> None:
    repo, base = _repo_with_base(tmp_path, ".", {".gitattributes": "src/app export-ignore\n"})
    done = run_filid("check", ".", "--new-since", base, "--format", "json", cwd=repo)
    assert done.returncode == 1, done.stderr
    paths = {v["path"] for v in json.loads(done.stdout)["result"]["violations"]}
    assert paths == {"src/new/index.ts"}  # src/app's violation is old, not new


# --- Lows ---------------------------------------------------------------------------------


def test_diff_skips_a_fifo_in_an_ignored_dot_folder(make_project: ProjectFactory) -> None:
    root = make_project(DEEP)
    (root / ".cache").mkdir()
    os.mkfifo(root / ".cache" / "pipe")
    done = run_filid("check", ".", "--fix", "--diff", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    assert "+import { login } from '../auth';" in done.stdout


def test_diff_skips_a_socket_under_the_root(make_project: ProjectFactory, tmp_path: Path) -> None:
    root = make_project(DEEP)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    short = Path("/tmp") / f"filid-sock-{os.getpid()}"
    short.mkdir(exist_ok=True)
    try:
        server.bind(str(short / "s"))
        os.rename(short / "s", root / "src" / "app.sock")
        done = run_filid("check", ".", "--fix", "--diff", cwd=root)
    finally:
        server.close()
        short.rmdir()
    assert done.returncode in (0, 1), done.stderr
    assert "+import { login } from '../auth';" in done.stdout


def test_the_fix_planner_never_opens_a_fifo_config(make_project: ProjectFactory) -> None:
    root = make_project(DEEP)
    os.mkfifo(root / "vite.config.ts")
    done = run_filid("check", ".", "--fix", "--diff", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    done = run_filid("check", ".", "--fix", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    assert "from '../auth';" in (root / "src/app/index.ts").read_text(encoding="utf-8")


LONG_NUMBER = "1" * 5000


@pytest.mark.parametrize(
    "path, text, args",
    [
        (".filid/config.json", f'{{"version": "2.0", "x": {LONG_NUMBER}}}', ()),
        ("tsconfig.json", f'{{"compilerOptions": {{"x": {LONG_NUMBER}}}}}', ()),
        ("package.json", f'{{"name": "x", "v": {LONG_NUMBER}}}', ()),
        ("known.json", f'{{"version": {LONG_NUMBER}}}', ("--baseline", "known.json")),
    ],
    ids=["config", "tsconfig", "manifest", "baseline"],
)
def test_a_5000_digit_json_number_is_an_input_error(
    make_project: ProjectFactory, path: str, text: str, args: tuple[str, ...]
) -> None:
    root = make_project({**DEEP, path: text})
    done = run_filid("check", ".", "--no-cache", *args, cwd=root)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and path in lines[0] and "too long" in lines[0], lines


def test_one_backslash_in_a_name_does_not_abort_the_fix_run(make_project: ProjectFactory) -> None:
    odd = "src/ui\\kit/index.ts"
    root = make_project(
        {**DEEP, odd: "import { login } from '../auth/login';\nexport const k = login;\n"}
    )
    done = run_filid("check", ".", "--fix", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    for path in ("src/app/index.ts", odd):
        assert "from '../auth';" in (root / path).read_text(encoding="utf-8"), path


def test_a_journal_restores_a_file_whose_name_has_a_backslash(tmp_path: Path) -> None:
    from filid.store.restore import restore_records

    root = tmp_path / "p"
    root.mkdir()
    recovery = restore_records(
        root,
        [{"t": "file", "path": "a\\b.ts", "before": base64.b64encode(b"x").decode(), "mode": 420}],
    )
    assert recovery.problems == () and (root / "a\\b.ts").read_bytes() == b"x"


def test_init_shows_hostile_folder_names_escaped_and_writes_literal_globs(
    make_project: ProjectFactory,
) -> None:
    deep = {path: text for path, text in DEEP.items() if not path.startswith(".filid/")}
    root = make_project(
        {
            **deep,
            f"{NASTY}/examples/demo.ts": "export const d = 1;\n",
            "a[b]/generated/client.ts": "export const c = 1;\n",
        }
    )
    done = run_filid("init", ".", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\u202e" not in done.stdout
    assert not any(line.lstrip().startswith("::") for line in done.stdout.splitlines())
    written = json.loads((root / ".filid/config.json").read_text(encoding="utf-8"))
    globs = json.dumps(written)
    # Example folders are written by name (structure.additionalExcludedDirectories); a
    # generated folder is written as a glob, where a[b] must stay a name, not a character class.
    assert "a\\\\[b\\\\]/generated/**" in globs


def test_build_configs_filid_may_not_read_leave_the_claims_and_exit_zero(
    make_project: ProjectFactory,
) -> None:
    # The undeclared claims read a Bazel BUILD file, a Prisma schema, a Jest config and a UMD
    # importer. One over the size limit, or a link out of the project, says nothing: it is
    # no input error (exit 2) and no traceback, and the broken imports stay claimed.
    root = make_project(
        {
            "package.json": '{"name": "app"}\n',
            "WORKSPACE": "",
            "pkg/BUILD.bazel": "x = 1\n" * 60_000,  # over the 256 KiB read limit
            "pkg/index.ts": "import { a } from './gen/missing';\nexport { a };\n",
            "index.ts": "import { b } from './client';\nexport { b };\n",
            "jest.config.js": "module.exports = { moduleNameMapper: { x: 'y' } };\n" * 12_000,
        }
    )
    (root / "schema.prisma").symlink_to("/etc/hostname")
    done = run_filid("check", ".", "--format", "json", "--no-cache", "--fail-on", "never", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    errors = sorted(
        f"{v['ruleId']} {v['location']['file']}"
        for v in json.loads(done.stdout)["result"]["violations"]
        if v["severity"] == "error"
    )
    assert errors == ["unresolved-import index.ts", "unresolved-import pkg/index.ts"]


def _claims_and_exit(root: Path) -> tuple[int, list[str]]:
    done = run_filid("check", ".", "--format", "json", "--no-cache", "--fail-on", "never", cwd=root)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    found = sorted(
        f"{v['ruleId']} {v['location']['file']}"
        for v in json.loads(done.stdout)["result"]["violations"]
        if v["severity"] == "error"
    )
    return done.returncode, found


def test_a_very_long_relative_import_is_claimed_without_a_crash(
    make_project: ProjectFactory,
) -> None:
    # 1,500 folders deep: the Bazel package walk once recursed per folder (exit 3)
    specifier = "./" + "a/" * 1500 + "x"
    root = make_project(
        {"package.json": '{"name": "r"}\n', "index.ts": f"import {{ x }} from '{specifier}';\n"}
    )
    assert _claims_and_exit(root) == (0, ["unresolved-import index.ts"])


def test_consulted_configs_that_cannot_be_read_leave_the_claims(
    make_project: ProjectFactory,
) -> None:
    root = make_project(
        {
            "package.json": (
                '{"name": "r", "private": true, "workspaces": ["packages/*"],'
                ' "scripts": {"build": "tsc -p tsconfig.build.json"}}\n'
            ),
            # a Jest mapper key that is no text (a lone surrogate), for a test-only shim
            "packages/a/package.json": '{"name": "a", "exports": {".": "./index.ts"}}\n',
            "packages/a/index.ts": "export const a = 1;\n",
            "packages/a/deep.ts": "export const d = 1;\n",
            "packages/b/package.json": (
                '{"name": "b", "dependencies": {"a": "*"},'
                ' "jest": {"moduleNameMapper": {"\\ud800": "x"}}}\n'
            ),
            "packages/b/shim.ts": "export { d } from 'a/deep';\n",
            "packages/b/x.test.ts": "import { d } from './shim';\ntest('d', () => d);\n",
            # an Angular target program that is not JSON
            "angular.json": (
                '{"projects": {"app": {"architect": {"build": {"options":'
                ' {"tsConfig": "app-config.json", "assets": ["src/assets"]}}}}}}\n'
            ),
            "app-config.json": "{ this is not json",
            "tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
            "src/assets/snippet.ts": "import { n } from './nothing';\nexport { n };\n",
            # a `tsc -p` config whose reference is not JSON
            "tsconfig.build.json": (
                '{"compilerOptions": {"rootDir": "src", "outDir": "dist"}, "files": [],'
                ' "references": [{"path": "./broken.json"}]}\n'
            ),
            "broken.json": "{ nope",
            "src/index.ts": "require('./missing');\n",
        }
    )
    assert _claims_and_exit(root) == (
        0,
        [
            "unpublished-package-import packages/b/shim.ts",
            "unresolved-import src/assets/snippet.ts",
            "unresolved-import src/index.ts",
        ],
    )


def test_a_bazel_load_never_reads_outside_the_project(
    make_project: ProjectFactory, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.bzl").write_text(
        "def _impl(ctx):\n    ctx.actions.declare_file(ctx.attr.name + '.ts')\n"
        "gen = rule(implementation = _impl)\n",
        encoding="utf-8",
    )
    build = f'load("//{outside}:x.bzl", "gen")\ngen(name = "tests")\n'
    root = make_project(
        {
            "package.json": '{"name": "r"}\n',
            "MODULE.bazel": "",
            "pkg/BUILD.bazel": build,
            "pkg/index.ts": "import './tests';\n",
            "link/BUILD.bazel": 'load(":lnk/x.bzl", "gen")\ngen(name = "tests")\n',
            "link/index.ts": "import './tests';\n",
        }
    )
    (root / "link/lnk").symlink_to(outside)
    assert _claims_and_exit(root) == (
        0,
        ["unresolved-import link/index.ts", "unresolved-import pkg/index.ts"],
    )
