"""Your own loop on the Anthropic Messages API, offline.

The model is scripted (its replies are the SDK's own ``Message`` type, built by hand): it
first sends a string where a number belongs, reads toolparse's message, and fixes its call.
With a real client, replace ``scripted_claude`` with ``client.messages.create(model=...,
max_tokens=..., messages=messages, tools=tools)``.

Run it: ``uv run python examples/anthropic_loop.py``
"""

from __future__ import annotations

from typing import Any

from anthropic.types import Message

import toolparse as tp


@tp.tool
def convert(amount: float, currency: str) -> str:
    """Convert an amount of euros to another currency."""
    rates = {"USD": 1.08, "GBP": 0.85}
    return f"{amount * rates[currency]:.2f} {currency}"


toolset = tp.Toolset([convert])
tools = toolset.to_tools("anthropic")  # what client.messages.create(tools=...) takes

#: what the model does on each turn: tool calls (name, input), or a final answer
SCRIPT: list[Any] = [
    [("convert", {"amount": "a hundred", "currency": "USD"})],
    [("convert", {"amount": 100, "currency": "USD"})],
    "100 euros are 108.00 US dollars.",
]


def scripted_claude(turn: int, messages: list[dict[str, Any]]) -> Message:
    """Stands in for ``client.messages.create(...)``."""
    step = SCRIPT[turn]
    if isinstance(step, str):
        content: list[dict[str, Any]] = [{"type": "text", "text": step}]
    else:
        content = [
            {"type": "tool_use", "id": f"toolu_{turn}_{i}", "name": name, "input": arguments}
            for i, (name, arguments) in enumerate(step)
        ]
    return Message.model_validate(
        {
            "id": f"msg_{turn}",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "stop_sequence": None,
            "stop_reason": "end_turn" if isinstance(step, str) else "tool_use",
            "usage": {"input_tokens": 1, "output_tokens": 1},
            "content": content,
        }
    )


def main() -> str:
    """Run the loop until the model answers; return its answer."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "100 euros in dollars?"}]
    for turn in range(10):
        reply = scripted_claude(turn, messages)
        calls = toolset.parse_tool_calls(reply, "anthropic")
        if not calls:
            answer = "".join(block.text for block in reply.content if block.type == "text")
            print("model:", answer)
            return answer
        results = toolset.execute(calls)
        for result in results:
            print(f"tool {result.name} -> {result.content!r}")
        messages.append({"role": "assistant", "content": [b.model_dump() for b in reply.content]})
        messages.extend(toolset.to_result_message(results, "anthropic"))
    raise RuntimeError("the model never answered")


if __name__ == "__main__":
    assert main() == "100 euros are 108.00 US dollars."
