"""The check workflow: load or reuse a project, evaluate the rules, and shape the result.

:func:`run_check` (``workflow``) is the one function every door calls (CLI, MCP server,
hooks, the GitHub Action through the CLI). Below it: ``engine`` runs the pipeline (config →
scan → parse → graph → rules) once; ``snapshot`` reuses an earlier result when nothing it read
has changed; ``scoping``, ``change_set``, ``baseline`` and ``new_since`` narrow or extend what
a check reports.
"""

from filid.check.workflow import (
    BaselineCounts,
    BaselineFile,
    CheckOptions,
    CheckRun,
    NothingStaged,
    run_check,
)

__all__ = [
    "BaselineCounts",
    "BaselineFile",
    "CheckOptions",
    "CheckRun",
    "NothingStaged",
    "run_check",
]
