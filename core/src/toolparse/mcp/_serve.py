"""Running the server: stdio for desktop clients, Streamable HTTP for remote use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from ._server import make_server

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["asgi_app", "serve", "serve_stdio"]

Transport = Literal["stdio", "streamable-http"]


def asgi_app(  # noqa: PLR0913 -- API.md fixes these keyword options
    tools: Any,
    *,
    name: str = "toolparse",
    stateless: bool = False,
    path: str = "/mcp",
    host: str = "127.0.0.1",
    json_response: bool = False,
    context: Mapping[str, Any] | None = None,
    timeout: float | None = None,
) -> Starlette:
    """A Starlette (ASGI) app serving ``tools`` over Streamable HTTP at ``path``.

    :param tools: a Function, a Toolset or a list of Functions.
    :param stateless: no sessions: every request stands alone, so any of
        several server processes behind a load balancer can answer it.
    :param host: the address it will listen on; on a loopback address the SDK
        turns on DNS-rebinding protection (only local ``Host`` headers pass).
    :param json_response: answer with one JSON body instead of an SSE stream.
    :param context: entries every tool call's context starts from.
    :param timeout: seconds per call.

    The app's lifespan runs the SDK's session manager: serve it with uvicorn
    (``uvicorn module:app``), or mount it in another Starlette/FastAPI app
    whose lifespan enters ``app.router.lifespan_context(app)``.
    """
    server = make_server(tools, name=name, context=context, timeout=timeout)
    return server.streamable_http_app(
        streamable_http_path=path,
        stateless_http=stateless,
        json_response=json_response,
        host=host,
    )


async def serve_stdio(
    tools: Any,
    *,
    name: str = "toolparse",
    context: Mapping[str, Any] | None = None,
    timeout: float | None = None,
) -> None:
    """Serve ``tools`` on this process's stdin and stdout until the client closes them.

    While serving, the SDK points file descriptor 1 at stderr, so whatever a
    tool prints cannot corrupt the stream.
    """
    from mcp.server.stdio import stdio_server

    server = make_server(tools, name=name, context=context, timeout=timeout)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def serve(  # noqa: PLR0913 -- API.md fixes these keyword options
    tools: Any,
    *,
    name: str = "toolparse",
    transport: Transport = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
    stateless: bool = False,
    context: Mapping[str, Any] | None = None,
    timeout: float | None = None,
) -> None:
    """Serve ``tools`` as an MCP server until stopped.

    :param transport: ``"stdio"`` (a desktop client starts this process) or
        ``"streamable-http"`` (a remote server at ``http://host:port/mcp``).
    :param host: the address to listen on (HTTP only).
    :param port: the port to listen on (HTTP only).

    The other options are those of :func:`asgi_app` and :func:`make_server`.
    """
    if transport == "stdio":
        import anyio

        anyio.run(lambda: serve_stdio(tools, name=name, context=context, timeout=timeout))
        return
    if transport != "streamable-http":
        raise ValueError(f"transport must be 'stdio' or 'streamable-http', got {transport!r}")
    import uvicorn

    app = asgi_app(
        tools, name=name, stateless=stateless, host=host, context=context, timeout=timeout
    )
    uvicorn.run(app, host=host, port=port, log_level="warning")
