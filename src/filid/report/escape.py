"""Escaping for every medium filid prints to: the one place that knows them.

Paths, messages and notes come from a repository anyone can write: a folder name may hold a
newline followed by ``::add-mask::`` (a GitHub workflow command), a terminal escape sequence,
or a right-to-left override (U+202E) that makes a path read differently than it is.

- :func:`visible` — terminal text and any plain-text field: control characters (C0, DEL,
  C1) and the bidirectional formatting characters become visible ``\\xNN``/``\\uNNNN``
  escapes, so one finding is one line and reads as it is.
- :func:`workflow_data` / :func:`workflow_property` — GitHub workflow command data and
  property values (``%``, CR, LF; plus ``:`` and ``,`` in properties), after :func:`visible`.
- :func:`markdown_cell` — a Markdown table cell (job summary).
- :func:`xml_text` — text for XML 1.0 (JUnit), which cannot hold most control characters.
"""

from __future__ import annotations

import re

__all__ = [
    "markdown_cell",
    "visible",
    "visible_keeping_breaks",
    "workflow_data",
    "workflow_property",
    "xml_text",
]

_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<>|~&])")


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with control and bidirectional formatting characters shown as escapes."""
    return _INVISIBLE.sub(_escape_char, text)


def visible_keeping_breaks(text: str) -> str:
    """:func:`visible` for multi-line text fields (SARIF messages): tab, CR and LF stay."""
    return _visible_keeping_breaks(text)


def _visible_keeping_breaks(text: str) -> str:
    return _INVISIBLE.sub(lambda m: m.group() if m.group() in "\t\n\r" else _escape_char(m), text)


def workflow_data(text: str) -> str:
    """Escape the data part of a ``::command::data`` workflow command: line breaks become
    ``%0D``/``%0A`` (GitHub shows them as breaks), other controls visible escapes."""
    text = _visible_keeping_breaks(text)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def workflow_property(text: str) -> str:
    """Escape a ``key=value`` property of a workflow command."""
    return workflow_data(text).replace(":", "%3A").replace(",", "%2C")


def markdown_cell(text: str) -> str:
    """Text safe inside a Markdown table cell: visible, specials escaped, one line."""
    return _MARKDOWN_SPECIALS.sub(r"\\\1", visible(text))


def xml_text(text: str) -> str:
    """Text XML 1.0 can hold: forbidden characters dropped, bidi controls made visible."""
    return _XML_FORBIDDEN.sub(
        "", _INVISIBLE.sub(lambda m: m.group() if m.group() in "\t\n\r" else _escape_char(m), text)
    )
