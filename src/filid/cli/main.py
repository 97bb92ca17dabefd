"""The ``filid`` group: one command per module beside this one, registered here."""

from __future__ import annotations

import gc
import sys

import click

from filid import __version__
from filid.cli.check import check
from filid.cli.drift import drift
from filid.cli.graph import graph
from filid.cli.hook import hook
from filid.cli.init import init
from filid.cli.lca import lca
from filid.cli.mcp import mcp
from filid.cli.rules import rules
from filid.cli.scan import scan


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="filid")
def cli() -> None:
    """Keep a TypeScript/JavaScript code base in a clean fractal shape (FCA)."""


for command in (check, drift, graph, hook, init, lca, mcp, rules, scan):
    cli.add_command(command)


def main() -> None:
    """Console-script entry point.

    A command runs once and exits, and filid's objects (facts, nodes, edges) hold no reference
    cycles, so the cyclic garbage collector only costs time here (it rescans every live object
    every few hundred allocations): it is off for the whole run. The long-running MCP server
    turns it back on. On the way out, what is still alive is frozen: the interpreter's final
    collection at exit would otherwise traverse every object of the run once more (about a
    second after a check of 50,000 files, for nothing: the process ends).
    """
    if sys.argv[1:2] == ["mcp"]:
        cli(prog_name="filid")
        return
    gc.disable()
    try:
        cli(prog_name="filid")
    finally:
        gc.freeze()
