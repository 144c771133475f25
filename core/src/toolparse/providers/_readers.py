"""Each provider's stream reader, the same two methods in each.

``feed(event, calls)`` reads one event (plain data) into the :class:`~._stream.Assembly` (``False``:
not an event of this provider); ``item(call)`` writes a finished call as an item of the response.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
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
    """Streamed JSON text as the assembled response holds it (broken JSON kept as the text)."""
    try:
        return json.loads(text) if text else empty
    except ValueError:
        return text  # answered as invalid JSON when the call runs, never half-read


class ChatChunks:
    """OpenAI ``ChatCompletionChunk``s: a call ends as a later index starts, or at the finish."""

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        choices = event.get("choices")
        if not isinstance(choices, list) or event.get("object") == "chat.completion":
            return False
        choice = mapping(choices[0]) if choices else {}  # none: the usage chunk
        for at, delta in enumerate(plain(mapping(choice.get("delta")).get("tool_calls")) or ()):
            delta, key = mapping(delta), mapping(delta).get("index", at)
            function = mapping(delta.get("function"))
            if key not in calls.open:
                for earlier in [k for k in calls.open if k < key]:
                    calls.finish(earlier)
                calls.start(key, delta.get("id"), function.get("name"))
            calls.add(key, function.get("arguments"))
        if choice.get("finish_reason") is not None:
            calls.finish_all()
        return True

    def item(self, call: PendingCall) -> Any:
        function = {"name": call.exported, "arguments": call.arguments_text}
        return {"type": "function", "function": function, **({"id": call.id} if call.id else {})}


class ResponsesEvents:
    """OpenAI Responses events: a call is complete at its ``response.output_item.done``."""

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        kind, key, item = event.get("type"), event.get("output_index"), mapping(event.get("item"))
        if not isinstance(kind, str) or not kind.startswith("response."):
            return False
        if kind == "response.output_item.added" and item.get("type") in _RESPONSES_CALLS:
            calls.start(key, item.get("call_id"), item.get("name"), item["type"])
            calls.add(key, item.get("arguments", item.get("input")))
        elif kind.endswith((".function_call_arguments.delta", ".custom_tool_call_input.delta")):
            calls.add(key, event.get("delta"))
        elif kind == "response.output_item.done":
            calls.open.pop(key, None)
            calls.whole(item)  # the item itself, as the response has it
        return True

    def item(self, call: PendingCall) -> Any:
        item = {"type": call.kind, "call_id": call.id, "name": call.exported}
        return {**item, _RESPONSES_CALLS[call.kind]: call.arguments_text}


_RESPONSES_CALLS = {"function_call": "arguments", "custom_tool_call": "input"}


class AnthropicEvents:
    """Anthropic Messages events: a ``tool_use`` block is complete at its ``content_block_stop``."""

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        kind, key = event.get("type"), event.get("index")
        block = mapping(event.get("content_block"))
        if kind == "content_block_start" and block.get("type") == "tool_use":
            calls.start(key, block.get("id"), block.get("name"), start=block.get("input"))
        elif kind == "content_block_delta":
            calls.add(key, mapping(event.get("delta")).get("partial_json"))
        elif kind == "content_block_stop":
            calls.finish(key)
        return kind in _ANTHROPIC_EVENTS

    def item(self, call: PendingCall) -> Any:
        arguments = _decoded(call.arguments_text, call.start or {})
        return {"type": "tool_use", "id": call.id, "name": call.exported, "input": arguments}


_ANTHROPIC_EVENTS = frozenset(
    {"message_start", "message_delta", "message_stop", "ping", "error"}
    | {"content_block_start", "content_block_delta", "content_block_stop"}
    # what the SDK's messages.stream() yields beside the raw events (nothing new to read)
    | {"text", "input_json", "citation", "thinking", "signature"}
)


class BedrockEvents:
    """Bedrock ``converse_stream`` events: a ``toolUse`` block ends at its ``contentBlockStop``."""

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        name = next(iter(event), None) if len(event) == 1 else None
        body = mapping(event.get(name)) if name in _BEDROCK_EVENTS else {}
        key = body.get("contentBlockIndex")
        if name == "contentBlockStart":
            use = mapping(mapping(body.get("start")).get("toolUse"))
            if use and use.get("type") != "server_tool_use":
                calls.start(key, use.get("toolUseId"), use.get("name"))
        elif name == "contentBlockDelta":
            calls.add(key, mapping(mapping(body.get("delta")).get("toolUse")).get("input"))
        elif name == "contentBlockStop":
            calls.finish(key)
        return name in _BEDROCK_EVENTS

    def item(self, call: PendingCall) -> Any:
        arguments = _decoded(call.arguments_text, {})
        return {"toolUse": {"toolUseId": call.id, "name": call.exported, "input": arguments}}


_BEDROCK_EVENTS = frozenset(
    {"messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop"}
    | {"messageStop", "metadata"}
)


class WholeCalls:
    """Chunks that carry whole calls (Gemini, Ollama): each is complete in the chunk that has it."""

    #: the calls of one chunk, or ``None`` for what is not a chunk
    calls_of: Callable[[Mapping[str, Any]], list[Any] | None]

    def feed(self, event: Mapping[str, Any], calls: Assembly) -> bool:
        found = self.calls_of(event)
        for call in found or ():
            calls.whole(call)
        return found is not None


class GeminiChunks(WholeCalls):
    """Gemini ``GenerateContentResponse`` chunks: their ``functionCall`` parts."""

    @staticmethod
    def calls_of(chunk: Mapping[str, Any]) -> list[Any] | None:
        if not {"candidates", "usageMetadata", "usage_metadata", "promptFeedback"} & chunk.keys():
            return None
        candidates = plain(chunk.get("candidates")) or [{}]
        parts = plain(mapping(mapping(candidates[0]).get("content")).get("parts")) or ()
        return [p for p in map(mapping, parts) if p.get("functionCall") or p.get("function_call")]


class OllamaChunks(WholeCalls):
    """Ollama ``ChatResponse`` chunks: their ``message.tool_calls``."""

    @staticmethod
    def calls_of(chunk: Mapping[str, Any]) -> list[Any] | None:
        message = mapping(chunk.get("message"))
        return list(plain(message.get("tool_calls")) or ()) if message and "done" in chunk else None
