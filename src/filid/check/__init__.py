"""The check workflow: load or reuse a project, evaluate the rules, and shape the result.

:func:`run_check` (``workflow``) is the one function every door calls (CLI, MCP server,
hooks, the GitHub Action through the CLI). Below it: ``project`` loads a project (config →
scan → parse → graph, once); ``engine`` evaluates the rules over it; ``incremental`` answers
from the result ``snapshot`` (encoded by ``result_codec``) when nothing it read has changed;
``scoping``, ``change_set``, ``baseline`` and ``new_since`` narrow or extend what a check
reports.
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
