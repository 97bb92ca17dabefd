"""JSON text from a repository, read with one rule for numbers too long to convert.

Python refuses to turn a string of more than 4,300 digits into an ``int``
(``sys.get_int_max_str_digits``) with a bare ``ValueError``, which every caller would take for
an internal error (exit 3). :func:`loads` reports such a number as what it is, a
:class:`json.JSONDecodeError` at the number's position, so a config, tsconfig, manifest or
baseline holding one is the same one-line input error (exit 2) as any other malformed JSON.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

__all__ = ["loads"]

_LONG_NUMBER = re.compile(r"-?\d{1000,}")


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``; a number too long to convert raises ``JSONDecodeError``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:
        document = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        found = _LONG_NUMBER.search(document)
        position = found.start() if found else 0
        raise json.JSONDecodeError(
            f"a number too long to read (more than {sys.get_int_max_str_digits()} digits)",
            document,
            position,
        ) from None
