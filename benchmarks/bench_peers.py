"""Peers: the same tool through toolparse and through each framework's own tool path, in one run.

    uv run --locked python benchmarks/run.py --peers

The tool is ``add(a: int, b: int)`` of ``bench_integrations``. The first rows time
toolparse alone (the tool call in, the result the model reads out) against the
tool each framework builds itself from the same function, for a valid call and
for a rejected one (``"a": "two"``), side by side in interleaved rounds
(:func:`harness.ratio_rounds`):

- langchain-core: ``execute_tool_calls`` against ``@tool``'s ``invoke`` of the
  tool call (with ``handle_validation_error=True``, so its rejected call also
  answers the model with a ``ToolMessage``);
- pydantic-ai: ``await fn.aexecute`` against ``ToolManager.handle_call`` (a
  rejected call ends in the retry text pydantic-ai sends the model);
- openai-agents: ``await fn.aexecute(text)`` against ``on_invoke_tool`` of
  ``@function_tool`` (whose rejected call answers a fixed sentence).

Then the rows of ``bench_integrations`` (each bridge against the framework's own
path, pydantic-ai as whole agent runs) and of ``bench_mcp`` (toolparse's server
against the SDK's own servers, the SDK's ``MCPServer`` included), measured in the
same run. A framework that is not installed is skipped with a line saying so.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Callable
from typing import Any

import toolparse as tp
from bench_integrations import (
    ALL,
    BAD,
    VALID,
    add,
    agents_invoker,
    agents_own,
    call,
    langchain_own,
    plain_add,
)
from bench_integrations import SKIPPED as INTEGRATIONS_SKIPPED
from bench_integrations import run as integrations_run
from harness import Row, ratio_rounds

#: one line per peer left out because its library is not installed
SKIPPED: list[str] = []

CASES = (("valid", VALID), ("rejected", BAD))


def _batch(arguments: dict[str, Any]) -> Callable[[], object]:
    calls = [tp.ToolCall("c1", "add", arguments)]
    return lambda: tp.execute_tool_calls([add], calls)


def langchain_rows() -> list[Row]:
    own, _ = langchain_own()
    own.handle_validation_error = True  # answer the model, as toolparse does
    rows = []
    for label, arguments in CASES:
        r = ratio_rounds(_batch(arguments), lambda a=arguments: own.invoke(call(a)))
        rows.append(r.row(f"peers: langchain-core, {label} call", "@tool invoke (ToolMessage)"))
    return rows


def _on(loop: asyncio.AbstractEventLoop, make: Callable[[], Any]) -> Callable[[], object]:
    return lambda: loop.run_until_complete(make())


def pydantic_ai_rows() -> list[Row]:
    from pydantic_ai import RunContext
    from pydantic_ai.exceptions import ToolRetryError
    from pydantic_ai.messages import ToolCallPart
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.tool_manager import ToolManager
    from pydantic_ai.toolsets import FunctionToolset
    from pydantic_ai.usage import RunUsage

    async def prepare() -> Any:
        toolset = FunctionToolset([plain_add], max_retries=10**9)
        ctx = RunContext(deps=None, model=TestModel(), usage=RunUsage())
        return await ToolManager(toolset=toolset).for_run_step(ctx)

    loop = asyncio.new_event_loop()
    try:
        manager = loop.run_until_complete(prepare())

        def own(arguments: dict[str, Any]) -> Callable[[], Any]:
            async def handle() -> object:
                try:
                    return await manager.handle_call(ToolCallPart(tool_name="add", args=arguments))
                except ToolRetryError as exc:  # what goes back to the model
                    return exc.tool_retry.model_response_str()

            return handle

        rows = []
        for label, arguments in CASES:
            r = ratio_rounds(
                _on(loop, lambda a=arguments: add.aexecute(a)), _on(loop, own(arguments)), clock=ALL
            )
            rows.append(r.row(f"peers: pydantic-ai, {label} call", "ToolManager.handle_call"))
    finally:
        loop.close()
    return rows


def openai_agents_rows() -> list[Row]:
    own = agents_own()
    loop = asyncio.new_event_loop()
    rows = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the SDK logs the failure of its own rejected call
            for label, arguments in CASES:
                text = json.dumps(arguments)
                r = ratio_rounds(
                    _on(loop, lambda t=text: add.aexecute(t)),
                    agents_invoker(loop, own, arguments),
                    clock=ALL,
                )
                rows.append(
                    r.row(f"peers: openai-agents, {label} call", "@function_tool on_invoke_tool")
                )
    finally:
        loop.close()
    return rows


def mcp_rows() -> list[Row]:
    import bench_mcp  # the SDK is imported with it

    return bench_mcp.run()


PEERS: dict[str, Callable[[], list[Row]]] = {
    "langchain-core": langchain_rows,
    "pydantic-ai": pydantic_ai_rows,
    "openai-agents": openai_agents_rows,
}


def run() -> list[Row]:
    SKIPPED.clear()
    rows: list[Row] = []
    for name, build in PEERS.items():
        try:
            rows.extend(build())
        except ImportError as exc:
            SKIPPED.append(f"- {name} skipped: not installed ({exc.name or exc})")
    INTEGRATIONS_SKIPPED.clear()
    rows.extend(integrations_run())
    SKIPPED.extend(f"{line} (bridge rows)" for line in INTEGRATIONS_SKIPPED)
    try:
        rows.extend(mcp_rows())
    except ImportError as exc:
        SKIPPED.append(f"- mcp skipped: not installed ({exc.name or exc})")
    return rows


if __name__ == "__main__":
    import sys

    from harness import table

    print(table(run()))
    for line in SKIPPED:
        print(line, file=sys.stderr)
