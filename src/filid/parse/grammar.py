"""Tree-sitter languages, parsers and queries, built once per process and thread.

Compiling a query costs milliseconds, so every query is compiled once per process; parsers and
query cursors are not thread-safe, so each thread gets its own.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version

import tree_sitter_typescript
from tree_sitter import Language, Parser, Query, QueryCursor

TYPESCRIPT = Language(tree_sitter_typescript.language_typescript())
TSX = Language(tree_sitter_typescript.language_tsx())

# Extensions parsed with the plain TypeScript grammar; every other source extension uses TSX
# (the TSX grammar parses JSX but rejects `<T>x` casts, which only .ts-family files may use).
_TYPESCRIPT_EXTENSIONS = (".ts", ".mts", ".cts")

# Expressions that run code while a module is evaluated, and the places where code only runs
# later (function bodies, instance field initializers), used by the side-effect check.
_EFFECTS = """
[
  (call_expression)
  (new_expression)
  (assignment_expression)
  (augmented_assignment_expression)
  (await_expression)
  (yield_expression)
  (update_expression)
  (class_static_block)
] @effect
[
  (arrow_function)
  (function_expression)
  (generator_function)
  (method_definition)
] @deferred
(public_field_definition) @field
"""


def _grammar_version() -> str:
    try:
        return version("tree-sitter-typescript")
    except PackageNotFoundError:  # pragma: no cover - only in unusual installs
        return f"abi{TYPESCRIPT.abi_version}"


GRAMMAR_VERSION = _grammar_version()

EFFECTS_QUERY_TS = Query(TYPESCRIPT, _EFFECTS)
EFFECTS_QUERY_TSX = Query(TSX, _EFFECTS)


@dataclass(slots=True)
class Toolkit:
    """A parser and a query cursor for one grammar, owned by one thread."""

    parser: Parser
    effects: QueryCursor


class _PerThread(threading.local):
    def __init__(self) -> None:
        self.typescript = Toolkit(Parser(TYPESCRIPT), QueryCursor(EFFECTS_QUERY_TS))
        self.tsx = Toolkit(Parser(TSX), QueryCursor(EFFECTS_QUERY_TSX))


_local = _PerThread()


def is_typescript_path(path: str) -> bool:
    """Whether ``path`` is parsed with the TypeScript grammar (else TSX)."""
    return path.endswith(_TYPESCRIPT_EXTENSIONS)


def toolkit_for(path: str) -> Toolkit:
    """This thread's parser and cursors for the grammar ``path``'s extension selects."""
    return _local.typescript if is_typescript_path(path) else _local.tsx
