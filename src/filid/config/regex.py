"""User regular expressions (``structure.namingPatterns``), run in linear time.

A pattern comes from the repository's configuration, and Python's ``re`` backtracks: ``(a+)+$``
against a long folder name runs for hours, holding the GIL (a CI job hangs to its timeout, the
MCP server freezes for every client). filid runs user patterns with RE2 (the ``google-re2``
package), whose automaton takes time linear in the subject, with a memory cap. RE2 has no
look-around and no back-references; a pattern that uses them is a configuration error that
names the pattern and what is unsupported, never a hang.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import re2  # type: ignore[import-untyped]

__all__ = ["UserRegexError", "compile_user_regex"]

_MAX_MEMORY = 8 << 20


class UserRegexError(ValueError):
    """A user pattern RE2 cannot run (syntax error, look-around, back-reference)."""


def _options() -> Any:
    options = re2.Options()
    options.log_errors = False  # the error is reported once, as a config error
    options.max_mem = _MAX_MEMORY
    return options


@lru_cache(maxsize=256)
def compile_user_regex(pattern: str) -> Callable[[str], bool]:
    """A linear-time ``search`` for ``pattern``: True when it matches anywhere in a string.

    Raises :class:`UserRegexError` with a one-line reason when RE2 cannot run the pattern.
    """
    try:
        compiled = re2.compile(pattern, options=_options())
    except UnicodeError:  # a lone surrogate (JSON's "\ud800") is no text RE2 can read
        raise UserRegexError("not a valid regular expression: it holds a lone surrogate") from None
    except re2.error as error:
        detail = error.args[0] if error.args else error
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        try:
            re.compile(pattern)  # only for its message when the pattern is malformed
        except re.error as malformed:
            raise UserRegexError(f"not a valid regular expression: {malformed}") from None
        raise UserRegexError(
            f"not supported by filid's linear-time regular expressions (RE2: no look-around, "
            f"no back-references): {detail}"
        ) from None

    def search(text: str) -> bool:
        try:
            return compiled.search(text) is not None
        except UnicodeError:  # a text holding a lone surrogate matches nothing
            return False

    return search
