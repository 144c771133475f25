"""OpenAI Chat Completions: ``tools=[...]``, ``message.tool_calls``, ``role: "tool"``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..results import TextPart, ToolCall, ToolResult
from ._common import (
    BuiltinProvider,
    IdMaker,
    NameRule,
    Schema,
    as_name,
    content_parts,
    expected,
    mapping,
    need_id,
    plain,
    refuse_interrupts,
    unsupported_part,
)
from ._schema import loose_arrays, parameters
from ._strict import check_openai_limits, strict_schema

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["OpenAIProvider", "openai_parameters"]

# the rule of both OpenAI APIs; a name that breaks it is exported under an alias
NAME_RULE = NameRule("openai", r"[a-zA-Z0-9_-]{1,64}", "1 to 64 of a-z, A-Z, 0-9, _ and -")
MAX_DESCRIPTION = 1024
MAX_TOOLS = 128


def openai_parameters(function: Function, strict: bool, provider: str) -> Schema:
    """The parameters schema OpenAI accepts (both APIs): strict or not."""
    schema = parameters(function, provider)
    # an object without properties is refused ("object schema missing properties")
    schema.setdefault("properties", {})
    if not strict:
        return loose_arrays(schema)  # "array schema missing items" otherwise
    try:
        schema = strict_schema(schema, "openai")
    except ValueError as exc:
        raise ValueError(f"{provider}: tool {function.name!r}: {exc}") from None
    check_openai_limits(schema, function.name)
    return schema


class OpenAIProvider(BuiltinProvider):
    """The ``"openai"`` provider: the Chat Completions API."""

    name = "openai"
    name_rule = NAME_RULE
    max_tools = MAX_TOOLS

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """``{"type": "function", "function": {name, description, parameters[, strict]}}``."""
        definition: dict[str, Any] = {"name": NAME_RULE.alias(function.name, self.name)}
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

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The calls in a ``ChatCompletion``, a choice, a message or a list of calls.

        Of a completion, the first choice is read (the others are
        alternatives). A ``custom`` tool call comes back with
        ``kind="custom"`` and its raw input text as arguments. A call without
        an id gets one (``call_1``, ...) unique within the response.

        :raises ValueError: the payload is not of the Chat Completions shape.
        """
        data = plain(payload)
        what = "a ChatCompletion, a choice, an assistant message or a list of tool calls"
        if isinstance(data, Mapping) and "choices" in data:
            choices = data["choices"]
            if not isinstance(choices, list) or data.get("object", "chat.completion") != (
                "chat.completion"
            ):
                raise expected(self.name, what, payload)
            if not choices:
                return []
            data = plain(choices[0])
            if not (isinstance(data, Mapping) and "message" in data):
                raise expected(self.name, what, payload)
        if isinstance(data, Mapping) and "message" in data and "role" not in data:
            data = plain(data["message"]) or {}  # a Choice
        if isinstance(data, Mapping) and _is_call(data):
            calls: Any = [data]
        elif isinstance(data, Mapping) and _is_message(data):
            calls = data.get("tool_calls") or []
        elif isinstance(data, list):
            calls = data
        else:
            raise expected(self.name, what, payload)
        calls = [plain(call) for call in calls]
        if not all(isinstance(call, Mapping) and _is_call(call) for call in calls):
            raise expected(self.name, what, payload)
        make_id = IdMaker("call_", calls)
        return [_call(call, make_id(call.get("id"))) for call in calls]

    def to_result_message(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        """One ``{"role": "tool", "tool_call_id", "content"}`` message per result.

        Tool messages carry text only: an image part raises ``ValueError``
        (the Responses API, ``"openai-responses"``, carries images).
        """
        refuse_interrupts(results)
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


def _call(call: Mapping[str, Any], call_id: str) -> ToolCall:
    """One tool call: a function call, or a custom one with its raw input text."""
    if call.get("type") == "custom" or (call.get("type") is None and "custom" in call):
        custom = mapping(call.get("custom"))
        return ToolCall(call_id, as_name(custom.get("name")), custom.get("input"), kind="custom")
    function = mapping(call.get("function"))
    return ToolCall(call_id, as_name(function.get("name")), function.get("arguments"))


def _is_call(data: Mapping[str, Any]) -> bool:
    """A Chat Completions tool call (function or custom)."""
    kind = data.get("type")
    if kind is None:
        return isinstance(data.get("function"), Mapping) or isinstance(data.get("custom"), Mapping)
    return kind in ("function", "custom") and ("function" in data or "custom" in data)


def _is_message(data: Mapping[str, Any]) -> bool:
    """An assistant message of Chat Completions (not another API's message)."""
    if data.get("role") != "assistant" or "stop_reason" in data or data.get("type") == "message":
        return False
    calls = data.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        return False
    content = data.get("content")
    if content is None or isinstance(content, str):
        return True
    return isinstance(content, list) and all(
        isinstance(part, Mapping) and part.get("type") in ("text", "refusal")
        for part in map(plain, content)
    )
