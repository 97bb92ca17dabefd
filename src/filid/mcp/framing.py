"""JSON-RPC framing on stdio: every malformed request that can be answered is answered.

The SDK's stdio transport drops a line it cannot parse as a JSON-RPC message without a reply,
so a client that sent a request with an ``id`` and, say, string ``params`` waits for ever.
This layer screens each line before the SDK sees it (:func:`screen`) and answers what the
JSON-RPC 2.0 specification says to answer:

- a line that is not JSON: ``-32700`` (parse error), ``id: null``;
- JSON that is not a request object (an array — MCP has no batches —, a number, an object
  with no ``method`` that is not a response, an ``id`` that is not a string or a number):
  ``-32600`` (invalid request), with the ``id`` when it is usable, else ``id: null``;
- a request with a usable ``id`` whose ``jsonrpc`` is not "2.0" or whose ``method`` is not a
  string: ``-32600`` with that ``id``;
- a request with a usable ``id`` whose ``params`` is not an object: ``-32602`` (invalid
  params) with that ``id`` (MCP's params are objects; the method is known, its params not);
- anything else the SDK's message model rejects, with a usable ``id``: ``-32600``.

Ignored, as the specification says: notifications (no ``id``), well-formed or not, and
responses (the server sent no request they could answer), and blank lines. Well-formed
messages pass on to the SDK untouched; the SDK answers unknown methods (-32601) and bad
params of a known method itself.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import suppress
from io import TextIOWrapper
from typing import Any, Final, cast

import anyio
import mcp.types as types
from mcp.server import Server
from mcp.shared.message import SessionMessage
from mcp.types.jsonrpc import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR

__all__ = ["screen", "serve_stdio"]

JsonObject = dict[str, Any]

_PASS: Final = "pass"
_IGNORE: Final = "ignore"


def _usable_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _error(request_id: object, code: int, message: str) -> JsonObject:
    return {
        "jsonrpc": "2.0",
        "id": request_id if _usable_id(request_id) else None,
        "error": {"code": code, "message": message},
    }


def screen(line: str) -> str | JsonObject:
    """``"pass"`` (hand the line to the SDK), ``"ignore"``, or the error response to send."""
    if not line.strip():
        return _IGNORE
    try:
        message = json.loads(line)
    except ValueError:
        return _error(None, PARSE_ERROR, "Parse error: the line is not JSON")
    if isinstance(message, list):
        return _error(None, INVALID_REQUEST, "Invalid request: batches are not supported")
    if not isinstance(message, dict):
        return _error(None, INVALID_REQUEST, "Invalid request: not a JSON-RPC object")
    has_id = "id" in message
    request_id = message.get("id")
    if "method" not in message:
        if has_id and ("result" in message or "error" in message):
            return _PASS if _valid(message) else _IGNORE  # a response: never answered
        return _error(request_id, INVALID_REQUEST, "Invalid request: no method")
    if not has_id:
        return _PASS if _valid(message) else _IGNORE  # a notification: never answered
    if not _usable_id(request_id):
        return _error(None, INVALID_REQUEST, "Invalid request: id must be a string or a number")
    if message.get("jsonrpc") != "2.0":
        return _error(request_id, INVALID_REQUEST, 'Invalid request: jsonrpc must be "2.0"')
    if not isinstance(message["method"], str):
        return _error(request_id, INVALID_REQUEST, "Invalid request: method must be a string")
    if "params" in message and not isinstance(message["params"], dict):
        return _error(request_id, INVALID_PARAMS, "Invalid params: params must be an object")
    if not _valid(message):
        return _error(request_id, INVALID_REQUEST, "Invalid request")
    return _PASS


def _valid(message: JsonObject) -> bool:
    try:
        types.jsonrpc_message_adapter.validate_python(message, by_name=False)
    except Exception:
        return False
    return True


class _ScreenedLines:
    """The lines of ``source`` that pass :func:`screen`; the others are answered on
    ``reply`` (attached once the transport exists) or dropped."""

    def __init__(self, source: AsyncIterator[str]) -> None:
        self._source = source
        self._reply: Any = None
        self._attached = anyio.Event()

    def attach(self, reply: Any) -> None:
        self._reply = reply
        self._attached.set()

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._source:
            verdict = screen(line)
            if verdict == _PASS:
                yield line
            elif isinstance(verdict, dict):
                await self._attached.wait()
                response = types.JSONRPCError.model_validate(verdict)
                with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                    await self._reply.send(SessionMessage(response))


async def serve_stdio(server: Server[Any]) -> None:
    """Run ``server`` on stdin/stdout with the screening layer in front of the SDK."""
    from mcp.server.stdio import stdio_server

    wrapper = TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    stdin = anyio.wrap_file(wrapper)
    lines = _ScreenedLines(stdin.__aiter__())
    async with stdio_server(stdin=cast(Any, lines)) as (read_stream, write_stream):
        lines.attach(write_stream)
        await server.run(read_stream, write_stream, server.create_initialization_options())
