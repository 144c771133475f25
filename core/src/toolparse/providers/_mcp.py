"""MCP (Model Context Protocol): ``Tool`` definitions, ``tools/call``, ``CallToolResult``."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..results import ImagePart, TextPart, ToolCall, ToolResult
from ._common import (
    BuiltinProvider,
    IdMaker,
    NameRule,
    as_name,
    content_parts,
    expected,
    plain,
    refuse_interrupts,
    unsupported_part,
)
from ._schema import parameters

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["MCPProvider"]

NAME_RULE = NameRule(
    "mcp",
    r"[A-Za-z0-9._-]{1,128}",
    "1 to 128 of A-Z, a-z, 0-9, _, - and .",
    invalid=r"[^A-Za-z0-9._-]",
    max_length=128,
)
_TOOL_OPTIONS = {"title": "title", "annotations": "annotations", "output_schema": "outputSchema"}


class MCPProvider(BuiltinProvider):
    """The ``"mcp"`` provider: what an MCP server lists and answers."""

    name = "mcp"
    name_rule = NAME_RULE

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """A ``Tool``: ``{name, description, inputSchema}``.

        ``Function.options`` may add ``title``, ``annotations`` (the hints
        ``readOnlyHint``, ``destructiveHint``, ...) and ``output_schema``
        (``outputSchema``). MCP has no strict mode: ``strict`` changes nothing.
        """
        tool: dict[str, Any] = {"name": NAME_RULE.alias(function.name, self.name)}
        options = function.options or {}
        if options.get("title") is not None:
            tool["title"] = options["title"]
        if function.description is not None:
            tool["description"] = function.description
        tool["inputSchema"] = parameters(function, self.name)
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

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The calls in a ``tools/call`` request, its ``params``, or a batch of them.

        The call id is the JSON-RPC request id as a string; without one (bare
        ``params``), an id unique within the payload (``mcp-call-1``, ...).
        In a batch, other requests and notifications are skipped.

        :raises ValueError: the payload is not a ``tools/call`` request, its
            params, or a list of them.
        """
        data = plain(payload)
        what = "a tools/call request, its params, or a list of them"
        batch = isinstance(data, list)
        requests = [plain(item) for item in data] if batch else [data]
        params_list: list[tuple[Any, Mapping[str, Any]]] = []
        for request in requests:
            if not isinstance(request, Mapping):
                raise expected(self.name, what, payload)
            if "method" in request:
                if request["method"] != "tools/call":
                    if batch:
                        continue  # another request in a batch
                    raise expected(self.name, what, payload)
                params = plain(request.get("params"))
                if not isinstance(params, Mapping):
                    raise expected(self.name, what, payload)
                params_list.append((request.get("id"), params))
            elif "name" in request and not _FOREIGN_KEYS & request.keys():
                params_list.append((None, request))
            elif batch and "jsonrpc" in request:
                continue  # a response in a batch
            else:
                raise expected(self.name, what, payload)
        make_id = IdMaker("mcp-call-")
        calls = []
        for request_id, params in params_list:
            calls.append(
                ToolCall(make_id(request_id), as_name(params.get("name")), params.get("arguments"))
            )
        return calls

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """One ``CallToolResult`` per result: ``{content, isError[, structuredContent]}``.

        Text → ``text`` content, base64 images → ``image`` content, image URLs
        → ``resource_link``. ``is_error`` → ``isError: true``;
        ``ToolResult.options={"structured_content": {...}}`` → ``structuredContent``.
        """
        refuse_interrupts(results)
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


# keys of other APIs' calls that tools/call params never have
_FOREIGN_KEYS = frozenset({"type", "input", "args", "function", "call_id", "id"})
