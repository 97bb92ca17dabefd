"""A string literal's value with its JavaScript escape sequences decoded.

The module loader sees the literal's value, not its source text: ``'./\\u00e9'`` names the
file ``é``, and genql's ``'@app/components/\\u0017code-tabs'`` names a file whose name starts
with the control character U+0017. tree-sitter marks each escape in a ``string`` or
``template_string`` node as an ``escape_sequence`` child; only those byte ranges are decoded,
everything between them is kept as written (ECMAScript §12.9.4, string literals).
"""

from __future__ import annotations

from tree_sitter import Node

__all__ = ["decode_escapes"]

# single-character escapes (ECMAScript `SingleEscapeCharacter`); any other escaped character
# stands for itself (`\'`, `\\`, `\/`, `\-`)
_SINGLE = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_LINE_TERMINATORS = ("\r\n", "\n", "\r", "\u2028", "\u2029")


def decode_escapes(node: Node, source: bytes) -> str | None:
    """The value of the string literal ``node`` (quotes excluded), its escape sequences
    decoded; None when an escape does not decode to text (a lone surrogate ``\\ud800``, a
    malformed ``\\u{110000}``): the caller keeps the literal as written."""
    start = node.start_byte + 1
    parts: list[str] = []
    for child in node.children:
        if child.type != "escape_sequence":
            continue
        parts.append(source[start : child.start_byte].decode("utf-8", "replace"))
        decoded = _decode_one(source[child.start_byte : child.end_byte].decode("utf-8", "replace"))
        if decoded is None:
            return None
        parts.append(decoded)
        start = child.end_byte
    parts.append(source[start : node.end_byte - 1].decode("utf-8", "replace"))
    value = "".join(parts)
    if any("\ud800" <= c <= "\udfff" for c in value):
        try:  # `\ud83d\ude00` is one character written as its UTF-16 surrogate pair
            value = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError:
            return None  # a lone surrogate names no file
    return value


def _decode_one(escape: str) -> str | None:
    """One ``escape_sequence`` token (``\\n``, ``\\x41``, ``\\u00e9``, ``\\u{1F600}``, ``\\0``,
    a legacy octal ``\\101``, a line continuation) as the text it stands for."""
    body = escape[1:]
    if not body or body in _LINE_TERMINATORS:
        return ""  # a line continuation adds nothing to the value
    head = body[0]
    try:
        if head == "u":
            digits = body[2:-1] if body.startswith("u{") and body.endswith("}") else body[1:]
            return chr(int(digits, 16)) if digits else None
        if head == "x" and len(body) == 3:
            return chr(int(body[1:], 16))
        if head in "01234567":
            return chr(int(body, 8))  # `\0`, and legacy octal in sloppy-mode files
    except ValueError:
        return None  # not hexadecimal, or past U+10FFFF
    return _SINGLE.get(head, body)
