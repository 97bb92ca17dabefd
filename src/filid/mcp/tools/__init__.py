"""The five MCP tools, one module each (arguments, budget, nextActions), and their registry.

Each tool runs the check workflow (:func:`filid.check.run_check`: baseline, rule selection,
refused-fix marks and the fix loop live there) or a stage, like its CLI command, and renders
the answer. The modules beside them hold what the tools share: the context a run receives
(:mod:`.context`), the per-root locks (:mod:`.locks`), nextActions entries (:mod:`.calls`),
narrowing and paging (:mod:`.paging`), and the violations list with the calls that act on it
(:mod:`.violations`).
"""

from __future__ import annotations

from filid.mcp.fix_plans import PlanRegistry
from filid.mcp.tools import drift_detect, fractal_scan, lca_resolve, rule_query, structure_validate
from filid.mcp.tools.context import ToolContext, ToolSpec
from filid.mcp.tools.lca_resolve import lca_error_actions
from filid.mcp.tools.locks import RootLocks

__all__ = [
    "TOOLS",
    "TOOLS_BY_NAME",
    "PlanRegistry",
    "RootLocks",
    "ToolContext",
    "ToolSpec",
    "lca_error_actions",
]

TOOLS: tuple[ToolSpec, ...] = (
    fractal_scan.SPEC,
    drift_detect.SPEC,
    lca_resolve.SPEC,
    rule_query.SPEC,
    structure_validate.SPEC,
)

TOOLS_BY_NAME: dict[str, ToolSpec] = {tool.name: tool for tool in TOOLS}
