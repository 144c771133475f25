"""Each provider's stream reader: when a call starts, grows and is complete, in its own events.

Every reader has the same two methods (:class:`~._stream.StreamReader`): ``feed`` reads one
event into the shared assembly, ``item`` writes a finished call as the provider's response
would carry it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ._base import mapping, plain
from ._stream import Assembly, PendingCall

__all__ = [
    "AnthropicEvents",
    "BedrockEvents",
    "ChatChunks",
    "GeminiChunks",
    "OllamaChunks",
    "ResponsesEvents",
]


def _decoded(text: str, empty: Any) -> Any:
    """Streamed JSON text as the assembled response holds it: decoded (kept as text if broken)."""
    if not text:
        return empty
    try:
        return json.loads(text)
    except ValueError:
        return text  # answered as invalid JSON when the call runs, never half-read


class ChatChunks:
    """OpenAI Chat Completions ``ChatCompletionChunk``s: calls keyed by ``index``.

    A call is complete when a later index starts or the choice has a ``finish_reason``.
    """

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        choices = event.get("choices")
        if not isinstance(choices, list) or "message" in str(event.get("object", "")):
            return False
        choice = mapping(choices[0]) if choices else {}  # no choices: the usage chunk
        for position, delta in enumerate(
            plain(mapping(choice.get("delta")).get("tool_calls")) or ()
        ):
            delta = mapping(delta)
            key = delta.get("index", position)
            function = mapping(delta.get("function"))
            call = calls.open.get(key)
            if call is None:
                for earlier in [k for k in calls.open if k < key]:
                    calls.finish(earlier)
                calls.start(key, delta.get("id"), function.get("name"))
            calls.add(key, function.get("arguments"))
        if choice.get("finish_reason") is not None:
            calls.finish_all()
        return True

    def item(self, call: PendingCall) -> Any:
        item = {
            "type": "function",
            "function": {"name": call.exported, "arguments": call.arguments_text},
        }
        return item if call.id is None else {"id": call.id, **item}


class ResponsesEvents:
    """OpenAI Responses stream events: a call is complete at ``response.output_item.done``."""

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        kind = event.get("type")
        if not isinstance(kind, str) or not kind.startswith("response."):
            return False
        key = event.get("output_index")
        if kind == "response.output_item.added":
            item = mapping(event.get("item"))
            if item.get("type") in ("function_call", "custom_tool_call"):
                calls.start(key, item.get("call_id"), item.get("name"), item["type"])
                calls.add(key, item.get("arguments", item.get("input")))
        elif kind in (
            "response.function_call_arguments.delta",
            "response.custom_tool_call_input.delta",
        ):
            calls.add(key, event.get("delta"))
        elif kind == "response.output_item.done":
            calls.open.pop(key, None)
            calls.whole(mapping(event.get("item")))  # the item itself, as the response has it
        return True

    def item(self, call: PendingCall) -> Any:
        text = "arguments" if call.kind == "function_call" else "input"
        return {
            "type": call.kind,
            "call_id": call.id,
            "name": call.exported,
            text: call.arguments_text,
        }


class AnthropicEvents:
    """Anthropic Messages stream events: a ``tool_use`` block is complete at its ``content_block_stop``."""

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        kind = event.get("type")
        if kind not in _ANTHROPIC_EVENTS:
            return False
        key = event.get("index")
        if kind == "content_block_start":
            block = mapping(event.get("content_block"))
            if block.get("type") == "tool_use":  # server tools are not the application's
                calls.start(key, block.get("id"), block.get("name"), start=block.get("input"))
        elif kind == "content_block_delta":
            calls.add(key, mapping(event.get("delta")).get("partial_json"))
        elif kind == "content_block_stop":
            calls.finish(key)
        return True

    def item(self, call: PendingCall) -> Any:
        start = call.start if call.start is not None else {}
        arguments = _decoded(call.arguments_text, start)
        return {"type": "tool_use", "id": call.id, "name": call.exported, "input": arguments}


_ANTHROPIC_EVENTS = frozenset(
    {"message_start", "message_delta", "message_stop", "ping", "error"}
    | {"content_block_start", "content_block_delta", "content_block_stop"}
    # what the SDK's messages.stream() adds beside the raw events (nothing new to read)
    | {"text", "input_json", "citation", "thinking", "signature"}
)


class GeminiChunks:
    """Gemini ``GenerateContentResponse`` chunks: each ``functionCall`` part arrives whole."""

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        if not _GEMINI_KEYS & event.keys():
            return False
        candidates = plain(event.get("candidates")) or []
        content = mapping(mapping(candidates[0]).get("content")) if candidates else {}
        for part in plain(content.get("parts")) or ():
            part = mapping(part)
            if part.get("functionCall") or part.get("function_call"):
                calls.whole(part)
        return True

    def item(self, call: PendingCall) -> Any:
        raise AssertionError("gemini calls arrive whole")  # pragma: no cover


_GEMINI_KEYS = frozenset({"candidates", "usageMetadata", "usage_metadata", "promptFeedback"})


class BedrockEvents:
    """Bedrock ``converse_stream`` events: a ``toolUse`` block is complete at its ``contentBlockStop``."""

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        if len(event) != 1 or next(iter(event)) not in _BEDROCK_EVENTS:
            return False
        if "contentBlockStart" in event:
            start = mapping(event["contentBlockStart"])
            use = mapping(mapping(start.get("start")).get("toolUse"))
            if use and use.get("type") != "server_tool_use":
                calls.start(start.get("contentBlockIndex"), use.get("toolUseId"), use.get("name"))
        elif "contentBlockDelta" in event:
            delta = mapping(event["contentBlockDelta"])
            use = mapping(mapping(delta.get("delta")).get("toolUse"))
            calls.add(delta.get("contentBlockIndex"), use.get("input"))
        elif "contentBlockStop" in event:
            calls.finish(mapping(event["contentBlockStop"]).get("contentBlockIndex"))
        return True

    def item(self, call: PendingCall) -> Any:
        use = {
            "toolUseId": call.id,
            "name": call.exported,
            "input": _decoded(call.arguments_text, {}),
        }
        return {"toolUse": use}


_BEDROCK_EVENTS = frozenset(
    {"messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop"}
    | {"messageStop", "metadata"}
)


class OllamaChunks:
    """Ollama ``ChatResponse`` chunks: each carries whole calls in ``message.tool_calls``."""

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        message = mapping(event.get("message"))
        if not message or "done" not in event:
            return False
        for call in plain(message.get("tool_calls")) or ():
            calls.whole(mapping(call))
        return True

    def item(self, call: PendingCall) -> Any:
        raise AssertionError("ollama calls arrive whole")  # pragma: no cover
