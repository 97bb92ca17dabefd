"""What a Claude Code hook receives on stdin, read defensively.

Claude Code runs a command hook with one JSON object on stdin (its hooks reference):
``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name`` and, for ``PreToolUse``,
``tool_name`` and ``tool_input`` (``Write``: ``file_path``, ``content``; ``Edit``:
``file_path``, ``old_string``, ``new_string``, ``replace_all``; ``MultiEdit``: ``file_path``,
``edits`` of those; ``Read``: ``file_path``, ``offset``, ``limit``). Anything else in the
object is ignored; a field of the wrong type counts as absent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from filid.model.errors import InputError

__all__ = ["EditStep", "HookRequest", "content_after", "parse_request"]

# stdin larger than this is not a hook payload we can judge in time (a Write of a 1 MiB file
# is larger than any boundary document or source file filid reads).
MAX_PAYLOAD_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class EditStep:
    """One string replacement of an ``Edit`` or ``MultiEdit`` call."""

    old: str
    new: str
    replace_all: bool = False


@dataclass(frozen=True, slots=True)
class HookRequest:
    """The fields of a hook payload that filid uses."""

    event: str
    cwd: str | None
    session_id: str
    tool_name: str = ""
    file_path: str | None = None
    content: str | None = None
    edits: tuple[EditStep, ...] = field(default_factory=tuple)


def _text(data: Mapping[str, object], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _step(data: object) -> EditStep | None:
    if not isinstance(data, dict):
        return None
    old, new = _text(data, "old_string"), _text(data, "new_string")
    if old is None or new is None:
        return None
    return EditStep(old, new, data.get("replace_all") is True)


def parse_request(raw: bytes, event: str) -> HookRequest:
    """The request in ``raw`` (stdin) for hook ``event``; ``InputError`` when it is not a JSON
    object. An edit whose steps are malformed keeps no steps (filid then has no opinion)."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise InputError(f"hook input is larger than {MAX_PAYLOAD_BYTES} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise InputError(f"hook input is not JSON ({type(error).__name__})") from None
    if not isinstance(data, dict):
        raise InputError("hook input is not a JSON object")
    tool_input = data.get("tool_input")
    tool = tool_input if isinstance(tool_input, dict) else {}
    tool_name = _text(data, "tool_name") or ""
    edits: tuple[EditStep, ...] = ()
    if tool_name == "Edit":
        one = _step(tool)
        edits = (one,) if one is not None else ()
    elif tool_name == "MultiEdit":
        steps = tool.get("edits")
        parsed = [_step(s) for s in steps] if isinstance(steps, list) else []
        edits = tuple(s for s in parsed if s is not None) if None not in parsed else ()
    return HookRequest(
        event=event,
        cwd=_text(data, "cwd"),
        session_id=_text(data, "session_id") or "",
        tool_name=tool_name,
        file_path=_text(tool, "file_path"),
        content=_text(tool, "content") if tool_name == "Write" else None,
        edits=edits,
    )


def content_after(request: HookRequest, current: str | None) -> str | None:
    """The text the edited file would hold after the tool call, or ``None`` when the call
    would fail (Claude Code refuses an ``Edit`` whose ``old_string`` is missing or, without
    ``replace_all``, not unique) or is not an edit.

    ``current`` is the file's text now (``None``: it does not exist). An ``Edit`` with an
    empty ``old_string`` on a missing file creates it.
    """
    if request.tool_name == "Write":
        return request.content
    if request.tool_name not in ("Edit", "MultiEdit") or not request.edits:
        return None
    text = current
    for step in request.edits:
        if text is None:
            if step.old != "":
                return None
            text = step.new
            continue
        if step.old == "" or step.old == step.new:
            return None
        count = text.count(step.old)
        if count == 0 or (count > 1 and not step.replace_all):
            return None
        text = (
            text.replace(step.old, step.new)
            if step.replace_all
            else text.replace(step.old, step.new, 1)
        )
    return text
