"""Test files a vitest config declares: ``typecheck.include`` (SPEC §1 "Test file").

A vitest config is code, so it is never executed: tree-sitter reads it and only literal
strings count. Every object property ``typecheck: { include: ['…', …] }`` anywhere in a
``vitest.config.*``, ``vite.config.*`` or ``vitest.workspace.*`` file (a workspace's
per-project ``test.typecheck`` included) contributes its string globs, taken relative to the
config's folder (vitest's default root). A glob built at run time (a variable, a template
with substitutions, a spread) is not guessed at. Brace alternatives ``{a,b}`` and the
extglob ``?(a|b)`` that vitest's own default spells are expanded, since the project's glob
matcher (``config.globs``) knows neither.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from pathlib import Path

from tree_sitter import Node

from filid.parse.grammar import toolkit_for
from filid.store.files import UnsafePathError, read_regular_file

__all__ = ["is_vitest_config", "read_typecheck_globs", "typecheck_includes"]

_CONFIG_PREFIXES = ("vitest.config.", "vite.config.", "vitest.workspace.")
_MAX_CONFIG_BYTES = 1024 * 1024
_SOURCE_SUFFIXES = (".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".tsx", ".jsx")
_BRACES = re.compile(r"\{([^{}]*)\}")
_EXTGLOB = re.compile(r"\?\(([^()]*)\)")
_MAX_EXPANSIONS = 256


def is_vitest_config(path: str) -> bool:
    """Whether the root-relative ``path`` names a vitest (or vite) config source file."""
    name = path.rpartition("/")[2]
    return name.startswith(_CONFIG_PREFIXES) and name.endswith(_SOURCE_SUFFIXES)


def _key_text(pair: Node) -> str | None:
    key = pair.child_by_field_name("key")
    if key is None or key.text is None:
        return None
    text = key.text.decode("utf-8", "replace")
    if key.type == "string":
        return text[1:-1]
    return text


def _literal(node: Node) -> str | None:
    """The value of a string literal (or a template without substitutions), else None."""
    if node.type == "string":
        return "".join(
            c.text.decode("utf-8", "replace")
            for c in node.named_children
            if c.type == "string_fragment" and c.text is not None
        )
    if node.type == "template_string" and not any(
        c.type == "template_substitution" for c in node.named_children
    ):
        text = node.text.decode("utf-8", "replace") if node.text is not None else ""
        return text[1:-1]
    return None


def _pairs(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "pair":
            yield current
        stack.extend(reversed(current.named_children))


def typecheck_includes(path: str, source: bytes) -> tuple[str, ...]:
    """The literal ``typecheck.include`` globs of one config file, as written."""
    tree = toolkit_for(path).parser.parse(source)
    found: list[str] = []
    for pair in _pairs(tree.root_node):
        if _key_text(pair) != "typecheck":
            continue
        value = pair.child_by_field_name("value")
        if value is None or value.type != "object":
            continue
        for inner in value.named_children:
            if inner.type != "pair" or _key_text(inner) != "include":
                continue
            array = inner.child_by_field_name("value")
            if array is None or array.type != "array":
                continue
            for element in array.named_children:
                text = _literal(element)
                if text:
                    found.append(text)
    return tuple(found)


def expand_glob(pattern: str) -> list[str]:
    """``pattern`` with ``{a,b}`` and ``?(a|b)`` alternatives spelled out (bounded)."""
    pattern = _EXTGLOB.sub(lambda m: "{," + m.group(1).replace("|", ",") + "}", pattern)
    results: list[str] = []
    pending = [pattern]
    while pending and len(results) < _MAX_EXPANSIONS:
        current = pending.pop()
        match = _BRACES.search(current)
        if match is None:
            results.append(current)
            continue
        head, tail = current[: match.start()], current[match.end() :]
        pending.extend(head + option + tail for option in match.group(1).split(","))
    return sorted(set(results))


def read_typecheck_globs(root: Path, files: Collection[str]) -> tuple[str, ...]:
    """Root-relative globs of the test files every vitest config among ``files`` declares
    with ``typecheck.include``. A config that cannot be read contributes nothing."""
    globs: set[str] = set()
    for file in sorted(f for f in files if is_vitest_config(f)):
        try:
            source = read_regular_file(root / file, _MAX_CONFIG_BYTES)
        except (OSError, UnsafePathError):
            continue
        directory = file.rpartition("/")[0]
        for include in typecheck_includes(file, source):
            relative = include.removeprefix("./")
            if relative.startswith(("/", "../")):
                continue  # outside the config's folder: not guessed at
            for pattern in expand_glob(relative):
                globs.add(f"{directory}/{pattern}" if directory else pattern)
    return tuple(sorted(globs))
