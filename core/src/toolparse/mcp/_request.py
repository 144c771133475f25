"""What a tool learns about the MCP request it answers, and how it reports progress."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext
    from mcp.server.session import ServerSession
    from mcp_types import Implementation

__all__ = ["APPROVAL_META_KEY", "CONTEXT_KEY", "INTERRUPT_META_KEY", "McpRequest", "request_of"]

#: the key of the context mapping that holds the :class:`McpRequest`
CONTEXT_KEY = "mcp"
#: a ``tools/call`` ``_meta`` key a client sets to ``true`` once a person approved the call
APPROVAL_META_KEY = "toolparse/approved"
#: the ``_meta`` key of an error result that carries an interrupt (``{"display", "data"}``)
INTERRUPT_META_KEY = "toolparse/interrupt"

# how long a sync tool's report_progress waits for the notification to be sent
_SEND_TIMEOUT = 5.0


class McpRequest:
    """The MCP request a tool call came from: ``context["mcp"]`` inside the tool.

    :ivar request_id: the JSON-RPC request id (also the call's ``tool_call_id``, as text).
    :ivar client_info: the client's name and version (``mcp.types.Implementation``),
        or ``None`` when the client did not say.
    :ivar progress_token: the token the client asked progress for, or ``None``.
    :ivar meta: the request's ``_meta`` mapping (empty when it had none).
    :ivar protocol_version: the protocol revision the connection speaks.
    """

    __slots__ = (
        "_loop",
        "_pending",
        "_session",
        "client_info",
        "meta",
        "progress_token",
        "protocol_version",
        "request_id",
    )

    def __init__(
        self,
        request_id: str | int | None,
        client_info: Implementation | None,
        progress_token: str | int | None,
        meta: Mapping[str, Any],
        protocol_version: str,
        session: ServerSession | None = None,
    ) -> None:
        self.request_id = request_id
        self.client_info = client_info
        self.progress_token = progress_token
        self.meta = meta
        self.protocol_version = protocol_version
        self._session = session
        self._loop = asyncio.get_running_loop() if session is not None else None
        # progress notifications an async tool started and nobody awaits yet
        self._pending: set[asyncio.Future[None]] | None = None

    @property
    def approved(self) -> bool:
        """Whether the client marked this call approved (``_meta["toolparse/approved"]``)."""
        return self.meta.get(APPROVAL_META_KEY) is True

    async def areport_progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        """Send a progress notification for this call (from an ``async def`` tool).

        Nothing is sent when the client did not ask for progress.
        """
        if self._session is not None:
            await self._session.report_progress(progress, total, message)

    def report_progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        """Send a progress notification for this call (from a sync tool).

        A sync tool runs in a worker thread: the notification is sent on the
        server's event loop and this returns once it is on its way, so
        notifications arrive in the order they were reported.
        """
        loop = self._loop
        if loop is None or self._session is None:
            return
        coro = self._session.report_progress(progress, total, message)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            # called from the loop itself (an async tool): it cannot block here
            task = loop.create_task(coro)
            if self._pending is None:
                self._pending = set()
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)
            return
        future = asyncio.run_coroutine_threadsafe(coro, loop)
        try:
            future.result(_SEND_TIMEOUT)
        except Exception:
            pass  # progress is advisory: a closed connection must not fail the tool

    def __repr__(self) -> str:
        client = self.client_info.name if self.client_info is not None else None
        return f"McpRequest(request_id={self.request_id!r}, client={client!r}, progress_token={self.progress_token!r})"


def request_of(ctx: ServerRequestContext[Any, Any]) -> McpRequest:
    """The request of a ``tools/call`` the server answers, from the SDK's request context."""
    params = ctx.params
    meta = params.get("_meta") if params else None
    meta = meta if isinstance(meta, Mapping) else {}
    token = meta.get("progressToken")
    client = ctx.session.client_params
    return McpRequest(
        ctx.request_id,
        client.client_info if client is not None else None,
        token if isinstance(token, (str, int)) and token is not True else None,
        meta,
        ctx.protocol_version,
        ctx.session,
    )
