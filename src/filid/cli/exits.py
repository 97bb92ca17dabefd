"""Exit codes and the one-line error path shared by every command."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import click

from filid.model.errors import FilidError
from filid.model.escape import visible
from filid.model.report import ValidationResult

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

F = TypeVar("F", bound=Callable[..., Any])

FAIL_LEVELS = {"error": 0, "warning": 1, "info": 2, "never": -1}


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``filid: <message>`` on stderr (one line) and exit with ``code``."""
    # One line, whatever the repository put in a path: no workflow command, no escape code.
    click.echo(f"filid: {visible(message)}", err=True)
    sys.exit(code)


def guarded(func: F) -> F:
    """Turn library errors into a one-line message and exit 2; anything else into exit 3."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except FilidError as error:
            fail(str(error))
        except (click.exceptions.Exit, click.ClickException, SystemExit, KeyboardInterrupt):
            raise
        except BrokenPipeError:
            sys.exit(EXIT_OK)
        except Exception as error:
            if os.environ.get("FILID_DEBUG"):
                raise
            fail(
                f"internal error: {type(error).__name__}: {error} (set FILID_DEBUG=1 for details)",
                EXIT_INTERNAL,
            )

    return wrapper  # type: ignore[return-value]


def exit_code(result: ValidationResult, fail_on: str, exit_zero: bool) -> int:
    """1 when a violation at or above ``fail_on`` remains (and not ``exit_zero``), else 0."""
    if exit_zero:
        return EXIT_OK
    threshold = FAIL_LEVELS[fail_on]
    if threshold < 0:
        return EXIT_OK
    failing = any(v.severity.rank <= threshold for v in result.violations)
    return EXIT_VIOLATIONS if failing else EXIT_OK
