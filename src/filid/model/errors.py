"""The exception tree library code raises; only the CLI and MCP layers map it to exit codes."""

from __future__ import annotations


class FilidError(Exception):
    """Base of every error filid reports to a user (never a traceback)."""


class InputError(FilidError):
    """A bad path, unreadable file, or other bad input (exit code 2)."""


class ConfigError(FilidError):
    """An invalid configuration file (exit code 2). The message names the file and key path."""


class UsageError(FilidError):
    """A bad command-line or tool argument (exit code 2)."""


class FixError(FilidError):
    """A fix could not be applied; every file was rolled back (exit code 2)."""


class FixLocked(FixError):
    """A fix refused because another filid fix (another process) holds the project's fix
    lock; nothing was written."""


class FixCancelled(FixError):
    """A fix run stopped by its caller before its commit point; every file was restored."""

    def __init__(self, restored: tuple[str, ...]) -> None:
        self.restored = restored
        super().__init__(
            "fix cancelled by the client before it was committed: nothing was applied"
            + (f" ({len(restored)} file(s) written so far were restored)" if restored else "")
        )
