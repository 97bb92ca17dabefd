"""``filid hook EVENT``: answer a Claude Code hook (JSON on stdin, the answer on stdout)."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from filid.cli.exits import EXIT_OK
from filid.model.errors import FilidError

HOOK_EVENTS = {
    "pre-tool-use": "PreToolUse",
    "user-prompt-submit": "UserPromptSubmit",
    "session-start": "SessionStart",
}


@click.command()
@click.argument("event", type=click.Choice(sorted(HOOK_EVENTS)))
def hook(event: str) -> None:
    """Answer a Claude Code hook: read its JSON on stdin, print the answer on stdout.

    EVENT is pre-tool-use (deny an edit that breaks a document contract, warn of new structure
    findings, give the owning modules' INTENT.md), user-prompt-submit or session-start (the
    FCA rules in short). Always exits 0; with nothing to say (or on bad input, named in one
    line on stderr) the answer is {}: Claude Code's own permissions decide.
    """
    import json

    from filid.hook import parse_request, pre_tool_use, session_start, user_prompt_submit

    answer: dict[str, Any] = {}
    try:
        request = parse_request(sys.stdin.buffer.read(), HOOK_EVENTS[event])
        handler = {
            "pre-tool-use": pre_tool_use,
            "user-prompt-submit": user_prompt_submit,
            "session-start": session_start,
        }[event]
        answer = handler(request)
    except FilidError as error:
        from filid.model.escape import visible

        click.echo(f"filid: {visible(str(error))}", err=True)
    except Exception as error:  # a hook must never break the session: no opinion instead
        if os.environ.get("FILID_DEBUG"):
            raise
        click.echo(f"filid: hook: internal error: {type(error).__name__}: {error}", err=True)
    click.echo(json.dumps(answer, ensure_ascii=False))
    sys.exit(EXIT_OK)
