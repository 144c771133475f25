"""The body of a ``@tool``: the ``(arguments, context)`` callable that calls the function.

The function is called with keyword arguments (the parsed value turned into
keywords by the adapter) and the context parameter filled in, or, with
``infer_schema=False``, with one string as in langchain_core; a
``content_and_artifact`` pair becomes ``Ok(content, artifact)``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from ..contract import Error, Interrupt, Ok
from ..function._callables import BOUND_ATTRIBUTE, bound_names
from ..problems import ArgumentProblem, invalid_arguments
from ..results import ToolResult
from ._signature import FunctionSignature

__all__ = [
    "SINGLE_SCHEMA",
    "keyword_arguments",
    "make_body",
    "single_argument",
    "single_input_parser",
]

#: how a body turns ``(arguments, context)`` into the function's positional and keyword arguments
ArgumentsOf = Callable[[Any, Any], tuple[tuple[Any, ...], dict[str, Any]]]
#: an adapter's ``keywords``: a parsed value as keyword arguments
Keywords = Callable[[Any], dict[str, Any]]

#: the one argument of a tool built with ``infer_schema=False`` (langchain_core's name for it)
SINGLE_INPUT = "__arg1"
SINGLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {SINGLE_INPUT: {"type": "string"}},
    "required": [SINGLE_INPUT],
}


def _is_async(fn: object) -> bool:
    """Whether calling ``fn`` gives a coroutine (an ``async def``, or an object with one as ``__call__``)."""
    call = getattr(type(fn), "__call__", None)  # noqa: B004 - the method, not callability
    return inspect.iscoroutinefunction(fn) or (
        not inspect.isroutine(fn) and inspect.iscoroutinefunction(call)
    )


def _artifact_of(name: str, result: Any) -> Any:
    """``(content, artifact)`` as ``Ok(content, artifact)``."""
    if isinstance(result, (Ok, Error, Interrupt, ToolResult)):
        return result  # the result vocabulary speaks for itself
    if isinstance(result, tuple) and len(result) == 2:
        return Ok(result[0], result[1])
    message = (
        f"ERROR: tool {name} must return a (content, artifact) tuple because its "
        f'response_format is "content_and_artifact"; it returned {type(result).__name__}.'
    )
    return Error(message, TypeError(message))


def make_body(
    fn: Callable[..., Any], name: str, artifact: bool, arguments_of: ArgumentsOf
) -> Callable[..., Any]:
    """The ``(arguments, context)`` body that calls ``fn`` with what ``arguments_of`` gives."""
    if _is_async(fn):

        async def async_body(arguments: Any, context: Any) -> Any:
            args, kwargs = arguments_of(arguments, context)
            result = await fn(*args, **kwargs)
            return _artifact_of(name, result) if artifact else result

        return async_body

    def body(arguments: Any, context: Any) -> Any:
        args, kwargs = arguments_of(arguments, context)
        result = fn(*args, **kwargs)
        return _artifact_of(name, result) if artifact else result

    return body


def label(body: Callable[..., Any], fn: Callable[..., Any]) -> Callable[..., Any]:
    """Name ``body`` after ``fn`` and keep ``fn`` on it as ``func`` (langchain's name).

    Not ``functools.wraps``: ``__wrapped__`` would make ``inspect.signature``
    report ``fn``'s parameters instead of the body's ``(arguments, context)``.
    """
    for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
        value = getattr(fn, attr, None)
        if isinstance(value, str):
            setattr(body, attr, value)
    body.func = fn  # type: ignore[attr-defined]
    # a partial's bound arguments stay the application's: the Function rejects a call that sends one
    setattr(body, BOUND_ATTRIBUTE, bound_names(fn))
    return body


def keyword_arguments(sig: FunctionSignature, keywords: list[Keywords]) -> ArgumentsOf:
    """Keyword arguments from the parsed value, through ``keywords[0]`` (the adapter's, once known)."""
    ctx = sig.context
    # names the function cannot take (extra keys a parser let through) are left out
    allowed = None if sig.takes_kwargs else frozenset(sig.names)

    def arguments_of(value: Any, context: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        kwargs = keywords[0](value)
        if allowed is not None and not allowed.issuperset(kwargs):
            kwargs = {k: v for k, v in kwargs.items() if k in allowed}
        return (), kwargs if ctx is None else {**kwargs, ctx: context}

    return arguments_of


def single_argument(ctx: str | None) -> ArgumentsOf:
    """``infer_schema=False``: the one string, passed positionally."""

    def arguments_of(value: Any, context: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        if isinstance(value, Mapping) and len(value) == 1:
            value = next(iter(value.values()))  # else what your own parse_args produced
        return (value,), {} if ctx is None else {ctx: context}

    return arguments_of


def single_input_parser(arguments: Mapping[str, Any]) -> Any:
    """One string argument: ``__arg1``, or (as langchain_core allows) any one name."""
    if len(arguments) == 1:
        ((key, value),) = arguments.items()
        if isinstance(value, str):
            return Ok({SINGLE_INPUT: value})
        problems = [ArgumentProblem((key,), "Input should be a valid string", value)]
    elif not arguments:
        problems = [ArgumentProblem.missing(SINGLE_INPUT)]
    else:
        problems = [ArgumentProblem.unrecognized(k) for k in arguments if k != SINGLE_INPUT]
        if SINGLE_INPUT not in arguments:
            problems.insert(0, ArgumentProblem.missing(SINGLE_INPUT))
    return invalid_arguments(problems, arguments=arguments, accepted=[SINGLE_INPUT])
