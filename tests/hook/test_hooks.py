"""``filid hook …`` answers Claude Code's documented hook payloads with the protocol's shapes.

Payloads follow Claude Code's hooks reference: ``session_id``, ``transcript_path``, ``cwd``,
``permission_mode``, ``hook_event_name``, ``tool_name``, ``tool_input`` (``Write``:
``file_path``/``content``; ``Edit``: ``file_path``/``old_string``/``new_string``/
``replace_all``; ``MultiEdit``: ``file_path``/``edits``; ``Read``: ``file_path``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from filid.cli import cli
from tests.conftest import ProjectFactory

GOOD_INTENT = "# Auth\n\n## Always do\n- a\n\n## Ask first\n- b\n\n## Never do\n- c\n"  # 10 lines
# FCA 1.0: every module has a DETAIL.md beside its INTENT.md (detail-document-contract).
GOOD_DETAIL = (
    "# Auth\n\n## Requirements\n- r\n\n## API Contracts\n- c\n\n## Acceptance Criteria\n"
    "### AC-1 — Works\n- w\n\n## Last Updated\n2026-01-01\n"
)


def _project(make_project: ProjectFactory) -> Path:
    return make_project(
        {
            "INTENT.md": GOOD_INTENT.replace("Auth", "Shop"),
            "DETAIL.md": GOOD_DETAIL.replace("Auth", "Shop"),
            "package.json": '{"name": "shop", "private": true}\n',
            "src/auth/INTENT.md": GOOD_INTENT,
            "src/auth/DETAIL.md": GOOD_DETAIL,
            "src/auth/index.ts": "export { login } from './login';\n",
            "src/auth/login.ts": "export const login = () => 1;\n",
            "src/auth/utils/hash.ts": "export const hash = (s: string) => s;\n",
            "src/billing/INTENT.md": GOOD_INTENT.replace("Auth", "Billing"),
            "src/billing/DETAIL.md": GOOD_DETAIL.replace("Auth", "Billing"),
            "src/billing/index.ts": "export { pay } from './pay';\n",
            "src/billing/pay.ts": "import { login } from '../auth';\nexport const pay = login;\n",
        },
        config={"version": "2.0"},
    )


def _payload(root: Path, tool: str, tool_input: dict[str, Any], session: str = "s1") -> str:
    return json.dumps(
        {
            "session_id": session,
            "transcript_path": "/tmp/transcript.jsonl",
            "cwd": str(root),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": "toolu_01",
        }
    )


def _run(event: str, stdin: str | bytes) -> tuple[dict[str, Any], str]:
    result = CliRunner().invoke(cli, ["hook", event], input=stdin)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), result.stderr


def _deny_reason(answer: dict[str, Any]) -> str:
    output = answer["hookSpecificOutput"]
    assert set(output) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    assert output["hookEventName"] == "PreToolUse"
    assert output["permissionDecision"] == "deny"
    reason = output["permissionDecisionReason"]
    assert isinstance(reason, str)
    return reason


def _context(answer: dict[str, Any], event: str = "PreToolUse") -> str:
    output = answer["hookSpecificOutput"]
    assert set(output) == {"hookEventName", "additionalContext"}, output
    assert output["hookEventName"] == event
    text = output["additionalContext"]
    assert isinstance(text, str)
    return text


def test_write_of_an_intent_md_over_50_lines_is_denied_with_the_rule_message(
    make_project: ProjectFactory,
) -> None:
    root = _project(make_project)
    content = GOOD_INTENT + "".join(f"- line {i}\n" for i in range(41))  # 51 lines
    answer, _ = _run(
        "pre-tool-use",
        _payload(
            root, "Write", {"file_path": str(root / "src/auth/INTENT.md"), "content": content}
        ),
    )
    reason = _deny_reason(answer)
    assert (
        "src/auth/INTENT.md:51: intent-document-contract: "
        "INTENT.md exceeds the 50-line limit (51 lines)"
    ) in reason
    # judged in memory: nothing was written
    assert (root / "src/auth/INTENT.md").read_text() == GOOD_INTENT


def test_edit_adding_the_51st_line_is_denied_and_the_50th_is_not(
    make_project: ProjectFactory,
) -> None:
    root = _project(make_project)
    fifty = GOOD_INTENT + "".join(f"- line {i}\n" for i in range(40))
    (root / "src/auth/INTENT.md").write_text(fifty)
    path = str(root / "src/auth/INTENT.md")
    ok, _ = _run(
        "pre-tool-use",
        _payload(root, "Edit", {"file_path": path, "old_string": "- line 39", "new_string": "- L"}),
    )
    assert "permissionDecision" not in json.dumps(ok)
    denied, _ = _run(
        "pre-tool-use",
        _payload(
            root,
            "Edit",
            {"file_path": path, "old_string": "- line 39\n", "new_string": "- line 39\n- more\n"},
        ),
    )
    assert "INTENT.md exceeds the 50-line limit (51 lines)" in _deny_reason(denied)


def test_multiedit_removing_a_boundary_heading_is_denied(make_project: ProjectFactory) -> None:
    root = _project(make_project)
    edits = [
        {"old_string": "- a", "new_string": "- always"},
        {"old_string": "## Never do\n- c\n", "new_string": "", "replace_all": False},
    ]
    answer, _ = _run(
        "pre-tool-use",
        _payload(
            root, "MultiEdit", {"file_path": str(root / "src/auth/INTENT.md"), "edits": edits}
        ),
    )
    assert "INTENT.md is missing the boundary section(s) Never do" in _deny_reason(answer)


def test_an_intent_md_written_into_an_organ_is_denied(make_project: ProjectFactory) -> None:
    root = _project(make_project)
    answer, _ = _run(
        "pre-tool-use",
        _payload(
            root,
            "Write",
            {"file_path": str(root / "src/auth/utils/INTENT.md"), "content": GOOD_INTENT},
        ),
    )
    reason = _deny_reason(answer)
    assert "organ-no-claudemd: organ folder 'utils' holds INTENT.md" in reason


def test_a_document_already_broken_can_still_be_edited(make_project: ProjectFactory) -> None:
    root = _project(make_project)
    (root / "src/auth/INTENT.md").write_text("# Auth\n\nno headings yet\n")
    answer, _ = _run(
        "pre-tool-use",
        _payload(
            root,
            "Edit",
            {
                "file_path": str(root / "src/auth/INTENT.md"),
                "old_string": "no headings yet",
                "new_string": "still no headings",
            },
        ),
    )
    text = _context(answer)
    assert "already breaks its document contract" in text
    assert "INTENT.md is missing the boundary section(s)" in text


def test_an_edit_adding_a_deep_import_across_a_boundary_is_warned_not_denied(
    make_project: ProjectFactory,
) -> None:
    root = _project(make_project)
    answer, _ = _run(
        "pre-tool-use",
        _payload(
            root,
            "Edit",
            {
                "file_path": str(root / "src/billing/pay.ts"),
                "old_string": "import { login } from '../auth';",
                "new_string": "import { login } from '../auth/login';",
            },
        ),
    )
    text = _context(answer)
    assert "would add 1 structure finding(s)" in text
    assert "src/billing/pay.ts:1: external-import-boundary" in text
    assert "'../auth/login'" in text


def test_an_edit_adding_a_cycle_is_warned(make_project: ProjectFactory) -> None:
    root = _project(make_project)
    answer, _ = _run(
        "pre-tool-use",
        _payload(
            root,
            "Write",
            {
                "file_path": str(root / "src/auth/login.ts"),
                "content": "import { pay } from '../billing';\nexport const login = () => pay;\n",
            },
        ),
    )
    assert "circular-dependency" in _context(answer)


def test_read_gets_the_owning_intent_chain_once_per_session(make_project: ProjectFactory) -> None:
    root = _project(make_project)
    payload = _payload(root, "Read", {"file_path": str(root / "src/auth/utils/hash.ts")})
    answer, _ = _run("pre-tool-use", payload)
    text = _context(answer)
    assert "owning module" not in text  # the wording names the file, not a placeholder
    assert text.index("--- INTENT.md ---") < text.index("--- src/auth/INTENT.md ---")
    assert "# Shop" in text and "# Auth" in text and "# Billing" not in text
    again, _ = _run("pre-tool-use", payload)
    assert again == {}
    other_session, _ = _run(
        "pre-tool-use",
        _payload(root, "Read", {"file_path": str(root / "src/auth/login.ts")}, session="s2"),
    )
    assert "--- src/auth/INTENT.md ---" in _context(other_session)


@pytest.mark.parametrize(
    "file_path",
    ["/etc/passwd", "../outside.ts", ""],
)
def test_a_file_outside_the_project_gets_no_opinion(
    make_project: ProjectFactory, file_path: str
) -> None:
    root = _project(make_project)
    answer, _ = _run(
        "pre-tool-use", _payload(root, "Write", {"file_path": file_path, "content": "x" * 10})
    )
    assert answer == {}


def test_a_project_that_declares_no_fca_gets_no_opinion(make_project: ProjectFactory) -> None:
    root = make_project({"src/a/index.ts": "export {};\n"})
    answer, _ = _run(
        "pre-tool-use",
        _payload(root, "Read", {"file_path": str(root / "src/a/index.ts")}),
    )
    assert answer == {}
    prompt, _ = _run("user-prompt-submit", json.dumps({"cwd": str(root), "prompt": "hi"}))
    assert prompt == {}


def test_an_edit_that_cannot_apply_gets_no_verdict(make_project: ProjectFactory) -> None:
    root = _project(make_project)
    answer, _ = _run(
        "pre-tool-use",
        _payload(
            root,
            "Edit",
            {
                "file_path": str(root / "src/auth/INTENT.md"),
                "old_string": "not in the file",
                "new_string": "x\n" * 80,
            },
        ),
    )
    assert "permissionDecision" not in json.dumps(answer)


@pytest.mark.parametrize(
    "stdin",
    [b"", b"{not json", b"[1, 2]", b"\xff\xfe", b'{"cwd": 3, "tool_input": "x"}'],
)
def test_malformed_input_gets_no_opinion_and_no_traceback(stdin: bytes) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "filid", "hook", "pre-tool-use"],
        input=stdin,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == {}
    assert b"Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) <= 1


def test_user_prompt_submit_and_session_start_give_context(make_project: ProjectFactory) -> None:
    root = _project(make_project)
    (root / "src/billing/pay.ts").write_text(
        "import { login } from '../auth/login';\nexport const pay = login;\n"
    )
    base = {"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": str(root)}
    prompt, _ = _run(
        "user-prompt-submit",
        json.dumps({**base, "hook_event_name": "UserPromptSubmit", "prompt": "refactor auth"}),
    )
    assert "INTENT.md has at most 50 lines" in _context(prompt, "UserPromptSubmit")
    start, _ = _run(
        "session-start",
        json.dumps({**base, "hook_event_name": "SessionStart", "source": "startup"}),
    )
    text = _context(start, "SessionStart")
    assert "filid check now reports 3 finding(s) (1 error, 2 warning, 0 info)" in text
    # errors before warnings, whatever the counts
    assert "per rule: external-import-boundary 1, zero-peer-file 2." in text


def test_an_edit_that_adds_no_import_is_not_judged_again(make_project: ProjectFactory) -> None:
    root = _project(make_project)
    (root / "src/billing/pay.ts").write_text(
        "import { login } from '../auth/login';\nexport const pay = login;\n"
    )
    answer, _ = _run(
        "pre-tool-use",
        _payload(
            root,
            "Edit",
            {
                "file_path": str(root / "src/billing/pay.ts"),
                "old_string": "export const pay = login;",
                "new_string": "// pays\nexport const pay = login;",
            },
        ),
    )
    # the old deep import is not this edit's doing: only the context comes back
    assert "structure finding" not in json.dumps(answer)
    assert "--- src/billing/INTENT.md ---" in _context(answer)


def test_a_good_intent_md_written_into_a_new_folder_is_not_denied(
    make_project: ProjectFactory,
) -> None:
    root = _project(make_project)
    answer, _ = _run(
        "pre-tool-use",
        _payload(
            root,
            "Write",
            {"file_path": str(root / "src/orders/INTENT.md"), "content": GOOD_INTENT},
        ),
    )
    assert "permissionDecision" not in json.dumps(answer)


def test_a_new_module_can_be_documented_in_either_order_but_not_badly(
    make_project: ProjectFactory,
) -> None:
    # A new folder lacks its sibling document until the next call writes it: the gate judges
    # the written document only (filid check still reports the missing one).
    root = _project(make_project)
    detail_first, _ = _run(
        "pre-tool-use",
        _payload(
            root,
            "Write",
            {"file_path": str(root / "src/orders/DETAIL.md"), "content": GOOD_DETAIL},
        ),
    )
    assert "permissionDecision" not in json.dumps(detail_first)
    bad_detail, _ = _run(
        "pre-tool-use",
        _payload(
            root,
            "Write",
            {
                "file_path": str(root / "src/orders/DETAIL.md"),
                "content": GOOD_DETAIL.replace("## API Contracts\n", "## API\n"),
            },
        ),
    )
    reason = _deny_reason(bad_detail)
    assert "src/orders/DETAIL.md" in reason and "API Contracts" in reason
    assert "is required" not in reason
    bad_intent, _ = _run(
        "pre-tool-use",
        _payload(
            root,
            "Write",
            {
                "file_path": str(root / "src/orders/INTENT.md"),
                "content": GOOD_INTENT.replace("## Never do\n- c\n", ""),
            },
        ),
    )
    assert "INTENT.md is missing the boundary section(s) Never do" in _deny_reason(bad_intent)
