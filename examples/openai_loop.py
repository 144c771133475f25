"""Your own loop on the OpenAI Chat Completions API, offline.

The model is scripted (its replies are the SDK's own ``ChatCompletion`` type, built by hand):
it first misspells an argument, reads toolparse's message, and fixes its call. With a real
client, replace ``scripted_model`` with ``client.chat.completions.create(model=...,
messages=messages, tools=tools)``.

Run it: ``uv run python examples/openai_loop.py``
"""

from __future__ import annotations

import json
from typing import Any

from openai.types.chat import ChatCompletion

import toolparse as tp


@tp.tool
def get_weather(city: str, units: str = "celsius") -> str:
    """Current weather for a city."""
    return f"12 degrees {units} in {city}"


toolset = tp.Toolset([get_weather])
tools = toolset.to_tools("openai")  # what client.chat.completions.create(tools=...) takes

#: what the model does on each turn: tool calls (name, arguments), or a final answer
SCRIPT: list[Any] = [
    [("get_weather", {"city": "Oslo", "unit": "kelvin"})],  # a typo: "unit"
    [("get_weather", {"city": "Oslo", "units": "kelvin"})],  # fixed after toolparse's message
    "It is 12 degrees kelvin in Oslo.",
]


def scripted_model(turn: int, messages: list[dict[str, Any]]) -> ChatCompletion:
    """Stands in for ``client.chat.completions.create(...)``."""
    step = SCRIPT[turn]
    message: dict[str, Any] = {
        "role": "assistant",
        "content": step if isinstance(step, str) else None,
    }
    if not isinstance(step, str):
        message["tool_calls"] = [
            {
                "id": f"call_{turn}_{i}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
            for i, (name, arguments) in enumerate(step)
        ]
    finish = "stop" if isinstance(step, str) else "tool_calls"
    return ChatCompletion.model_validate(
        {
            "id": f"chatcmpl-{turn}",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-5",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }
    )


def main() -> str:
    """Run the loop until the model answers; return its answer."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Weather in Oslo, in kelvin?"}]
    for turn in range(10):
        reply = scripted_model(turn, messages)
        calls = toolset.parse_tool_calls(reply, "openai")
        if not calls:
            answer = reply.choices[0].message.content or ""
            print("model:", answer)
            return answer
        results = toolset.execute(calls)
        for result in results:
            print(f"tool {result.name} -> {result.content!r}")
        messages.append(reply.choices[0].message.model_dump(exclude_none=True))
        messages.extend(toolset.to_result_message(results, "openai"))
    raise RuntimeError("the model never answered")


if __name__ == "__main__":
    assert main() == "It is 12 degrees kelvin in Oslo."
