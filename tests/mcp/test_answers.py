"""Every tools/call answer is the one the batch entry point gives, whichever way the server runs it.

The server answers a known ``async def`` tool with nothing observing and no
timeout on its own short path; every other call, and every call with a
timeout, goes through ``aexecute_tool_calls``. The answers must be the same,
for sync and ``async def`` tools alike.
"""

from __future__ import annotations

import threading
from typing import Any

import anyio
import pydantic
from tests.mcp.connect import memory_session

import toolparse as tp
import toolparse.mcp as tmcp


class Point(pydantic.BaseModel):
    """A point."""

    x: int
    y: int


@tp.tool
async def apoint(x: int, y: int) -> Point:
    """A structured point (async)."""
    return Point(x=x, y=y)


@tp.tool
def point(x: int, y: int) -> Point:
    """A structured point (sync)."""
    return Point(x=x, y=y)


@tp.tool
async def atext(word: str) -> str:
    """Plain text (async)."""
    return f"said {word}"


@tp.tool
async def aempty() -> str:
    """No text at all."""
    return ""


@tp.tool
async def apicture() -> list[tp.ContentPart]:
    """Text and an image."""
    return [tp.TextPart("a picture"), tp.ImagePart("aGk=", "image/png")]


@tp.tool
async def aresult() -> tp.ToolResult:
    """A result the tool built itself."""
    return tp.ToolResult(None, None, "built by the tool", is_error=True)


@tp.tool
async def afails() -> str:
    """A body that raises."""
    raise RuntimeError("the disk is full")


@tp.tool
async def aask(path: str) -> str | tp.Interrupt:
    """Pause for approval."""
    return tp.interrupt(f"Delete {path}?", {"path": path})


@tp.tool
def where() -> str:
    """The thread the body runs in."""
    return threading.current_thread().name


TOOLS = [apoint, point, atext, aempty, apicture, aresult, afails, aask]

CALLS: list[tuple[str, Any]] = [
    ("apoint", {"x": 1, "y": 2}),
    ("point", {"x": 1, "y": 2}),
    ("apoint", {"x": "one", "y": 2}),
    ("point", {"y": 2}),
    ("atext", {"word": "hi"}),
    ("atext", {"wrd": "hi"}),
    ("atext", None),
    ("aempty", {}),
    ("apicture", {}),
    ("aresult", {}),
    ("afails", {}),
    ("aask", {"path": "/tmp/x"}),
    ("atxet", {"word": "hi"}),
]


def answers(server: Any, calls: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    async def main() -> list[dict[str, Any]]:
        async with memory_session(server) as session:
            await session.list_tools()  # the client checks structured content against it
            out = []
            for name, arguments in calls:
                result = await session.call_tool(name, arguments)
                out.append(result.model_dump(exclude={"meta"}) | {"meta": result.meta})
            return out

    return anyio.run(main)


def test_the_short_path_answers_what_the_batch_path_answers() -> None:
    short = answers(tmcp.make_server(TOOLS), CALLS)
    batch = answers(tmcp.make_server(TOOLS, timeout=60), CALLS)  # through aexecute_tool_calls
    assert short == batch
    by_call = dict(zip((f"{n} {a}" for n, a in CALLS), short, strict=True))
    assert by_call["apoint {'x': 1, 'y': 2}"]["structured_content"] == {"x": 1, "y": 2}
    assert by_call["point {'x': 1, 'y': 2}"]["structured_content"] == {"x": 1, "y": 2}
    assert by_call["apoint {'x': 'one', 'y': 2}"]["is_error"] is True
    assert by_call["apoint {'x': 'one', 'y': 2}"]["structured_content"] is None
    assert by_call["atext {'word': 'hi'}"]["content"][0]["text"] == "said hi"
    assert by_call["aempty {}"]["content"] == []
    assert [c["type"] for c in by_call["apicture {}"]["content"]] == ["text", "image"]
    assert by_call["aresult {}"]["is_error"] is True
    assert by_call["afails {}"]["is_error"] is True
    assert by_call["afails {}"]["content"][0]["text"].startswith("ERROR: (RuntimeError) the disk")
    assert by_call["aask {'path': '/tmp/x'}"]["meta"][tmcp.INTERRUPT_META_KEY]["data"] == {
        "path": "/tmp/x"
    }


class Observer:
    """Every ``toolparse_tool_executed`` call: (call id, tool name, text)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str | None, str]] = []

    @tp.hookimpl
    def toolparse_tool_executed(
        self,
        call: tp.ToolCall,
        function: tp.Function | None,
        result: tp.ToolResult,
        duration: float,
        late: bool,
    ) -> None:
        self.seen.append((call.id, None if function is None else function.name, result.text))


def test_an_observer_registered_after_the_server_was_built_sees_every_call() -> None:
    server = tmcp.make_server(TOOLS)
    observer = Observer()
    tp.plugin_manager().register(observer)  # the server decides per call, so it is not too late
    try:
        got = answers(server, [("atext", {"word": "hi"}), ("point", {"x": 1, "y": 2})])
    finally:
        tp.plugin_manager().unregister(observer)
    assert [c["content"][0]["text"] for c in got] == ["said hi", '{"x":1,"y":2}']
    assert [(name, text) for _, name, text in observer.seen] == [
        ("atext", "said hi"),
        ("point", '{"x":1,"y":2}'),
    ]
    assert all(call_id.isdigit() for call_id, _, _ in observer.seen)  # the request ids


def test_a_sync_body_runs_in_a_worker_thread_not_on_the_loop() -> None:
    (answer,) = answers(tmcp.make_server([where]), [("where", {})])
    assert answer["content"][0]["text"].startswith("toolparse-worker-")


def test_the_tools_own_plugin_manager_hears_their_calls_and_an_unknown_tool() -> None:
    own = tp.PluginManager()
    observer = Observer()
    own.register(observer)

    async def shout(arguments: dict[str, str]) -> str:
        return arguments["word"].upper()

    word = [tp.FunctionParam("word", "string", required=True)]
    tool = tp.Function("shout", shout, parameters=word, plugin_manager=own)
    got = answers(tmcp.make_server([tool]), [("shout", {"word": "hi"}), ("whisper", {})])
    assert got[0]["content"][0]["text"] == "HI"
    assert got[1]["is_error"] is True
    # the default manager has no observer: only the tools' own manager could have heard these
    assert [(name, text) for _, name, text in observer.seen] == [
        ("shout", "HI"),
        (None, got[1]["content"][0]["text"]),
    ]
