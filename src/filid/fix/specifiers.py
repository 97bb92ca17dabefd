"""Import specifier arithmetic for fixes: relative paths, extension styles, alias segments.

Specifiers are strings, not source code: these functions compute the text that replaces a
specifier literal (whose byte span the parser recorded) after files move, keeping the style
the author wrote (extensionless, ``.js`` for NodeNext-style ESM, or TypeScript extensions).
"""

from __future__ import annotations

import posixpath
from enum import StrEnum

__all__ = [
    "SpecifierStyle",
    "file_matches_segment",
    "is_relative",
    "join_specifier",
    "relative_specifier",
    "segment_of",
    "specifier_extension",
    "specifier_for_file",
    "split_ext",
]

JS_EXTENSIONS = (".js", ".jsx", ".mjs", ".cjs")
TS_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts")
SOURCE_EXTENSIONS = TS_EXTENSIONS + JS_EXTENSIONS

# The extension a compiled TypeScript file gets, i.e. what NodeNext-style imports spell.
_RUNTIME_EXTENSION = {
    ".ts": ".js",
    ".tsx": ".js",
    ".mts": ".mjs",
    ".cts": ".cjs",
    ".js": ".js",
    ".jsx": ".jsx",
    ".mjs": ".mjs",
    ".cjs": ".cjs",
}


class SpecifierStyle(StrEnum):
    """How a project spells relative imports of source files."""

    EXTENSIONLESS = "extensionless"
    RUNTIME = "runtime"  # `./x.js` for `x.ts` (NodeNext / ESM)
    SOURCE = "source"  # `./x.ts` (allowImportingTsExtensions)


def is_relative(specifier: str) -> bool:
    """Whether ``specifier`` is relative to the importing file."""
    return specifier.startswith(("./", "../")) or specifier in (".", "..")


def split_ext(name: str) -> tuple[str, str]:
    """``("x", ".ts")`` for ``x.ts``; the extension is empty unless it is a source extension."""
    for ext in SOURCE_EXTENSIONS:
        if name.endswith(ext) and len(name) > len(ext):
            return name[: -len(ext)], ext
    return name, ""


def specifier_extension(specifier: str) -> str:
    """The source extension a specifier ends with (``""`` if none)."""
    return split_ext(specifier.rpartition("/")[2])[1]


def style_of(specifier: str) -> SpecifierStyle | None:
    """The style one relative specifier shows (``None`` for non-source files like ``.css``)."""
    last = specifier.rpartition("/")[2]
    ext = split_ext(last)[1]
    if ext in JS_EXTENSIONS:
        return SpecifierStyle.RUNTIME
    if ext in TS_EXTENSIONS:
        return SpecifierStyle.SOURCE
    if "." in last.lstrip(".") and last not in (".", ".."):
        return None  # `./styles.css`, `./data.json`: says nothing about source imports
    return SpecifierStyle.EXTENSIONLESS


def relative_specifier(from_dir: str, to_path: str) -> str:
    """The relative specifier from root-relative directory ``from_dir`` to ``to_path``."""
    rel = posixpath.relpath(
        "/" + to_path if to_path != "." else "/", "/" + from_dir if from_dir != "." else "/"
    )
    if rel == ".":
        return "."
    return rel if rel == ".." or rel.startswith("../") else f"./{rel}"


def file_matches_segment(segment: str, file_name: str) -> bool:
    """Whether the last specifier segment ``segment`` can name the file ``file_name``.

    ``x``, ``x.ts`` and the runtime twin ``x.js`` all name ``x.ts``.
    """
    if segment == file_name:
        return True
    stem, ext = split_ext(file_name)
    seg_stem, seg_ext = split_ext(segment)
    if seg_ext == "":
        return segment == stem
    return seg_stem == stem and seg_ext in (ext, _RUNTIME_EXTENSION.get(ext, ext))


def specifier_for_file(path_without_ext: str, file_name: str, style: SpecifierStyle) -> str:
    """``path_without_ext`` plus the extension ``style`` asks for, for the file ``file_name``."""
    ext = split_ext(file_name)[1]
    if style is SpecifierStyle.RUNTIME:
        return path_without_ext + _RUNTIME_EXTENSION.get(ext, ext)
    if style is SpecifierStyle.SOURCE:
        return path_without_ext + ext
    return path_without_ext


def join_specifier(segments: list[str]) -> str:
    """Join specifier segments back (the inverse of ``str.split("/")``)."""
    return "/".join(segments)


def segment_of(segments: list[str], target: str, depth: int) -> int | None:
    """Index of the specifier segment naming the ancestor directory of ``target`` at ``depth``.

    The specifier is aligned with ``target`` from the right: its last segment names the file
    (``x``, ``x.ts``, ``x.js``) or, for an ``index`` file, the directory holding it. Every
    aligned segment must match; ``None`` when they do not (an alias that renames segments).
    """
    parts = target.split("/")
    if not segments:
        return None
    if file_matches_segment(segments[-1], parts[-1]):
        aligned = parts
    elif split_ext(parts[-1])[0] == "index" and len(parts) >= 2 and segments[-1] == parts[-2]:
        aligned = parts[:-1]
    else:
        return None
    if not 1 <= depth <= len(aligned) or (depth == len(aligned) and aligned is parts):
        return None  # no such directory, or the segment names the file itself
    offset = len(aligned) - depth
    position = len(segments) - 1 - offset
    if position < 0:
        return None
    for i in range(position, len(segments) - 1):
        if segments[i] != aligned[depth - 1 + i - position]:
            return None
    return position
