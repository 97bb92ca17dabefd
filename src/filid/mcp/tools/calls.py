"""nextActions entries: ready tool calls ``{tool, args, why}`` a client can make as they are.

A nextAction repeats the call's own non-default arguments (:func:`given_args`) so that a
narrowed or paged call answers the same question.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

from filid.mcp import schemas
from filid.mcp.tools.context import JsonObject

__all__ = ["call", "given_args", "pager", "plural"]

_INPUT_SCHEMAS: Final[Mapping[str, schemas.JsonSchema]] = {
    "fractal-scan": schemas.FRACTAL_SCAN,
    "drift-detect": schemas.DRIFT_DETECT,
    "lca-resolve": schemas.LCA_RESOLVE,
    "rule-query": schemas.RULE_QUERY,
    "structure-validate": schemas.STRUCTURE_VALIDATE,
}


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless one."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def call(tool: str, root: Path, why: str, **args: Any) -> JsonObject:
    """A nextActions entry: a tool call a client can make exactly as it is."""
    return {"tool": tool, "args": {"path": str(root), **args}, "why": why}


def given_args(tool: str, args: Mapping[str, Any], drop: tuple[str, ...] = ()) -> JsonObject:
    """The non-default arguments of a call (without ``path``, ``offset`` and ``drop``)."""
    properties = _INPUT_SCHEMAS[tool]["properties"]
    skip = {"path", "offset", "list", *drop}
    return {
        name: value
        for name, value in args.items()
        if name not in skip and value != properties[name].get("default", _NO_DEFAULT)
    }


_NO_DEFAULT: Final = object()


def pager(
    tool: str, root: Path, args: Mapping[str, Any], drop: tuple[str, ...] = ()
) -> Callable[[str, int], JsonObject]:
    """The nextActions entry that shows list ``name`` of this call from item ``n`` on."""

    def next_page(name: str, n: int) -> JsonObject:
        return call(
            tool,
            root,
            f"{name} was cut at the budget: this shows {name} alone from item {n} (offset {n})",
            **given_args(tool, args, drop),
            list=name,
            offset=n,
        )

    return next_page
