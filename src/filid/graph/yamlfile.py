"""A safe reader for the YAML manifests filid needs (``pnpm-workspace.yaml``).

YAML is read with PyYAML's safe loader (the libyaml-backed ``CSafeLoader`` when PyYAML was
built with it): plain data only, no tags that construct objects. Two bounds keep a hostile
file harmless: the file is read only up to ``MAX_YAML_BYTES``, and a document with more than
``MAX_ALIASES`` alias references (``*name``, the "billion laughs" shape) is refused before it
is built. Every failure is a one-line reason naming the file, never an exception.
"""

from __future__ import annotations

from pathlib import Path

from filid.model.errors import InputError
from filid.store.files import read_regular_file

__all__ = ["MAX_ALIASES", "MAX_YAML_BYTES", "parse_yaml", "read_yaml_file"]

MAX_YAML_BYTES = 1024 * 1024
# Anchors and aliases are legitimate (shared lists of globs); thousands of them are not.
MAX_ALIASES = 256


def parse_yaml(text: str) -> tuple[object, str | None]:
    """The first document of ``text`` as plain data, or ``(None, reason)`` when it is not
    readable YAML (or aliases too many nodes)."""
    import yaml  # only projects with a YAML manifest pay for the import

    loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        aliases = 0
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.AliasEvent):
                aliases += 1
                if aliases > MAX_ALIASES:
                    return None, f"more than {MAX_ALIASES} YAML aliases"
        return yaml.load(text, Loader=loader), None  # a safe loader: plain data only
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f" at line {mark.line + 1} column {mark.column + 1}" if mark is not None else ""
        return None, f"invalid YAML{where}: {exc.problem or exc.context or 'unreadable'}"
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        return None, f"invalid YAML: {exc.__class__.__name__}"


def read_yaml_file(root: Path, rel_path: str) -> tuple[object, str | None]:
    """Read and parse ``root/rel_path``: ``(data, None)``, or ``(None, "<file>: reason")``."""
    try:
        raw = read_regular_file(root / rel_path, MAX_YAML_BYTES)
    except InputError as exc:
        return None, f"{rel_path}: cannot read file ({str(exc).rpartition(': ')[2]})"
    except OSError as exc:
        return None, f"{rel_path}: cannot read file ({exc.__class__.__name__})"
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None, f"{rel_path}: not UTF-8"
    data, reason = parse_yaml(text)
    return data, (f"{rel_path}: {reason}" if reason is not None else None)
