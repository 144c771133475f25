"""The parse contract: the three outcomes a parser or a tool body can produce.

The classes are small tuple subclasses rather than dataclasses because one
``Ok`` is built on every tool call, and a frozen dataclass costs several times
more to construct.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Generic, TypeVar

__all__ = [
    "Error",
    "Interrupt",
    "Ok",
    "Outcome",
    "ParseResult",
    "ToolError",
    "error",
    "interrupt",
    "ok",
]

T = TypeVar("T")

_new = tuple.__new__


class _Outcome(tuple):  # type: ignore[type-arg]
    """Shared behaviour of the outcome classes.

    They are tuples underneath (immutable, hashable when their fields are,
    cheap to build, unpackable: ``value, processed = outcome``), but an ``Ok``
    never equals an ``Error`` or a plain tuple with the same fields.
    """

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            # False, not NotImplemented: a plain tuple would answer for us
            return False if isinstance(other, tuple) else NotImplemented
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__, *map(_hashable, self)))

    def __repr__(self) -> str:
        fields = tuple(self)
        # trailing fields left at their default (None) are omitted, like the call
        while len(fields) > 1 and fields[-1] is None:
            fields = fields[:-1]
        return f"{type(self).__name__}({', '.join(map(repr, fields))})"

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)


def _hashable(value: object) -> object:
    try:
        hash(value)
    except TypeError:
        return id(value)
    return value


def _field(index: int, doc: str) -> Any:
    return property(itemgetter(index), doc=doc)  # (a C-level getter: read on every call)


class Ok(_Outcome, Generic[T]):
    """Success.

    From a parser: ``Ok(None)`` means "use the arguments as they are" and
    ``Ok(parsed)`` means "use ``parsed`` instead". From a tool: ``value`` is the
    content for the model and ``processed_content`` is kept for the application
    only (it is never sent to the model).
    """

    __slots__ = ()
    __match_args__ = ("value", "processed_content")

    def __new__(cls, value: T = None, processed_content: Any = None) -> Ok[T]:  # type: ignore[assignment]
        """Build an ``Ok``; ``value`` and ``processed_content`` default to ``None``."""
        return _new(cls, (value, processed_content))

    value: T = _field(0, "The parsed arguments, or the tool's content.")
    processed_content: Any = _field(1, "A native value kept for the application.")


class Error(_Outcome):
    """Failure whose ``message`` goes back to the model verbatim.

    ``exception`` keeps the original exception (when one was raised) for the
    application and its logs; the model never sees it.
    """

    __slots__ = ()
    __match_args__ = ("message", "exception")

    def __new__(cls, message: str, exception: BaseException | None = None) -> Error:
        """Build an ``Error`` with the model's message and, optionally, its exception."""
        return _new(cls, (message, exception))

    message: str = _field(0, "The text the model reads.")
    exception: BaseException | None = _field(1, "The exception behind the error, if any.")


class Interrupt(_Outcome):
    """The tool paused for human review.

    ``display`` is the text shown to the person; ``data`` is opaque state the
    application needs to resume. Neither is an error.
    """

    __slots__ = ()
    __match_args__ = ("display", "data")

    def __new__(cls, display: str, data: Any = None) -> Interrupt:
        """Build an ``Interrupt`` with the text to show and the data to resume with."""
        return _new(cls, (display, data))

    display: str = _field(0, "The text shown to the person reviewing.")
    data: Any = _field(1, "Opaque data to resume the call.")


#: What a parser returns.
ParseResult = Ok[Any] | Error
#: What executing a tool returns.
Outcome = Ok[Any] | Error | Interrupt


def ok(value: T = None, processed_content: Any = None) -> Ok[T]:  # type: ignore[assignment]
    """Build an :class:`Ok`: ``ok()``, ``ok(parsed)`` or ``ok(content, processed)``."""
    return _new(Ok, (value, processed_content))


def error(message: str) -> Error:
    """Build an :class:`Error` whose ``message`` goes back to the model as written."""
    return _new(Error, (message, None))


def interrupt(display: str, data: Any = None) -> Interrupt:
    """Build an :class:`Interrupt`: pause the tool call for human review."""
    return Interrupt(display, data)


class ToolError(Exception):
    """Raise from a tool body to send ``message`` to the model as written.

    Unlike any other exception, no ``ERROR: (Type) ...`` prefix or source location
    is added: the message is meant for the model.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
