"""Anthropic Messages API: ``tools=[...]``, ``tool_use`` blocks, ``tool_result`` blocks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..results import ContentPart, ImagePart, TextPart, ToolCall, ToolResult
from ._common import (
    BuiltinProvider,
    IdMaker,
    NameRule,
    cache_control,
    content_parts,
    expected,
    need_id,
    plain,
    refuse_interrupts,
    unsupported_part,
)
from ._schema import parameters
from ._strict import strict_schema

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["AnthropicProvider"]

# the API accepts 128 characters today but said 64 until 2025: aliases keep to 64
NAME_RULE = NameRule("anthropic", r"[a-zA-Z0-9_-]{1,64}", "1 to 64 of a-z, A-Z, 0-9, _ and -")
IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})


class AnthropicProvider(BuiltinProvider):
    """The ``"anthropic"`` provider: the Messages API."""

    name = "anthropic"
    name_rule = NAME_RULE

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """``{name, description, input_schema[, strict][, cache_control]}``.

        ``Function.options={"cache_control": True}`` (or ``"1h"``, or a mapping)
        adds a cache breakpoint: put it on the last tool to cache them all.
        """
        schema = parameters(function, self.name)
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
        tool: dict[str, Any] = {"name": NAME_RULE.alias(function.name, self.name)}
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

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The ``tool_use`` blocks of a ``Message``, a message param, or a list of blocks.

        Server-side tool calls (``server_tool_use``, ``mcp_tool_use``) are
        skipped: Anthropic runs them. A block without an id gets one
        (``toolu_1``, ...) unique within the message.

        :raises ValueError: the payload is not of the Messages shape.
        """
        data = plain(payload)
        what = "a Message, a message param, a list of content blocks or a tool_use block"
        if isinstance(data, Mapping) and "content" in data and not _FOREIGN_KEYS & data.keys():
            blocks = data["content"]
            if isinstance(blocks, str):
                return []
            if not isinstance(blocks, list):
                raise expected(self.name, what, payload)
        elif isinstance(data, Mapping) and "type" in data and not _FOREIGN_KEYS & data.keys():
            blocks = [data]
        elif isinstance(data, list):
            blocks = data
        else:
            raise expected(self.name, what, payload)
        blocks = [plain(block) for block in blocks]
        for block in blocks:
            if (
                not isinstance(block, Mapping)
                or not isinstance(block.get("type"), str)
                or block["type"] in _FOREIGN_TYPES
            ):
                raise expected(self.name, what, payload)
        make_id = IdMaker("toolu_", blocks)
        return [
            ToolCall(make_id(block.get("id")), block.get("name"), block.get("input"))
            for block in blocks
            if block["type"] == "tool_use"
        ]

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """One ``user`` message holding a ``tool_result`` block per result.

        ``is_error`` → ``is_error: true``; ``options={"cache_control": True}`` on
        a result or on a content part adds a cache breakpoint there. Images go
        as ``image`` blocks (base64 JPEG, PNG, GIF, WebP, or a URL).
        """
        refuse_interrupts(results)
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


# what other APIs' payloads carry: not an Anthropic message or block
_FOREIGN_KEYS = frozenset(
    {"choices", "output", "candidates", "method", "params", "tool_calls", "parts", "function"}
)
_FOREIGN_TYPES = frozenset(
    {"function", "custom", "function_call", "custom_tool_call", "message", "reasoning"}
)
