"""toolparse inside pydantic-ai: to_pydantic_ai, retries with toolparse's message."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent, Tool
from pydantic_ai.messages import (
    BinaryContent,
    ImageUrl,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.toolsets import FunctionToolset

import toolparse as tp
from toolparse.integrations.pydantic_ai import to_pydantic_ai


@tp.tool
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


def scripted(*steps: Any) -> FunctionModel:
    """A model that answers with ``steps`` in turn (each a list of parts or a text)."""
    queue = list(steps)

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        step = queue.pop(0)
        if isinstance(step, str):
            return ModelResponse(parts=[TextPart(step)])
        return ModelResponse(parts=step)

    return FunctionModel(respond)


def run(agent: Agent[Any, Any], *args: Any, **kwargs: Any) -> Any:
    # not run_sync: it leaves its event loop open behind it
    return asyncio.run(agent.run(*args, **kwargs))


def answers(messages: list[ModelMessage], call_id: str) -> list[Any]:
    """The parts that answered ``call_id`` (a tool return or a retry prompt)."""
    return [
        part
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if getattr(part, "tool_call_id", None) == call_id
    ]


def retry_text(part: Any) -> str:
    # a RetryPromptPart, or (newer pydantic-ai) a ToolReturnPart with outcome "retried"
    if isinstance(part, ToolReturnPart):
        assert getattr(part, "outcome", "retried") == "retried"
        return str(part.content)
    assert type(part).__name__ == "RetryPromptPart"
    return str(part.content)


def test_the_tool_carries_the_exported_definition() -> None:
    tool = to_pydantic_ai(add)
    assert isinstance(tool, Tool)
    exported = tp.providers.to_tool(add, "openai")["function"]
    assert tool.name == "add"
    assert tool.description == "Add two integers."
    assert tool.tool_def.parameters_json_schema == exported["parameters"]
    assert tool.tool_def.strict is False


def test_strict_is_honoured() -> None:
    @tp.tool(strict=True)
    def find(query: str, limit: int = 5) -> str:
        """Find things."""
        return f"{query}:{limit}"

    tool = to_pydantic_ai(find)
    assert tool.tool_def.strict is True
    strict = tp.providers.to_tool(find, "openai", strict=True)["function"]["parameters"]
    assert tool.tool_def.parameters_json_schema == strict
    assert strict["required"] == ["query", "limit"]
    # a strict model sends null for the optional limit: toolparse reads it as absent
    agent = Agent(
        scripted([ToolCallPart("find", {"query": "x", "limit": None}, tool_call_id="c1")], "done"),
        tools=[tool],
    )
    result = run(agent, "find x")
    assert answers(result.all_messages(), "c1")[0].content == "x:5"
    assert to_pydantic_ai(find, strict=False).tool_def.strict is False


def test_a_bad_call_is_retried_with_toolparses_message_and_the_second_call_succeeds() -> None:
    bad = {"a": "two", "bb": 3}
    model = scripted(
        [ToolCallPart("add", bad, tool_call_id="c1")],
        [ToolCallPart("add", {"a": 2, "b": 3}, tool_call_id="c2")],
        "2 + 3 = 5",
    )
    agent = Agent(model, tools=[to_pydantic_ai(add)])
    result = run(agent, "What is 2 + 3?")
    messages = result.all_messages()
    [retry] = answers(messages, "c1")
    assert retry_text(retry) == add.execute(bad).message
    assert 'bb (did you mean "b"?)' in retry_text(retry)
    [second] = answers(messages, "c2")
    assert isinstance(second, ToolReturnPart)
    assert second.content == "5"
    assert result.output == "2 + 3 = 5"


def test_broken_json_gets_toolparses_message() -> None:
    model = scripted(
        [ToolCallPart("add", '{"a": 2, "b": 3', tool_call_id="c1")],
        [ToolCallPart("add", '{"a": 2, "b": 3}', tool_call_id="c2")],
        "done",
    )
    result = run(Agent(model, tools=[to_pydantic_ai(add)]), "add")
    [retry] = answers(result.all_messages(), "c1")
    assert retry_text(retry) == add.execute('{"a": 2, "b": 3').message
    assert "not valid JSON" in retry_text(retry)
    assert answers(result.all_messages(), "c2")[0].content == "5"


def test_run_context_reaches_the_body() -> None:
    seen: dict[str, Any] = {}

    @tp.tool
    def whoami(ctx: tp.Context) -> str:
        """Say who is asking."""
        seen.update(ctx)
        return f"user {ctx['deps']}"

    model = scripted([ToolCallPart("whoami", {}, tool_call_id="c-5")], "ok")
    agent = Agent(model, tools=[to_pydantic_ai(whoami)], deps_type=str)
    result = run(agent, "who?", deps="ann")
    assert answers(result.all_messages(), "c-5")[0].content == "user ann"
    assert seen["tool_call_id"] == "c-5"
    assert seen["deps"] == "ann"
    assert seen["run_context"].deps == "ann"
    assert seen["retry"] == 0


def test_async_bodies_processed_content_and_parts() -> None:
    @tp.tool
    async def lookup(key: str) -> Any:
        """Look a key up."""
        await asyncio.sleep(0)
        return tp.ok(f"found {key}", {"row": 1})

    @tp.tool
    def picture(name: str) -> list[tp.ContentPart]:
        """Show a picture."""
        return [
            tp.TextPart(name),
            tp.ImagePart("https://example.com/a.png", url=True),
            tp.ImagePart("aGVsbG8=", "image/png"),
        ]

    model = scripted(
        [
            ToolCallPart("lookup", {"key": "k"}, tool_call_id="c1"),
            ToolCallPart("picture", {"name": "cat"}, tool_call_id="c2"),
        ],
        "done",
    )
    toolset = to_pydantic_ai([lookup, picture])
    assert isinstance(toolset, FunctionToolset)
    result = run(Agent(model, toolsets=[toolset]), "go")
    [found] = [p for p in answers(result.all_messages(), "c1") if isinstance(p, ToolReturnPart)]
    assert found.content == "found k"
    assert found.metadata == {"row": 1}
    [shown] = [p for p in answers(result.all_messages(), "c2") if isinstance(p, ToolReturnPart)]
    text, url, data = shown.content
    assert text == "cat"
    if isinstance(url, str):
        pytest.skip("pydantic-ai before multimodal tool returns: files go to a user prompt")
    assert isinstance(url, ImageUrl)
    assert url.url == "https://example.com/a.png"
    assert isinstance(data, BinaryContent)
    assert (data.data, data.media_type) == (b"hello", "image/png")


def test_test_model_calls_every_tool_of_a_toolset() -> None:
    @tp.tool
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    toolset = to_pydantic_ai(getattr(tp, "Toolset", list)([add, shout]))
    result = run(Agent(TestModel(), toolsets=[toolset]), "go")
    returns = [
        p
        for m in result.all_messages()
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart)
    ]
    assert sorted(p.tool_name for p in returns) == ["add", "shout"]


def test_an_interrupt_asks_for_approval_and_runs_once_approved() -> None:
    from pydantic_ai import DeferredToolRequests, DeferredToolResults

    sent: list[str] = []

    @tp.tool
    def send(to: str, ctx: tp.Context) -> Any:
        """Send an email."""
        if not ctx["tool_call_approved"]:
            return tp.interrupt(f"Send an email to {to}?", {"to": to})
        sent.append(to)
        return f"sent to {to}"

    model = scripted([ToolCallPart("send", {"to": "bob"}, tool_call_id="c1")], "sent")
    agent = Agent(model, tools=[to_pydantic_ai(send)], output_type=[str, DeferredToolRequests])
    first = run(agent, "email bob")
    assert isinstance(first.output, DeferredToolRequests)
    [approval] = first.output.approvals
    assert approval.tool_call_id == "c1"
    if hasattr(first.output, "metadata"):  # pydantic-ai with deferral metadata
        assert first.output.metadata["c1"] == {
            "display": "Send an email to bob?",
            "data": {"to": "bob"},
        }
    assert sent == []
    second = run(
        agent,
        message_history=first.all_messages(),
        deferred_tool_results=DeferredToolResults(approvals={"c1": True}),
    )
    assert sent == ["bob"]
    assert second.output == "sent"
