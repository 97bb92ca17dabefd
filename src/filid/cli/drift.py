"""``filid drift``: how far the tree has drifted from the rules (drift-detect)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from filid.cli.exits import EXIT_OK, EXIT_VIOLATIONS, guarded
from filid.cli.options import config_option, path_argument
from filid.cli.terminal import Progress


@click.command()
@path_argument
@config_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option(
    "--severity",
    type=click.Choice(["critical", "high", "medium", "low"]),
    default=None,
    help="Keep this drift severity and worse.",
)
@click.option("--plan", is_flag=True, help="Add the SyncPlan (actions in a safe order).")
@click.option("--no-cache", is_flag=True)
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@guarded
def drift(
    path: str,
    config: str | None,
    fmt: str,
    severity: str | None,
    plan: bool,
    no_cache: bool,
    no_progress: bool,
) -> None:
    """Show how far the tree has drifted from the rules (drift-detect)."""
    from filid.check.workflow import CheckOptions, run_check
    from filid.drift.detect import detect_drift

    bar = Progress(fmt == "text" and not no_progress)
    try:
        options = CheckOptions(
            path=path,
            config_path=Path(config) if config else None,
            use_cache=not no_cache,
            progress=bar if bar.enabled else None,
            reuse=False,
            mark_fixes=False,
        )
        result = run_check(options).result
    finally:
        bar.close()
    report = detect_drift(result, min_severity=severity, with_plan=plan)
    if fmt == "json":
        from filid.report.json import dumps

        click.echo(dumps(report.to_json()), nl=False)
    else:
        from filid.report.drift_text import render_drift

        click.echo(render_drift(report), nl=False)
    sys.exit(EXIT_VIOLATIONS if report.items else EXIT_OK)
