"""Model replies in each provider's own SDK type, built from a list of planned calls.

A planned call is ``(name, arguments)``: the name as the model sends it (the
exported alias), the arguments as a dict. Ids are made the provider's way;
Gemini's calls come without ids, as they do from the Developer API.
"""

from __future__ import annotations

import json
from typing import Any

import mcp.types as mt
import ollama
from anthropic.types import Message
from google.genai import types as gt
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

Planned = list[tuple[str, dict[str, Any]]]


def openai_reply(calls: Planned, text: str | None = None, turn: int = 0) -> ChatCompletion:
    """A Chat Completions response with these function calls (or text)."""
    tool_calls = [
        {
            "id": f"call_{turn}_{i}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)},
        }
        for i, (name, args) in enumerate(calls)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-5",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls" if tool_calls else "stop",
                    "message": message,
                }
            ],
        }
    )


def responses_reply(
    calls: Planned,
    text: str | None = None,
    turn: int = 0,
    extra: list[dict[str, Any]] | None = None,
) -> Response:
    """A Responses API response with these function_call items (or a message)."""
    output: list[dict[str, Any]] = [{"type": "reasoning", "id": f"rs_{turn}", "summary": []}]
    output += [
        {
            "type": "function_call",
            "id": f"fc_{turn}_{i}",
            "call_id": f"call_{turn}_{i}",
            "name": name,
            "arguments": json.dumps(args),
            "status": "completed",
        }
        for i, (name, args) in enumerate(calls)
    ]
    output += extra or []
    if text is not None:
        output.append(
            {
                "type": "message",
                "id": f"msg_{turn}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        )
    return Response.model_validate(
        {
            "id": "resp_1",
            "created_at": 0,
            "model": "gpt-5",
            "object": "response",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": output,
        }
    )


def anthropic_reply(
    calls: Planned,
    text: str | None = None,
    turn: int = 0,
    extra: list[dict[str, Any]] | None = None,
) -> Message:
    """A Messages API response with these tool_use blocks (or text)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text or "Working on it."}]
    content += extra or []
    content += [
        {"type": "tool_use", "id": f"toolu_{turn}_{i}", "name": name, "input": args}
        for i, (name, args) in enumerate(calls)
    ]
    return Message.model_validate(
        {
            "id": f"msg_{turn}",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "stop_reason": "tool_use" if calls else "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
            "content": content,
        }
    )


def gemini_reply(
    calls: Planned, text: str | None = None, turn: int = 0
) -> gt.GenerateContentResponse:
    """A Gemini response with these functionCall parts, without ids (or text)."""
    parts: list[dict[str, Any]] = [
        {"functionCall": {"name": name, "args": args}} for name, args in calls
    ]
    if text is not None or not parts:
        parts.append({"text": text or ""})
    return gt.GenerateContentResponse.model_validate(
        {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}
    )


def mcp_reply(calls: Planned, text: str | None = None, turn: int = 0) -> list[dict[str, Any]]:
    """A JSON-RPC batch of tools/call requests (what an MCP client sends a server)."""
    return [
        {
            "jsonrpc": "2.0",
            "id": turn * 100 + i,
            **mt.CallToolRequest(
                params=mt.CallToolRequestParams(name=name, arguments=args)
            ).model_dump(by_alias=True, exclude_none=True),
        }
        for i, (name, args) in enumerate(calls)
    ]


def bedrock_reply(calls: Planned, text: str | None = None, turn: int = 0) -> dict[str, Any]:
    """A Converse response, as boto3's ``converse`` returns it."""
    content: list[dict[str, Any]] = [{"text": text or "Let me look that up."}]
    content += [
        {"toolUse": {"toolUseId": f"tooluse_{turn}_{i}", "name": name, "input": args}}
        for i, (name, args) in enumerate(calls)
    ]
    return {
        "ResponseMetadata": {"RequestId": "r-1", "HTTPStatusCode": 200},
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": "tool_use" if calls else "end_turn",
        "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
        "metrics": {"latencyMs": 1},
    }


def ollama_reply(
    calls: Planned, text: str | None = None, turn: int = 0, done: bool = True
) -> ollama.ChatResponse:
    """An Ollama ``/api/chat`` response: calls without ids, arguments as objects."""
    tool_calls = [
        ollama.Message.ToolCall(function=ollama.Message.ToolCall.Function(name=n, arguments=a))
        for n, a in calls
    ]
    message = ollama.Message(role="assistant", content=text or "", tool_calls=tool_calls or None)
    return ollama.ChatResponse(
        model="qwen3",
        created_at="2026-01-01T00:00:00Z",
        done=done,
        done_reason="stop" if done else None,
        message=message,
    )


REPLIES = {
    "openai": openai_reply,
    "openai-responses": responses_reply,
    "anthropic": anthropic_reply,
    "gemini": gemini_reply,
    "mcp": mcp_reply,
    "bedrock": bedrock_reply,
    "ollama": ollama_reply,
}
