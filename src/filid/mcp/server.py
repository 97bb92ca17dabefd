"""The MCP server (low-level ``mcp.server.Server``): five tools and the rules resource.

The SDK's low-level server neither validates tool arguments nor turns handler exceptions into
``isError`` results, so this module does both: arguments are checked against the published
schema, the ``path`` argument against the allowed roots, and every failure of a tool becomes
an ``isError`` result with a one-line reason (never a JSON-RPC error, never a crash). Tools run
in worker threads so that concurrent calls do not block the event loop.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
import os
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import anyio
import anyio.to_thread
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types.jsonrpc import INVALID_PARAMS

from filid import __version__
from filid.mcp import resources, tools
from filid.mcp.budget import compact
from filid.mcp.fix_plans import PlanRegistry
from filid.mcp.framing import serve_stdio
from filid.mcp.schemas import shown_prefix, validate_arguments
from filid.model.errors import FilidError, FixCancelled, InputError
from filid.scan.universe import resolve_root
from filid.store.journal import recover_interrupted_fix
from filid.store.restore import Recovery

__all__ = ["build_server", "call_tool", "resolve_roots", "resolve_tool_path", "run_stdio"]

SERVER_NAME: Final = "filid"

# JSON-RPC code of "resource not found" (MCP specification, resources).
RESOURCE_NOT_FOUND: Final = -32002

logger = logging.getLogger("filid.mcp")


def resolve_roots(roots: Sequence[Path]) -> tuple[Path, ...]:
    """The allowed roots as absolute real paths (``InputError`` for a missing one)."""
    resolved: list[Path] = []
    for root in roots:
        try:
            resolved.append(resolve_root(root))
        except InputError as error:
            raise InputError(f"--root {error}") from None
    return tuple(dict.fromkeys(resolved))


def resolve_tool_path(raw: str, roots: Sequence[Path], cwd: Path) -> Path:
    """The project root a tool call names: inside an allowed root, existing, a directory.

    ``raw`` is absolute or relative to ``cwd``; symbolic links are resolved before the roots
    are compared, so a link cannot lead outside them. Errors echo a short prefix of ``raw``.
    """
    return _resolve_and_recover(raw, roots, cwd)[0]


def _resolve_and_recover(
    raw: str, roots: Sequence[Path], cwd: Path
) -> tuple[Path, Recovery | None]:
    """:func:`resolve_tool_path`, and what undoing an interrupted fix there did (if any)."""
    shown = shown_prefix(raw)
    try:
        candidate = Path(raw).expanduser()
        if not candidate.is_absolute():
            candidate = cwd / candidate
        real = candidate.resolve()
    except (RuntimeError, OSError, ValueError) as error:
        reason = (
            "symbolic link loop"
            if isinstance(error, RuntimeError)
            else error.strerror
            if isinstance(error, OSError)
            else str(error)
        )
        raise InputError(f"{shown}: cannot open ({reason})") from None
    if not any(real.is_relative_to(root) for root in roots):
        allowed = ", ".join(str(r) for r in roots)
        raise InputError(f"{shown}: outside the allowed roots ({allowed})")
    recovery: Recovery | None = None
    try:
        if real.is_dir():
            recovery = recover_interrupted_fix(real)
        return resolve_root(real), recovery
    except OSError as error:
        raise InputError(f"{shown}: cannot open ({error.strerror})") from None
    except InputError:
        if not real.exists():
            raise InputError(f"{shown}: no such directory") from None
        raise InputError(f"{shown}: not a directory") from None


def _text(value: str) -> list[types.ContentBlock]:
    return [types.TextContent(type="text", text=value)]


# An error text is one line, and short whatever maxChars says (the smallest budget allowed).
ERROR_MAX_CHARS: Final = 1000


def _error(message: str, next_actions: Sequence[dict[str, Any]] = ()) -> types.CallToolResult:
    message = " ".join(message.split())
    if len(message) > ERROR_MAX_CHARS:
        message = message[: ERROR_MAX_CHARS - 1] + "…"
    structured = {"error": message, "nextActions": list(next_actions)} if next_actions else None
    return types.CallToolResult(
        content=_text(message), structured_content=structured, is_error=True
    )


def _scrubbed(message: str, args: Mapping[str, Any]) -> str:
    """``message`` with every long string argument it echoes cut to a short prefix."""
    given = [v for v in args.values() if isinstance(v, str)]
    given += [i for v in args.values() if isinstance(v, list) for i in v if isinstance(i, str)]
    for value in sorted(given, key=len, reverse=True):
        for form in (value, value.strip().strip("/").removeprefix("./")):
            if len(form) > 80 and form in message:
                message = message.replace(form, shown_prefix(form))
    return message


def call_tool(
    name: str,
    arguments: Mapping[str, Any] | None,
    *,
    roots: Sequence[Path],
    cwd: Path,
    context: tools.ToolContext,
) -> types.CallToolResult:
    """Run one tool call to completion (blocking) and wrap its outcome as a result.

    A known tool name is required (the handler checks it first); every other failure —
    bad arguments, a path outside the roots, a library error, a bug — becomes ``isError``.
    """
    spec = tools.TOOLS_BY_NAME[name]
    args: dict[str, Any] = {}
    root: Path | None = None
    recovery: Recovery | None = None
    try:
        args = validate_arguments(spec.input_schema, arguments)
        root, recovery = _resolve_and_recover(args["path"], roots, cwd)
        data = spec.run(context, root, args)
    except FixCancelled as error:
        assert root is not None
        context.notices[root] = {
            "files": list(error.restored),
            "reason": "a fix was cancelled by its client (notifications/cancelled) before its "
            "commit point: nothing was applied",
        }
        return _error(str(error))
    except InputError as error:
        actions: list[dict[str, Any]] = []
        if name == "lca-resolve" and root is not None:
            actions = tools.lca_error_actions(error, root, args)
        return _error(_scrubbed(str(error), args), actions)
    except FilidError as error:
        return _error(_scrubbed(str(error), args))
    except OSError as error:
        culprit = shown_prefix(os.fsdecode(error.filename)) if error.filename else "a file"
        return _error(f"{culprit}: cannot read ({error.strerror or error})")
    except Exception as error:
        logger.exception("tool %s failed", name)
        return _error(f"internal error: {type(error).__name__}: {shown_prefix(str(error), 300)}")
    notice = context.notices.pop(root, None)
    if recovery is not None:
        notice = {
            "files": list(recovery.restored),
            "reason": "a fix on this project was interrupted (the process was killed or "
            "crashed): every file it had written was put back before this call read the tree"
            + (f"; problems: {'; '.join(recovery.problems)}" if recovery.problems else ""),
        }
    if notice is not None:
        data = _with_notice(data, notice, int(args["maxChars"]))
    # Compact JSON: the budget counts this text, and an agent reads every byte of it.
    return types.CallToolResult(content=_text(compact(data)), structured_content=data)


def _with_notice(data: dict[str, Any], notice: dict[str, Any], max_chars: int) -> dict[str, Any]:
    """``data`` with ``restored: {files, reason}`` after the summary, within ``max_chars``
    (files beyond it are counted in ``more``)."""
    files: list[str] = notice["files"]
    reason = shown_prefix(notice["reason"], 600)
    for shown in (len(files), 20, 5, 0):
        restored: dict[str, Any] = {"files": files[:shown], "reason": reason}
        if shown < len(files):
            restored["more"] = len(files) - shown
        head = {k: v for k, v in data.items() if k == "summary"}
        candidate = {**head, "restored": restored, **data}
        if len(compact(candidate)) <= max_chars or shown == 0:
            return candidate
    return data  # pragma: no cover - the loop always returns


def _tool_definition(spec: tools.ToolSpec) -> types.Tool:
    return types.Tool(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        input_schema=spec.input_schema,
        output_schema=spec.output_schema,
        annotations=types.ToolAnnotations(
            title=spec.title,
            read_only_hint=spec.read_only,
            destructive_hint=None if spec.read_only else True,
            idempotent_hint=True,
            open_world_hint=False,
        ),
    )


def _instructions(roots: Sequence[Path]) -> str:
    allowed = ", ".join(str(r) for r in roots)
    return (
        "filid checks that a TypeScript/JavaScript project keeps a clean fractal structure "
        "(Fractal Context Architecture). Every tool takes `path`, the project root, which must "
        f"lie inside an allowed root: {allowed}. Start with fractal-scan to see the tree, then "
        "structure-validate (preview=true shows the safe fixes as a diff with a planToken, "
        "fix=true with that planToken applies exactly them) or drift-detect; lca-resolve "
        "tells where code shared by two modules belongs; rule-query and the resource "
        "filid://rules explain the rules. Every answer starts with a summary, fits maxChars "
        "(default 20000, at most 50000), says per list in `truncated` when items were left "
        "out, and lists nextActions: "
        "tool calls ({tool, args, why}) to make as they are, including the next page."
    )


def build_server(roots: Sequence[Path], *, cwd: Path | None = None) -> Server[Any]:
    """The filid MCP server for the given allowed roots (already-resolved or not).

    ``cwd`` is the directory relative ``path`` arguments are resolved against (default: the
    process's working directory when the server is built).
    """
    allowed = resolve_roots(roots)
    base = cwd if cwd is not None else Path(os.getcwd())
    context = tools.ToolContext(locks=tools.RootLocks(), plans=PlanRegistry())
    tool_list = types.ListToolsResult(tools=[_tool_definition(spec) for spec in tools.TOOLS])
    resource = types.Resource(
        uri=resources.RULES_URI,
        name="rules",
        title="filid rule catalogue",
        description=resources.RULES_DESCRIPTION,
        mime_type=resources.RULES_MIME_TYPE,
    )

    async def on_list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return tool_list

    async def on_call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name not in tools.TOOLS_BY_NAME:
            valid = ", ".join(tools.TOOLS_BY_NAME)
            raise MCPError(INVALID_PARAMS, f"unknown tool '{params.name}' (tools: {valid})")
        # The thread asks whether the call was cancelled (notifications/cancelled cancels
        # this handler's scope): a fix then stops before its commit point and restores every
        # file. The handler waits for the thread before it lets the cancellation through;
        # the SDK sends no answer to a cancelled request (as the spec says), and the next
        # answer on that root says what happened (`restored`).
        cancel = threading.Event()
        done = threading.Event()

        def work() -> types.CallToolResult:
            try:
                return call_tool(
                    params.name,
                    params.arguments,
                    roots=allowed,
                    cwd=base,
                    context=dataclasses.replace(context, cancelled=cancel.is_set),
                )
            finally:
                done.set()

        try:
            return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except anyio.get_cancelled_exc_class():
            cancel.set()
            with anyio.CancelScope(shield=True):
                while not done.is_set():
                    await anyio.sleep(0.02)
            raise

    async def on_list_resources(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[resource])

    async def on_read_resource(
        ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        if str(params.uri) != resources.RULES_URI:
            raise MCPError(
                RESOURCE_NOT_FOUND,
                f"unknown resource '{params.uri}' (resources: {resources.RULES_URI})",
            )
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(
                    uri=resources.RULES_URI,
                    mime_type=resources.RULES_MIME_TYPE,
                    text=resources.rules_markdown(),
                )
            ]
        )

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=_instructions(allowed),
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
        on_list_resources=on_list_resources,
        on_read_resource=on_read_resource,
    )


def _configure_logging() -> None:
    """Log to stderr: stdout belongs to the protocol."""
    root_logger = logging.getLogger("filid")
    if not root_logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("filid mcp: %(levelname)s: %(message)s"))
        root_logger.addHandler(handler)
        root_logger.setLevel(logging.INFO)
        root_logger.propagate = False


def run_stdio(roots: list[Path]) -> None:
    """Serve MCP on stdin/stdout until the client closes the connection.

    Raises ``InputError`` (before serving) for a root that is not an existing directory.
    Nothing is written to stdout but protocol messages; logs go to stderr.
    """
    gc.enable()  # the CLI turns it off for one-shot commands; a server runs for hours
    allowed = resolve_roots(roots)
    server = build_server(allowed)
    _configure_logging()
    logger.info("serving %s (roots: %s)", __version__, ", ".join(str(r) for r in allowed))
    try:
        anyio.run(serve_stdio, server)
    except KeyboardInterrupt:
        logger.info("interrupted")
