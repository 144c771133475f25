"""Tools that misbehave: each failure is the promised result, and the caller gets it back."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import marshmallow
import pytest
from pydantic import BaseModel, field_validator

import toolparse as tp
from toolparse import messages

UNEXPECTED = "An unexpected response was returned from the tool."


class Broken(Exception):
    """An exception whose text cannot be had."""

    def __str__(self) -> str:
        raise RuntimeError("no text")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def _raises(exc: BaseException) -> Callable[[Any], Any]:
    def body(arguments: Any) -> Any:
        raise exc

    return body


def _araises(exc: BaseException) -> Callable[[Any], Any]:
    async def body(arguments: Any) -> Any:
        raise exc

    return body


def _returns(value: Any) -> Callable[[Any], Any]:
    return lambda arguments: value


def _areturns(value: Any) -> Callable[[Any], Any]:
    async def body(arguments: Any) -> Any:
        return value

    return body


def _every_way(fn: tp.Function) -> Iterator[tuple[str, str, bool]]:
    """(how, content, is_error) for one call of ``fn`` through every entry point."""
    outcome = fn.execute({})
    yield "execute", outcome[0], isinstance(outcome, tp.Error)
    outcome = asyncio.run(fn.aexecute({}))
    yield "aexecute", outcome[0], isinstance(outcome, tp.Error)
    for f in (fn, fn.replace(concurrent=True)):
        [r] = tp.execute_tool_calls([f], [tp.ToolCall("1", f.name, {})])
        yield f"batch concurrent={f.concurrent}", r.content, r.is_error
        [r] = asyncio.run(tp.aexecute_tool_calls([f], [tp.ToolCall("1", f.name, {})]))
        yield f"async batch concurrent={f.concurrent}", r.content, r.is_error
        [r] = tp.execute_tool_calls([f], [tp.ToolCall("1", f.name, {})], timeout=5)
        yield f"batch with a timeout concurrent={f.concurrent}", r.content, r.is_error


_FRAME = re.compile(r"^ERROR: \(ValueError\) amount must be positive at test_misbehaving\.py:\d+: ")


@pytest.mark.parametrize("make", [_raises, _araises])
def test_a_raising_tool_is_its_exception_text(make: Callable[..., Any]) -> None:
    fn = tp.Function("pay", make(ValueError("amount must be positive")))
    outcome = fn.execute({})
    assert isinstance(outcome, tp.Error)
    assert isinstance(outcome.exception, ValueError)
    for how, content, is_error in _every_way(fn):
        assert is_error, how
        assert _FRAME.match(content), (how, content)


@pytest.mark.parametrize("make", [_raises, _araises])
def test_a_tool_error_is_its_message(make: Callable[..., Any]) -> None:
    fn = tp.Function("pay", make(tp.ToolError("Pay at most 100 at a time.")))
    for how, content, is_error in _every_way(fn):
        assert (content, is_error) == ("Pay at most 100 at a time.", True), how


@pytest.mark.parametrize("make", [_raises, _araises])
def test_a_broken_str_and_repr_is_an_error_everywhere(make: Callable[..., Any]) -> None:
    fn = tp.Function("pay", make(Broken()))
    for how, content, is_error in _every_way(fn):
        assert is_error, how
        assert isinstance(content, str), how
        assert content.startswith("ERROR: (Broken) "), (how, content)


class _Model(BaseModel):
    x: str

    @field_validator("x")
    @classmethod
    def _check(cls, value: str) -> str:
        raise Broken


class _Schema(marshmallow.Schema):
    x = marshmallow.fields.String()

    @marshmallow.validates_schema
    def _check(self, data: Any, **kwargs: Any) -> None:
        raise Broken


def _attrs_check(instance: Any, attribute: Any, value: Any) -> None:
    raise Broken


@attrs.define
class _Attrs:
    x: str = attrs.field(validator=_attrs_check)


@pytest.mark.parametrize("source", [_Model, _Schema, _Attrs])
def test_a_validator_with_a_broken_str_is_an_error(source: Any) -> None:
    # a user's validator raising something its library does not catch
    fn = tp.Function("v", _returns("ok"), args_schema=source)
    outcome = fn.execute({"x": "a"})
    assert isinstance(outcome, tp.Error)
    # the tool's failure, or (attrs, whose validators signal a bad value by raising)
    # the value's problem: either way text, never the exception escaping
    assert isinstance(outcome.message, str)
    assert outcome.message.startswith(("ERROR: (", "Invalid arguments for this tool."))
    [r] = tp.execute_tool_calls([fn.replace(concurrent=True)], [tp.ToolCall("1", "v", {"x": "a"})])
    assert r.is_error


class _Opaque:
    pass


_looped: list[Any] = []
_looped.append(_looped)


def _generator() -> Iterator[int]:
    yield 1


@pytest.mark.parametrize(
    "junk",
    [
        object(),
        _Opaque(),
        {1, 2},
        b"\xff",
        _looped,
        _generator(),
        {"a": object()},
        float("nan"),
        Exception("text"),
    ],
    ids=lambda v: type(v).__name__,
)
@pytest.mark.parametrize("make", [_returns, _areturns])
def test_junk_returned_is_the_unexpected_response_message(
    junk: Any, make: Callable[..., Any]
) -> None:
    fn = tp.Function("junk", make(junk))
    for how, content, is_error in _every_way(fn):
        assert (content, is_error) == (UNEXPECTED, True), how


@pytest.mark.parametrize(
    "junk", [object(), None, 5, "text", tp.Ok, [tp.Ok(1)], {"api_key": "SECRET-123"}]
)
def test_junk_from_a_parser_is_named_by_its_type(junk: Any) -> None:
    fn = tp.Function("p", _returns("ran"), parse_args=_returns(junk))
    for how, content, is_error in _every_way(fn):
        assert is_error, how
        assert content == f"parse_args returned unexpected shape: {type(junk).__name__}", how


def test_a_hung_sync_tool_times_out_and_the_batch_comes_back(release: threading.Event) -> None:
    hung = tp.Function("send_email", lambda a: release.wait(30) and "sent")
    quick = tp.Function("quick", _returns("done"), concurrent=True)
    expected = messages.timed_out("send_email", 0.2, stopped=False)
    assert "may still finish" in expected
    calls = [tp.ToolCall("1", "send_email", {}), tp.ToolCall("2", "quick", {})]
    for run in (
        lambda: tp.execute_tool_calls([hung, quick], calls, timeout=0.2),
        lambda: tp.Toolset([hung, quick]).execute(calls, timeout=0.2),
        lambda: asyncio.run(tp.aexecute_tool_calls([hung, quick], calls, timeout=0.2)),
        lambda: tp.execute_tool_calls([hung.replace(concurrent=True), quick], calls, timeout=0.2),
    ):
        start = time.perf_counter()
        first, second = run()
        assert time.perf_counter() - start < 5  # 0.2 s, with room for a loaded machine
        assert (first.content, first.is_error) == (expected, True)
        assert (second.content, second.is_error) == ("done", False)


def _batches(fn: tp.Function, timeout: float) -> Iterator[list[tp.ToolResult]]:
    calls = [tp.ToolCall("1", fn.name, {})]
    yield tp.execute_tool_calls([fn], calls, timeout=timeout)
    yield tp.Toolset([fn]).execute(calls, timeout=timeout)
    yield asyncio.run(tp.aexecute_tool_calls([fn], calls, timeout=timeout))


def test_a_hung_async_tool_is_stopped() -> None:
    async def slow(arguments: Any) -> str:
        await asyncio.sleep(30)
        return "late"

    fn = tp.Function("search", slow)
    expected = messages.timed_out("search", 0.2, stopped=True)
    for f in (fn, fn.replace(concurrent=True)):
        start = time.perf_counter()
        for [result] in _batches(f, 0.2):
            assert (result.content, result.is_error) == (expected, True)
        assert time.perf_counter() - start < 10  # three times 0.2 s, with room for a loaded machine


_STUBBORN = """
import asyncio, os, sys, time
import toolparse as tp

async def stubborn(arguments):
    while True:  # swallows every cancellation and carries on
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            pass

fn = tp.Function("stubborn", stubborn, concurrent={concurrent})
calls = [tp.ToolCall("1", "stubborn", {{}})]
start = time.perf_counter()


def report(result):
    print(result.is_error, round(time.perf_counter() - start, 1), result.content, flush=True)


async def main():
    [result] = await tp.aexecute_tool_calls([fn], calls, timeout=0.2)
    report(result)
    # the stubborn task is left on this loop: asyncio.run would wait for it at its end
    os._exit(0)


if {in_loop}:
    asyncio.run(main())
else:
    report(tp.execute_tool_calls([fn], calls, timeout=0.2)[0])
"""


def test_a_tool_that_swallows_cancellation_still_comes_back() -> None:
    # child processes, side by side: a hang must fail this test, not stall the suite
    cases = [(False, False), (True, False), (False, True)]
    children = [
        subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(_STUBBORN.format(concurrent=c, in_loop=i))],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for c, i in cases
    ]
    deadline = time.monotonic() + 8
    answers = []
    for child in children:
        try:
            out, err = child.communicate(timeout=max(0.1, deadline - time.monotonic()))
            answers.append((child.returncode, out, err[-300:]))
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            answers.append((None, "", "no answer within 8 s of a 0.2 s timeout"))
    for case, (code, out, err) in zip(cases, answers, strict=True):
        assert code == 0, (case, err)
        assert out.startswith("True "), (case, out)
        assert "did not finish within 0.2 seconds" in out, (case, out)


def test_a_printing_tool_answers_with_what_it_returns(capfd: pytest.CaptureFixture[str]) -> None:
    def chatty(arguments: Any) -> str:
        print("working on it " * 10_000)
        print("warning", file=sys.stderr)
        return "done"

    async def achatty(arguments: Any) -> str:
        print("working on it")
        return "done"

    for body in (chatty, achatty):
        fn = tp.Function("chatty", body)
        for how, content, is_error in _every_way(fn):
            assert (content, is_error) == ("done", False), how
    out, err = capfd.readouterr()
    # the printed text goes where the application's stdout goes, never to the model
    assert "working on it" in out
    assert "warning" in err
