"""The ``filid`` command line (click): argument parsing and rendering only, one module per
command (``check``, ``drift``, ``scan``, ``graph``, ``lca``, ``rules``, ``init``, ``mcp``,
``hook``) and ``main`` holding the group. The only package that prints; maps errors to exit
codes. What a check means is decided by :func:`filid.check.run_check`, never here.

Exit codes (all commands): 0 nothing at or above the fail level remains, 1 violations remain
(or ``--diff`` has changes), 2 usage/config/input error (one line on stderr), 3 internal error.
"""

from __future__ import annotations

from filid.cli.exits import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, EXIT_VIOLATIONS
from filid.cli.main import cli, main

__all__ = ["EXIT_INTERNAL", "EXIT_OK", "EXIT_USAGE", "EXIT_VIOLATIONS", "cli", "main"]
