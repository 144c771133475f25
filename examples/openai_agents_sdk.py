"""An OpenAI Agents SDK agent with a toolparse tool, offline.

The model is a ``Model`` of the SDK's own interface, scripted with the Responses API's
types built by hand: its first call misspells an argument, reads toolparse's message, and
fixes its call. With a real model, leave ``model=`` out (or name one) in ``Agent``.

Run it: ``uv run python examples/openai_agents_sdk.py``
"""

from __future__ import annotations

import asyncio
from typing import Any

from agents import Agent, Runner, set_tracing_disabled
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

import toolparse as tp
from toolparse.integrations.openai_agents import to_openai_agents

set_tracing_disabled(True)  # offline: no traces are sent


@tp.tool
def convert(amount: float, currency: str, ctx: tp.Context) -> str:
    """Convert an amount of euros."""
    rate = ctx["context"]["rates"][currency]
    return f"{amount * rate:.2f} {currency}"


def call(call_id: str, arguments: str) -> ResponseFunctionToolCall:
    """A function call item, as the Responses API returns it."""
    return ResponseFunctionToolCall(
        id=call_id, call_id=call_id, type="function_call", name="convert", arguments=arguments
    )


FINAL = ResponseOutputMessage(
    id="m1",
    type="message",
    role="assistant",
    status="completed",
    content=[ResponseOutputText(text="That is 108.00 USD.", type="output_text", annotations=[])],
)


class ScriptedModel(Model):
    """A model that answers with the next step of its script."""

    def __init__(self, steps: list[Any]) -> None:
        self.steps = steps
        self.inputs: list[Any] = []

    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        """The next step of the script (the input is kept, to show what the model was sent)."""
        self.inputs.append(input)
        return ModelResponse(output=[self.steps.pop(0)], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        """Not used: ``Runner.run`` asks for whole responses."""
        raise NotImplementedError("this example does not stream")


if __name__ == "__main__":
    model = ScriptedModel(
        [
            call("c1", '{"amount": 100, "curency": "USD"}'),
            call("c2", '{"amount": 100, "currency": "USD"}'),
            FINAL,
        ]
    )
    agent = Agent(name="assistant", model=model, tools=[to_openai_agents(convert)])
    result = asyncio.run(
        Runner.run(agent, "100 euros in dollars?", context={"rates": {"USD": 1.08}})
    )
    for item in model.inputs[-1]:
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            print(f"tool -> {item['output']!r}")
    print("model:", result.final_output)
    assert result.final_output == "That is 108.00 USD."
