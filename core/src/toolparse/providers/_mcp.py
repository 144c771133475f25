"""MCP (Model Context Protocol): ``Tool`` definitions, ``tools/call``, ``CallToolResult``."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..results import ImagePart, TextPart, ToolCall, ToolResult
from ._common import (
    NameRule,
    check_unique,
    content_parts,
    object_root,
    plain,
    unsupported_part,
)

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["MCPProvider"]

NAME_RULE = NameRule("mcp", r"[A-Za-z0-9._-]{1,128}", "1 to 128 of A-Z, a-z, 0-9, _, - and .")
_TOOL_OPTIONS = {"title": "title", "annotations": "annotations", "output_schema": "outputSchema"}


class MCPProvider:
    """The ``"mcp"`` provider: what an MCP server lists and answers."""

    name = "mcp"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """A ``Tool``: ``{name, description, inputSchema}``.

        ``Function.options`` may add ``title``, ``annotations`` (the hints
        ``readOnlyHint``, ``destructiveHint``, ...) and ``output_schema``
        (``outputSchema``). MCP has no strict mode: ``strict`` changes nothing.
        """
        NAME_RULE.check(function.name)
        tool: dict[str, Any] = {"name": function.name}
        options = function.options or {}
        if options.get("title") is not None:
            tool["title"] = options["title"]
        if function.description is not None:
            tool["description"] = function.description
        tool["inputSchema"] = object_root(function.json_schema(), self.name, function.name)
        for option in ("output_schema", "annotations"):
            value = options.get(option)
            if value is None:
                continue
            if not isinstance(value, Mapping):
                raise ValueError(
                    f"mcp: option {option!r} of tool {function.name!r} must be a mapping"
                )
            if option == "output_schema" and value.get("type") != "object":
                raise ValueError(
                    f'mcp: the output_schema of tool {function.name!r} must have type "object" at its root'
                )
            tool[_TOOL_OPTIONS[option]] = copy.deepcopy(dict(value))
        return tool

    def to_tools(self, functions: Sequence[Function]) -> list[dict[str, Any]]:
        """One ``Tool`` per function (names unique): the ``tools`` of ``tools/list``."""
        check_unique(functions, self.name, None)
        return [self.to_tool(fn, strict=fn.strict) for fn in functions]

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The calls in a ``tools/call`` request, its ``params``, or a batch of them.

        The call id is the JSON-RPC request id as a string; without one (bare
        ``params``), the tool name.
        """
        data = plain(payload)
        requests = data if isinstance(data, list) else [data]
        calls = []
        for request in map(plain, requests):
            if not isinstance(request, Mapping):
                raise ValueError(
                    "mcp: expected a tools/call request, its params, or a list of them, "
                    f"got {type(payload).__name__}"
                )
            if "method" in request and request["method"] != "tools/call":
                continue  # another request in a batch
            params = plain(request.get("params")) if "params" in request else request
            if not isinstance(params, Mapping) or "name" not in params:
                raise ValueError("mcp: a tools/call request needs params with a tool name")
            request_id = request.get("id")
            name = params["name"]
            call_id = str(request_id) if request_id is not None else name
            calls.append(ToolCall(call_id, name, params.get("arguments")))
        return calls

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """One ``CallToolResult`` per result: ``{content, isError[, structuredContent]}``.

        Text → ``text`` content, base64 images → ``image`` content, image URLs
        → ``resource_link``. ``is_error`` → ``isError: true``;
        ``ToolResult.options={"structured_content": {...}}`` → ``structuredContent``.
        """
        out = []
        for result in results:
            content: list[dict[str, Any]] = []
            for part in content_parts(result):
                if isinstance(part, TextPart):
                    content.append({"type": "text", "text": part.text})
                elif isinstance(part, ImagePart) and part.url:
                    name = part.data.rstrip("/").rsplit("/", 1)[-1] or "image"
                    content.append(
                        {
                            "type": "resource_link",
                            "uri": part.data,
                            "name": name,
                            "mimeType": part.media_type,
                        }
                    )
                elif isinstance(part, ImagePart):
                    content.append(
                        {"type": "image", "data": part.data, "mimeType": part.media_type}
                    )
                else:
                    raise unsupported_part(part, self.name, "a CallToolResult")
            message: dict[str, Any] = {"content": content}
            structured = (result.options or {}).get("structured_content")
            if structured is not None:
                message["structuredContent"] = structured
            message["isError"] = bool(result.is_error)
            out.append(message)
        return out
