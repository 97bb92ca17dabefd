"""Fit a tool result into a character budget: summary first, items paged, never a cut summary.

An agent reads every byte a tool returns, and hosts cut long results (Claude Code at 25,000
tokens by default), so every tool answers within ``maxChars`` characters of its JSON text.
A result is assembled from a head (the summary and counts, always whole), the pageable
*sections* (the long lists: violations, notes, drift items, tree nodes…) and the rest of the
object. On the first page every list gets its share of the budget; a list cut short is named
in ``truncated`` (``{list: {shown, total, offset, nextOffset}}``) and ``nextActions`` carry
the call that shows its next page (``list`` and ``offset``), which shows that list alone.
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

    ``name`` is what ``truncated`` and the ``list`` argument call it; ``path`` names where it
    sits (keys from the top of the result); ``items`` are its JSON values in output order,
    or ``(key, value)`` pairs when ``is_map`` (the section is an object, such as the tree's
    node map). ``mirrors`` are further paths that carry the same page (``remainingViolations``
    after a fix is ``result.violations``): the page is counted once per place.
    """

    name: str
    path: tuple[str, ...]
    items: Sequence[Any]
    is_map: bool = False
    mirrors: tuple[tuple[str, ...], ...] = ()


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


def _item_size(item: Any, is_map: bool) -> int:
    if is_map:
        key, value = item
        return len(compact(key)) + len(compact(value)) + 2
    return len(compact(item)) + 1


def _shares(demands: Sequence[int], available: int) -> list[int]:
    """Split ``available`` characters among lists wanting ``demands``: equal shares, and
    what a small list does not need goes to the others (water-filling)."""
    shares = [0] * len(demands)
    open_lists = [i for i, d in enumerate(demands) if d > 0]
    left = max(available, 0)
    while open_lists:
        share = left // len(open_lists)
        small = [i for i in open_lists if demands[i] <= share]
        if not small:
            for i in open_lists:
                shares[i] = share
            break
        for i in small:
            shares[i] = demands[i]
            left -= demands[i]
        open_lists = [i for i in open_lists if i not in small]
    return shares


def fit(
    head: JsonObject,
    body: JsonObject,
    sections: Sequence[Section],
    *,
    offset: int,
    max_chars: int,
    actions: Sequence[JsonObject],
    next_page: Callable[[str, int], JsonObject] | None,
    page: str | None = None,
) -> JsonObject:
    """The result: ``head`` (summary and counts), ``truncated`` when items were left out,
    ``nextActions``, then ``body`` with each section's page in place.

    Without ``page`` every list starts at its first item and gets its share of the budget
    (equal shares; what a short list leaves goes to the others), so one long list never
    crowds out the rest. With ``page`` (a section name) only that list is shown, from
    ``offset``, and always named in ``truncated``; the others are left empty. ``truncated``
    has one entry per list that was cut or paged: ``{shown, total, offset, nextOffset?,
    cutItems?}``. If not even one item of the only list with items fits, that item is shown
    with its long strings cut (``cutItems``), so paging always makes progress.
    ``next_page(name, n)`` is the nextActions entry that shows list ``name`` from item ``n``.
    """
    active = [page is None or s.name == page for s in sections]
    starts = [
        min(max(offset, 0), len(s.items)) if page is not None and on else 0
        for s, on in zip(sections, active, strict=True)
    ]

    def assemble(counts: Sequence[int], first: tuple[int, Any] | None = None) -> JsonObject:
        data: JsonObject = dict(head)
        truncated: JsonObject = {}
        next_actions = list(actions)
        placed = dict(body)
        for index, section in enumerate(sections):
            total = len(section.items)
            chosen = list(section.items[starts[index] : starts[index] + counts[index]])
            if first is not None and first[0] == index and chosen:
                chosen[0] = first[1]
            end = starts[index] + counts[index]
            if active[index] and (page is not None or starts[index] > 0 or end < total):
                entry: JsonObject = {
                    "shown": counts[index],
                    "total": total,
                    "offset": starts[index],
                }
                if end < total:
                    entry["nextOffset"] = end
                    if next_page is not None:
                        next_actions.append(next_page(section.name, end))
                if first is not None and first[0] == index:
                    entry["cutItems"] = 1
                truncated[section.name] = entry
            if not chosen and not _has(body, section.path):
                continue  # an optional list the body leaves out stays out
            value: object = dict(chosen) if section.is_map else chosen
            for path in (section.path, *section.mirrors):
                placed = _place(placed, path, value)
        if truncated:
            data["truncated"] = truncated
        data["nextActions"] = next_actions
        data.update(placed)
        return data

    def size(counts: Sequence[int], first: tuple[int, Any] | None = None) -> int:
        return len(compact(assemble(counts, first)))

    remaining = [
        len(s.items) - start if on else 0
        for s, start, on in zip(sections, starts, active, strict=True)
    ]
    if size(remaining) <= max_chars:
        return assemble(remaining)
    # Estimate from the item sizes, then step back until the real text fits.
    item_sizes = [
        [_item_size(item, s.is_map) * (1 + len(s.mirrors)) for item in s.items[start:]]
        if on
        else []
        for s, start, on in zip(sections, starts, active, strict=True)
    ]
    available = max_chars - size([0] * len(sections))
    shares = _shares([sum(sizes) for sizes in item_sizes], available)
    counts = [0] * len(sections)
    used = 0
    for index, sizes in enumerate(item_sizes):
        spent = 0
        for item_size in sizes:
            if spent + item_size > shares[index]:
                break
            spent += item_size
            counts[index] += 1
        used += spent
    # What a list could not use (its next item was larger than the rest of its share) goes
    # to the lists in order.
    for index, sizes in enumerate(item_sizes):
        while counts[index] < len(sizes) and used + sizes[counts[index]] <= available:
            used += sizes[counts[index]]
            counts[index] += 1
    while sum(counts) > 0 and size(counts) > max_chars:
        largest = max(range(len(counts)), key=lambda i: counts[i])
        counts[largest] -= max(1, counts[largest] // 20) if counts[largest] > 40 else 1
    if sum(counts) > 0 or not any(remaining):
        return assemble(counts)
    index = next(i for i, r in enumerate(remaining) if r)
    first_item = sections[index].items[starts[index]]
    one = [1 if i == index else 0 for i in range(len(sections))]
    for limit in _SHRINK_STEPS:
        shrunk, _ = _shrink(first_item, limit)
        if size(one, (index, shrunk)) <= max_chars:
            return assemble(one, (index, shrunk))
    return assemble(one, (index, _shrink(first_item, _SHRINK_STEPS[-1])[0]))
