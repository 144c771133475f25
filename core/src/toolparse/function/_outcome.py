"""Outcomes: turning what a tool's body returned, or what it raised, into what the model reads.

The plan's body step (``_plan``) calls the body and hands anything but a
plain string here; so does a parser that raised. Every error text and
interrupt display made here has the context's strings redacted
(``toolparse.context.secrets_of``): the context is only read once something
failed, so a valid call pays nothing for it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any

from .. import messages
from ..arguments import ArgumentKeyError, Limits, recursion_error
from ..context import _OWN_KEYS, Context, redact, secrets_of
from ..contract import Error, Interrupt, Ok, Outcome, ToolError
from ..problems import ArgumentProblem, invalid_arguments
from ..results import ContentPart, ToolResult

if TYPE_CHECKING:
    from ._function import Function

__all__: list[str] = []

_JSON_SCALARS = (int, float, bool, type(None))


class Outcomes:
    """How one Function turns a body's result, or a failure, into what the model reads.

    :param owner: the Function (the ``toolparse_format_exception`` hook gets it).
    :param accepted: the accepted names, for the "wrong argument name" message
        of a body that read a name it was not sent (empty: no such message,
        e.g. when a parser produced the value).
    """

    __slots__ = ("_accepted", "_owner")

    def __init__(self, owner: Function, accepted: Sequence[str]) -> None:
        self._owner = owner
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
        secrets = _secrets(context)
        if isinstance(exc, ToolError):
            message = exc.message
            if not isinstance(message, str):
                if message is None:
                    return Error(self.exception_text(exc, secrets), exc)
                message = text_of(message, secrets)
            return Error(redact(message, secrets), exc)
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
        return Error(self.exception_text(exc, _secrets(context)), exc)

    def exception_text(self, exc: BaseException, secrets: Sequence[str] = ()) -> str:
        """The text for an exception, from the ``toolparse_format_exception`` hook or the default.

        ``secrets`` are redacted from either (from the default's message
        before it is cut to length).
        """
        pm = self._owner._pm
        if pm is None:
            # the default manager, looked up only once something raised (a lazy
            # edge: plugins imports the core's defaults, which import Function)
            from ..plugins import plugin_manager

            pm = plugin_manager()
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
            shown = redact(display, _secrets(context))
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
        pm = self._owner._pm
        if pm is None:
            # the default manager serialises models for tools built without one
            from ..plugins import plugin_manager

            pm = plugin_manager()
        text = pm.serialize(value)
        if text is not None:
            return text
        return Error(messages.UNEXPECTED_RESPONSE)


#: the exact types of a context value that hold no string (nor anything inside)
_SCALARS = frozenset({int, float, bool, type(None)})
#: the containers whose values are looked at before the search, and how many of them
_SIZED = frozenset({dict, Context, list, tuple})
_LOOKED_AT = 32


def holds_no_string(context: Any) -> bool:
    """Whether one quick look shows that ``context`` holds no string to redact.

    ``True`` for no context, and for a context of plain numbers, flags and
    nulls (``{"user_id": 42}``, or only the keys toolparse adds), at the top
    or as a dict's or a list's values: the search (a few microseconds, as much
    as a rejection's own rendering) would find nothing. ``False``: it may hold
    one; search it (``secrets_of``).
    """
    if context is None:
        return True
    kind = type(context)
    if kind in _SCALARS:
        return True
    if kind not in _SIZED or len(context) > _LOOKED_AT:
        return False  # left to the search (bounded, whatever the context)
    # the first value that may hold a string ends the look (a context that
    # holds strings pays one test for it)
    if kind is list or kind is tuple:
        return all(type(value) in _SCALARS for value in context)
    for key, value in context.items():
        # the keys toolparse adds are never searched (as in ``secrets_of``)
        if type(value) not in _SCALARS and key not in _OWN_KEYS:
            return False
    return True


def _secrets(context: Any) -> tuple[str, ...]:
    """The context's strings to redact (``secrets_of``), at once for one that holds none."""
    return () if holds_no_string(context) else secrets_of(context)


def redacted(error: Error, context: Any) -> Error:
    """``error`` as the model may read it: text, with the context's strings redacted."""
    message = error[0]
    if context is None and type(message) is str:
        return error  # most rejected calls: nothing to look for
    secrets = _secrets(context)
    if not isinstance(message, str):
        return Error(text_of(message, secrets), error.exception)
    if not secrets:
        return error
    text = redact(message, secrets)
    return error if text is message else Error(text, error.exception)


def text_of(message: object, secrets: Sequence[str] = ()) -> str:
    """A message that is not text, as text the model may read (no address, no secret, capped)."""
    try:
        text = repr(message)
    except Exception:  # a broken __str__ must not break the error path
        text = ""
    if secrets:
        text = redact(text, secrets)
    return messages.safe_text(text) or f"<{type(message).__name__}>"


def _safe_str(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception:  # a broken __str__ says nothing
        return ""
