"""``filid init``: look at a project and write a ``.filid/config.json`` for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from filid.cli.exits import fail, guarded
from filid.cli.options import path_argument
from filid.cli.terminal import Progress
from filid.model.escape import visible
from filid.model.violations import Severity

if TYPE_CHECKING:
    from filid.config.adopt import Survey


@click.command()
@path_argument
@click.option("--force", is_flag=True, help="Overwrite an existing config.")
@click.option(
    "--write-baseline",
    is_flag=True,
    help="Also record today's violations as known in .filid/baseline.json.",
)
@click.option("--no-progress", is_flag=True, help="Never show a progress line.")
@guarded
def init(path: str, force: bool, write_baseline: bool, no_progress: bool) -> None:
    """Look at the project at PATH and write a .filid/config.json for it.

    Generated folders go into structure.generatedPaths, the names of example, fixture,
    playground and template folders into structure.additionalExcludedDirectories (unless a
    folder of that name is a route of a file-routing framework); every rule stays at its
    default. The choices, the FCA documents found and the violations that remain are printed.
    With --write-baseline, the remaining violations are recorded as known (an existing config
    is then kept unless --force).
    """
    from filid.config.adopt import survey
    from filid.config.template import render_default_config
    from filid.graph import build_resolver
    from filid.scan.universe import list_universe, resolve_root
    from filid.store.files import write_file_atomically

    root = resolve_root(path)
    target = root / ".filid" / "config.json"
    keep = target.exists() and not force
    if keep and not write_baseline:
        fail(f"{target}: already exists (use --force to overwrite)")
    if keep:
        click.echo(".filid/config.json exists: kept (use --force to rewrite it)")
    else:
        files = list_universe(root).files
        seen = survey(files, build_resolver(root, files).route_directories())
        text = render_default_config(
            excluded_names=seen.excluded_names, generated=seen.generated_globs
        )
        write_file_atomically(target, text.encode("utf-8"), confine=root)
        click.echo(f"wrote .filid/config.json ({seen.source_files} source files looked at)")
        for line in _survey_lines(seen):
            click.echo(visible(f"  {line}"))
    from filid.check.workflow import CheckOptions, run_check

    bar = Progress(not no_progress)
    try:
        result = run_check(CheckOptions(path=root, progress=bar if bar.enabled else None)).result
    finally:
        bar.close()
    counts = ", ".join(f"{result.count(s)} {s.value}" for s in Severity)
    click.echo(f"filid check: {len(result.violations)} violations ({counts})")
    if write_baseline:
        from filid.check.baseline import write_baseline as render_baseline

        baseline = root / ".filid" / "baseline.json"
        write_file_atomically(baseline, render_baseline(result).encode("utf-8"), confine=root)
        click.echo(
            "recorded them as known in .filid/baseline.json: "
            "`filid check --baseline .filid/baseline.json` now reports only new ones"
        )
    elif result.violations:
        click.echo(
            "to adopt gradually, record them as known: filid init --write-baseline "
            "(then filid check --baseline .filid/baseline.json)"
        )


def _survey_lines(seen: Survey) -> list[str]:
    lines: list[str] = []
    if seen.documents:
        found = ", ".join(f"{count} {name}" for name, count in seen.documents.items())
        lines.append(f"FCA documents: {found} (a folder with an intent document is a module)")
    else:
        lines.append(
            "FCA documents: none (modules are recognised by their index.* entry points and "
            "package roots; add INTENT.md files to declare boundaries)"
        )
    if seen.generated:
        lines.append(
            "generated code, left out (structure.generatedPaths): " + ", ".join(seen.generated)
        )
    if seen.examples:
        lines.append(
            "examples, fixtures and templates, left out by folder name "
            f"(structure.additionalExcludedDirectories: {', '.join(seen.excluded_names)}): "
            + ", ".join(seen.examples)
        )
    if seen.kept:
        lines.append(
            "checked, although named like examples: " + ", ".join(seen.kept) + " (a folder of "
            "that name is a route of a file-routing framework: " + ", ".join(seen.routes) + ")"
        )
    lines.append("every rule at its default (`filid rules list`; switch one off under rules)")
    return lines
