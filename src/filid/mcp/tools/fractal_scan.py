"""fractal-scan: the classified tree to ``depth``, cut at the budget.

``tree.nodes`` holds the node objects that fit the budget, ``tree.types`` the rest compactly
(path -> type); ``includeModuleInfo`` adds the modules. Next: validate, look deeper, or ask
for the modules.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from filid.check.clock import timestamp
from filid.check.project import load_project
from filid.mcp import outputs, schemas
from filid.mcp.budget import Section, compact
from filid.mcp.tools.calls import call, given_args, pager
from filid.mcp.tools.context import JsonObject, ToolContext, ToolSpec
from filid.mcp.tools.paging import budgeted, matches_paths
from filid.model.nodes import NodeCategory
from filid.report import json as json_report

__all__ = ["SPEC", "run_fractal_scan"]


def run_fractal_scan(ctx: ToolContext, root: Path, args: Mapping[str, Any]) -> JsonObject:
    """fractal-scan: the classified tree to ``depth``: ``tree.nodes`` holds the node objects
    that fit the budget, ``tree.types`` the rest compactly (path -> type); the modules with
    ``includeModuleInfo``."""
    depth = int(args["depth"])
    full = bool(args["includeModuleInfo"])
    patterns = args.get("paths")
    with ctx.locks.reading(root):
        started = time.perf_counter()
        project = load_project(root)
        duration = time.perf_counter() - started
    data = json_report.scan_report(
        project.tree,
        project.facts,
        project.file_graph,
        timestamp=timestamp(),
        duration=duration,
        max_depth=depth,
        include_modules=full,
    )
    nodes: dict[str, JsonObject] = data["tree"]["nodes"]
    kept = [(p, n) for p, n in nodes.items() if matches_paths(patterns, p)]
    unresolved = [u for u in data["unresolved"] if matches_paths(patterns, u["file"])]
    by_type: dict[str, int] = {c.value: 0 for c in NodeCategory}
    for node in project.tree.nodes.values():
        by_type[node.category.value] += 1
    summary: JsonObject = {
        "totalNodes": len(project.tree.nodes),
        "depth": project.tree.depth,
        "byType": by_type,
        "modules": by_type["fractal"] + by_type["hybrid"],
        "unresolvedImports": len(data["unresolved"]),
        "nodesWithinDepth": len(nodes),
    }
    if patterns:
        summary["matchingPaths"] = len(kept)
    data["tree"]["nodes"] = {}
    data["tree"]["types"] = {}
    sections = [Section("tree.nodes", ("tree", "nodes"), kept, is_map=True)]
    if full:
        modules = [m for m in data["modules"] if matches_paths(patterns, m["path"])]
        sections.append(Section("modules", ("modules",), modules))
    sections.append(Section("unresolved", ("unresolved",), unresolved))
    actions = [
        call(
            "structure-validate",
            root,
            "check these nodes against the rules (summary first, most severe first)",
        )
    ]
    if project.tree.depth > depth and depth < schemas.DEPTH_MAX:
        deeper = min(project.tree.depth, schemas.DEPTH_MAX)
        actions.append(
            call(
                "fractal-scan",
                root,
                f"the tree is {project.tree.depth} levels deep: this shows the deeper nodes",
                **given_args("fractal-scan", args, ("depth",)),
                depth=deeper,
            )
        )
    if not full and "list" not in args:
        actions.append(
            call(
                "fractal-scan",
                root,
                "each module's entry point and export count",
                **given_args("fractal-scan", args, ("includeModuleInfo",)),
                includeModuleInfo=True,
            )
        )
    answer = budgeted(
        {"summary": summary},
        data,
        sections,
        args,
        actions,
        pager("fractal-scan", root, args),
    )
    return _compact_rest(answer, kept, int(args["maxChars"]))


def _compact_rest(
    answer: JsonObject, kept: Sequence[tuple[str, JsonObject]], max_chars: int
) -> JsonObject:
    """Fill ``tree.types`` with the nodes ``tree.nodes`` had no room for (path -> type), as
    many as fit, and say how many in ``truncated["tree.nodes"].compact``."""
    cut = answer.get("truncated", {}).get("tree.nodes")
    if cut is None or "nextOffset" not in cut:
        return answer
    rest = kept[cut["nextOffset"] :]
    # The room the count itself takes: ',"compact":' and up to 7 digits.
    used = len(compact(answer)) + 18
    types: dict[str, str] = answer["tree"]["types"]
    for path, node in rest:
        size = len(compact(path)) + len(compact(node["type"])) + 2
        if used + size > max_chars:
            break
        types[path] = node["type"]
        used += size
    if types:
        cut["compact"] = len(types)
    while types and len(compact(answer)) > max_chars:
        types.pop(next(reversed(types)))
        cut["compact"] = len(types)
    if not types:
        cut.pop("compact", None)
    return answer


SPEC: Final = ToolSpec(
    name="fractal-scan",
    title="Scan the fractal tree",
    description=(
        "Classify every directory of a TypeScript/JavaScript project as fractal (a module "
        "with its own CLAUDE.md boundary), organ (a role folder such as utils/ or "
        "components/), pure-function or hybrid, and return the tree (ScanReport: "
        "tree.nodes, the node objects that fit the budget, the rest compactly in "
        "tree.types path -> type; includeModuleInfo=true adds the modules; unresolved "
        "imports). Use it first to see the shape of a project; read-only. Every tool "
        "answers within maxChars (summary first; every list gets its share; page one "
        "list with list and offset, narrow with paths) and lists nextActions as ready "
        "tool calls."
    ),
    input_schema=schemas.FRACTAL_SCAN,
    output_schema=outputs.FRACTAL_SCAN,
    run=run_fractal_scan,
    read_only=True,
)
