"""``filid lca``: where code shared by two modules belongs (lca-resolve)."""

from __future__ import annotations

import click

from filid.cli.exits import guarded
from filid.cli.options import config_option, load
from filid.model.escape import visible


@click.command()
@click.argument("module_a")
@click.argument("module_b")
@click.option("--root", "root", default=".", type=click.Path(), help="Project root.")
@config_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@guarded
def lca(
    module_a: str, module_b: str, root: str, config: str | None, fmt: str, no_progress: bool
) -> None:
    """Find where code shared by two modules belongs (lca-resolve)."""
    from filid.graph import resolve_lca

    project = load(root, config)
    result = resolve_lca(project.tree, module_a, module_b)
    if fmt == "json":
        from filid.report.json import dumps, lca_to_json

        click.echo(dumps(lca_to_json(result, str(project.root))), nl=False)
        return
    for line in (
        f"LCA: {result.lca} ({result.lca_category}, depth {result.lca_depth})",
        f"distance: {module_a} → {result.distance_a}, {module_b} → {result.distance_b}",
        f"place shared code in: {result.suggested_placement}",
        result.explanation,
    ):
        click.echo(visible(line))
