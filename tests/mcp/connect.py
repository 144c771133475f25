"""Connecting the SDK's own client to a toolparse MCP server in process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp import ClientSession
from mcp.server.lowlevel import Server
from mcp.shared.memory import create_client_server_memory_streams


@asynccontextmanager
async def memory_session(server: Server[Any], **kwargs: Any) -> AsyncIterator[ClientSession]:
    """An initialized ClientSession talking to ``server`` over the SDK's memory streams."""
    async with (
        create_client_server_memory_streams() as (client_streams, server_streams),
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(
            lambda: server.run(
                server_streams[0], server_streams[1], server.create_initialization_options()
            )
        )
        async with ClientSession(client_streams[0], client_streams[1], **kwargs) as session:
            await session.initialize()
            yield session
        tg.cancel_scope.cancel()
