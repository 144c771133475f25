"""The body of a ``@tool``: the ``(arguments, context)`` callable that calls the function.

The function is called with keyword arguments (the parsed value turned into
keywords by the adapter), the context parameter filled in, and a
``content_and_artifact`` pair turned into ``Ok(content, artifact)``. With
``infer_schema=False`` the tool takes one string, as in langchain_core.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from ..adapter import keywords
from ..contract import Error, Interrupt, Ok
from ..function._callables import BOUND_ATTRIBUTE, bound_names
from ..problems import ArgumentProblem, invalid_arguments
from ..results import ToolResult
from ._signature import FunctionSignature

__all__: list[str] = []

#: The one argument of a tool built with ``infer_schema=False`` (langchain_core's
#: name for it in the schema it sends to the model).
SINGLE_INPUT = "__arg1"


def is_async(fn: object) -> bool:
    """Whether calling ``fn`` gives a coroutine (an ``async def``, or an object with one as ``__call__``)."""
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(type(fn), "__call__", None)  # noqa: B004 - the method, not callability
    return not inspect.isroutine(fn) and inspect.iscoroutinefunction(call)


def artifact_of(name: str, result: Any) -> Any:
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


def keyword_body(
    fn: Callable[..., Any], name: str, sig: FunctionSignature, response_format: str
) -> tuple[Callable[..., Any], Callable[[Callable[[Any], dict[str, Any]]], None]]:
    """The ``(arguments, context)`` body that calls ``fn`` by keyword.

    Returns the body and a setter for the function turning a parsed value into
    keyword arguments (known only once the Function has resolved its adapter).
    """
    convert: list[Callable[[Any], dict[str, Any]]] = [keywords]
    ctx: str | None = sig.context
    # names fn cannot take (extra keys a parser let through) are left out
    allowed: frozenset[str] | None = None if sig.takes_kwargs else sig.keyword_names - {ctx}
    artifact = response_format == "content_and_artifact"

    def arguments_for(value: Any, context: Any) -> dict[str, Any]:
        kwargs = convert[0](value)
        if allowed is not None and not allowed.issuperset(kwargs):
            kwargs = {k: v for k, v in kwargs.items() if k in allowed}
        if ctx is not None:
            kwargs = {**kwargs, ctx: context}
        return kwargs

    body: Callable[..., Any]
    if is_async(fn):

        async def abody(arguments: Any, context: Any) -> Any:
            result = await fn(**arguments_for(arguments, context))
            return artifact_of(name, result) if artifact else result

        body = abody
    elif artifact:

        def artifact_body(arguments: Any, context: Any) -> Any:
            return artifact_of(name, fn(**arguments_for(arguments, context)))

        body = artifact_body
    elif ctx is None and allowed is None:

        def open_body(arguments: Any, context: Any) -> Any:
            return fn(**convert[0](arguments))

        body = open_body
    else:

        def plain_body(arguments: Any, context: Any) -> Any:
            return fn(**arguments_for(arguments, context))

        body = plain_body
    label(body, fn)

    def set_keywords(found: Callable[[Any], dict[str, Any]]) -> None:
        convert[0] = found

    return body, set_keywords


def label(body: Callable[..., Any], fn: Callable[..., Any]) -> None:
    """Name the body after ``fn`` and keep ``fn`` on it as ``func`` (langchain's name).

    Not ``functools.wraps``: ``__wrapped__`` would make ``inspect.signature``
    report ``fn``'s parameters instead of the body's ``(arguments, context)``.
    """
    for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
        value = getattr(fn, attr, None)
        if isinstance(value, str):
            setattr(body, attr, value)
    body.func = fn  # type: ignore[attr-defined]
    # a partial's bound arguments stay the application's: the Function rejects
    # a call that sends one
    setattr(body, BOUND_ATTRIBUTE, bound_names(fn))


# -- infer_schema=False: langchain_core's single-input tool ---------------------

SINGLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {SINGLE_INPUT: {"type": "string"}},
    "required": [SINGLE_INPUT],
}


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


def single_input_body(
    fn: Callable[..., Any], name: str, ctx: str | None, artifact: bool
) -> Callable[..., Any]:
    """``infer_schema=False``: the body passes the one string positionally."""

    def value_of(arguments: Any) -> Any:
        if isinstance(arguments, Mapping) and len(arguments) == 1:
            return next(iter(arguments.values()))
        return arguments  # what your own parse_args produced

    body: Callable[..., Any]
    if is_async(fn):

        async def abody(arguments: Any, context: Any) -> Any:
            extra = {} if ctx is None else {ctx: context}
            result = await fn(value_of(arguments), **extra)
            return artifact_of(name, result) if artifact else result

        body = abody
    else:

        def sbody(arguments: Any, context: Any) -> Any:
            extra = {} if ctx is None else {ctx: context}
            result = fn(value_of(arguments), **extra)
            return artifact_of(name, result) if artifact else result

        body = sbody
    label(body, fn)
    return body
