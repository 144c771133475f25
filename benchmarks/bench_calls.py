"""Calls: the cost of execute_tool_calls, aexecute_tool_calls and Toolset.execute over what they wrap.

The baseline is what a caller would write by hand: ``fn.execute`` and building
the ``ToolResult`` (``ToolResult.from_outcome``). The difference is the batch's
own work: the name lookup, the context with ``tool_call_id``, the order.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import toolparse as tp
from harness import Row, ratio_rounds

ARGS = {"city": "Oslo", "days": 3}


def body(a: dict[str, object]) -> str:
    return f"{a['city']}: {a['days']} days"


async def abody(a: dict[str, object]) -> str:
    return f"{a['city']}: {a['days']} days"


def params() -> list[tp.FunctionParam]:
    return [
        tp.FunctionParam("city", "string", required=True),
        tp.FunctionParam("days", "integer", required=True),
    ]


def _openai_call() -> dict[str, object]:
    arguments = json.dumps(ARGS)
    return {
        "id": "call_1",
        "type": "function",
        "function": {"name": "weather", "arguments": arguments},
    }


def run() -> list[Row]:
    fn = tp.Function(
        "weather",
        body,
        parameters_schema={
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city", "days"],
        },
    )
    fns = [fn]
    toolset = tp.Toolset(fns)
    one = [tp.ToolCall("c1", "weather", ARGS)]
    ten = [tp.ToolCall(f"c{i}", "weather", ARGS) for i in range(10)]
    from_outcome = tp.ToolResult.from_outcome

    def by_hand(calls: list[tp.ToolCall]) -> list[tp.ToolResult]:
        return [from_outcome(c, fn, fn.execute(c.arguments)) for c in calls]

    rows = []
    # ratio_rounds: interleaved rounds in this thread's CPU time, the median
    # ratio and its spread, so a busy machine moves the figure little
    r = ratio_rounds(lambda: tp.execute_tool_calls(fns, one), lambda: by_hand(one))
    rows.append(r.row("execute_tool_calls, 1 sync call", "fn.execute + ToolResult", 1.5))
    r = ratio_rounds(lambda: tp.execute_tool_calls(fns, ten), lambda: by_hand(ten))
    rows.append(r.row("execute_tool_calls, 10 sync calls", "fn.execute + ToolResult", 1.3))
    r = ratio_rounds(lambda: toolset.execute(one), lambda: by_hand(one))
    rows.append(r.row("Toolset.execute, 1 sync call", "fn.execute + ToolResult", 1.5))
    response = {
        "object": "chat.completion",
        "choices": [{"message": {"role": "assistant", "tool_calls": [_openai_call()]}}],
    }

    def comprehension() -> list[tp.ToolCall]:
        message = response["choices"][0]["message"]
        return [
            tp.ToolCall(c["id"], c["function"]["name"], c["function"]["arguments"])
            for c in message["tool_calls"]
        ]

    assert tp.providers.parse_tool_calls(response, "openai") == comprehension()
    r = ratio_rounds(lambda: tp.providers.parse_tool_calls(response, "openai"), comprehension)
    rows.append(r.row("parse_tool_calls, 1 OpenAI call", "a comprehension of ToolCalls", 3.0))
    # the other providers' single call, against the same kind of floor (no target of their own)
    for provider, payload, by_hand in _other_replies():
        assert tp.providers.parse_tool_calls(payload, provider) == by_hand()
        r = ratio_rounds(lambda p=payload, n=provider: tp.providers.parse_tool_calls(p, n), by_hand)
        rows.append(r.row(f"parse_tool_calls, 1 {provider} call", "a comprehension of ToolCalls"))

    afn = tp.Function("weather", abody, parameters_schema=fn.parameters_schema)
    afns = [afn]
    loop = asyncio.new_event_loop()

    async def ours_async() -> object:
        return await tp.aexecute_tool_calls(afns, one)

    async def base_async() -> object:
        call = one[0]
        return from_outcome(call, afn, await afn.aexecute(call.arguments))

    try:
        r = ratio_rounds(_in_loop(loop, ours_async), _in_loop(loop, base_async))
    finally:
        loop.close()
    # the figures are per await: each sample awaits AWAITS times in one entry of the loop
    rows.append(
        Row(
            "await aexecute_tool_calls, 1 async call",
            r.a_us / AWAITS,
            r.b_us / AWAITS,
            "await fn.aexecute + ToolResult",
            1.5,
            r.spread,
            r.ratio,
        )
    )
    return rows


def _other_replies() -> list[tuple[str, dict[str, Any], Callable[[], list[tp.ToolCall]]]]:
    """(provider, a response with one call, the comprehension reading it by hand)."""
    anthropic: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "stop_reason": "tool_use",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "weather", "input": ARGS}],
    }
    gemini: dict[str, Any] = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"functionCall": {"id": "g1", "name": "weather", "args": ARGS}}],
                }
            }
        ]
    }
    call = _openai_call()
    responses: dict[str, Any] = {
        "object": "response",
        "output": [{"type": "function_call", "call_id": "call_1", **call["function"]}],
    }

    def anthropic_hand() -> list[tp.ToolCall]:
        blocks = anthropic["content"]
        return [
            tp.ToolCall(b["id"], b["name"], b["input"]) for b in blocks if b["type"] == "tool_use"
        ]

    def gemini_hand() -> list[tp.ToolCall]:
        parts = gemini["candidates"][0]["content"]["parts"]
        return [
            tp.ToolCall(
                p["functionCall"]["id"], p["functionCall"]["name"], p["functionCall"]["args"]
            )
            for p in parts
            if "functionCall" in p
        ]

    def responses_hand() -> list[tp.ToolCall]:
        items = responses["output"]
        return [
            tp.ToolCall(i["call_id"], i["name"], i["arguments"])
            for i in items
            if i["type"] == "function_call"
        ]

    return [
        ("anthropic", anthropic, anthropic_hand),
        ("gemini", gemini, gemini_hand),
        ("openai-responses", responses, responses_hand),
    ]


#: awaits per entry of the loop, so that entering it is no noticeable part of either figure
AWAITS = 200


def _in_loop(
    loop: asyncio.AbstractEventLoop, make: Callable[[], Awaitable[object]]
) -> Callable[[], object]:
    """A callable that awaits ``make()`` AWAITS times inside one run of ``loop``."""

    async def many() -> None:
        for _ in range(AWAITS):
            await make()

    return lambda: loop.run_until_complete(many())
