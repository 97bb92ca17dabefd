"""``filid scan``: the classified fractal tree (fractal-scan)."""

from __future__ import annotations

import time

import click

from filid.cli.exits import guarded
from filid.cli.options import config_option, load, path_argument
from filid.cli.terminal import use_color
from filid.model.escape import visible


@click.command()
@path_argument
@config_option
@click.option("--format", "fmt", type=click.Choice(["text", "json", "mermaid"]), default="text")
@click.option(
    "--depth", type=click.IntRange(1, 100), default=None, help="Show nodes to this depth."
)
@click.option("--modules", is_flag=True, help="Include module information (exports).")
@click.option("--no-cache", is_flag=True)
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@guarded
def scan(
    path: str,
    config: str | None,
    fmt: str,
    depth: int | None,
    modules: bool,
    no_cache: bool,
    no_progress: bool,
) -> None:
    """Show the classified fractal tree (fractal-scan)."""
    from filid.check.scoping import timestamp

    started = time.perf_counter()
    project = load(path, config, use_cache=not no_cache, progress=fmt == "text" and not no_progress)
    duration = time.perf_counter() - started
    tree = project.tree
    if fmt == "json":
        from filid.report.json import dumps, scan_report

        data = scan_report(
            tree,
            project.facts,
            project.file_graph,
            timestamp=timestamp(),
            duration=duration,
            max_depth=depth,
            include_modules=modules,
        )
        click.echo(dumps(data), nl=False)
    elif fmt == "mermaid":
        from filid.report.mermaid import render_graph

        nodes = [p for p, n in tree.nodes.items() if depth is None or n.depth <= depth]
        shown = set(nodes)
        edges = [
            (n.parent, p, n.category.value)
            for p, n in tree.nodes.items()
            if n.parent is not None and p in shown
        ]
        click.echo(render_graph(sorted(nodes), sorted(edges)), nl=False)
    else:
        from filid.report.text import render_tree

        click.echo(render_tree(tree, max_depth=depth, color=use_color()), nl=False)
        if modules:
            from filid.report.json import module_infos

            for info in module_infos(tree, project.facts):
                click.echo(
                    visible(
                        f"  {info['path']}: {info['category']}, {info['exportCount']} export(s)"
                        f"{'' if info['hasIndex'] or info['hasMain'] else ', no entry point'}"
                    )
                )
        unresolved = project.file_graph.unresolved
        if unresolved:
            click.echo(f"{len(unresolved)} unresolved import(s):")
            for item in unresolved[:20]:
                why = f" ({item.reason})" if item.reason else ""
                click.echo(visible(f"  {item.file}:{item.line}: '{item.specifier}'{why}"))
            if len(unresolved) > 20:
                click.echo(f"  … and {len(unresolved) - 20} more (see --format json)")
