"""toolparse inside the OpenAI Agents SDK: to_openai_agents with a scripted model."""

from __future__ import annotations

import asyncio
import inspect
import types
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, FunctionTool, Runner, set_tracing_disabled
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

set_tracing_disabled(True)


class ScriptedModel(Model):
    """The SDK's model interface answering from a script, recording each input."""

    def __init__(self, *steps: Any) -> None:
        self.steps = list(steps)
        self.inputs: list[Any] = []

    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        self.inputs.append(input)
        step = self.steps.pop(0)
        return ModelResponse(
            output=step if isinstance(step, list) else [step], usage=Usage(), response_id=None
        )

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


def function_call(call_id: str, name: str, arguments: str) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        id=call_id, call_id=call_id, type="function_call", name=name, arguments=arguments
    )


def text(value: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id="msg",
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(text=value, type="output_text", annotations=[])],
    )


def outputs(model: ScriptedModel) -> dict[str, str]:
    """What the model was sent back for each call id (the function_call_output items)."""
    found: dict[str, str] = {}
    for sent in model.inputs:
        for item in sent if isinstance(sent, list) else []:
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                found[item["call_id"]] = item["output"]
    return found


def run(tools: list[FunctionTool], model: ScriptedModel, context: Any = None) -> Any:
    agent = Agent(name="assistant", model=model, tools=tools)
    return asyncio.run(Runner.run(agent, "go", context=context))


@tp.tool
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


def test_the_tool_carries_the_exported_definition() -> None:
    tool = to_openai_agents(add)
    assert isinstance(tool, FunctionTool)
    exported = tp.providers.to_tool(add, "openai")["function"]
    assert (tool.name, tool.description) == ("add", "Add two integers.")
    assert tool.params_json_schema == exported["parameters"]
    assert tool.strict_json_schema is False


def test_strict_follows_the_function() -> None:
    @tp.tool(strict=True)
    def find(query: str, limit: int = 5) -> str:
        """Find things."""
        return f"{query}:{limit}"

    tool = to_openai_agents(find)
    assert tool.strict_json_schema is True
    strict = tp.providers.to_tool(find, "openai", strict=True)["function"]["parameters"]
    assert tool.params_json_schema == strict
    assert to_openai_agents(find, strict=False).strict_json_schema is False
    model = ScriptedModel(function_call("c1", "find", '{"query": "x", "limit": null}'), text("ok"))
    run([tool], model)
    assert outputs(model)["c1"] == "x:5"


def test_a_bad_call_gets_toolparses_message_and_the_next_call_succeeds() -> None:
    bad = '{"a": "two", "bb": 3}'
    model = ScriptedModel(
        function_call("c1", "add", bad),
        function_call("c2", "add", '{"a": 2, "b": 3}'),
        text("2 + 3 = 5"),
    )
    result = run([to_openai_agents(add)], model)
    sent = outputs(model)
    assert sent["c1"] == add.execute(bad).message
    assert 'bb (did you mean "b"?)' in sent["c1"]
    assert "An error occurred while running the tool" not in sent["c1"]
    assert sent["c2"] == "5"
    assert result.final_output == "2 + 3 = 5"


def test_broken_json_text_gets_toolparses_message() -> None:
    model = ScriptedModel(function_call("c1", "add", '{"a": 1,'), text("ok"))
    run([to_openai_agents(add)], model)
    assert outputs(model)["c1"] == add.execute('{"a": 1,').message


def test_the_run_context_reaches_the_body() -> None:
    seen: dict[str, Any] = {}

    @tp.tool
    async def whoami(ctx: tp.Context) -> str:
        """Say who is asking."""
        seen.update(ctx)
        return f"user {ctx['context']['user']}"

    model = ScriptedModel(function_call("c-3", "whoami", "{}"), text("ok"))
    run([to_openai_agents(whoami)], model, context={"user": "ann"})
    assert outputs(model)["c-3"] == "user ann"
    assert seen["tool_call_id"] == "c-3"
    assert seen["run_context"].context == {"user": "ann"}


def test_an_interrupt_tells_the_model_the_call_did_not_complete() -> None:
    @tp.tool
    def send(to: str) -> Any:
        """Send an email."""
        return tp.interrupt(f"Send an email to {to}?")

    model = ScriptedModel(function_call("c1", "send", '{"to": "bob"}'), text("ok"))
    run([to_openai_agents(send)], model)
    assert "paused for a person to review" in outputs(model)["c1"]
    assert "Send an email to bob?" in outputs(model)["c1"]


def test_a_toolset_gives_a_list_and_parts_become_output_items() -> None:
    import agents

    @tp.tool
    def chart(title: str) -> list[tp.ContentPart]:
        """Draw a chart."""
        return [tp.TextPart(title), tp.ImagePart("aGVsbG8=", "image/png")]

    tools = to_openai_agents(getattr(tp, "Toolset", list)([add, chart]))
    assert [t.name for t in tools] == ["add", "chart"]
    model = ScriptedModel(function_call("c1", "chart", '{"title": "Sales"}'), text("ok"))
    result = run(tools, model)
    [item] = [i for i in result.new_items if type(i).__name__ == "ToolCallOutputItem"]
    if not hasattr(agents, "ToolOutputImage"):  # SDKs before structured tool outputs
        assert item.output == "Sales"
        return
    assert item.output == [
        agents.ToolOutputText(text="Sales"),
        agents.ToolOutputImage(image_url="data:image/png;base64,aGVsbG8="),
    ]


def test_an_unknown_tool_ends_the_run_unless_toolparse_answers_it() -> None:
    from agents import RunConfig

    if "tool_not_found_behavior" not in inspect.signature(RunConfig).parameters:
        pytest.skip("an Agents SDK before tool_not_found_behavior")
    from agents.exceptions import ModelBehaviorError

    from toolparse.integrations.openai_agents import unknown_tool_formatter

    tools = [to_openai_agents(add)]
    # the SDK's default: the call never reaches toolparse, the run ends
    with pytest.raises(ModelBehaviorError):
        run(tools, ScriptedModel(function_call("c1", "ad", '{"a": 1, "b": 2}'), text("?")))
    model = ScriptedModel(function_call("c1", "ad", '{"a": 1, "b": 2}'), text("sorry"))
    config = RunConfig(
        tool_not_found_behavior="return_error_to_model",
        tool_error_formatter=unknown_tool_formatter(add),
    )
    agent = Agent(name="assistant", model=model, tools=tools)
    result = asyncio.run(Runner.run(agent, "go", run_config=config))
    assert result.final_output == "sorry"
    (expected,) = tp.execute_tool_calls([add], [tp.ToolCall("c1", "ad", None)])
    assert outputs(model) == {"c1": expected.text}
    assert "add" in expected.text
    other = types.SimpleNamespace(kind="approval_rejected", call_id="c2", tool_name="add")
    assert unknown_tool_formatter(add)(other) is None  # the SDK's own message for the rest
