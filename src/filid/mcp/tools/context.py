"""What every tool run receives and what the server lists: the context and the spec.

Every tool is a blocking function ``(context, root, arguments) -> JSON object``: the CONTRACT
shape with a ``summary`` first and ``nextActions`` (ready tool calls ``{tool, args, why}``).
The server runs it in a worker thread. Library errors propagate as
:class:`~filid.model.errors.FilidError` and are turned into ``isError`` results by the server.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filid.mcp import schemas
from filid.mcp.fix_plans import FixRuns, PlanRegistry
from filid.mcp.tools.locks import RootLocks

__all__ = ["JsonObject", "ToolContext", "ToolRun", "ToolSpec"]

JsonObject = dict[str, Any]

ToolRun = Callable[["ToolContext", Path, Mapping[str, Any]], JsonObject]


@dataclass(frozen=True, slots=True)
class ToolContext:
    """What a tool run shares with the server: the root locks and the recent fix previews,
    and, per call, whether the client cancelled it (``notifications/cancelled``)."""

    locks: RootLocks
    plans: PlanRegistry
    runs: FixRuns = dataclasses.field(default_factory=FixRuns)
    notices: dict[Path, JsonObject] = dataclasses.field(default_factory=dict)
    cancelled: Callable[[], bool] = lambda: False


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as ``tools/list`` shows it, and the function that runs it."""

    name: str
    title: str
    description: str
    input_schema: schemas.JsonSchema
    output_schema: schemas.JsonSchema
    run: ToolRun
    read_only: bool
