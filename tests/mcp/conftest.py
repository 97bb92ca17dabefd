"""MCP fixtures: a copy of examples/ inside an allowed root, the server, and a client factory."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.server import Server

from filid.mcp.server import build_server
from tests.conftest import EXAMPLES

ClientFactory = Callable[..., AbstractAsyncContextManager[Client]]


@dataclass(frozen=True)
class Workspace:
    """An allowed root holding the example project, and a sibling directory outside it."""

    allowed: Path
    project: Path
    outside: Path


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    allowed = tmp_path / "allowed"
    project = allowed / "project"
    shutil.copytree(EXAMPLES, project, ignore=shutil.ignore_patterns(".filid/cache", "cache"))
    outside = tmp_path / "outside"
    shutil.copytree(EXAMPLES, outside, ignore=shutil.ignore_patterns("cache"))
    return Workspace(allowed=allowed.resolve(), project=project.resolve(), outside=outside)


@pytest.fixture
def server(workspace: Workspace) -> Server[Any]:
    return build_server([workspace.allowed], cwd=workspace.allowed)


@pytest.fixture(params=["auto", "legacy"])
def mode(request: pytest.FixtureRequest) -> str:
    """Both protocol modes: the 2026 per-request path and the initialize handshake."""
    return str(request.param)


@pytest.fixture
def connect(server: Server[Any], mode: str) -> ClientFactory:
    @asynccontextmanager
    async def open_client() -> AsyncIterator[Client]:
        async with Client(server, mode=mode) as client:
            yield client

    return open_client
