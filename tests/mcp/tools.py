"""The tools the MCP tests serve: in process, over stdio and over HTTP."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import TypedDict

import pydantic

import toolparse as tp


class Forecast(pydantic.BaseModel):
    """A forecast."""

    city: str
    celsius: float


@dataclasses.dataclass
class Reading:
    """A sensor reading."""

    sensor: str
    value: int


class Totals(TypedDict):
    """Totals."""

    count: int
    total: int


@tp.tool
def weather(city: str, days: int = 1) -> str:
    """Weather for a city."""
    return f"sunny in {city} for {days} day(s)"


@tp.tool
def forecast(city: str) -> Forecast:
    """A structured forecast for a city."""
    return Forecast(city=city, celsius=21.5)


@tp.tool
def reading(sensor: str) -> Reading:
    """The latest reading of a sensor."""
    return Reading(sensor=sensor, value=7)


@tp.tool
def totals(values: list[int]) -> Totals:
    """Count and sum some numbers."""
    return {"count": len(values), "total": sum(values)}


@tp.tool
def steps(count: int, ctx: tp.Context) -> str:
    """Report progress once per step (a sync tool, in a worker thread)."""
    request = ctx["mcp"]
    for i in range(count):
        request.report_progress(i + 1, count, f"step {i + 1}")
    return f"done {count} steps"


@tp.tool
async def asteps(count: int, ctx: tp.Context) -> str:
    """Report progress once per step (an async tool)."""
    request = ctx["mcp"]
    for i in range(count):
        await request.areport_progress(i + 1, count, f"step {i + 1}")
    return f"done {count} steps"


@tp.tool
def whoami(ctx: tp.Context) -> str:
    """What the tool learns about the request."""
    request = ctx["mcp"]
    client = request.client_info.name if request.client_info is not None else None
    return f"call {ctx['tool_call_id']} request {request.request_id} client {client}"


@tp.tool
def chatty(text: str) -> str:
    """A tool that prints while it works."""
    print("working on", text)
    print("{not json at all")
    return f"said {text}"


@tp.tool
def sun() -> str:
    """Non-ASCII text."""
    return "☀ Årets første sol, 東京"


@tp.tool
def slow_sync(label: str) -> str:
    """A sync tool that takes 0.2 s."""
    time.sleep(0.2)
    return f"slow {label}"


@tp.tool
async def slow_async(label: str) -> str:
    """An async tool that takes 0.2 s."""
    await asyncio.sleep(0.2)
    return f"slow {label}"


@tp.tool
def fast(label: str) -> str:
    """A fast tool."""
    return f"fast {label}"


@tp.tool
def delete_file(path: str, ctx: tp.Context) -> str | tp.Interrupt:
    """Delete a file, once a person approved it."""
    if not ctx["mcp"].approved:
        return tp.interrupt(f"Delete {path}?", {"path": path})
    return f"deleted {path}"


TOOLS = [
    weather,
    forecast,
    reading,
    totals,
    steps,
    asteps,
    whoami,
    chatty,
    sun,
    slow_sync,
    slow_async,
    fast,
    delete_file,
]
