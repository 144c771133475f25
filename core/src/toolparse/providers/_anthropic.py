"""Anthropic Messages API: ``tools=[...]``, ``tool_use`` blocks, ``tool_result`` blocks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..results import ContentPart, ImagePart, TextPart, ToolCall, ToolResult
from ._common import (
    NameRule,
    cache_control,
    check_unique,
    content_parts,
    need_id,
    object_root,
    plain,
    unsupported_part,
)
from ._strict import strict_schema

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["AnthropicProvider"]

NAME_RULE = NameRule("anthropic", r"[a-zA-Z0-9_-]{1,128}", "1 to 128 of a-z, A-Z, 0-9, _ and -")
IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})


class AnthropicProvider:
    """The ``"anthropic"`` provider: the Messages API."""

    name = "anthropic"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """``{name, description, input_schema[, strict][, cache_control]}``.

        ``Function.options={"cache_control": True}`` (or ``"1h"``, or a mapping)
        adds a cache breakpoint: put it on the last tool to cache them all.
        """
        NAME_RULE.check(function.name)
        schema = object_root(function.json_schema(), self.name, function.name)
        for key in ("anyOf", "oneOf", "allOf"):
            if key in schema:
                raise ValueError(
                    f"anthropic: the input_schema of tool {function.name!r} may not use "
                    f"{key} at the top level"
                )
        if strict:
            try:
                schema = strict_schema(schema, "anthropic")
            except ValueError as exc:
                raise ValueError(f"anthropic: tool {function.name!r}: {exc}") from None
        tool: dict[str, Any] = {"name": function.name}
        if function.description is not None:
            tool["description"] = function.description
        tool["input_schema"] = schema
        if strict:
            tool["strict"] = True
        control = cache_control(
            (function.options or {}).get("cache_control"), f"tool {function.name!r}"
        )
        if control is not None:
            tool["cache_control"] = control
        return tool

    def to_tools(self, functions: Sequence[Function]) -> list[dict[str, Any]]:
        """One tool per function (names unique)."""
        check_unique(functions, self.name, None)
        return [self.to_tool(fn, strict=fn.strict) for fn in functions]

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The ``tool_use`` blocks of a ``Message``, a message param, or a list of blocks."""
        data = plain(payload)
        if isinstance(data, Mapping) and "content" in data:
            blocks = data["content"]
            if isinstance(blocks, str):
                return []
        elif isinstance(data, Mapping) and "type" in data:
            blocks = [data]
        elif isinstance(data, list):
            blocks = data
        else:
            raise ValueError(
                "anthropic: expected a Message, a message param, a list of content "
                f"blocks or a tool_use block, got {type(payload).__name__}"
            )
        return [
            ToolCall(block["id"], block["name"], block.get("input"))
            for block in map(plain, blocks or ())
            if block.get("type") == "tool_use"
        ]

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """One ``user`` message holding a ``tool_result`` block per result.

        ``is_error`` → ``is_error: true``; ``options={"cache_control": True}`` on
        a result or on a content part adds a cache breakpoint there. Images go
        as ``image`` blocks (base64 JPEG, PNG, GIF, WebP, or a URL).
        """
        blocks = []
        for result in results:
            block: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": need_id(result, self.name),
            }
            parts = content_parts(result)
            if isinstance(result.content, str) and result.content:
                block["content"] = result.content
            elif parts:
                block["content"] = [self._part(p) for p in parts]
            if result.is_error:
                block["is_error"] = True
            control = cache_control(
                (result.options or {}).get("cache_control"), f"result of {result.name!r}"
            )
            if control is not None:
                block["cache_control"] = control
            blocks.append(block)
        return [{"role": "user", "content": blocks}]

    def _part(self, part: ContentPart) -> dict[str, Any]:
        out: dict[str, Any]
        if isinstance(part, TextPart):
            out = {"type": "text", "text": part.text}
        elif isinstance(part, ImagePart):
            if part.url:
                source: dict[str, Any] = {"type": "url", "url": part.data}
            elif part.media_type in IMAGE_TYPES:
                source = {"type": "base64", "media_type": part.media_type, "data": part.data}
            else:
                raise ValueError(
                    f"anthropic accepts base64 images of type {', '.join(sorted(IMAGE_TYPES))}; "
                    f"got {part.media_type!r}"
                )
            out = {"type": "image", "source": source}
        else:
            raise unsupported_part(part, self.name, "a tool_result")
        control = cache_control((part.options or {}).get("cache_control"), "content part")
        if control is not None:
            out["cache_control"] = control
        return out
