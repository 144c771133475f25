"""Outcomes: turning what a tool's body returned, or what it raised, into what the model reads.

The plan's body step (``_plan``) calls the body and hands anything but a
plain string here; so does a parser that raised. Every error text and
interrupt display made here has the context's strings redacted
(``toolparse.context.secrets_of``): the context is only read once something
failed, so a valid call pays nothing for it. The plugin manager is the
Function's own, given at definition: the ``toolparse_format_exception`` and
``toolparse_serialize`` hooks are asked through it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any

from .. import messages
from ..arguments import ArgumentKeyError, Limits, recursion_error
from ..context import environ_secrets, redact, secrets_of
from ..contract import Error, Interrupt, Ok, Outcome, ToolError
from ..problems import ArgumentProblem, invalid_arguments
from ..results import ContentPart, ToolResult

if TYPE_CHECKING:
    from ..plugins import PluginManager
    from ._function import Function

__all__: list[str] = []

_JSON_SCALARS = (int, float, bool, type(None))


class Outcomes:
    """How one Function turns a body's result, or a failure, into what the model reads.

    :param owner: the Function (the ``toolparse_format_exception`` hook gets it).
    :param pm: the Function's plugin manager.
    :param accepted: the accepted names, for the "wrong argument name" message
        of a body that read a name it was not sent (empty: no such message,
        e.g. when a parser produced the value).
    """

    __slots__ = ("_accepted", "_owner", "_pm")

    def __init__(self, owner: Function, pm: PluginManager, accepted: Sequence[str]) -> None:
        self._owner = owner
        self._pm = pm
        self._accepted = tuple(accepted)

    async def finish(self, awaitable: Awaitable[Any], value: Any, context: Any = None) -> Outcome:
        """Await what an async body returned, and normalise it."""
        try:
            result = await awaitable
        except (Exception, SystemExit) as exc:
            return self.rescue(exc, value, context)
        except BaseException as exc:
            # asyncio is loaded by now (an awaitable ran); importing it at the top
            # would make every ``import toolparse`` pay for it
            import asyncio

            if not isinstance(exc, asyncio.CancelledError):
                raise
            # a cancellation of this task (a timeout, the caller) propagates;
            # a CancelledError the body raised of its own accord is its failure.
            # Python 3.10 cannot tell them apart (no Task.cancelling): it propagates
            task = asyncio.current_task()
            cancelling = getattr(task, "cancelling", None)
            if cancelling is None or cancelling():
                raise
            return self.rescue(exc, value, context)
        return self.outcome(result, context)

    def rescue(self, exc: BaseException, value: Any, context: Any = None) -> Error:
        """A body raised: a ToolError is its message; anything else is rescued."""
        secrets = secrets_of(context)
        if isinstance(exc, ToolError):
            if exc.message is None:
                return Error(self.exception_text(exc, secrets), exc)
            return redacted(Error(exc.message, exc), context)
        if isinstance(exc, ArgumentKeyError) and exc.arguments is value and self._accepted:
            text = messages.key_error(exc.key, value, self._accepted)
            return Error(redact(text, secrets), exc)
        return Error(self.exception_text(exc, secrets), exc)

    def parser_failed(
        self, exc: Exception, arguments: dict[str, Any], limits: Limits, context: Any = None
    ) -> Error:
        """A parser raised: too-deep arguments say so; anything else is rescued."""
        if isinstance(exc, RecursionError):
            text = recursion_error(self._owner.name, arguments, limits)
            if text is not None:
                return Error(text, exc)
        if isinstance(exc, ValueError) and "integer string conversion" in _safe_str(exc):
            # a parser turned an integer of thousands of digits into text (Python's
            # own limit): the model can fix that, so it reads an argument message
            problem = ArgumentProblem((), "holds an integer of more than 4300 digits")
            return invalid_arguments([problem], arguments=arguments, cause=exc)
        return Error(self.exception_text(exc, secrets_of(context)), exc)

    def exception_text(self, exc: BaseException, secrets: Sequence[str] = ()) -> str:
        """The text for an exception, from the ``toolparse_format_exception`` hook or the default.

        ``secrets`` are redacted from either (from the default's message
        before it is cut to length).
        """
        pm = self._pm
        if pm.hook.toolparse_format_exception.get_hookimpls():
            text = pm.hook.toolparse_format_exception(exception=exc, function=self._owner)
            if text is not None:
                return redact(str(text), secrets)
        return messages.exception(exc, secrets)

    def outcome(self, result: Any, context: Any = None) -> Outcome:
        """Normalise what a body returned into the result vocabulary."""
        kind = type(result)
        if kind is str:
            return Ok(result)
        if kind is Ok:
            content = self.content(result.value)
            if type(content) is Error:
                return content
            if content is result.value:
                return result  # type: ignore[no-any-return]
            return Ok(content, result.processed_content)
        if kind is Error:
            return redacted(result, context)
        if kind is Interrupt:
            display = result.display
            if not isinstance(display, str):
                return Error(messages.UNEXPECTED_RESPONSE)
            shown = redact(display, secrets_of(context))
            return result if shown is display else Interrupt(shown, result.data)
        content = self.content(result)
        return content if type(content) is Error else Ok(content)

    def content(self, value: Any) -> Any:
        """Content the model can read: text, parts, a ToolResult, or JSON text."""
        if isinstance(value, str):
            return value
        if isinstance(value, ToolResult):
            # a copy: what the call fills in (its id, name, flags) never
            # reaches the object the tool returned, which it may reuse
            return copy.copy(value)
        if isinstance(value, list) and value and all(isinstance(p, ContentPart) for p in value):
            return value
        if isinstance(value, (dict, list, tuple, *_JSON_SCALARS)):
            try:
                return json.dumps(value, ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError, RecursionError):
                pass
        text = self._pm.serialize(value)
        return text if text is not None else Error(messages.UNEXPECTED_RESPONSE)


def redacted(error: Error, context: Any) -> Error:
    """``error`` as the model may read it: text, with the context's strings redacted."""
    message = error[0]
    if context is None and type(message) is str and not environ_secrets():
        return error  # most rejected calls: nothing to look for
    secrets = secrets_of(context)
    if not isinstance(message, str):
        return Error(text_of(message, secrets), error.exception)
    text = redact(message, secrets)
    return error if text is message else Error(text, error.exception)


def text_of(message: object, secrets: Sequence[str] = ()) -> str:
    """A message that is not text, as text the model may read (no address, no secret, capped)."""
    try:
        text = repr(message)
    except Exception:  # a broken __str__ must not break the error path
        text = ""
    return messages.safe_text(redact(text, secrets)) or f"<{type(message).__name__}>"


def _safe_str(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception:  # a broken __str__ says nothing
        return ""
