"""A LangGraph agent with a toolparse tool, offline.

The model is LangChain's own ``GenericFakeChatModel``, scripted: it calls the tool with a
wrong argument name, reads toolparse's message in the ``ToolMessage``, and fixes its call.
With a real model, use ``ChatOpenAI(...)`` (or any chat model) in ``agent``.

Run it: ``uv run python examples/langgraph_agent.py``
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

import toolparse as tp
from toolparse.integrations.langchain import to_langchain


@tp.tool
def get_weather(city: str, units: str = "celsius") -> str:
    """Current weather for a city."""
    return f"12 degrees {units} in {city}"


tools = [to_langchain(get_weather)]


class ScriptedModel(GenericFakeChatModel):
    """The fake chat model, with tools bound as a real one would take them."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedModel:
        """The script decides the calls: the tools need no binding."""
        return self


model = ScriptedModel(
    messages=iter(
        [
            AIMessage(
                "", tool_calls=[{"name": "get_weather", "args": {"town": "Oslo"}, "id": "c1"}]
            ),
            AIMessage(
                "", tool_calls=[{"name": "get_weather", "args": {"city": "Oslo"}, "id": "c2"}]
            ),
            AIMessage("It is 12 degrees in Oslo."),
        ]
    )
)


def agent(state: MessagesState) -> dict[str, Any]:
    """The model's turn."""
    return {"messages": [model.bind_tools(tools).invoke(state["messages"])]}


def build() -> Any:
    """The graph: the model, then the tools while it calls any."""
    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
    graph.add_edge("tools", "agent")
    return graph.compile()


if __name__ == "__main__":
    result = build().invoke({"messages": [HumanMessage("Weather in Oslo?")]})
    for message in result["messages"]:
        if isinstance(message, ToolMessage):
            print(f"tool ({message.status}) -> {message.content!r}")
    print("model:", result["messages"][-1].content)
    statuses = [m.status for m in result["messages"] if isinstance(m, ToolMessage)]
    assert statuses == ["error", "success"]
    assert result["messages"][-1].content == "It is 12 degrees in Oslo."
