"""lca-resolve: the lowest common ancestor of two modules and where shared code goes.

An unknown module is an error whose nextActions retry with the nearest existing modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from filid.check.project import load_project
from filid.mcp import outputs, schemas
from filid.mcp.tools.calls import call, given_args
from filid.mcp.tools.context import JsonObject, ToolContext, ToolSpec
from filid.mcp.tools.paging import budgeted
from filid.model.errors import InputError
from filid.report import json as json_report

__all__ = ["SPEC", "lca_error_actions", "nearest_modules", "run_lca_resolve"]


def nearest_modules(error: InputError) -> list[str]:
    """The nearest existing modules that ``resolve_lca`` names in its error message."""
    _, found, tail = str(error).partition("; nearest: ")
    return [m.strip() for m in tail.split(",") if m.strip()] if found else []


def lca_error_actions(error: InputError, root: Path, args: Mapping[str, Any]) -> list[JsonObject]:
    """For an unknown module: the same call with each nearest existing module instead."""
    actions: list[JsonObject] = []
    message = str(error)
    for which in ("moduleA", "moduleB"):
        given = str(args.get(which, ""))
        if not given or f"'{given.strip().strip('/').removeprefix('./')}'" not in message:
            continue
        for module in nearest_modules(error):
            actions.append(
                call(
                    "lca-resolve",
                    root,
                    f"{schemas.shown_prefix(given)} is not a node; {module} is the nearest "
                    "existing module",
                    **{**given_args("lca-resolve", args), which: module},
                )
            )
        break
    return actions


def run_lca_resolve(ctx: ToolContext, root: Path, args: Mapping[str, Any]) -> JsonObject:
    """lca-resolve: the lowest common ancestor of two modules and where shared code goes."""
    from filid.graph import resolve_lca

    with ctx.locks.reading(root):
        project = load_project(root)
    result = resolve_lca(project.tree, args["moduleA"], args["moduleB"])
    data = json_report.lca_to_json(result, str(project.root))
    summary: JsonObject = {
        "lcaPath": result.lca,
        "suggestedPlacement": result.suggested_placement,
    }
    # At the root the subtree is the whole project: a scan of it tells nothing new.
    actions = (
        [
            call(
                "fractal-scan",
                root,
                f"the subtree where code shared by {schemas.shown_prefix(args['moduleA'])} and "
                f"{schemas.shown_prefix(args['moduleB'])} belongs ({result.suggested_placement})",
                paths=[result.lca],
            )
        ]
        if result.lca != "."
        else []
    )
    return budgeted({"summary": summary}, data, [], args, actions, None)


SPEC: Final = ToolSpec(
    name="lca-resolve",
    title="Place shared code",
    description=(
        "Given two module directories (root-relative, e.g. 'src/auth' and 'src/billing'), "
        "find their lowest common ancestor in the fractal tree and the folder where code "
        "they share belongs (suggestedPlacement). Use it before extracting shared code. "
        "Read-only."
    ),
    input_schema=schemas.LCA_RESOLVE,
    output_schema=outputs.LCA_RESOLVE,
    run=run_lca_resolve,
    read_only=True,
)
