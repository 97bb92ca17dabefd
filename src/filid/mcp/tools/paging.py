"""The arguments every tool shares for narrowing and paging (``paths``, ``list``, ``offset``,
``maxChars``), applied to an answer: see :mod:`filid.mcp.budget` for how lists are cut."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from filid.config.globs import matches_any_glob
from filid.mcp.budget import Section, fit
from filid.mcp.tools.context import JsonObject
from filid.model.errors import UsageError

__all__ = ["budgeted", "matches_paths"]


def matches_paths(patterns: Sequence[str] | None, *paths: str) -> bool:
    """Whether any of ``paths`` matches the ``paths`` globs (everything does without them)."""
    if not patterns:
        return True
    return any(matches_any_glob(p, patterns) for p in paths)


def budgeted(
    head: JsonObject,
    body: JsonObject,
    sections: Sequence[Section],
    args: Mapping[str, Any],
    actions: Sequence[JsonObject],
    next_page: Callable[[str, int], JsonObject] | None,
) -> JsonObject:
    """The answer ``head`` + ``body`` with its ``sections`` fitted to ``maxChars``, paging the
    list the call names (``list``; an ``offset`` alone pages the first list)."""
    offset = int(args.get("offset", 0))
    page: str | None = args.get("list")
    names = [s.name for s in sections]
    if page is not None and page not in names:
        raise UsageError(f"list: this answer has no list '{page}' (lists: {', '.join(names)})")
    if page is None and offset and sections:
        page = sections[0].name  # an offset without a list pages the first list
    return fit(
        head,
        body,
        sections,
        offset=offset,
        max_chars=int(args["maxChars"]),
        actions=actions,
        next_page=next_page,
        page=page,
    )
