"""The formatter settings a rewritten statement must keep: print width, indentation and
trailing commas, as the project's formatter would apply them to one file.

Looked up like the formatters do, from the file's folder up to the project root; the nearest
folder holding a configuration decides:

- Prettier: ``.prettierrc`` (JSON or YAML), ``.prettierrc.json``/``.json5``/``.yaml``/
  ``.yml``/``.toml``, or a ``"prettier"`` object in ``package.json`` (defaults: width 80,
  trailing commas ``all``);
- oxfmt: ``.oxfmtrc.json``/``.oxfmtrc.jsonc`` (default width 100);
- Biome: ``biome.json``/``biome.jsonc`` (``formatter.lineWidth``, or the ``javascript``
  section's; default 80);
- ``.editorconfig``: ``max_line_length``, ``indent_style``, ``indent_size`` of the ``[*]``
  section or one whose pattern takes the file.

A configuration written as a program (``prettier.config.js``, ``.prettierrc.mjs``,
``oxfmt.config.ts``…) or a shared one (``"prettier": "@org/config"``) cannot be read
without running it: the settings are then unknown (None), and a fix that would have to
lay out a new statement does not (see :mod:`filid.fix.merge_imports`). Without any
configuration, Prettier's defaults hold.
"""

from __future__ import annotations

import fnmatch
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from filid.graph.compiler_paths import parent_dir
from filid.graph.jsonc import parse_jsonc
from filid.store.files import UnsafePathError, read_regular_file

__all__ = ["Formatting", "FormattingIndex"]

_MAX_BYTES = 256 * 1024
_PROGRAM_CONFIGS = tuple(
    f"{stem}{ext}"
    for stem in (".prettierrc", "prettier.config", "oxfmt.config", "biome.config")
    for ext in (".js", ".cjs", ".mjs", ".ts", ".cts", ".mts")
)
_PRETTIER_DATA = (
    ".prettierrc",
    ".prettierrc.json",
    ".prettierrc.json5",
    ".prettierrc.yaml",
    ".prettierrc.yml",
    ".prettierrc.toml",
)


@dataclass(frozen=True, slots=True)
class Formatting:
    """How the formatter lays out a file: ``print_width`` columns; ``indent`` one level of
    indentation (None: not configured); ``trailing_comma`` whether a list broken over lines
    ends with a comma (None: not configured)."""

    print_width: int = 80
    indent: str | None = None
    trailing_comma: bool | None = None


_PRETTIER_DEFAULT = Formatting(80, None, None)


class FormattingIndex:
    """Formatter settings per folder of one project (memoized)."""

    def __init__(self, root: Path) -> None:
        """Read configurations under ``root`` (never above it)."""
        self._root = root

    def for_file(self, path: str) -> Formatting | None:
        """The settings for root-relative ``path``; None when they cannot be known."""
        return self._for_dir(parent_dir(path), path)

    def _for_dir(self, directory: str, path: str) -> Formatting | None:
        configured, found = self._own(directory, path)
        if configured:
            return found
        if directory == ".":
            return _PRETTIER_DEFAULT
        return self._for_dir(parent_dir(directory), path)

    def _read(self, directory: str, name: str) -> str | None:
        file = self._root / name if directory == "." else self._root / directory / name
        try:
            # Never through a link (it may point outside the project), never a FIFO.
            return read_regular_file(file, _MAX_BYTES).decode("utf-8", "replace")
        except (OSError, UnsafePathError):
            return None

    def _own(self, directory: str, path: str) -> tuple[bool, Formatting | None]:
        """(whether this folder holds a configuration, its settings or None if unknowable)."""
        for name in _PROGRAM_CONFIGS:
            if self._read(directory, name) is not None:
                return True, None
        for name in _PRETTIER_DATA:
            text = self._read(directory, name)
            if text is not None:
                return True, _prettier(_load(name, text), _relative(directory, path))
        manifest = self._read(directory, "package.json")
        if manifest is not None:
            try:
                data = json.loads(manifest)
            except ValueError:
                data = None
            if isinstance(data, dict) and "prettier" in data:
                return True, _prettier(data["prettier"], _relative(directory, path))
        for name in (".oxfmtrc.json", ".oxfmtrc.jsonc"):
            text = self._read(directory, name)
            if text is not None:
                return True, _prettier(
                    _load(name, text), _relative(directory, path), default_width=100
                )
        for name in ("biome.json", "biome.jsonc"):
            text = self._read(directory, name)
            if text is not None:
                return True, _biome(_load(name, text))
        text = self._read(directory, ".editorconfig")
        if text is not None:
            return True, _editorconfig(text, _relative(directory, path))
        return False, None


def _relative(directory: str, path: str) -> str:
    return path if directory == "." else path[len(directory) + 1 :]


def _load(name: str, text: str) -> object:
    try:
        if name.endswith(".toml"):
            return tomllib.loads(text)
        if name.endswith((".yaml", ".yml")) or (name == ".prettierrc" and not _is_json(text)):
            return _simple_yaml(text)
        return parse_jsonc(text)
    except (ValueError, tomllib.TOMLDecodeError):
        return None


def _is_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def _simple_yaml(text: str) -> dict[str, object] | None:
    """Top-level ``key: scalar`` pairs of a YAML mapping (what formatter options are); None
    when the document holds anything else at the top level."""
    found: dict[str, object] = {}
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].rstrip()
        if not line or line.lstrip().startswith("#") or line == "---":
            continue
        if line[0] in " \t-":
            return None  # nested structure (overrides): not a flat option list
        key, sep, value = line.partition(":")
        if not sep:
            return None
        value = value.strip().strip("'\"")
        scalar: object = value
        if value in ("true", "false"):
            scalar = value == "true"
        elif value.isdigit():
            scalar = int(value)
        found[key.strip().strip("'\"")] = scalar
    return found


def _prettier(data: object, relative: str, default_width: int = 80) -> Formatting | None:
    if not isinstance(data, dict):
        return None  # a shared configuration named by a string, or unreadable
    overrides = data.get("overrides", [])
    if not isinstance(overrides, list):
        return None
    data = dict(data)
    for override in overrides:
        files = override.get("files") if isinstance(override, dict) else None
        options = override.get("options") if isinstance(override, dict) else None
        patterns = [files] if isinstance(files, str) else files
        if not isinstance(patterns, list) or not isinstance(options, dict):
            return None
        if "excludeFiles" in override:
            return None
        if any(isinstance(p, str) and _section_takes(p, relative) for p in patterns):
            data.update(options)
    width = data.get("printWidth", default_width)
    if not isinstance(width, int) or isinstance(width, bool) or width <= 0:
        return None
    indent: str | None = None
    if data.get("useTabs") is True:
        indent = "\t"
    elif isinstance(tab := data.get("tabWidth"), int) and not isinstance(tab, bool):
        indent = " " * tab
    comma = data.get("trailingComma")
    return Formatting(width, indent, None if comma is None else comma != "none")


def _biome(data: object) -> Formatting | None:
    if not isinstance(data, dict):
        return None
    width: object = 80
    indent: str | None = None
    comma: bool | None = None
    sections = [data.get("formatter"), _get(data.get("javascript"), "formatter")]
    for section in sections:
        if not isinstance(section, dict):
            continue
        width = section.get("lineWidth", width)
        if section.get("indentStyle") == "tab":
            indent = "\t"
        elif isinstance(size := section.get("indentWidth"), int):
            indent = " " * size
        if "trailingCommas" in section:
            comma = section["trailingCommas"] != "none"
    if not isinstance(width, int) or isinstance(width, bool) or width <= 0:
        return None
    return Formatting(width, indent, comma)


def _get(data: object, key: str) -> object:
    return data.get(key) if isinstance(data, dict) else None


def _editorconfig(text: str, relative: str) -> Formatting | None:
    """The settings of the sections that take ``relative`` (later sections win)."""
    values: dict[str, str] = {}
    applies = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            applies = _section_takes(line[1:-1], relative)
            continue
        key, sep, value = line.partition("=")
        if sep and applies:
            values[key.strip().lower()] = value.strip().lower()
    width = values.get("max_line_length", "")
    indent: str | None = None
    if values.get("indent_style") == "tab":
        indent = "\t"
    elif values.get("indent_size", "").isdigit():
        indent = " " * int(values["indent_size"])
    return Formatting(int(width) if width.isdigit() else 80, indent, None)


def _section_takes(pattern: str, relative: str) -> bool:
    name = relative.rpartition("/")[2]
    for option in _expand_braces(pattern):
        target = relative if "/" in option else name
        if fnmatch.fnmatchcase(target, option.lstrip("/").replace("**/", "*")):
            return True
    return False


def _expand_braces(pattern: str) -> list[str]:
    start = pattern.find("{")
    end = pattern.find("}", start)
    if start < 0 or end < 0:
        return [pattern]
    head, tail = pattern[:start], pattern[end + 1 :]
    return [
        expanded
        for choice in pattern[start + 1 : end].split(",")
        for expanded in _expand_braces(head + choice + tail)
    ]
