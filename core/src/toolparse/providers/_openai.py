"""OpenAI Chat Completions: ``tools=[...]``, ``message.tool_calls``, ``role: "tool"``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..results import TextPart, ToolCall, ToolResult
from ._common import (
    NameRule,
    Schema,
    check_unique,
    content_parts,
    need_id,
    object_root,
    plain,
    unsupported_part,
)
from ._strict import check_openai_limits, strict_schema

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["OpenAIProvider", "openai_parameters"]

NAME_RULE = NameRule("openai", r"[a-zA-Z0-9_-]{1,64}", "1 to 64 of a-z, A-Z, 0-9, _ and -")
MAX_DESCRIPTION = 1024
MAX_TOOLS = 128


def openai_parameters(function: Function, strict: bool, provider: str) -> Schema:
    """The parameters schema OpenAI accepts (both APIs): strict or not."""
    schema = object_root(function.json_schema(), provider, function.name)
    # an object without properties is refused ("object schema missing properties")
    schema.setdefault("properties", {})
    if strict:
        try:
            schema = strict_schema(schema, "openai")
        except ValueError as exc:
            raise ValueError(f"{provider}: tool {function.name!r}: {exc}") from None
        check_openai_limits(schema, function.name)
    return schema


class OpenAIProvider:
    """The ``"openai"`` provider: the Chat Completions API."""

    name = "openai"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """``{"type": "function", "function": {name, description, parameters[, strict]}}``."""
        NAME_RULE.check(function.name)
        definition: dict[str, Any] = {"name": function.name}
        if function.description is not None:
            if len(function.description) > MAX_DESCRIPTION:
                raise ValueError(
                    f"openai: the description of tool {function.name!r} has "
                    f"{len(function.description)} characters; at most {MAX_DESCRIPTION} are accepted"
                )
            definition["description"] = function.description
        definition["parameters"] = openai_parameters(function, strict, self.name)
        if strict:
            # non-strict is Chat Completions' default: say "strict" only when asked
            definition["strict"] = True
        return {"type": "function", "function": definition}

    def to_tools(self, functions: Sequence[Function]) -> list[dict[str, Any]]:
        """One tool per function (at most 128, names unique)."""
        check_unique(functions, self.name, MAX_TOOLS)
        return [self.to_tool(fn, strict=fn.strict) for fn in functions]

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The calls in a ``ChatCompletion``, a choice, a message or a list of calls.

        Of a completion, the first choice is read (the others are alternatives).
        """
        data = plain(payload)
        if isinstance(data, Mapping) and "choices" in data:
            choices = data["choices"] or []
            if not choices:
                return []
            data = plain(choices[0])
        if isinstance(data, Mapping) and "message" in data:
            data = plain(data["message"]) or {}
        if isinstance(data, Mapping) and "function" in data and "id" in data:
            calls: Any = [data]
        elif isinstance(data, Mapping) and ("tool_calls" in data or "role" in data):
            calls = data.get("tool_calls") or []
        elif isinstance(data, list):
            calls = data
        else:
            raise ValueError(
                "openai: expected a ChatCompletion, a choice, an assistant message or a "
                f"list of tool calls, got {type(payload).__name__}"
            )
        found = []
        for call in map(plain, calls):
            kind = call.get("type", "function")
            if kind != "function":
                raise ValueError(f"openai: cannot parse a tool call of type {kind!r}")
            function = call.get("function") or {}
            found.append(ToolCall(call["id"], function["name"], function.get("arguments")))
        return found

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """One ``{"role": "tool", "tool_call_id", "content"}`` message per result.

        Tool messages carry text only: an image part raises ``ValueError``
        (the Responses API, ``"openai-responses"``, carries images).
        """
        messages = []
        for result in results:
            content: str | list[dict[str, Any]]
            if isinstance(result.content, str) or result.content is None:
                content = result.content or ""
            else:
                content = []
                for part in content_parts(result):
                    if not isinstance(part, TextPart):
                        raise unsupported_part(part, self.name, "a tool message (text only)")
                    content.append({"type": "text", "text": part.text})
            messages.append(
                {"role": "tool", "tool_call_id": need_id(result, self.name), "content": content}
            )
        return messages
