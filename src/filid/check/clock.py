"""The one clock the reports read: when a check, scan or drift answer was made."""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["timestamp"]


def timestamp() -> str:
    """The current UTC time, ISO 8601 with seconds."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
