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
- :func:`ts_string_literal` — a quoted TypeScript/JavaScript string literal (generated
  ``index.ts``/``index.js``): a file name can never end the literal and become code.
- :func:`git_path` / :func:`unquote_git_path` — a path in a diff header, quoted the way git
  quotes it (``"a/\\303\\251"``: C-style, octal bytes), so ``git apply`` reads back exactly
  the name, and a newline in a name cannot add a ``rename to .husky/pre-commit`` line.
- :func:`glob_literal` — a folder name inside a glob ``init`` writes (``a[b]`` must not
  become a character class).
- :func:`mermaid_label` — text inside a double-quoted Mermaid label (its ``#code;``
  entities; an HTML entity or a bidi override in a name is shown, not interpreted).

JSON needs nothing here: ``json.dumps`` escapes every control character, and a JSON reader
sees the name as it is. This module is in the lowest layer so that fixes, the store and
every report share it.
"""

from __future__ import annotations

import re

__all__ = [
    "git_path",
    "glob_literal",
    "markdown_cell",
    "mermaid_label",
    "ts_string_literal",
    "unquote_git_path",
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


_TS_ESCAPES = {
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def ts_string_literal(text: str, quote: str = "'") -> str:
    """``text`` as a TypeScript/JavaScript string literal delimited by ``quote`` (``'`` or
    ``"``): backslashes, the quote, line terminators, control and bidi characters escaped, so
    the literal evaluates to exactly ``text`` and nothing after it is code."""
    if quote not in ("'", '"'):
        raise ValueError(f"not a string quote: {quote!r}")
    out: list[str] = []
    for char in text:
        if char in _TS_ESCAPES:
            out.append(_TS_ESCAPES[char])
        elif char == quote:
            out.append("\\" + char)
        elif _INVISIBLE.match(char) or 0xD800 <= ord(char) <= 0xDFFF:
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return f"{quote}{''.join(out)}{quote}"


_GIT_C_ESCAPES = {
    0x07: "\\a",
    0x08: "\\b",
    0x09: "\\t",
    0x0A: "\\n",
    0x0B: "\\v",
    0x0C: "\\f",
    0x0D: "\\r",
    0x22: '\\"',
    0x5C: "\\\\",
}


def git_path(path: str) -> str:
    """``path`` as git writes it in a diff header (``core.quotePath`` on, git's default):
    unchanged when it is plain printable ASCII, else in double quotes with C escapes and octal
    bytes (``a/é`` → ``"a/\\303\\251"``). A file name read with ``surrogateescape`` gets its
    original bytes back."""
    try:
        raw = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = path.encode("utf-8", "backslashreplace")
    if all(0x20 <= byte < 0x7F and byte not in (0x22, 0x5C) for byte in raw):
        return path
    out: list[str] = []
    for byte in raw:
        if byte in _GIT_C_ESCAPES:
            out.append(_GIT_C_ESCAPES[byte])
        elif 0x20 <= byte < 0x7F:
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


_GIT_C_UNESCAPES = {value[1]: key for key, value in _GIT_C_ESCAPES.items()}


def unquote_git_path(spelled: str) -> str:
    """The path :func:`git_path` (or git) spelled; a spelling without quotes is returned as
    it is. Bytes that are not UTF-8 come back as ``surrogateescape`` characters."""
    if len(spelled) < 2 or not (spelled.startswith('"') and spelled.endswith('"')):
        return spelled
    body = spelled[1:-1]
    data = bytearray()
    i = 0
    while i < len(body):
        char = body[i]
        if char != "\\" or i + 1 >= len(body):
            data.extend(char.encode("utf-8", "surrogateescape"))
            i += 1
            continue
        following = body[i + 1]
        if following in _GIT_C_UNESCAPES:
            data.append(_GIT_C_UNESCAPES[following])
            i += 2
        elif body[i + 1 : i + 4].isdigit() and len(body[i + 1 : i + 4]) == 3:
            data.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            data.extend(following.encode("utf-8", "surrogateescape"))
            i += 2
    return data.decode("utf-8", "surrogateescape")


# "#" first: every other replacement introduces a "#".
_MERMAID_ESCAPES = (
    ("#", "#35;"),
    ("&", "#38;"),
    ('"', "#quot;"),
    ("<", "#lt;"),
    (">", "#gt;"),
    ("|", "#124;"),
    ("`", "#96;"),
    ("[", "#91;"),
    ("]", "#93;"),
)


def mermaid_label(text: str) -> str:
    """``text`` safe inside a double-quoted Mermaid label: one line, control and bidi
    characters shown as escapes, and every character Mermaid or the HTML it renders would
    interpret (``"``, ``<``, ``&``, backticks…) written as a ``#code;`` entity."""
    text = visible(text)
    for raw, escaped in _MERMAID_ESCAPES:
        text = text.replace(raw, escaped)
    return text


_GLOB_SPECIALS = re.compile(r"([\\*?\[\]])")


def glob_literal(path: str) -> str:
    """``path`` as a glob (:mod:`filid.config.globs` syntax) that matches exactly that path:
    ``*``, ``?``, ``[``, ``]`` and backslashes are escaped with a backslash."""
    return _GLOB_SPECIALS.sub(r"\\\1", path)
