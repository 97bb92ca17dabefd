"""The parse stage: source files → FileFacts with tree-sitter (SPEC §3), with a disk cache."""

from __future__ import annotations

from filid.parse.extract import parse_source
from filid.parse.files import ParseResult, parse_files

__all__ = ["ParseResult", "parse_files", "parse_source"]
