"""MCP (Model Context Protocol): ``Tool`` definitions, ``tools/call``, ``CallToolResult``."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..results import ContentPart, ImagePart, TextPart, ToolCall, ToolResult
from ._base import BuiltinProvider, NameRule, content_parts, id_maker, plain
from ._schema import parameters

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["MCPProvider"]


class MCPProvider(BuiltinProvider):
    """The ``"mcp"`` provider: what an MCP server lists and answers."""

    name = "mcp"
    name_rule = NameRule(
        "mcp",
        r"[A-Za-z0-9._-]{1,128}",
        "1 to 128 of A-Z, a-z, 0-9, _, - and .",
        invalid=r"[^A-Za-z0-9._-]",
        max_length=128,
    )
    shapes = "a tools/call request, its params, or a list of them"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """A ``Tool``: ``{name, title, description, inputSchema, outputSchema, annotations}``."""
        tool = self.head(function)
        options = function.options or {}
        if options.get("title") is not None:
            tool = {"name": tool.pop("name"), "title": options["title"], **tool}
        tool["inputSchema"] = parameters(function, self.name)
        for option, key in (("output_schema", "outputSchema"), ("annotations", "annotations")):
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
            tool[key] = copy.deepcopy(dict(value))
        return tool

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The calls in a ``tools/call`` request, its ``params``, or a batch of them."""
        data = plain(payload)
        batch = isinstance(data, list)
        requests = [plain(item) for item in data] if batch else [data]
        make_id = id_maker("mcp-call-")
        found: list[ToolCall] = []
        params: Any  # a call keeps the name it came with
        for request in requests:
            if not isinstance(request, Mapping):
                raise self.expected(payload)
            if "method" in request:
                if request["method"] != "tools/call":
                    if batch:
                        continue  # another request in a batch
                    raise self.expected(payload)
                request_id, params = request.get("id"), plain(request.get("params"))
                if not isinstance(params, Mapping):
                    raise self.expected(payload)
            elif "name" in request and not _FOREIGN_KEYS & request.keys():
                request_id, params = None, request
            elif batch and "jsonrpc" in request:
                continue  # a response in a batch
            else:
                raise self.expected(payload)
            found.append(ToolCall(make_id(request_id), params.get("name"), params.get("arguments")))
        return found

    def answer(self, result: ToolResult) -> dict[str, Any]:
        """A ``CallToolResult``: ``{content, isError[, structuredContent]}``."""
        message: dict[str, Any] = {"content": [self._part(p) for p in content_parts(result)]}
        structured = (result.options or {}).get("structured_content")
        if structured is not None:
            message["structuredContent"] = structured
        message["isError"] = bool(result.is_error)
        return message

    def _part(self, part: ContentPart) -> dict[str, Any]:
        if isinstance(part, TextPart):
            return {"type": "text", "text": part.text}
        if not isinstance(part, ImagePart):
            raise self.cannot_carry(part, "a CallToolResult")
        if not part.url:
            return {"type": "image", "data": part.data, "mimeType": part.media_type}
        name = part.data.rstrip("/").rsplit("/", 1)[-1] or "image"
        return {
            "type": "resource_link",
            "uri": part.data,
            "name": name,
            "mimeType": part.media_type,
        }


# keys of other APIs' calls that tools/call params never have
_FOREIGN_KEYS = frozenset({"type", "input", "args", "function", "call_id", "id"})
