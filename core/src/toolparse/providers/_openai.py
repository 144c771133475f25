"""OpenAI: Chat Completions (``"openai"``) and the Responses API (``"openai-responses"``).

Both take the same tool names, parameters and strict mode (with OpenAI's size limits).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .._schemas import resolve_ref
from ..results import ContentPart, ImagePart, TextPart, ToolCall, ToolResult
from ._base import MAPS, BuiltinProvider, NameRule, content_parts, id_maker, mapping, plain
from ._readers import ChatChunks, ResponsesEvents
from ._schema import loose_array, parameters, rewrite
from ._strict import strict_schema

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["OpenAIProvider", "OpenAIResponsesProvider"]


class _OpenAI(BuiltinProvider):
    """What both OpenAI APIs share: names, parameters, strict mode, text answers."""

    name_rule = NameRule("openai")
    max_tools = 128

    def definition(self, function: Function, strict: bool) -> dict[str, Any]:
        """``{name, description, parameters}``: the parameters strict or not."""
        tool = self.head(function)
        schema = parameters(function, self.name)
        # an object without properties is refused ("object schema missing properties")
        schema.setdefault("properties", {})
        if strict:
            tool["parameters"] = strict_schema(schema, "openai", self.name, function.name)
            _check_limits(tool["parameters"], function.name)
        else:
            tool["parameters"] = rewrite(schema, loose_array)
        return tool

    def content(
        self, result: ToolResult, part: Callable[[ContentPart], dict[str, Any]]
    ) -> str | list[dict[str, Any]]:
        """Text as a string; content parts, each as ``part`` writes it."""
        if isinstance(result.content, str) or result.content is None:
            return result.content or ""
        return [part(p) for p in content_parts(result)]


class OpenAIProvider(_OpenAI):
    """The ``"openai"`` provider: the Chat Completions API."""

    name = "openai"
    reader = ChatChunks
    max_description = 1024
    shapes = "a ChatCompletion, a choice, an assistant message or a list of tool calls"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """``{"type": "function", "function": {name, description, parameters[, strict]}}``."""
        definition = self.definition(function, strict)
        if strict:
            # non-strict is Chat Completions' default: say "strict" only when asked
            definition["strict"] = True
        return {"type": "function", "function": definition}

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The calls in a ``ChatCompletion`` (its first choice), a choice, a message or calls."""
        data = plain(payload)
        if isinstance(data, MAPS) and "choices" in data:
            choices, kind = data["choices"], data.get("object", "chat.completion")
            if not isinstance(choices, list) or kind != "chat.completion":
                raise self.expected(payload)
            if not choices:
                return []
            data = plain(choices[0])
            if not (isinstance(data, MAPS) and "message" in data):
                raise self.expected(payload)
        if isinstance(data, MAPS) and "message" in data and {"role", "done"}.isdisjoint(data):
            data = plain(data["message"]) or {}  # a Choice (an Ollama ChatResponse is "done")
        if isinstance(data, MAPS) and _is_message(data):
            data = data.get("tool_calls") or []
        calls = self.listed(data, payload, _is_call)
        make_id = id_maker("call_", calls)
        found = []
        for call in calls:  # a function call, or a custom one with its raw input text
            call_id, kind = make_id(call.get("id")), call.get("type")
            if kind == "custom" or (kind is None and "custom" in call):
                part: Any = mapping(call.get("custom"))
                found.append(ToolCall(call_id, part.get("name"), part.get("input"), kind="custom"))
            else:
                part = mapping(call.get("function"))
                found.append(ToolCall(call_id, part.get("name"), part.get("arguments")))
        return found

    def answer(self, result: ToolResult) -> dict[str, Any]:
        """``{"role": "tool", "tool_call_id", "content"}``, text only (Responses carry images)."""
        content = self.content(result, self._text)
        return {"role": "tool", "tool_call_id": self.need_id(result), "content": content}

    def _text(self, part: ContentPart) -> dict[str, Any]:
        if not isinstance(part, TextPart):
            raise self.cannot_carry(part, "a tool message (text only)")
        return {"type": "text", "text": part.text}


def _is_call(data: Mapping[str, Any]) -> bool:
    """A Chat Completions tool call (function or custom)."""
    kind = data.get("type")
    if kind is None:
        return isinstance(data.get("function"), MAPS) or isinstance(data.get("custom"), MAPS)
    return kind in ("function", "custom") and ("function" in data or "custom" in data)


def _is_message(data: Mapping[str, Any]) -> bool:
    """An assistant message of Chat Completions (not a tool call, nor another API's message)."""
    if data.get("role") != "assistant" or "stop_reason" in data or data.get("type") == "message":
        return False
    if ("function" in data or "custom" in data) and _is_call(data):  # (no ABC check of None)
        return False
    if not isinstance(data.get("tool_calls"), (list, type(None))):
        return False
    content = data.get("content")
    if content is None or isinstance(content, str):
        return True
    return isinstance(content, list) and all(
        isinstance(part, MAPS) and part.get("type") in ("text", "refusal")
        for part in map(plain, content)
    )


class OpenAIResponsesProvider(_OpenAI):
    """The ``"openai-responses"`` provider: the Responses API."""

    name = "openai-responses"
    reader = ResponsesEvents
    shapes = "a Response, a list of output items or one output item"

    def to_tool(self, function: Function, *, strict: bool) -> dict[str, Any]:
        """``{"type": "function", name, description, parameters, strict}`` (flat).

        ``strict`` is always sent: left out, the Responses API makes optional arguments mandatory.
        """
        return {"type": "function", **self.definition(function, strict), "strict": strict}

    def parse_tool_calls(self, payload: Any) -> list[ToolCall]:
        """The calls of a ``Response``, a list of output items, or one item (ids: ``call_id``)."""
        data = plain(payload)
        if isinstance(data, MAPS) and "output" in data and "type" not in data:
            items = data["output"] or []
            if data.get("object", "response") != "response" or not isinstance(items, list):
                raise self.expected(payload)
            data = items
        items = self.listed(data, payload, _is_item)
        make_id = id_maker("call_", items, key="call_id")
        found = []
        for item in items:
            kind, name, call_id = item["type"], item.get("name"), item.get("call_id")
            if kind == "function_call":
                found.append(ToolCall(make_id(call_id), name, item.get("arguments")))
            elif kind == "custom_tool_call":
                found.append(ToolCall(make_id(call_id), name, item.get("input"), kind="custom"))
            elif "call_id" in item and not kind.endswith("_output"):
                # another call the application must answer (computer, shell, ...)
                arguments = item.get("arguments", item.get("input", item.get("action")))
                found.append(
                    ToolCall(make_id(call_id), item.get("name", kind), arguments, kind=kind)
                )
        return found

    def answer(self, result: ToolResult) -> dict[str, Any]:
        """``{"type": "function_call_output", "call_id", "output"}`` (or a custom one's)."""
        output = self.content(result, self._input)
        return {
            "type": _OUTPUT_TYPES.get(result.kind) or f"{result.kind}_output",
            "call_id": self.need_id(result),
            "output": output,
        }

    def _input(self, part: ContentPart) -> dict[str, Any]:
        if isinstance(part, TextPart):
            return {"type": "input_text", "text": part.text}
        if not isinstance(part, ImagePart):
            raise self.cannot_carry(part, "a function_call_output")
        url = part.data if part.url else f"data:{part.media_type};base64,{part.data}"
        image = {"type": "input_image", "image_url": url}
        detail = (part.options or {}).get("detail")
        return image if detail is None else {**image, "detail": detail}


# item types of other APIs: a list of them is not a Responses output
_FOREIGN = frozenset(
    {"function", "custom", "tool_use", "server_tool_use", "tool_result", "text", "thinking"}
)
_OUTPUT_TYPES = {"function": "function_call_output", "custom": "custom_tool_call_output"}
# the output item types that are neither a call nor an output (``*_call``, ``*_output``); any
# other type (LangChain's "ai" message or "tool_call") is not a Responses item, and a list
# read as "no calls" would end the caller's loop
_OTHER_ITEMS = frozenset(
    {"message", "reasoning", "compaction", "program", "additional_tools", "item_reference"}
    | {"mcp_list_tools", "mcp_approval_request", "mcp_approval_response"}
)


def _is_item(item: Mapping[str, Any]) -> bool:
    """A Responses output item (an Anthropic ``Message`` has ``type: "message"`` too)."""
    kind = item.get("type")
    if not isinstance(kind, str) or kind in _FOREIGN or kind == "tool_call":
        return False
    if kind not in _OTHER_ITEMS and not kind.endswith(("_call", "_output")):
        return False
    if kind != "message":
        return True
    content = item.get("content")
    return not ("stop_reason" in item or "model" in item) and not (
        isinstance(content, list)
        and any(isinstance(p, Mapping) and p.get("type") in _FOREIGN for p in map(plain, content))
    )


def _check_limits(schema: dict[str, Any], name: str) -> None:
    """Refuse a strict schema over OpenAI's documented size limits (nesting through ``$ref``)."""
    properties, deepest = _expanded(schema)
    enums = chars = 0
    stack: list[object] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, Mapping):
            continue
        for key in ("properties", "$defs", "definitions"):
            named = node.get(key)
            if isinstance(named, Mapping):
                chars += sum(len(k) for k in named)
                stack.extend(named.values())
        values = node.get("enum")
        if isinstance(values, list):
            enums += len(values)
            chars += sum(len(str(v)) for v in values if v is not None)
        if "const" in node:
            chars += len(str(node["const"]))
        for key in ("items", "anyOf", "allOf"):
            if key in node:
                stack.append(node[key])
    for what, count, limit in (
        ("properties", properties, 5000),
        ("levels of object nesting", deepest, 10),
        ("enum values", enums, 1000),
        ("characters of names and enum values", chars, 120_000),
    ):
        if count > limit:
            raise ValueError(
                f"openai strict mode allows at most {limit} {what} in a schema; "
                f"tool {name!r} has {count}"
            )


def _expanded(schema: dict[str, Any]) -> tuple[int, int]:
    """Properties and object nesting of ``schema``, each ``$ref`` expanded (and measured once)."""
    memo: dict[str, tuple[int, int]] = {}

    def measure(node: object, depth: int) -> tuple[int, int]:
        if depth > 400:
            return 0, 0
        if isinstance(node, list):
            found = [measure(v, depth + 1) for v in node]
            return sum(p for p, _ in found), max((d for _, d in found), default=0)
        if not isinstance(node, Mapping):
            return 0, 0
        count = deepest = 0
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref not in memo:
                memo[ref] = (0, 0)  # while it is measured: a reference back adds nothing
                try:
                    memo[ref] = measure(resolve_ref(schema, ref), depth + 1)
                except ValueError:
                    pass
            count, deepest = memo[ref]
        props = node.get("properties")
        children = list(props.values()) if isinstance(props, Mapping) else []
        count += len(children)
        children += [node[key] for key in ("items", "anyOf", "allOf", "prefixItems") if key in node]
        for child in children:
            p, d = measure(child, depth + 1)
            count, deepest = count + p, max(deepest, d)
        kind = node.get("type")
        if kind == "object" or (isinstance(kind, list) and "object" in kind):
            deepest += 1
        return count, deepest

    return measure(schema, 0)
