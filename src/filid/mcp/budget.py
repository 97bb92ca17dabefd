"""Fit a tool result into a character budget: summary first, items paged, never a cut summary.

An agent reads every byte a tool returns, and hosts cut long results (Claude Code at 25,000
tokens by default), so every tool answers within ``maxChars`` characters of its JSON text.
A result is assembled from a head (the summary and counts, always whole), the pageable
*sections* (the long lists: violations, drift items, tree nodes…) walked as one stream from
``offset``, and the rest of the object. As many stream items as fit are shown; when some are
left out the result says ``truncated: {shown, total, offset, nextOffset}`` and its
``nextActions`` carry the call that shows the next page.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["MIN_CHARS", "Section", "compact", "fit"]

JsonObject = dict[str, Any]

# Below this a summary and one (shortened) item may not fit; the schema enforces it.
MIN_CHARS: Final = 2000

# Strings an item is shortened to, longest first, when not even one item fits whole.
_SHRINK_STEPS: Final = (4000, 1000, 300, 80, 20)


def compact(value: object) -> str:
    """The JSON text of a tool result: compact, UTF-8 kept (what the budget counts)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Section:
    """One pageable list of a result.

    ``path`` names where it sits (keys from the top of the result); ``items`` are its JSON
    values in output order, or ``(key, value)`` pairs when ``is_map`` (the section is an
    object, such as the compact tree).
    """

    path: tuple[str, ...]
    items: Sequence[Any]
    is_map: bool = False


def _place(body: Mapping[str, Any], path: tuple[str, ...], value: object) -> JsonObject:
    """A copy of ``body`` with ``value`` at ``path`` (intermediate objects copied, not shared)."""
    top = dict(body)
    target = top
    for key in path[:-1]:
        inner = dict(target.get(key) or {})
        target[key] = inner
        target = inner
    target[path[-1]] = value
    return top


def _has(body: Mapping[str, Any], path: tuple[str, ...]) -> bool:
    current: Any = body
    for key in path:
        if not isinstance(current, Mapping) or key not in current:
            return False
        current = current[key]
    return True


def _shrink(value: Any, limit: int) -> tuple[Any, bool]:
    """``value`` with every string longer than ``limit`` cut (and marked); whether any was."""
    if isinstance(value, str):
        if len(value) <= limit:
            return value, False
        return f"{value[:limit]}… [cut: {len(value) - limit} more characters]", True
    if isinstance(value, list):
        pairs = [_shrink(v, limit) for v in value]
        return [v for v, _ in pairs], any(c for _, c in pairs)
    if isinstance(value, tuple):
        pairs = [_shrink(v, limit) for v in value]
        return tuple(v for v, _ in pairs), any(c for _, c in pairs)
    if isinstance(value, dict):
        out: JsonObject = {}
        changed = False
        for key, inner in value.items():
            out[key], cut = _shrink(inner, limit)
            changed = changed or cut
        return out, changed
    return value, False


def fit(
    head: JsonObject,
    body: JsonObject,
    sections: Sequence[Section],
    *,
    offset: int,
    max_chars: int,
    actions: Sequence[JsonObject],
    next_page: Callable[[int], JsonObject] | None,
) -> JsonObject:
    """The result: ``head`` (summary and counts), ``truncated`` when items were left out,
    ``nextActions``, then ``body`` with each section's page in place.

    The sections form one stream; items from ``offset`` are added while the JSON text stays
    within ``max_chars``. If not even one item fits, the first is shown with its long strings
    cut (``truncated.cutItems``), so paging always makes progress. ``next_page(n)`` is the
    nextActions entry that shows the stream from item ``n``.
    """
    stream: list[tuple[int, Any]] = [
        (index, item) for index, section in enumerate(sections) for item in section.items
    ]
    total = len(stream)
    start = min(max(offset, 0), total)

    def assemble(count: int, first: Any = None) -> JsonObject:
        window = stream[start : start + count]
        if first is not None and window:
            window = [(window[0][0], first), *window[1:]]
        data: JsonObject = dict(head)
        end = start + count
        if start > 0 or end < total:
            truncated: JsonObject = {"shown": count, "total": total, "offset": start}
            if end < total:
                truncated["nextOffset"] = end
            if first is not None:
                truncated["cutItems"] = 1
            data["truncated"] = truncated
        next_actions = list(actions)
        if end < total and next_page is not None:
            next_actions.append(next_page(end))
        data["nextActions"] = next_actions
        placed = dict(body)
        for index, section in enumerate(sections):
            chosen = [item for i, item in window if i == index]
            if not chosen and not _has(body, section.path):
                continue  # an optional list the body leaves out stays out
            value: object = dict(chosen) if section.is_map else chosen
            placed = _place(placed, section.path, value)
        data.update(placed)
        return data

    def size(count: int, first: Any = None) -> int:
        return len(compact(assemble(count, first)))

    remaining = total - start
    if size(remaining) <= max_chars:
        return assemble(remaining)
    # Estimate from the item sizes, then step back until the real text fits.
    used = size(0)
    count = 0
    for _, item in stream[start:]:
        used += len(compact(item)) + 1
        if used > max_chars:
            break
        count += 1
    while count > 0 and size(count) > max_chars:
        count -= max(1, count // 20) if count > 40 else 1
    if count > 0 or remaining == 0:
        return assemble(count)
    first_item = stream[start][1]
    for limit in _SHRINK_STEPS:
        shrunk, _ = _shrink(first_item, limit)
        if size(1, shrunk) <= max_chars:
            return assemble(1, shrunk)
    return assemble(1, _shrink(first_item, _SHRINK_STEPS[-1])[0])
