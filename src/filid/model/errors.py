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
