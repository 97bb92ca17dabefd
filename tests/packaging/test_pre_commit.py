"""pre-commit end to end: the hooks of .pre-commit-hooks.yaml, installed by pre-commit itself.

pre-commit installs a hook repository from git, and ``try-repo`` takes only tracked and staged
changes of it. So the tests first snapshot this checkout (tracked and untracked, minus what
.gitignore excludes) into a throw-away git repository: the hooks are then built from exactly
the working tree under test. The ``run`` tests share one PRE_COMMIT_HOME per module, so
pre-commit builds filid's environment once; ``try-repo`` always uses a fresh store of its own
and builds once more. Both builds pip-install filid (tens of seconds each).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import write_files
from tests.packaging.checkout import copy_checkout

REPO = Path(__file__).resolve().parents[2]
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]
FILID = [sys.executable, "-m", "filid"]

pytestmark = pytest.mark.slow

CONTRACT = "# {name}\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"

# src/billing has a boundary document but no index.ts (module-entry-point, a warning, with a
# safe fix), and src/orders reaches into src/billing's internals (external-import-boundary, an
# error). Every other file is clean.
BASE = {
    "package.json": '{"name": "shop", "private": true}\n',
    "tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
    "CLAUDE.md": CONTRACT.format(name="Shop"),
    "src/billing/CLAUDE.md": CONTRACT.format(name="Billing"),
    "src/billing/billing.ts": "export function charge(): number {\n  return 1;\n}\n",
    "src/orders/CLAUDE.md": CONTRACT.format(name="Orders"),
    "src/orders/index.ts": "export { order } from './orders';\n",
    "src/shipping/CLAUDE.md": CONTRACT.format(name="Shipping"),
    "src/shipping/index.ts": "export { ship } from './shipping';\n",
    "src/shipping/shipping.ts": "export function ship(): string {\n  return 'boat';\n}\n",
}
DEEP_IMPORT = (
    "import { charge } from '../billing/billing';\n\n"
    "export function order(): number {\n  return charge();\n}\n"
)
CLEAN_IMPORT = (
    "import { charge } from '../billing';\n\n"
    "export function order(): number {\n  return charge();\n}\n"
)
BILLING_INDEX = "export { charge } from './billing';\n"


def _git_env(home: Path) -> dict[str, str]:
    """Identity and an empty global config, so the user's git settings cannot interfere."""
    config = home / "gitconfig"
    config.touch()
    return {
        **os.environ,
        "GIT_AUTHOR_NAME": "filid tests",
        "GIT_AUTHOR_EMAIL": "tests@filid.invalid",
        "GIT_COMMITTER_NAME": "filid tests",
        "GIT_COMMITTER_EMAIL": "tests@filid.invalid",
        "GIT_CONFIG_GLOBAL": str(config),
        "GIT_CONFIG_NOSYSTEM": "1",
    }


def _git(cwd: Path, env: Mapping[str, str], *args: str) -> str:
    completed = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return completed.stdout


@dataclass(frozen=True)
class HookRepo:
    """A committed snapshot of this checkout, and the environment to run pre-commit in."""

    path: Path
    rev: str
    env: dict[str, str]


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> HookRepo:
    base = tmp_path_factory.mktemp("pre-commit")
    env = _git_env(base)
    env["PRE_COMMIT_HOME"] = str(base / "pre-commit-home")
    snapshot = copy_checkout(base / "filid")
    _git(snapshot, env, "init", "-q")
    _git(snapshot, env, "add", "-A")
    _git(snapshot, env, "commit", "-q", "--no-gpg-sign", "-m", "snapshot")
    rev = _git(snapshot, env, "rev-parse", "HEAD").strip()
    return HookRepo(path=snapshot, rev=rev, env=env)


def _project(root: Path, env: Mapping[str, str], files: Mapping[str, str]) -> Path:
    root.mkdir()
    write_files(root, files)
    _git(root, env, "init", "-q")
    _git(root, env, "add", "-A")
    return root


def _config(root: Path, hooks: HookRepo, args: Sequence[str] | None = None) -> None:
    lines = ["repos:", f"  - repo: {hooks.path}", f"    rev: {hooks.rev}", "    hooks:"]
    for hook_id in ("filid", "filid-fix"):
        lines.append(f"      - id: {hook_id}")
        if args is not None:
            lines.append(f"        args: [{', '.join(args)}]")
    (root / ".pre-commit-config.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _pre_commit(root: Path, env: Mapping[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PRE_COMMIT, *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_try_repo_fails_on_a_deep_import(hook_repo: HookRepo, tmp_path: Path) -> None:
    root = _project(tmp_path / "shop", hook_repo.env, {**BASE, "src/orders/orders.ts": DEEP_IMPORT})
    completed = _pre_commit(
        root, hook_repo.env, "try-repo", str(hook_repo.path), "filid",
        "--files", "src/orders/orders.ts", "src/orders/index.ts",
    )  # fmt: skip
    output = completed.stdout + completed.stderr
    assert completed.returncode == 1, output
    assert "external-import-boundary" in output
    assert "src/orders/orders.ts" in output


def test_hook_fails_on_violations_of_staged_files_only(hook_repo: HookRepo, tmp_path: Path) -> None:
    root = _project(tmp_path / "shop", hook_repo.env, {**BASE, "src/orders/orders.ts": DEEP_IMPORT})
    _config(root, hook_repo)

    failing = _pre_commit(root, hook_repo.env, "run", "filid", "--files", "src/orders/orders.ts")
    output = failing.stdout + failing.stderr
    assert failing.returncode == 1, output
    assert "external-import-boundary" in output

    # A commit that touches only src/shipping is not blocked by src/orders' problem.
    unrelated = _pre_commit(
        root, hook_repo.env, "run", "filid", "--files", "src/shipping/shipping.ts"
    )
    assert unrelated.returncode == 0, unrelated.stdout + unrelated.stderr

    # Files the regex does not select never reach filid: it runs (always_run, for deletions)
    # with no file and nothing deleted, and passes at once.
    (root / "notes.txt").write_text("hello\n", encoding="utf-8")
    skipped = _pre_commit(root, hook_repo.env, "run", "filid", "--files", "notes.txt")
    assert skipped.returncode == 0, skipped.stdout + skipped.stderr
    assert "external-import-boundary" not in skipped.stdout


def test_old_findings_fail_a_comment_edit_until_baselined_as_the_hook_says(
    hook_repo: HookRepo, tmp_path: Path
) -> None:
    root = _project(tmp_path / "shop", hook_repo.env, {**BASE, "src/orders/orders.ts": DEEP_IMPORT})
    _git(root, hook_repo.env, "commit", "-q", "--no-gpg-sign", "-m", "old findings")
    orders = root / "src/orders/orders.ts"
    orders.write_text("// a comment\n" + DEEP_IMPORT, encoding="utf-8")
    _git(root, hook_repo.env, "add", "src/orders/orders.ts")
    _config(root, hook_repo)

    failing = _pre_commit(root, hook_repo.env, "run", "filid", "--files", "src/orders/orders.ts")
    output = failing.stdout + failing.stderr
    assert failing.returncode == 1, output
    assert "--write-baseline .filid/baseline.json" in output
    assert "args: [--baseline, .filid/baseline.json, ., --]" in output

    # What the hint says, done: the README's baseline variant of the hook.
    recorded = subprocess.run(
        [*FILID, "check", ".", "--write-baseline", ".filid/baseline.json", "--exit-zero"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert recorded.returncode == 0, recorded.stderr
    _config(root, hook_repo, args=["--baseline", ".filid/baseline.json", ".", "--"])
    passing = _pre_commit(root, hook_repo.env, "run", "filid", "--files", "src/orders/orders.ts")
    assert passing.returncode == 0, passing.stdout + passing.stderr

    # A new finding still fails, without the hint (the baseline is in use).
    (root / "src/shipping/shipping.ts").write_text(
        "import { charge } from '../billing/billing';\nexport const ship = charge;\n"
    )
    _git(root, hook_repo.env, "add", "-A")
    new = _pre_commit(root, hook_repo.env, "run", "filid", "--files", "src/shipping/shipping.ts")
    assert new.returncode == 1, new.stdout + new.stderr
    assert "external-import-boundary" in new.stdout + new.stderr
    assert "--write-baseline" not in new.stdout + new.stderr


def test_monorepo_subfolder_is_given_as_the_first_argument(
    hook_repo: HookRepo, tmp_path: Path
) -> None:
    files = {f"frontend/{rel}": text for rel, text in BASE.items()}
    files["frontend/src/orders/orders.ts"] = DEEP_IMPORT
    files["tools/deploy.js"] = "console.log('deploy');\n"
    root = _project(tmp_path / "mono", hook_repo.env, files)
    _config(root, hook_repo, args=["frontend", "--"])

    failing = _pre_commit(
        root, hook_repo.env, "run", "filid", "--files", "frontend/src/orders/orders.ts"
    )
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "external-import-boundary" in failing.stdout

    # A staged file outside the project root is none of filid's business.
    outside = _pre_commit(root, hook_repo.env, "run", "filid", "--files", "tools/deploy.js")
    assert outside.returncode == 0, outside.stdout + outside.stderr


def test_hook_passes_on_a_clean_project(hook_repo: HookRepo, tmp_path: Path) -> None:
    files = {
        **BASE,
        "src/orders/orders.ts": CLEAN_IMPORT,
        "src/billing/index.ts": BILLING_INDEX,
    }
    root = _project(tmp_path / "shop", hook_repo.env, files)
    _config(root, hook_repo, args=["--fail-on", "info", ".", "--"])
    completed = _pre_commit(root, hook_repo.env, "run", "filid", "--all-files")
    assert completed.returncode == 0, completed.stdout + completed.stderr


def _fix_project(hook_repo: HookRepo, root: Path) -> Path:
    files = {**BASE, "src/orders/orders.ts": CLEAN_IMPORT}
    root = _project(root, hook_repo.env, files)
    _git(root, hook_repo.env, "commit", "-q", "--no-gpg-sign", "--no-verify", "-m", "start")
    _config(root, hook_repo, args=["--fail-on", "warning", ".", "--"])
    return root


STAGED = ("--files", "src/billing/billing.ts")


def test_fix_hook_creates_the_entry_point_then_the_check_passes(
    hook_repo: HookRepo, tmp_path: Path
) -> None:
    root = _fix_project(hook_repo, tmp_path / "shop")

    before = _pre_commit(root, hook_repo.env, "run", "filid", *STAGED)
    assert before.returncode == 1, before.stdout + before.stderr
    assert "module-entry-point" in before.stdout

    fixed = _pre_commit(root, hook_repo.env, "run", "filid-fix", *STAGED)
    created = root / "src" / "billing" / "index.ts"
    assert created.is_file(), fixed.stdout + fixed.stderr
    assert "charge" in created.read_text(encoding="utf-8")

    _git(root, hook_repo.env, "add", "-A")
    after = _pre_commit(root, hook_repo.env, "run", "filid", *STAGED, "src/billing/index.ts")
    assert after.returncode == 0, after.stdout + after.stderr


def test_fix_hook_fails_when_it_created_a_file(hook_repo: HookRepo, tmp_path: Path) -> None:
    root = _fix_project(hook_repo, tmp_path / "shop")
    fixed = _pre_commit(root, hook_repo.env, "run", "filid-fix", *STAGED)
    assert (root / "src" / "billing" / "index.ts").is_file()
    # The user must review and stage the new file: the commit has to stop here.
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr


def test_staged_file_names_that_look_like_options_stay_file_names(
    hook_repo: HookRepo, tmp_path: Path
) -> None:
    # A pull request ships its own baseline (suppressing its violation) and a file named as
    # an option that would overwrite a tracked file: both must stay plain file names.
    root = _project(tmp_path / "shop", hook_repo.env, {**BASE, "src/orders/orders.ts": DEEP_IMPORT})
    baseline = subprocess.run(
        [*FILID, "check", str(root), "--no-cache", "--exit-zero", "--write-baseline",
         str(root / "bl.ts")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert baseline.returncode == 0, baseline.stderr
    app = "export const app = 1;\n"
    write_files(root, {"app.ts": app, "--baseline=bl.ts": "export {};\n",
                       "--output=app.ts": "export {};\n"})  # fmt: skip
    _git(root, hook_repo.env, "add", "-A")
    _config(root, hook_repo)
    completed = _pre_commit(root, hook_repo.env, "run", "filid", "--all-files")
    output = completed.stdout + completed.stderr
    assert completed.returncode == 1, output
    assert "external-import-boundary" in output
    assert (root / "app.ts").read_text(encoding="utf-8") == app


def test_a_commit_that_only_deletes_an_index_fails_with_the_importers_breakage(
    hook_repo: HookRepo, tmp_path: Path
) -> None:
    files = {**BASE, "src/orders/orders.ts": CLEAN_IMPORT, "src/billing/index.ts": BILLING_INDEX}
    root = _project(tmp_path / "shop", hook_repo.env, files)
    _config(root, hook_repo)
    _git(root, hook_repo.env, "add", "-A")
    _git(root, hook_repo.env, "commit", "-q", "--no-gpg-sign", "-m", "base")
    _git(root, hook_repo.env, "rm", "-q", "src/billing/index.ts")
    # The real commit path: `pre-commit run` on the staged change set, as the git hook does.
    completed = _pre_commit(
        root, hook_repo.env, "try-repo", str(hook_repo.path), "filid", "--verbose"
    )
    output = completed.stdout + completed.stderr
    assert completed.returncode == 1, output
    assert "src/orders/orders.ts:1:1: error broken-import" in output
    assert "this change deletes src/billing/index.ts" in output
    assert "src/billing/CLAUDE.md:1:1: warning module-entry-point" in output
    # Nothing older: src/shipping's files and other folders are not reported.
    assert "src/shipping" not in output

    # A commit that deletes a file nobody imports passes.
    _git(root, hook_repo.env, "reset", "-q", "--hard")
    write_files(root, {"src/shipping/unused.ts": "export const unused = 1;\n"})
    _git(root, hook_repo.env, "add", "-A")
    _git(root, hook_repo.env, "commit", "-q", "--no-gpg-sign", "-m", "unused file")
    _git(root, hook_repo.env, "rm", "-q", "src/shipping/unused.ts")
    passing = _pre_commit(root, hook_repo.env, "try-repo", str(hook_repo.path), "filid")
    assert passing.returncode == 0, passing.stdout + passing.stderr


def test_an_untracked_file_is_not_part_of_the_commit_the_hook_checks(
    hook_repo: HookRepo, tmp_path: Path
) -> None:
    # src/cart's barrel now re-exports ./extra, which imports src/shop, which imports src/cart:
    # a cycle, but extra.ts is not staged (pre-commit leaves untracked files in place), so
    # the commit holds no cycle. The hook checks the index; plain `filid check` the work tree.
    files = {
        **BASE,
        "src/orders/orders.ts": CLEAN_IMPORT,
        "src/billing/index.ts": BILLING_INDEX,
        "src/cart/CLAUDE.md": CONTRACT.format(name="Cart"),
        "src/cart/index.ts": "export { cart } from './cart';\n",
        "src/cart/cart.ts": "export const cart = 1;\n",
        "src/shop/CLAUDE.md": CONTRACT.format(name="Shop"),
        "src/shop/index.ts": "export { shop } from './shop';\n",
        "src/shop/shop.ts": "import { cart } from '../cart';\nexport const shop = () => cart;\n",
    }
    root = _project(tmp_path / "shop", hook_repo.env, files)
    _git(root, hook_repo.env, "commit", "-q", "--no-gpg-sign", "-m", "base")
    _config(root, hook_repo)
    write_files(
        root,
        {
            "src/cart/index.ts": (
                "export { cart } from './cart';\nexport { extra } from './extra';\n"
            ),
            "src/cart/extra.ts": "import { shop } from '../shop';\nexport const extra = shop;\n",
        },
    )
    _git(root, hook_repo.env, "add", "src/cart/index.ts")
    work_tree = subprocess.run(
        [*FILID, "check", ".", "--no-progress", "--", "src/cart/index.ts"],
        cwd=root, env=hook_repo.env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "circular-dependency" in work_tree.stdout, work_tree.stdout + work_tree.stderr
    hook = _pre_commit(root, hook_repo.env, "run", "filid", "--files", "src/cart/index.ts")
    assert "circular-dependency" not in hook.stdout + hook.stderr, hook.stdout + hook.stderr
