"""``filid mcp``: run the MCP server on stdio."""

from __future__ import annotations

from pathlib import Path

import click

from filid.cli.exits import guarded


@click.command()
@click.option(
    "--root",
    "roots",
    multiple=True,
    type=click.Path(),
    help="Directory the tools may read and fix (repeatable; default: the working directory).",
)
@guarded
def mcp(roots: tuple[str, ...]) -> None:
    """Run the MCP server on stdio (tools: fractal-scan, drift-detect, lca-resolve, …)."""
    from filid.mcp.server import run_stdio

    run_stdio([Path(r) for r in roots] or [Path.cwd()])
