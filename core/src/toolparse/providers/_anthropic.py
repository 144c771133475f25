"""Anthropic Messages API: ``tools=[...]``, ``tool_use`` blocks, ``tool_result`` blocks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..results import ContentPart, ImagePart, TextPart, ToolCall, ToolResult
from ._base import MAPS, BuiltinProvider, NameRule, content_parts, id_maker, plain
from ._readers import AnthropicEvents
from ._schema import parameters
from ._strict import strict_schema

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["AnthropicProvider"]

IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})


class AnthropicProvider(BuiltinProvider):
    """The ``"anthropic"`` provider: the Messages API."""

    name = "anthropic"
    reader = AnthropicEvents
    # the API accepts 128 characters today but said 64 until 2025: aliases keep to 64
    name_rule = NameRule("anthropic")
    shapes = "a Message, a message param, a list of content blocks or a tool_use block"
    together = "content"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """``{name, description, input_schema[, strict][, cache_control]}``."""
        schema = parameters(function, self.name)
        for key in ("anyOf", "oneOf", "allOf"):
            if key in schema:
                raise ValueError(
                    f"anthropic: the input_schema of tool {function.name!r} may not use "
                    f"{key} at the top level"
                )
        if strict:
            schema = strict_schema(schema, "anthropic", self.name, function.name)
        tool = {**self.head(function), "input_schema": schema}
        if strict:
            tool["strict"] = True
        return _cached(tool, function.options, f"tool {function.name!r}")

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The ``tool_use`` blocks of a ``Message``, a message param, or a list of blocks."""
        data = plain(payload)
        if isinstance(data, MAPS) and not _FOREIGN_KEYS.isdisjoint(data):
            raise self.expected(payload)
        if isinstance(data, MAPS) and "content" in data:
            data = data["content"]
            if isinstance(data, str):
                return []
            if not isinstance(data, list):
                raise self.expected(payload)
        blocks = self.listed(data, payload, _is_block)
        make_id = id_maker("toolu_", blocks)
        return [
            ToolCall(make_id(block.get("id")), block.get("name"), block.get("input"))
            for block in blocks
            if block["type"] == "tool_use"
        ]

    def answer(self, result: ToolResult) -> dict[str, Any]:
        """A ``tool_result`` block (they all go in one ``user`` message)."""
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": self.need_id(result)}
        parts = content_parts(result)
        if isinstance(result.content, str) and result.content:
            block["content"] = result.content
        elif parts:
            block["content"] = [self._part(p) for p in parts]
        if result.is_error:
            block["is_error"] = True
        return _cached(block, result.options, f"result of {result.name!r}")

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
            raise self.cannot_carry(part, "a tool_result")
        return _cached(out, part.options, "content part")


# what other APIs' payloads carry: not an Anthropic message or block
_FOREIGN_KEYS = frozenset(
    {"choices", "output", "candidates", "method", "params", "tool_calls", "parts", "function"}
)
_FOREIGN_TYPES = frozenset(
    {"function", "custom", "function_call", "custom_tool_call", "message", "reasoning"}
)


def _is_block(block: Mapping[str, Any]) -> bool:
    return isinstance(block.get("type"), str) and block["type"] not in _FOREIGN_TYPES


def _cached(out: dict[str, Any], options: Mapping[str, Any] | None, where: str) -> dict[str, Any]:
    """``out`` with the cache breakpoint ``options["cache_control"]`` asks for, if any."""
    value = (options or {}).get("cache_control")
    if value is None or value is False:
        return out
    if value is True:
        out["cache_control"] = {"type": "ephemeral"}
    elif value in ("5m", "1h"):
        out["cache_control"] = {"type": "ephemeral", "ttl": value}
    elif isinstance(value, Mapping) and value.get("type") == "ephemeral":
        out["cache_control"] = dict(value)
    else:
        raise ValueError(
            f'{where}: cache_control must be True, "5m", "1h" or a mapping with '
            f'type "ephemeral", got {value!r:.60}'
        )
    return out
