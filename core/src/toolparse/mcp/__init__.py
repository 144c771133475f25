"""toolparse on MCP, on the official ``mcp`` SDK (``pip install "toolparse[mcp]"``).

Serve Functions or a Toolset as an MCP server, over stdio or Streamable HTTP::

    import toolparse.mcp

    toolparse.mcp.serve(tools)                                  # stdio
    toolparse.mcp.serve(tools, transport="streamable-http", port=8000,
                        auth_token=os.environ["MCP_TOKEN"])
    app = toolparse.mcp.asgi_app(tools, stateless=True)         # mount or run with uvicorn
    server = toolparse.mcp.make_server(tools)                   # the SDK's low-level Server

and use an MCP server's tools as Functions, validated locally before a call
is sent::

    functions = await toolparse.mcp.functions_from_session(session)

The SDK owns the protocol; toolparse owns the tool list and every call.
"""

from __future__ import annotations

try:
    import mcp as _sdk  # noqa: F401  # the extra's one dependency: fail here, clearly
except ImportError as exc:  # pragma: no cover - exercised without the extra installed
    raise ImportError(
        'toolparse.mcp needs the official MCP SDK: pip install "toolparse[mcp]"'
    ) from exc

from ._client import META_CONTEXT_KEY, functions_from_session, outcome_of
from ._request import APPROVAL_META_KEY, CONTEXT_KEY, INTERRUPT_META_KEY, McpRequest
from ._serve import asgi_app, serve, serve_stdio
from ._server import make_server

__all__ = [
    "APPROVAL_META_KEY",
    "CONTEXT_KEY",
    "INTERRUPT_META_KEY",
    "META_CONTEXT_KEY",
    "McpRequest",
    "asgi_app",
    "functions_from_session",
    "make_server",
    "outcome_of",
    "serve",
    "serve_stdio",
]
