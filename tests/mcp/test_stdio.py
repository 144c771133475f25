"""toolparse.mcp over stdio: a subprocess driven by the SDK's stdio client."""

from __future__ import annotations

import os
import pathlib
import sys
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from tests.mcp.tools import TOOLS

import toolparse as tp

SCRIPT = pathlib.Path(__file__).with_name("stdio_server.py")


def session_run(tmp_path: pathlib.Path, body: Any, **env: str) -> Any:
    """``body(session)`` against a fresh server process; returns (result, server stderr)."""
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(SCRIPT)],
        cwd=str(tmp_path),  # not the repository: the server must not depend on it
        env={**os.environ, **env},
    )
    log = tmp_path / "server.log"

    async def main() -> Any:
        # the server's stderr goes to a file: pytest's captured stderr has no descriptor
        with log.open("w") as errlog, anyio.fail_after(30):
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await body(session)

    result = anyio.run(main)
    return result, log.read_text(encoding="utf-8", errors="replace")


def test_the_calls_over_stdio(tmp_path: pathlib.Path) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async def body(session: ClientSession) -> Any:
        listed = await session.list_tools()
        return (
            session.initialize_result,
            listed,
            await session.call_tool("weather", {"city": "Oslo"}),
            await session.call_tool("weather", {"cty": "Oslo"}),
            await session.call_tool("wether", {}),
            await session.call_tool("forecast", {"city": "Bergen"}),
            await session.call_tool("steps", {"count": 2}, progress_callback=on_progress),
        )

    (init, listed, good, bad, unknown, forecast, steps), _ = session_run(tmp_path, body)
    assert init.server_info.name == "stdio-tools"
    exported = tp.providers.to_tools(TOOLS, "mcp")
    assert [t.input_schema for t in listed.tools] == [t["inputSchema"] for t in exported]
    assert (good.is_error, good.content[0].text) == (False, "sunny in Oslo for 1 day(s)")
    assert bad.is_error is True
    assert 'cty (did you mean "city"?)' in bad.content[0].text
    assert unknown.is_error is True
    assert unknown.content[0].text.startswith("Tool call made to wether but tool not found.")
    assert forecast.structured_content == {"city": "Bergen", "celsius": 21.5}
    assert steps.content[0].text == "done 2 steps"
    assert seen == [(1, 2, "step 1"), (2, 2, "step 2")]


def test_what_a_tool_prints_never_reaches_the_stream(tmp_path: pathlib.Path) -> None:
    async def body(session: ClientSession) -> Any:
        first = await session.call_tool("chatty", {"text": "hello"})
        second = await session.call_tool("weather", {"city": "Oslo"})
        return first, second

    (first, second), log = session_run(tmp_path, body)
    assert (first.is_error, first.content[0].text) == (False, "said hello")
    assert second.content[0].text == "sunny in Oslo for 1 day(s)"
    assert "working on hello" in log  # it went to stderr
    assert "Failed to parse" not in log


def test_non_ascii_text_under_a_windows_console_encoding(tmp_path: pathlib.Path) -> None:
    async def body(session: ClientSession) -> Any:
        sun = await session.call_tool("sun", {})
        echoed = await session.call_tool("weather", {"city": "Tromsø ☀"})
        alive = await session.send_ping()
        return sun, echoed, alive

    (sun, echoed, alive), _ = session_run(tmp_path, body, PYTHONIOENCODING="cp1252")
    assert (sun.is_error, sun.content[0].text) == (False, "☀ Årets første sol, 東京")
    assert echoed.content[0].text == "sunny in Tromsø ☀ for 1 day(s)"
    assert alive is not None
