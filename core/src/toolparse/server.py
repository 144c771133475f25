"""``toolparse mcp``: serve tools to an MCP client over stdio.

A small Model Context Protocol server with no dependency beyond the core: it
answers ``initialize``, ``ping``, ``tools/list`` and ``tools/call`` as
newline-delimited JSON-RPC 2.0 on stdin/stdout. Every call goes through
:func:`toolparse.execute_tool_calls`, so the client's model reads toolparse's
messages when its arguments are wrong.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from typing import IO, Any

from .calls import execute_tool_calls
from .function import Function
from .results import ToolCall

__all__ = ["PROTOCOL_VERSIONS", "McpServer"]

#: protocol revisions this server speaks, newest first
PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")

_PARSE_ERROR = -32700
_INVALID_REQUEST = -32600
_METHOD_NOT_FOUND = -32601
_INVALID_PARAMS = -32602


class McpServer:
    """Serve ``functions`` as MCP tools.

    :param functions: the tools.
    :param name: the server name reported to clients.
    :param context: the context every tool call receives (plus ``tool_call_id``).
    """

    def __init__(
        self, functions: Iterable[Function], *, name: str = "toolparse", context: Any = None
    ) -> None:
        from . import __version__, providers

        self.functions = list(functions)
        self.name = name
        self.version = __version__
        self.context = context
        self._tools = [providers.to_tool(fn, "mcp") for fn in self.functions]
        self._calls = 0

    def handle(self, message: Any) -> dict[str, Any] | None:
        """Answer one decoded JSON-RPC message (``None`` for a notification)."""
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return _error(None, _INVALID_REQUEST, "expected a JSON-RPC 2.0 object")
        method = message.get("method")
        ident = message.get("id")
        if "id" not in message:
            return None  # notifications (initialized, cancelled, ...) need no answer
        params = message.get("params") or {}
        if method == "initialize":
            asked = params.get("protocolVersion") if isinstance(params, dict) else None
            version = asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0]
            return _result(
                ident,
                {
                    "protocolVersion": version,
                    "capabilities": {"tools": {"listChanged": False}},
                    "serverInfo": {"name": self.name, "version": self.version},
                },
            )
        if method == "ping":
            return _result(ident, {})
        if method == "tools/list":
            return _result(ident, {"tools": self._tools})
        if method == "tools/call":
            return self._call(ident, params)
        return _error(ident, _METHOD_NOT_FOUND, f"method not found: {method}")

    def _call(self, ident: Any, params: Any) -> dict[str, Any]:
        from . import providers

        if not isinstance(params, dict) or not isinstance(params.get("name"), str):
            return _error(ident, _INVALID_PARAMS, "tools/call needs a tool name")
        self._calls += 1
        call = ToolCall(f"mcp-{self._calls}", params["name"], params.get("arguments"))
        (result,) = execute_tool_calls(self.functions, [call], self.context)
        (message,) = providers.to_result_message([result], "mcp")
        return _result(ident, message)

    def serve(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        """Answer messages, one JSON object per line, until stdin closes."""
        reader = stdin or sys.stdin
        writer = stdout or sys.stdout
        for line in reader:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError as exc:
                reply: dict[str, Any] | None = _error(None, _PARSE_ERROR, f"invalid JSON: {exc}")
            else:
                reply = self.handle(message)
            if reply is not None:
                writer.write(json.dumps(reply, ensure_ascii=False) + "\n")
                writer.flush()


def _result(ident: Any, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def _error(ident: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}}


def serve(functions: Sequence[Function], name: str = "toolparse") -> None:
    """Serve ``functions`` on stdin/stdout until the client closes the stream."""
    McpServer(functions, name=name).serve()
