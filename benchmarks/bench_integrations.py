"""Integrations: a call through each bridge against the framework's own tool path.

For each framework, one valid and one rejected call of the same function
(``add(a: int, b: int)``), through toolparse's bridge and through the tool the
framework builds itself, side by side in interleaved rounds
(:func:`harness.ratio_rounds`: the median ratio and its spread). The
frameworks' own paths answer a rejected call differently (LangChain raises a
``ValidationError``, the Agents SDK returns a fixed sentence, pydantic-ai
retries with pydantic's text); the rows time each path as it is, and LangChain's
rejected call once more with both answering the model a ``ToolMessage``
(``handle_validation_error=True``). The async frameworks' rows count every
thread's CPU time: their sync tools, and toolparse's from async code, run in
worker threads. The last row per framework is what the bridge adds: the
bridge's call minus the framework's own path with no validation at all,
against toolparse's ``fn.execute`` for the same arguments.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import warnings
from collections.abc import Callable
from typing import Any

import toolparse as tp
from harness import Row, ratio_rounds

#: the clock of the async frameworks' rows: every thread's CPU time, since their
#: sync tools (and toolparse's, from async code) run in worker threads
ALL = time.process_time

VALID = {"a": 2, "b": 3}
BAD = {"a": "two", "b": 3}


@tp.tool
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


def plain_add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


def call(args: dict[str, Any]) -> dict[str, Any]:
    """A LangChain tool call of ``add`` with these arguments."""
    return {"type": "tool_call", "id": "c1", "name": "add", "args": args}


def langchain_own() -> tuple[Any, Callable[[], object]]:
    """LangChain's own tool for ``plain_add``, and its rejected call as a caller sees it."""
    from langchain_core.tools import tool
    from pydantic import ValidationError

    own = tool(plain_add)

    def own_rejected() -> object:
        try:
            return own.invoke(call(BAD))
        except ValidationError as exc:
            return exc

    return own, own_rejected


def langchain_rows() -> list[Row]:
    from toolparse.integrations.langchain import ToolparseTool, to_langchain

    bridge = to_langchain(add)
    own, own_rejected = langchain_own()

    class Unchecked(ToolparseTool):
        # the same LangChain tool, its body called with no toolparse at all
        def _run(self, tool_input: Any = None, tool_call_id: Any = None, **kwargs: Any) -> Any:
            return plain_add(**tool_input), None

    unchecked = Unchecked(
        name="add", description="Add two integers.", args_schema=add.json_schema(), function=add
    )
    own_answers = langchain_own()[0]
    own_answers.handle_validation_error = True  # a ToolMessage for the model, as the bridge's
    valid = ratio_rounds(lambda: bridge.invoke(call(VALID)), lambda: own.invoke(call(VALID)))
    rejected = ratio_rounds(lambda: bridge.invoke(call(BAD)), own_rejected)
    answered = ratio_rounds(lambda: bridge.invoke(call(BAD)), lambda: own_answers.invoke(call(BAD)))
    bare = ratio_rounds(lambda: bridge.invoke(call(VALID)), lambda: unchecked.invoke(call(VALID)))
    execute = ratio_rounds(lambda: add.execute(dict(VALID)), lambda: plain_add(**VALID))
    return [
        valid.row("langchain: valid call", "@langchain_core.tools.tool"),
        rejected.row("langchain: rejected call (ToolMessage)", "@tool (raises ValidationError)"),
        answered.row(
            "langchain: rejected call, both answering a ToolMessage",
            "@tool(handle_validation_error=True)",
        ),
        # what the bridge adds to LangChain's own unvalidated path, against execute alone
        Row(
            "langchain: bridge cost over no validation",
            bare.a_us - bare.b_us,
            execute.a_us,
            "fn.execute",
        ),
    ]


def pydantic_ai_rows() -> list[Row]:
    from toolparse.integrations.pydantic_ai import to_pydantic_ai

    loop = asyncio.new_event_loop()
    bridge = [to_pydantic_ai(add)]
    own = [plain_add]
    try:
        # an agent run costs milliseconds: longer rounds, fewer of them
        valid = ratio_rounds(
            agent_runner(loop, bridge, VALID), agent_runner(loop, own, VALID), 5, 0.1, clock=ALL
        )
        rejected = ratio_rounds(
            agent_runner(loop, bridge, BAD, VALID),
            agent_runner(loop, own, BAD, VALID),
            5,
            0.1,
            clock=ALL,
        )
    finally:
        loop.close()
    return [
        valid.row("pydantic-ai: agent run, one valid call", "Agent(tools=[function])"),
        rejected.row("pydantic-ai: agent run, rejected then valid", "Agent(tools=[function])"),
    ]


def agent_runner(
    loop: asyncio.AbstractEventLoop, tools: list[Any], *calls: dict[str, Any]
) -> Callable[[], object]:
    """A pydantic-ai agent run whose model calls ``add`` with each of ``calls`` in turn."""
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    def model(*calls: dict[str, Any]) -> FunctionModel:
        def respond(messages: list[Any], info: Any) -> ModelResponse:
            turn = sum(1 for m in messages if type(m).__name__ == "ModelResponse")
            if turn < len(calls):
                return ModelResponse(
                    parts=[ToolCallPart("add", calls[turn], tool_call_id=f"c{turn}")]
                )
            return ModelResponse(parts=[TextPart("done")])

        return FunctionModel(respond)

    agent = Agent(model(*calls), tools=tools, retries=3)
    return lambda: loop.run_until_complete(agent.run("go"))


def agents_invoker(
    loop: asyncio.AbstractEventLoop, tool: Any, args: dict[str, Any]
) -> Callable[[], object]:
    """One ``on_invoke_tool`` of an Agents SDK tool with these arguments, run on ``loop``."""
    from agents.tool_context import ToolContext

    text = json.dumps(args)
    ctx = ToolContext(context=None, tool_name="add", tool_call_id="c1", tool_arguments=text)
    return lambda: loop.run_until_complete(tool.on_invoke_tool(ctx, text))


def agents_own() -> Any:
    """The Agents SDK's own tool for ``plain_add`` (its rejected calls logged at CRITICAL only)."""
    from agents import function_tool

    # the SDK logs each failure of its own tool (its rejected calls)
    logging.getLogger("openai.agents").setLevel(logging.CRITICAL)
    return function_tool(plain_add)


def openai_agents_rows() -> list[Row]:
    from agents import FunctionTool

    from toolparse.integrations.openai_agents import to_openai_agents

    bridge = to_openai_agents(add)
    own = agents_own()

    async def unchecked_invoke(ctx: Any, text: str) -> str:
        # the SDK's own path with no validation: decode, call in a worker thread
        return await asyncio.to_thread(lambda: plain_add(**json.loads(text)))

    unchecked = FunctionTool(
        name="add",
        description="Add two integers.",
        params_json_schema=add.json_schema(),
        on_invoke_tool=unchecked_invoke,
        strict_json_schema=False,
    )
    loop = asyncio.new_event_loop()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the SDK logs the failure of its own rejected call
            valid = ratio_rounds(
                agents_invoker(loop, bridge, VALID), agents_invoker(loop, own, VALID), clock=ALL
            )
            rejected = ratio_rounds(
                agents_invoker(loop, bridge, BAD), agents_invoker(loop, own, BAD), clock=ALL
            )
            bare = ratio_rounds(
                agents_invoker(loop, bridge, VALID),
                agents_invoker(loop, unchecked, VALID),
                clock=ALL,
            )
        text = json.dumps(VALID)
        execute = ratio_rounds(lambda: add.execute(text), lambda: plain_add(**json.loads(text)))
    finally:
        loop.close()
    return [
        valid.row("openai-agents: valid call", "@function_tool"),
        rejected.row("openai-agents: rejected call", "@function_tool (fixed error text)"),
        Row(
            "openai-agents: bridge cost over no validation",
            bare.a_us - bare.b_us,
            execute.a_us,
            "fn.execute",
        ),
    ]


#: one line per framework whose rows were left out because it is not installed
SKIPPED: list[str] = []

FRAMEWORKS: dict[str, Callable[[], list[Row]]] = {
    "langchain-core": langchain_rows,
    "pydantic-ai": pydantic_ai_rows,
    "openai-agents": openai_agents_rows,
}


def run() -> list[Row]:
    rows: list[Row] = []
    for name, build in FRAMEWORKS.items():
        try:
            rows.extend(build())
        except ImportError as exc:  # the framework is not installed here
            SKIPPED.append(f"- {name} skipped: not installed ({exc.name or exc})")
    return rows
