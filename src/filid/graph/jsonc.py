"""A reader for JSON with comments and trailing commas (tsconfig.json, jsconfig.json, package.json).

TypeScript accepts ``//`` and ``/* */`` comments and trailing commas in its config files, so
``json.loads`` alone rejects real projects. A small character scanner blanks comments and
drops trailing commas *outside string literals* (so ``"@/*"`` or ``"http://x"`` stay intact),
then the standard library parses what is left. Comments are replaced by spaces (newlines
kept) so ``json`` error positions still point at the original line and column.
"""

from __future__ import annotations

import json
from pathlib import Path

from filid.model.errors import InputError
from filid.model.jsontext import loads as json_loads
from filid.store.files import UnsafePathError, read_regular_file

__all__ = ["parse_jsonc", "read_jsonc_file", "strip_jsonc"]


def strip_jsonc(text: str) -> str:
    """Return ``text`` with comments blanked and trailing commas removed, strings untouched."""
    out: list[str] = []
    # Index in ``out`` of the last comma seen outside a string that no value has followed yet.
    pending_comma: int | None = None
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            pending_comma = None
            j = i + 1
            while j < n:
                c = text[j]
                if c == "\\":
                    j += 2
                    continue
                if c == '"' or c == "\n":
                    break
                j += 1
            out.append(text[i : j + 1])
            i = j + 1
            continue
        if ch == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j == -1 else j
            out.append(" " * (j - i))
            i = j
            continue
        if ch == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            # An unterminated block comment is left in place so json reports it as an error.
            if j == -1:
                out.append(text[i:])
                break
            comment = text[i : j + 2]
            out.append("".join(c if c == "\n" else " " for c in comment))
            i = j + 2
            continue
        if ch in "}]" and pending_comma is not None:
            out[pending_comma] = " "
            pending_comma = None
        elif ch == ",":
            pending_comma = len(out)
        elif not ch.isspace():
            pending_comma = None
        out.append(ch)
        i += 1
    return "".join(out)


# tsconfig/jsconfig/package.json files larger than this are refused (never read whole).
MAX_JSON_BYTES = 8 * 1024 * 1024


def parse_jsonc(text: str) -> object:
    """Parse JSON-with-comments text; raises ``ValueError`` (``json.JSONDecodeError``) if bad."""
    if text.startswith("\ufeff"):
        text = text[1:]
    # Most files are plain JSON: text json accepts holds no comment and no trailing comma
    # outside its strings, so the scanner would return it unchanged (and it is a Python loop).
    try:
        return json_loads(text)
    except json.JSONDecodeError:
        pass  # comments, trailing commas, or an error: the scanner decides
    return json_loads(strip_jsonc(text))


def read_jsonc_file(
    root: Path, rel_path: str, *, empty: object = None, trailing: bool = False
) -> object:
    """Read and parse ``root/rel_path``; any failure is an ``InputError`` naming the file.

    ``empty``: what a file holding nothing but whitespace and comments means, when the tool
    that reads such a file accepts it (``tsc`` reads an empty ``tsconfig.json`` as ``{}``);
    None: such a file is invalid JSON like any other. ``trailing``: text after the first
    complete value is ignored, when the tool that reads the file does so (the Angular CLI
    reads ``angular.json`` with ``jsonc-parser``, which stops there: deepkit-framework's
    ``website/angular.json`` ends with one ``}`` too many and builds).
    """
    try:
        text = read_regular_file(root / rel_path, MAX_JSON_BYTES).decode("utf-8")
    except UnsafePathError as exc:
        raise InputError(f"{rel_path}: cannot read file ({str(exc).rpartition(': ')[2]})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{rel_path}: cannot read file ({exc.__class__.__name__})") from exc
    try:
        return parse_jsonc(text)
    except json.JSONDecodeError as exc:
        if empty is not None and not strip_jsonc(text.removeprefix("\ufeff")).strip():
            return empty
        first = _first_value(text) if trailing and exc.msg == "Extra data" else None
        if first is not None:
            return first
        raise InputError(
            f"{rel_path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from exc
    except RecursionError as exc:
        raise InputError(f"{rel_path}: invalid JSON: nested too deeply") from exc


def _first_value(text: str) -> object:
    """The first complete JSON value of ``text`` (comments and trailing commas allowed), or
    None when that first value is itself malformed."""
    try:
        value, _ = json.JSONDecoder().raw_decode(strip_jsonc(text.removeprefix("\ufeff")).lstrip())
    except (ValueError, RecursionError):  # malformed, a number too long, nested too deep
        return None
    return value
