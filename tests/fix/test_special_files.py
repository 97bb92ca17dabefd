"""Files and folders another tool finds by name are never moved, renamed or given a sibling
folder by a fix: framework special files, files a script, Dockerfile or Procfile starts,
tool configurations, numbered and source-less folders (minimal copies of the cases found on
vercel/ai's examples and docs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from filid.check.project import load_project
from filid.fix.planner import plan_fixes
from filid.model.violations import FixInfo, Location, Risk, Severity, SyncActionKind, Violation
from tests.conftest import write_files

PEER = "export const x = 1;\n"


def _manifest(dependency: str | None = None, scripts: str = "") -> str:
    deps = f'"dependencies": {{"{dependency}": "1.0.0"}}, ' if dependency else ""
    return f'{{"name": "web", "private": true, {deps}"scripts": {{{scripts}}}}}\n'


def _move(path: str) -> Violation:
    folder, _, name = path.rpartition("/")
    stem = name.split(".")[0]
    target = f"{folder}/{stem}/{name}" if folder else f"{stem}/{name}"
    fix = FixInfo(SyncActionKind.MOVE, Risk.MODERATE, "move", target)
    return Violation(
        "zero-peer-file",
        Severity.WARNING,
        "peer",
        path,
        Location(file=path),
        path,
        fix=fix,
        fingerprint=f"move {path}",
    )


def _rename(folder: str, new: str) -> Violation:
    fix = FixInfo(SyncActionKind.RENAME, Risk.MODERATE, "rename", new)
    return Violation(
        "naming-convention",
        Severity.WARNING,
        "name",
        folder,
        Location(file=folder),
        folder,
        fix=fix,
        fingerprint=f"rename {folder}",
    )


def _reasons(root: Path, violations: list[Violation]) -> dict[str, str]:
    plan = plan_fixes(load_project(root, use_cache=False), violations, max_risk=Risk.MODERATE)
    return {s.violation.path: s.reason for s in plan.skipped} | {
        f.violation.path: "planned" for f in plan.fixes
    }


@pytest.mark.parametrize(
    ("framework", "path"),
    [
        ("next", "proxy.ts"),
        ("next", "middleware.ts"),
        ("next", "src/middleware.ts"),
        ("next", "instrumentation.ts"),
        ("next", "instrumentation-client.ts"),
        ("next", "mdx-components.tsx"),
        ("@sveltejs/kit", "src/hooks.server.ts"),
        ("@sveltejs/kit", "src/hooks.client.ts"),
        ("@sveltejs/kit", "src/service-worker.ts"),
        ("astro", "src/middleware.ts"),
        ("astro", "src/content.config.ts"),
        ("@solidjs/start", "src/middleware.ts"),
        ("@solidjs/start", "src/entry-client.tsx"),
        ("gatsby", "gatsby-node.ts"),
    ],
)
def test_a_framework_special_file_is_never_moved(tmp_path: Path, framework: str, path: str) -> None:
    root = write_files(
        tmp_path, {"package.json": _manifest(framework), path: PEER, "lib/util.ts": PEER}
    )
    reason = _reasons(root, [_move(path)])[path]
    assert reason == f"{path} is a special file {framework} loads by its name and place"


def test_the_same_name_without_the_framework_may_move(tmp_path: Path) -> None:
    root = write_files(tmp_path, {"package.json": _manifest(), "proxy.ts": PEER})
    assert _reasons(root, [_move("proxy.ts")]) == {"proxy.ts": "planned"}


def test_a_tool_configuration_is_never_moved(tmp_path: Path) -> None:
    root = write_files(tmp_path, {"package.json": _manifest("next"), "next.config.ts": PEER})
    assert _reasons(root, [_move("next.config.ts")]) == {
        "next.config.ts": "next.config.ts is a tool configuration, found by its name and place"
    }


def test_a_file_a_script_starts_is_never_moved(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "apps/web/package.json": _manifest(scripts='"start": "node server.mjs --port 3000"'),
            "apps/web/server.mjs": PEER,
        },
    )
    assert _reasons(root, [_move("apps/web/server.mjs")]) == {
        "apps/web/server.mjs": "apps/web/server.mjs is named in apps/web/package.json (scripts) "
        "('server.mjs'), which a fix does not rewrite"
    }


@pytest.mark.parametrize(
    ("process_file", "text"),
    [
        ("Dockerfile", 'FROM node:20\nCOPY . .\nCMD ["node", "worker.js"]\n'),
        ("Procfile", "worker: node worker.js\n"),
    ],
)
def test_a_file_a_dockerfile_or_procfile_starts_is_never_moved(
    tmp_path: Path, process_file: str, text: str
) -> None:
    root = write_files(
        tmp_path,
        {"package.json": _manifest(), "worker.js": PEER, process_file: text},
    )
    assert _reasons(root, [_move("worker.js")]) == {
        "worker.js": f"worker.js is named in {process_file} ('worker.js'), "
        "which a fix does not rewrite"
    }


def test_numbered_and_source_less_folders_are_never_renamed(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "package.json": _manifest(),
            "docs/00-Guides/intro.ts": PEER,
            "docs/Assets/logo.svg": "<svg/>\n",
            "src/UserCard/card.ts": PEER,
        },
    )
    reasons = _reasons(
        root,
        [
            _rename("docs/00-Guides", "docs/guides"),
            _rename("docs/Assets", "docs/assets"),
            _rename("src/UserCard", "src/user-card"),
        ],
    )
    assert reasons == {
        "docs/00-Guides": "docs/00-Guides is named to order its siblings (a numbered prefix)",
        "docs/Assets": "docs/Assets holds no source file; its name is not an import path",
        "src/UserCard": "planned",
    }


def test_the_unsafe_fix_count_leaves_out_what_the_planner_refuses(tmp_path: Path) -> None:
    from dataclasses import replace

    from filid.check.engine import evaluate
    from filid.check.workflow import mark_refused_fixes
    from filid.report.text import fixable_counts

    root = write_files(
        tmp_path,
        {
            "package.json": _manifest("next"),
            "proxy.ts": PEER,
            "docs/01-Intro/a.ts": PEER,
            "src/UserCard/card.ts": PEER,
        },
    )
    project = load_project(root, use_cache=False)
    proposed = (
        _move("proxy.ts"),
        _rename("docs/01-Intro", "docs/intro"),
        _rename("src/UserCard", "src/user-card"),
    )
    result = replace(evaluate(project, rule_ids=["naming-convention"]), violations=proposed)
    assert fixable_counts(result.violations, result.refused_fixes) == (0, 3)
    marked = mark_refused_fixes(project, result)
    assert fixable_counts(marked.violations, marked.refused_fixes) == (0, 1)


def test_a_file_a_script_of_another_package_writes_is_never_moved(tmp_path: Path) -> None:
    # create-t3-turbo: packages/auth's "generate" script writes ../db/src/auth-schema.ts
    generate = '"generate": "better-auth generate --output ../db/src/auth-schema.ts"'
    root = write_files(
        tmp_path,
        {
            "packages/auth/package.json": _manifest(scripts=generate),
            "packages/db/package.json": _manifest(),
            "packages/db/src/auth-schema.ts": PEER,
        },
    )
    assert _reasons(root, [_move("packages/db/src/auth-schema.ts")]) == {
        "packages/db/src/auth-schema.ts": "packages/db/src/auth-schema.ts is named in "
        "packages/auth/package.json (scripts) ('../db/src/auth-schema.ts'), "
        "which a fix does not rewrite"
    }
