"""What the plain parser's converters return on failure, and the converters of JSON scalars.

A converter returns the parsed value, or a :class:`_Failed` holding the
problems it found; the scalar converters are the leaves, each worded with
the adapter SDK's shared words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..adapter import MAX_PROBLEMS, type_reason
from ..problems import NOT_GIVEN, ProblemKind

__all__ = ["KEPT"]

Converter = Callable[[Any], Any]


#: how many problems one call keeps (the SDK's bound); the rest are counted, so a
#: list of 200,000 wrong items costs a type test each
KEPT = MAX_PROBLEMS


class _Failed:
    """What a converter returns instead of a value when it found problems.

    Each problem is ``[reversed_path, reason, received, kind]``; parents append
    their key to the reversed path on the way up (cheaper than prepending).
    ``more`` counts the problems found past the :data:`KEPT` first ones.
    """

    __slots__ = ("more", "problems")

    def __init__(self, problems: list[list[Any]], more: int = 0) -> None:
        self.problems = problems
        self.more = more


def _fail(reason: str, received: Any = NOT_GIVEN, kind: ProblemKind = "invalid") -> _Failed:
    return _Failed([[[], reason, received, kind]])


# the reasons in the shared words of the adapter SDK, worded once
_STRING = type_reason("string")
_INTEGER = type_reason("integer")
_NUMBER = type_reason("number")
_BOOLEAN = type_reason("boolean")
_NULL = type_reason("null")
_LIST = type_reason("array")
_OBJECT = type_reason("object")


def _identity(value: Any) -> Any:
    return value


def _str(value: Any) -> Any:
    return value if type(value) is str else _fail(_STRING, value)


def _int(value: Any) -> Any:
    return value if type(value) is int else _fail(_INTEGER, value)


def _float(value: Any) -> Any:
    kind = type(value)
    if kind is float:
        return value
    if kind is int:
        try:
            return float(value)
        except OverflowError:  # an integer of hundreds of digits
            return _fail("must be a number within the range of a float", value)
    return _fail(_NUMBER, value)


def _bool(value: Any) -> Any:
    return value if type(value) is bool else _fail(_BOOLEAN, value)


def _null(value: Any) -> Any:
    return value if value is None else _fail(_NULL, value)


#: the JSON types a value is taken as it is, each with the reason when it is not
#: (a number is not among them: an integer is converted to one)
_EXACT: dict[type, str] = {
    str: _STRING,
    int: _INTEGER,
    bool: _BOOLEAN,
    type(None): _NULL,
}

_SCALARS: dict[type, Converter] = {
    str: _str,
    int: _int,
    float: _float,
    bool: _bool,
    type(None): _null,
}
