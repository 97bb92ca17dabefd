"""``filid graph``: the resolved import graph at file or module level."""

from __future__ import annotations

import click

from filid.cli.exits import guarded
from filid.cli.options import config_option, load, path_argument


@click.command()
@path_argument
@config_option
@click.option("--level", type=click.Choice(["file", "module"]), default="module", show_default=True)
@click.option("--format", "fmt", type=click.Choice(["json", "dot", "mermaid"]), default="json")
@click.option("--no-cache", is_flag=True)
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@guarded
def graph(
    path: str, config: str | None, level: str, fmt: str, no_cache: bool, no_progress: bool
) -> None:
    """Print the resolved import graph at file or module level (machine formats only: no
    progress line is ever shown; ``--no-progress`` is accepted on every command)."""
    from filid.report.json import dumps, file_graph_report, module_graph_report

    project = load(path, config, use_cache=not no_cache)
    if level == "file":
        data = file_graph_report(project.tree, project.file_graph)
    else:
        data = module_graph_report(project.module_graph)
    if fmt == "json":
        click.echo(dumps(data), nl=False)
        return
    nodes = [str(n) for n in data["nodes"]]
    edges = sorted({(str(e["from"]), str(e["to"]), str(e["kind"])) for e in data["edges"]})
    if fmt == "dot":
        from filid.report.dot import render_graph as render_dot

        click.echo(render_dot(nodes, edges), nl=False)
    else:
        from filid.report.mermaid import render_graph as render_mermaid

        click.echo(render_mermaid(nodes, edges), nl=False)
