"""One ``execute_tool`` span per call: Function, the loop, Toolsets; attributes, errors, content."""

from __future__ import annotations

import asyncio
import contextvars
import json
import threading
import time
from importlib.metadata import entry_points
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opentelemetry.trace import SpanKind, StatusCode

import toolparse as tp
from toolparse.otel import ToolparseInstrumentor

from .conftest import Spans


@tp.tool
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


@tp.tool
async def aadd(a: int, b: int) -> str:
    """Add two integers, asynchronously."""
    return str(a + b)


def crash(args: dict[str, Any]) -> str:
    raise json.JSONDecodeError("bad", "doc", 0)


def attrs(span: Any) -> dict[str, Any]:
    return dict(span.attributes)


GEN_AI = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.type": "function"}


def test_function_execute_is_one_internal_span_child_of_the_current_one(spans: Spans) -> None:
    with spans.tracer.start_as_current_span("agent turn") as outer:
        assert add.execute({"a": 1, "b": 2}) == tp.Ok("3")
    span = spans.one()
    assert span.name == "execute_tool add"
    assert span.kind is SpanKind.INTERNAL
    assert span.parent is not None
    assert span.parent.span_id == outer.get_span_context().span_id
    assert attrs(span) == {**GEN_AI, "gen_ai.tool.name": "add"}
    assert span.status.status_code is StatusCode.UNSET


def test_function_aexecute_and_an_async_body_in_execute(spans: Spans) -> None:
    assert asyncio.run(aadd.aexecute({"a": 1, "b": 2})) == tp.Ok("3")
    assert aadd.execute({"a": 2, "b": 2}, {"tool_call_id": "c9"}) == tp.Ok("4")
    first, second = spans.tools()
    assert (first.name, second.name) == ("execute_tool aadd", "execute_tool aadd")
    assert "gen_ai.tool.call.id" not in attrs(first)
    assert attrs(second)["gen_ai.tool.call.id"] == "c9"


def test_error_types_of_every_kind_of_failure(spans: Spans) -> None:
    def returns_error(args: dict[str, Any]) -> Any:
        return tp.error("no such row")

    def raises(args: dict[str, Any]) -> str:
        raise ValueError("boom")

    def pauses(args: dict[str, Any]) -> Any:
        return tp.interrupt("Send it?")

    def parser_raises(args: dict[str, Any]) -> Any:
        raise KeyError("parser")

    tools = [
        add,
        tp.Function("returns_error", returns_error),
        tp.Function("raises", raises),
        tp.Function("crash", crash),
        tp.Function("pauses", pauses),
        tp.Function("parsed", lambda a: "ok", parse_args=parser_raises),
    ]
    calls = [
        tp.ToolCall("1", "add", {"a": 1}),  # a missing argument
        tp.ToolCall("2", "add", "{not json"),  # invalid JSON
        tp.ToolCall("3", "add", "[1, 2]"),  # not an object
        tp.ToolCall("4", "nope", {}),
        tp.ToolCall("5", "returns_error", {}),
        tp.ToolCall("6", "raises", {}),
        tp.ToolCall("7", "crash", {}),
        tp.ToolCall("8", "pauses", {}),
        tp.ToolCall("9", "parsed", {}),
        tp.ToolCall("10", "add", {"a": 1, "b": 1}),
    ]
    tp.execute_tool_calls(tools, calls)
    found = {attrs(s)["gen_ai.tool.call.id"]: s for s in spans.tools()}
    assert len(spans.tools()) == len(calls)  # exactly one span per call
    expected = {
        "1": "invalid_arguments",
        "2": "invalid_arguments",
        "3": "invalid_arguments",
        "4": "unknown_tool",
        "5": "tool_error",
        "6": "ValueError",
        "7": "json.decoder.JSONDecodeError",
        "9": "KeyError",
    }
    for call_id, error_type in expected.items():
        span = found[call_id]
        assert attrs(span)["error.type"] == error_type, call_id
        assert span.status.status_code is StatusCode.ERROR
    assert found["4"].name == "execute_tool nope"
    paused = found["8"]
    assert paused.status.status_code is StatusCode.UNSET
    assert attrs(paused)["toolparse.interrupted"] is True
    assert "error.type" not in attrs(paused)
    assert found["10"].status.status_code is StatusCode.UNSET


def test_a_toolset_and_the_async_loop_each_give_one_span_per_call(spans: Spans) -> None:
    toolset = tp.Toolset([add, aadd])
    toolset.execute([tp.ToolCall("s1", "add", {"a": 1, "b": 1})])
    asyncio.run(
        toolset.aexecute(
            [
                tp.ToolCall("a1", "add", {"a": 1}),  # a sync body: parsed on the loop
                tp.ToolCall("a2", "add", {"a": 1, "b": 2}),  # its body in a worker thread
                tp.ToolCall("a3", "aadd", {"a": 1, "b": 2}),
                tp.ToolCall("a4", "missing", {}),
            ]
        )
    )
    found = {attrs(s)["gen_ai.tool.call.id"]: s for s in spans.tools()}
    assert sorted(found) == ["a1", "a2", "a3", "a4", "s1"]
    assert len(spans.tools()) == 5
    assert attrs(found["a1"])["error.type"] == "invalid_arguments"
    assert "error.type" not in attrs(found["a2"])
    assert attrs(found["a4"])["error.type"] == "unknown_tool"


def test_a_body_returning_an_error_in_a_worker_thread_is_a_tool_error(spans: Spans) -> None:
    refuse = tp.Function("refuse", lambda a: tp.error("not today"))
    asyncio.run(tp.aexecute_tool_calls([refuse], [tp.ToolCall("r", "refuse", {})]))
    assert attrs(spans.one())["error.type"] == "tool_error"


def test_bodies_in_worker_threads_are_children_and_their_spans_nest(spans: Spans) -> None:
    threads: set[str] = set()

    def body(args: dict[str, Any]) -> str:
        threads.add(threading.current_thread().name)
        with spans.tracer.start_as_current_span("inside the tool"):
            time.sleep(0.01)
        return "ok"

    slow = tp.Function("slow", body, concurrent=True)
    with spans.tracer.start_as_current_span("turn") as outer:
        tp.execute_tool_calls([slow], [tp.ToolCall(str(i), "slow", {}) for i in range(3)])
        asyncio.run(tp.aexecute_tool_calls([slow], [tp.ToolCall("x", "slow", {})]))
    assert threading.current_thread().name not in threads  # the bodies ran off this thread
    tools = spans.tools()
    assert len(tools) == 4
    turn = outer.get_span_context().span_id
    assert all(s.parent is not None and s.parent.span_id == turn for s in tools)
    inner = [s for s in spans.all() if s.name == "inside the tool"]
    assert {s.parent.span_id for s in inner if s.parent} == {s.context.span_id for s in tools}


def test_a_call_past_its_timeout_is_a_timeout(spans: Spans) -> None:
    release = threading.Event()

    def hangs(args: dict[str, Any]) -> str:
        release.wait(5)
        return "late"

    async def ahangs(args: dict[str, Any]) -> str:
        await asyncio.sleep(5)
        return "late"

    tools = [tp.Function("hangs", hangs), tp.Function("ahangs", ahangs)]
    calls = [tp.ToolCall("s", "hangs", {}), tp.ToolCall("a", "ahangs", {})]
    results = tp.execute_tool_calls(tools, calls, timeout=0.05)
    assert all(r.is_error for r in results)
    release.set()
    deadline = time.monotonic() + 5
    while len(spans.tools()) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)  # the sync body's span ends when the body does
    assert {attrs(s)["gen_ai.tool.call.id"]: attrs(s)["error.type"] for s in spans.tools()} == {
        "s": "timeout",
        "a": "timeout",
    }
    asyncio.run(tp.aexecute_tool_calls(tools[1:], calls[1:], timeout=0.05))
    assert attrs(spans.tools()[-1])["error.type"] == "timeout"


def test_a_tool_that_runs_another_tool_is_its_parent(spans: Spans) -> None:
    def outer_body(args: dict[str, Any]) -> str:
        return add.execute({"a": 1, "b": 2}).value  # type: ignore[union-attr]

    outer = tp.Function("outer", outer_body)
    tp.execute_tool_calls([outer], [tp.ToolCall("o", "outer", {})])
    inner, parent = spans.tools()
    assert (inner.name, parent.name) == ("execute_tool add", "execute_tool outer")
    assert inner.parent is not None
    assert inner.parent.span_id == parent.context.span_id


def test_content_is_not_recorded_unless_asked(spans: Spans) -> None:
    add.execute({"a": 1, "b": 2})
    assert not {"gen_ai.tool.call.arguments", "gen_ai.tool.call.result"} & set(attrs(spans.one()))


def test_captured_content_is_redacted_and_cut(captured: Spans) -> None:
    def echo(args: dict[str, Any], context: Any) -> Any:
        return tp.error(f"{args['text']} for {context['user']}")

    fn = tp.Function("echo", echo)
    tp.execute_tool_calls(
        [fn], [tp.ToolCall("e", "echo", {"text": "x" * 5000})], {"user": "sk-secret-token"}
    )
    add.execute('{"a": 1, "b": 2}')
    long, plain = captured.tools()
    arguments = attrs(long)["gen_ai.tool.call.arguments"]
    result = attrs(long)["gen_ai.tool.call.result"]
    assert len(arguments) <= 2000 + 10
    assert arguments.startswith('{"text": "xxx')
    assert arguments.endswith("...[cut]")
    assert "sk-secret-token" not in result
    assert attrs(plain)["gen_ai.tool.call.arguments"] == '{"a": 1, "b": 2}'
    assert attrs(plain)["gen_ai.tool.call.result"] == "3"


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=3000))
def test_any_argument_text_is_recorded_within_the_limit(captured: Spans, text: str) -> None:
    before = len(captured.tools())
    add.execute(text)
    span = captured.tools()[before]
    recorded = attrs(span).get("gen_ai.tool.call.arguments", "")
    assert len(recorded) <= 2000 + len("...[cut]")
    assert attrs(span)["error.type"] in {"invalid_arguments", "tool_error"} or text.strip() == ""


def test_the_environment_turns_capture_on(monkeypatch: pytest.MonkeyPatch, spans: Spans) -> None:
    ToolparseInstrumentor().uninstrument()
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    from .conftest import PROVIDER

    ToolparseInstrumentor().instrument(tracer_provider=PROVIDER)
    add.execute({"a": 1, "b": 2})
    assert attrs(spans.one())["gen_ai.tool.call.result"] == "3"
    ToolparseInstrumentor().uninstrument()
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    ToolparseInstrumentor().instrument(tracer_provider=PROVIDER, capture_content=False)
    add.execute({"a": 1, "b": 2})
    assert "gen_ai.tool.call.result" not in attrs(spans.tools()[-1])


def test_uninstrumented_there_are_no_spans(spans: Spans) -> None:
    ToolparseInstrumentor().uninstrument()
    add.execute({"a": 1, "b": 2})
    tp.execute_tool_calls([add], [tp.ToolCall("1", "add", {"a": 1, "b": 2})])
    assert spans.tools() == []
    from .conftest import PROVIDER

    ToolparseInstrumentor().instrument(tracer_provider=PROVIDER)  # for the fixture to undo


def test_the_entry_point_names_the_instrumentor() -> None:
    (found,) = [
        ep for ep in entry_points(group="opentelemetry_instrumentor") if ep.name == "toolparse"
    ]
    assert found.load() is ToolparseInstrumentor


def test_a_body_in_a_worker_thread_sees_the_callers_context_variables() -> None:
    # what carries the current span into the worker threads, tracing or not
    request: contextvars.ContextVar[str] = contextvars.ContextVar("request", default="none")
    seen: list[str] = []
    probe = tp.Function("probe", lambda a: seen.append(request.get()) or "ok", concurrent=True)
    request.set("r-42")
    tp.execute_tool_calls([probe], [tp.ToolCall(str(i), "probe", {}) for i in range(2)])
    tp.execute_tool_calls([probe], [tp.ToolCall("t", "probe", {})], timeout=5)
    asyncio.run(tp.aexecute_tool_calls([probe], [tp.ToolCall("a", "probe", {})]))
    assert seen == ["r-42"] * 4


def test_the_repairs_a_call_needed_are_on_its_span(spans: Spans) -> None:
    fn = tp.Function(
        "order",
        lambda a: "ok",
        parameters_schema={
            "type": "object",
            "properties": {"items": {"type": "array"}},
            "required": ["items"],
        },
    )
    assert fn.execute({"items": '["a"]'}) == tp.Ok("ok")
    assert fn.execute({"items": ["a"]}) == tp.Ok("ok")  # nothing to repair: nothing said
    repaired, plain = spans.tools()
    assert list(attrs(repaired)["toolparse.repairs"]) == ["items: JSON text decoded"]
    assert "toolparse.repairs" not in attrs(plain)
