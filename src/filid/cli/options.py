"""Arguments and options several commands share, and loading a project with progress."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from filid.cli.terminal import Progress

if TYPE_CHECKING:
    from filid.check.project import Project


def load(
    path: str, config: str | None, *, use_cache: bool = True, progress: bool = False
) -> Project:
    """Load the project at ``path`` with a progress line when ``progress`` (and a TTY)."""
    from filid.check.project import load_project

    bar = Progress(progress)
    try:
        return load_project(
            path,
            config_path=Path(config) if config else None,
            use_cache=use_cache,
            progress=bar if bar.enabled else None,
        )
    finally:
        bar.close()


config_option = click.option(
    "--config",
    "config",
    type=click.Path(dir_okay=False),
    default=None,
    help="Config file (default: <root>/.filid/config.json if present).",
)
path_argument = click.argument("path", default=".", type=click.Path(file_okay=True))
