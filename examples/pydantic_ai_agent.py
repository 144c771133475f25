"""A pydantic-ai agent with a toolparse tool, offline.

The model is pydantic-ai's own ``FunctionModel``, scripted: its first call sends "four" for
an integer; toolparse's message goes back as pydantic-ai's retry prompt, and the second call
goes through. With a real model, pass ``"openai:gpt-5"`` (or any model name) to ``Agent``.

Run it: ``uv run python examples/pydantic_ai_agent.py``
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

import toolparse as tp
from toolparse.integrations.pydantic_ai import to_pydantic_ai


@tp.tool
def book_table(restaurant: str, guests: int, ctx: tp.Context) -> str:
    """Book a table at a restaurant."""
    return f"Booked {restaurant} for {guests} (for {ctx['deps']})"


STEPS = [
    [ToolCallPart("book_table", {"restaurant": "Noma", "guests": "four"}, tool_call_id="c1")],
    [ToolCallPart("book_table", {"restaurant": "Noma", "guests": 4}, tool_call_id="c2")],
    [TextPart("Your table is booked.")],
]


def scripted(messages: list[Any], info: AgentInfo) -> ModelResponse:
    """Stands in for the model: the next step of the script."""
    return ModelResponse(parts=STEPS.pop(0))


agent = Agent(FunctionModel(scripted), tools=[to_pydantic_ai(book_table)], deps_type=str)


if __name__ == "__main__":
    result = asyncio.run(agent.run("Book Noma for four", deps="ann"))
    for message in result.all_messages():
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if hasattr(part, "tool_call_id"):
                    print(f"tool ({part.part_kind}) -> {part.content!r}")
    print("model:", result.output)
    assert result.output == "Your table is booked."
