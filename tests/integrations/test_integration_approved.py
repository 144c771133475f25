"""``tp.approved``: one tool that asks for approval, approved in each host's own way."""

from __future__ import annotations

import asyncio
import inspect
import operator
from typing import Annotated, Any, TypedDict

import anyio
import pytest

import toolparse as tp

try:  # LangGraph reads the state's annotations: defined here, not inside a test
    from langchain_core.messages import BaseMessage

    class GraphState(TypedDict):
        messages: Annotated[list[BaseMessage], operator.add]

except ImportError:  # pragma: no cover - LangChain is installed in the test environment
    pass

sent: list[str] = []


@tp.tool
def send(to: str, ctx: tp.Context) -> Any:
    """Send an email, once a person approved it."""
    if not tp.approved(ctx):
        return tp.interrupt(f"Send an email to {to}?", {"to": to})
    sent.append(to)
    return f"sent to {to}"


@pytest.fixture(autouse=True)
def _nothing_sent() -> None:
    sent.clear()


def test_own_loop_approved_in_the_context() -> None:
    call = tp.ToolCall("c1", "send", {"to": "bob"})
    (paused,) = tp.execute_tool_calls([send], [call])
    assert paused.is_interrupt
    (done,) = tp.execute_tool_calls([send], [call], {"approved": True})
    assert (done.content, sent) == ("sent to bob", ["bob"])
    assert not tp.approved({"approved": "yes"})  # only True approves here
    assert not tp.approved(None)
    assert not tp.approved("approved")


@pytest.mark.parametrize(
    ("answer", "approves"),
    [
        ("yes", True),
        (" Approve ", True),
        (True, True),
        ({"type": "approve"}, True),
        ({"approved": True}, True),
        ("no", False),
        ({"type": "reject"}, False),
        ("maybe", False),
    ],
)
def test_langgraph_resume(answer: Any, approves: bool) -> None:
    types = pytest.importorskip("langgraph.types")
    if not hasattr(types, "interrupt"):
        pytest.skip("LangGraph before interrupt() (0.2.57)")
    from langchain_core.messages import AIMessage
    from langgraph.graph import START, StateGraph
    from langgraph.prebuilt import ToolNode
    from langgraph.types import Command

    try:
        from langgraph.checkpoint.memory import InMemorySaver
    except ImportError:  # older LangGraph
        from langgraph.checkpoint.memory import MemorySaver as InMemorySaver

    from toolparse.integrations.langchain import to_langchain

    graph = StateGraph(GraphState)
    graph.add_node("tools", ToolNode([to_langchain(send)]))
    graph.add_edge(START, "tools")
    app = graph.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "t1"}}
    request = AIMessage("", tool_calls=[{"name": "send", "args": {"to": "bob"}, "id": "c1"}])
    app.invoke({"messages": [request]}, config)
    assert sent == []
    app.invoke(Command(resume=answer), config)
    assert sent == (["bob"] if approves else [])


def test_mcp_approved_by_the_clients_meta() -> None:
    if not hasattr(pytest.importorskip("mcp"), "Client"):
        pytest.skip("an MCP SDK before its Client")
    from mcp import Client

    import toolparse.mcp as tmcp

    async def main() -> tuple[Any, Any]:
        async with Client(tmcp.make_server([send])) as client:
            first = await client.call_tool("send", {"to": "bob"})
            meta = {tmcp.APPROVAL_META_KEY: True}
            return first, await client.call_tool("send", {"to": "bob"}, meta=meta)

    first, second = anyio.run(main)
    assert first.is_error
    assert second.content[0].text == "sent to bob"
    assert sent == ["bob"]


def test_pydantic_ai_approved_deferred_call() -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from toolparse.integrations.pydantic_ai import to_pydantic_ai

    steps: list[Any] = [[ToolCallPart("send", {"to": "bob"}, tool_call_id="c1")], "sent"]

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        step = steps.pop(0)
        return ModelResponse(parts=step if isinstance(step, list) else [TextPart(step)])

    agent = Agent(
        FunctionModel(respond),
        tools=[to_pydantic_ai(send)],
        output_type=[str, DeferredToolRequests],
    )
    first = asyncio.run(agent.run("email bob"))
    assert isinstance(first.output, DeferredToolRequests)
    assert sent == []
    results = DeferredToolResults(approvals={"c1": True})
    asyncio.run(agent.run(message_history=first.all_messages(), deferred_tool_results=results))
    assert sent == ["bob"]


def test_openai_agents_needs_approval_then_approved() -> None:
    agents = pytest.importorskip("agents")
    if "needs_approval" not in inspect.signature(agents.FunctionTool).parameters:
        pytest.skip("an Agents SDK before needs_approval")
    from agents import Agent, Runner
    from tests.integrations.test_integration_openai_agents import (
        ScriptedModel,
        function_call,
        text,
    )

    from toolparse.integrations.openai_agents import to_openai_agents

    model = ScriptedModel(function_call("c1", "send", '{"to": "bob"}'), text("sent"))
    agent = Agent(
        name="assistant", model=model, tools=[to_openai_agents(send, needs_approval=True)]
    )
    first = asyncio.run(Runner.run(agent, "email bob"))
    (asked,) = first.interruptions
    assert sent == []
    state = first.to_state()
    state.approve(asked)
    asyncio.run(Runner.run(agent, state))
    assert sent == ["bob"]
