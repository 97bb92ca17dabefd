"""Turning tree-sitter positions (rows and byte columns) into filid Spans.

Tree-sitter reports byte columns; users and GitHub want character columns and SARIF wants
UTF-16 code units, so non-ASCII lines are decoded to count them.
"""

from __future__ import annotations

from tree_sitter import Node

from filid.model.builders import builder
from filid.model.facts import Span

# Spans are built for every import and statement of every file: the fast constructor.
_SPAN = builder(Span)


class SpanMaker:
    """Builds Spans for one source text (ASCII files take a fast path)."""

    __slots__ = ("_ascii", "_source")

    def __init__(self, source: bytes) -> None:
        self._source = source
        self._ascii = source.isascii()

    def node(self, node: Node) -> Span:
        """The span of ``node``."""
        start_row, start_col = node.start_point
        end_row, end_col = node.end_point
        if self._ascii:  # the common case, inlined: spans are built for every statement
            return _SPAN(
                start_row + 1,
                start_col + 1,
                end_row + 1,
                end_col + 1,
                node.start_byte,
                node.end_byte,
                start_col + 1,
            )
        return self.make(start_row, start_col, end_row, end_col, node.start_byte, node.end_byte)

    def string_contents(self, node: Node, start: int, end: int, one_line: bool = False) -> Span:
        """The span of a string literal's contents, without its one-byte quotes; ``start``
        and ``end`` are the literal's byte offsets, ``one_line`` says it holds no newline
        (its end point then follows from its start without asking the tree)."""
        start_row, start_col = node.start_point
        if one_line:
            end_row, end_col = start_row, start_col + end - start
        else:
            end_row, end_col = node.end_point
        start_byte = start + 1
        end_byte = max(start_byte, end - 1)
        if self._ascii:
            return _SPAN(
                start_row + 1,
                start_col + 2,
                end_row + 1,
                end_col,
                start_byte,
                end_byte,
                start_col + 2,
            )
        return self.make(
            start_row, start_col + 1, end_row, max(end_col - 1, 0), start_byte, end_byte
        )

    def make(
        self,
        start_row: int,
        start_col: int,
        end_row: int,
        end_col: int,
        start_byte: int,
        end_byte: int,
    ) -> Span:
        """A Span from 0-based rows, byte columns and byte offsets."""
        if self._ascii:
            return _SPAN(
                start_row + 1,
                start_col + 1,
                end_row + 1,
                end_col + 1,
                start_byte,
                end_byte,
                start_col + 1,
            )
        column, utf16_column = self._columns(start_byte, start_col)
        end_column, _ = self._columns(end_byte, end_col)
        return _SPAN(
            start_row + 1, column, end_row + 1, end_column, start_byte, end_byte, utf16_column
        )

    def _columns(self, byte: int, byte_col: int) -> tuple[int, int]:
        """1-based (character, UTF-16) columns of the position ``byte_col`` bytes into a line."""
        prefix = self._source[byte - byte_col : byte]
        if prefix.isascii():
            return byte_col + 1, byte_col + 1
        text = prefix.decode("utf-8", "replace")
        utf16 = len(text.encode("utf-16-le", "surrogatepass")) // 2
        return len(text) + 1, utf16 + 1
