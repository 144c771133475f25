"""Reading a body's arity and asyncness from its code agrees with ``inspect``.

A plain ``def`` or lambda is read from its code object (so defining a
Function never imports ``inspect``); anything else takes the ``inspect`` way.
Both must say the same for every shape of callable.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import types
from collections.abc import Callable
from typing import Any

import pytest

from toolparse.function import _callables
from toolparse.function._callables import _arity, _is_async, isawaitable


def _shapes() -> list[Callable[..., Any]]:
    def one(a): ...
    def two(a, c): ...
    def three(a, b, c): ...
    def three_defaults(a, b=1, c=2): ...
    def none(): ...
    def star(*args): ...
    def one_star(a, *rest): ...
    def kw_only(a, *, flag): ...
    def kw_default(a, *, flag=True): ...
    def kwargs(a, **extra): ...
    def pos_only(a, c, /): ...
    def only_kwargs(**extra): ...
    async def coro(a): ...
    async def agen(a):
        yield a

    def gen(a):
        yield a

    @functools.wraps(three)
    def wrapped(a): ...

    signed = lambda a: a  # noqa: E731
    signed.__signature__ = inspect.signature(three)

    class Call:
        def __call__(self, a, c=None): ...

    class ACall:
        async def __call__(self, a): ...

    return [
        one, two, three, three_defaults, none, star, one_star, kw_only, kw_default,
        kwargs, pos_only, only_kwargs, coro, agen, gen, wrapped, signed,
        lambda a: a, lambda a, c=None: a, lambda *a: a,
        functools.partial(two, 1), functools.partial(coro), Call(), ACall(), Call().__call__, print,
    ]  # fmt: skip


def _by_inspect(fn: Callable[..., Any]) -> tuple[int, list[tuple[str, str]], bool]:
    """What the callable's arity and asyncness were before the code path existed."""
    errors: list[tuple[str, str]] = []
    plain = _callables._plain
    try:
        _callables._plain = lambda fn: False
        return _arity(fn, "function", errors), errors, _is_async(fn)
    finally:
        _callables._plain = plain


@pytest.mark.parametrize("fn", _shapes(), ids=lambda f: getattr(f, "__name__", type(f).__name__))
def test_the_code_path_agrees_with_inspect(fn: Callable[..., Any]) -> None:
    errors: list[tuple[str, str]] = []
    assert (_arity(fn, "function", errors), errors, _is_async(fn)) == _by_inspect(fn)


def test_plain_functions_take_the_code_path_and_others_do_not() -> None:
    def body(a): ...

    assert _callables._plain(body)
    assert _callables._plain(lambda a: a)
    body.note = "an attribute"
    assert not _callables._plain(body)  # __wrapped__, __signature__ and the like live there
    assert not _callables._plain(functools.partial(body))
    assert not _callables._plain(print)


def test_the_code_flags_are_inspects() -> None:
    assert _callables._CO_VARARGS == inspect.CO_VARARGS
    assert _callables._CO_COROUTINE == inspect.CO_COROUTINE
    assert _callables._CO_ITERABLE_COROUTINE == inspect.CO_ITERABLE_COROUTINE


def test_isawaitable_is_inspects() -> None:
    async def coro() -> None: ...

    @types.coroutine
    def old_style():
        yield

    def gen():
        yield

    class Awaitable:
        def __await__(self):
            yield

    loop = asyncio.new_event_loop()
    try:
        values = [coro(), old_style(), gen(), Awaitable(), loop.create_future(), 1, "x", None]
        assert [isawaitable(v) for v in values] == [inspect.isawaitable(v) for v in values]
        assert [isawaitable(v) for v in values] == [
            True,
            True,
            False,
            True,
            True,
            False,
            False,
            False,
        ]
    finally:
        values[0].close()
        loop.close()
