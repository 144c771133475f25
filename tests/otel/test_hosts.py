"""One ``execute_tool`` span per call in every host: MCP, LangChain, pydantic-ai, OpenAI Agents.

And the observing hook (``toolparse_tool_executed``) heard from each bridge.
"""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
import pytest
from opentelemetry.trace import StatusCode

import toolparse as tp

from .conftest import Spans

pytest.importorskip("mcp")
pytest.importorskip("langchain_core")
pytest.importorskip("pydantic_ai")
pytest.importorskip("agents")

from agents import Agent, RunConfig, Runner, set_tracing_disabled
from mcp import Client
from pydantic_ai import Agent as PydanticAgent
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from tests.integrations.test_integration_openai_agents import ScriptedModel, function_call, text

import toolparse.mcp as tmcp
from toolparse.integrations.langchain import to_langchain
from toolparse.integrations.openai_agents import to_openai_agents, unknown_tool_formatter
from toolparse.integrations.pydantic_ai import to_pydantic_ai

set_tracing_disabled(True)  # the Agents SDK's own tracing, not OpenTelemetry


class Observer:
    """Records every call the observing hook hears of."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, str, bool]] = []

    @tp.hookimpl
    def toolparse_tool_executed(
        self, call: tp.ToolCall, function: tp.Function | None, result: tp.ToolResult
    ) -> None:
        self.heard.append((call.id, call.name, result.is_error))


@pytest.fixture
def observer(pm: tp.PluginManager) -> Observer:
    found = Observer()
    pm.register(found)
    return found


def adder(pm: tp.PluginManager) -> tp.Function:
    return tp.Function(
        "add",
        lambda a: str(a["a"] + a["b"]),
        parameters=[
            tp.FunctionParam("a", "integer", required=True),
            tp.FunctionParam("b", "integer", required=True),
        ],
        plugin_manager=pm,
    )


async def aadd(args: dict[str, Any]) -> str:
    return str(args["a"] + args["b"])


def test_mcp_calls_nest_under_the_sdks_request_span(spans: Spans) -> None:
    tools = [
        tp.Function("add", lambda a: str(a["a"] + a["b"]), parameters_schema=_AB),
        tp.Function("aadd", aadd, parameters_schema=_AB),
    ]

    async def main() -> None:
        async with Client(tmcp.make_server(tools)) as client:
            await client.call_tool("add", {"a": 1, "b": 2})
            await client.call_tool("aadd", {"a": 1, "b": 2})
            await client.call_tool("aadd", {"a": 1})
            await client.call_tool("nope", {})

    anyio.run(main)
    tools_spans = spans.tools()
    assert [s.name for s in tools_spans] == [
        "execute_tool add",
        "execute_tool aadd",
        "execute_tool aadd",
        "execute_tool nope",
    ]
    requests = {s.context.span_id: s for s in spans.all() if s.name.startswith("tools/call")}
    for span in tools_spans:
        assert span.parent is not None
        assert span.parent.span_id in requests
        assert dict(span.attributes)["gen_ai.tool.call.id"]  # the request id
    errors = [dict(s.attributes).get("error.type") for s in tools_spans]
    assert errors == [None, None, "invalid_arguments", "unknown_tool"]


_AB = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
}


def test_langchain_one_span_per_call_and_the_hook(
    spans: Spans, pm: tp.PluginManager, observer: Observer
) -> None:
    tool = to_langchain(adder(pm))
    tool.invoke({"type": "tool_call", "id": "lc1", "name": "add", "args": {"a": 1, "b": 2}})
    asyncio.run(tool.ainvoke({"type": "tool_call", "id": "lc2", "name": "add", "args": {"a": 1}}))
    tool.invoke({"a": 1, "b": 2})  # no tool call: no id to report
    first, second, third = spans.tools()
    assert dict(first.attributes)["gen_ai.tool.call.id"] == "lc1"
    assert dict(second.attributes)["error.type"] == "invalid_arguments"
    assert "gen_ai.tool.call.id" not in dict(third.attributes)
    assert observer.heard == [("lc1", "add", False), ("lc2", "add", True)]


def test_pydantic_ai_one_span_per_call_and_the_hook(
    spans: Spans, pm: tp.PluginManager, observer: Observer
) -> None:
    steps: list[Any] = [
        [ToolCallPart("add", {"a": 1}, tool_call_id="p1")],
        [ToolCallPart("add", {"a": 1, "b": 2}, tool_call_id="p2")],
        "done",
    ]

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        step = steps.pop(0)
        return ModelResponse(parts=step if isinstance(step, list) else [_text(step)])

    agent = PydanticAgent(FunctionModel(respond), tools=[to_pydantic_ai(adder(pm))])
    asyncio.run(agent.run("go"))
    ids = [dict(s.attributes)["gen_ai.tool.call.id"] for s in spans.tools()]
    assert ids == ["p1", "p2"]
    assert observer.heard == [("p1", "add", True), ("p2", "add", False)]


def _text(value: str) -> Any:
    from pydantic_ai.messages import TextPart

    return TextPart(value)


def test_openai_agents_one_span_per_call_and_the_hook(
    spans: Spans, pm: tp.PluginManager, observer: Observer
) -> None:
    model = ScriptedModel(
        function_call("o1", "add", '{"a": 1}'),
        function_call("o2", "add", '{"a": 1, "b": 2}'),
        function_call("o3", "ad", '{"a": 1, "b": 2}'),
        text("done"),
    )
    tool = adder(pm)
    agent = Agent(name="assistant", model=model, tools=[to_openai_agents(tool)])
    config = RunConfig(
        tool_not_found_behavior="return_error_to_model",
        tool_error_formatter=unknown_tool_formatter(tool),
    )
    asyncio.run(Runner.run(agent, "go", run_config=config))
    found = spans.tools()
    assert [dict(s.attributes)["gen_ai.tool.call.id"] for s in found] == ["o1", "o2", "o3"]
    assert found[0].status.status_code is StatusCode.ERROR
    assert dict(found[2].attributes)["error.type"] == "unknown_tool"
    assert observer.heard == [("o1", "add", True), ("o2", "add", False), ("o3", "ad", True)]
