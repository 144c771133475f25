"""Streamed replies in each provider's own event types, and the whole response they add up to.

A planned call is ``(name, arguments)``; each call's arguments text is cut where ``cuts`` says
(offsets into the JSON text), so any split of the text into deltas can be tried.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any

import ollama
import pydantic
from anthropic.types import RawMessageStreamEvent
from google.genai import types as gt
from openai.types.chat import ChatCompletionChunk
from openai.types.responses import ResponseStreamEvent

from .payloads import (
    anthropic_reply,
    bedrock_reply,
    gemini_reply,
    ollama_reply,
    openai_reply,
    responses_reply,
)

Planned = list[tuple[str, dict[str, Any]]]
Cuts = Callable[[str], Sequence[int]]


def pieces(text: str, cuts: Cuts) -> list[str]:
    """``text`` cut at the offsets ``cuts`` gives (empty pieces dropped)."""
    at = sorted({c for c in cuts(text) if 0 < c < len(text)})
    bounds = [0, *at, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds) if b > a]


def _chunk(delta: dict[str, Any], finish: str | None = None) -> ChatCompletionChunk:
    return ChatCompletionChunk.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "gpt-5",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
    )


def openai_events(calls: Planned, cuts: Cuts) -> tuple[list[Any], Any]:
    events: list[Any] = [_chunk({"role": "assistant", "content": None})]
    for i, (name, args) in enumerate(calls):
        first = {"index": i, "id": f"call_0_{i}", "type": "function"}
        events.append(
            _chunk({"tool_calls": [{**first, "function": {"name": name, "arguments": ""}}]})
        )
        for piece in pieces(json.dumps(args), cuts):
            events.append(_chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}))
    events.append(_chunk({}, "tool_calls" if calls else "stop"))
    return events, openai_reply(calls)


_RESPONSE_EVENT: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(ResponseStreamEvent)


def responses_events(calls: Planned, cuts: Cuts) -> tuple[list[Any], Any]:
    reply = responses_reply(calls)
    events = []
    seq = iter(range(10_000))
    for index, item in enumerate(reply.output):
        done = item.model_dump(exclude_none=True)
        added = {**done, "arguments": ""} if done["type"] == "function_call" else done
        events.append({"type": "response.output_item.added", "output_index": index, "item": added})
        if done["type"] == "function_call":
            for piece in pieces(done["arguments"], cuts):
                events.append(
                    {
                        "type": "response.function_call_arguments.delta",
                        "output_index": index,
                        "item_id": done["id"],
                        "delta": piece,
                    }
                )
        events.append({"type": "response.output_item.done", "output_index": index, "item": done})
    return [
        _RESPONSE_EVENT.validate_python({**e, "sequence_number": next(seq)}) for e in events
    ], reply


_ANTHROPIC_EVENT: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(RawMessageStreamEvent)


def anthropic_events(calls: Planned, cuts: Cuts) -> tuple[list[Any], Any]:
    reply = anthropic_reply(calls)
    start = reply.model_dump(exclude_none=True)
    events: list[dict[str, Any]] = [{"type": "message_start", "message": {**start, "content": []}}]
    for index, block in enumerate(reply.content):
        if block.type == "tool_use":
            head = {"type": "tool_use", "id": block.id, "name": block.name, "input": {}}
            events.append({"type": "content_block_start", "index": index, "content_block": head})
            for piece in pieces(json.dumps(block.input), cuts):
                delta = {"type": "input_json_delta", "partial_json": piece}
                events.append({"type": "content_block_delta", "index": index, "delta": delta})
        else:
            head = {"type": "text", "text": ""}
            events.append({"type": "content_block_start", "index": index, "content_block": head})
            delta = {"type": "text_delta", "text": block.text}
            events.append({"type": "content_block_delta", "index": index, "delta": delta})
        events.append({"type": "content_block_stop", "index": index})
    usage = {"output_tokens": 1}
    events.append({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": usage})
    events.append({"type": "message_stop"})
    return [_ANTHROPIC_EVENT.validate_python(e) for e in events], reply


def gemini_events(calls: Planned, cuts: Cuts) -> tuple[list[Any], Any]:
    """One chunk of text, then each call in a chunk of its own (Gemini streams whole calls)."""
    chunks = [gemini_reply([], text="Let me check.")]
    chunks += [gemini_reply([call]) for call in calls]
    parts = [p for chunk in chunks for p in chunk.candidates[0].content.parts]
    whole = gt.GenerateContentResponse(
        candidates=[gt.Candidate(content=gt.Content(role="model", parts=parts))]
    )
    return chunks, whole


def bedrock_events(calls: Planned, cuts: Cuts) -> tuple[list[Any], Any]:
    """``converse_stream`` events as botocore yields them, and the ``converse`` response."""
    reply = bedrock_reply(calls)
    events: list[dict[str, Any]] = [{"messageStart": {"role": "assistant"}}]
    for index, block in enumerate(reply["output"]["message"]["content"]):
        if "toolUse" in block:
            use = block["toolUse"]
            start = {"toolUse": {"toolUseId": use["toolUseId"], "name": use["name"]}}
            events.append({"contentBlockStart": {"start": start, "contentBlockIndex": index}})
            for piece in pieces(json.dumps(use["input"]), cuts):
                delta = {"toolUse": {"input": piece}}
                events.append({"contentBlockDelta": {"delta": delta, "contentBlockIndex": index}})
        else:
            delta = {"text": block["text"]}
            events.append({"contentBlockDelta": {"delta": delta, "contentBlockIndex": index}})
        events.append({"contentBlockStop": {"contentBlockIndex": index}})
    events.append({"messageStop": {"stopReason": "tool_use"}})
    return events, reply


def ollama_events(calls: Planned, cuts: Cuts) -> tuple[list[Any], Any]:
    """Text chunks, then a chunk with the calls, then the last (``done``) chunk."""
    head = {"model": "qwen3", "created_at": "2026-01-01T00:00:00Z"}
    chunks = [
        ollama.ChatResponse(
            **head, done=False, message=ollama.Message(role="assistant", content="Ok")
        )
    ]
    if calls:
        chunks.append(ollama_reply(calls, done=False))
    chunks.append(
        ollama.ChatResponse(**head, done=True, message=ollama.Message(role="assistant", content=""))
    )
    return chunks, ollama_reply(calls)


STREAMS = {
    "openai": openai_events,
    "openai-responses": responses_events,
    "anthropic": anthropic_events,
    "gemini": gemini_events,
    "bedrock": bedrock_events,
    "ollama": ollama_events,
}
