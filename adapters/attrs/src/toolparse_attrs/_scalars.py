"""The strict scalar hooks: no ``str(123)``, no ``int(True)``, ISO 8601 dates, exact choices.

cattrs structures leniently by default; the converter (``_converter``)
registers these hooks instead, and each refusal raises :class:`Rejected` with
the reason the model reads.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import typing
from collections.abc import Callable
from typing import Any

from toolparse.adapter import format_reason, type_reason

from ._types import is_enum, literal_values, one_of

__all__ = [
    "Rejected",
    "enum_hook",
    "literal_hook",
    "parse_datetime",
    "strict_bool",
    "strict_date",
    "strict_datetime",
    "strict_float",
    "strict_int",
    "strict_str",
]


class Rejected(ValueError):
    """A value the strict hooks refuse; :attr:`reason` is what the model reads."""

    # the reason is the exception's one argument (no __init__ of its own: one
    # is raised for every wrong value)
    @property
    def reason(self) -> str:
        """What the model reads."""
        reason: str = self.args[0]
        return reason


# -- scalars ------------------------------------------------------------------

# the reasons, worded once (a refusal is on the error path of every wrong call)
_NOT_A_STRING = type_reason("string")
_NOT_AN_INTEGER = type_reason("integer")
_NOT_A_NUMBER = type_reason("number")
_NOT_A_BOOLEAN = type_reason("boolean")
_NOT_A_DATETIME = format_reason("date-time")
_NOT_A_DATE = format_reason("date")


# Each hook takes the fast path in one call (cattrs calls it once per field)
# and refuses a value of the plain type in place: the refusal is raised in the
# hook's own frame, one traceback entry fewer on every wrong value. A subclass
# of the type (an IntEnum is an int: cattrs finds these hooks by class
# hierarchy) goes to _narrower.


def strict_str(value: Any, tp: Any) -> str:
    if tp is str:
        if isinstance(value, str):
            return value
        raise Rejected(_NOT_A_STRING)
    result: str = _narrower(tp, str, value, _strict_str)
    return result


def _strict_str(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise Rejected(_NOT_A_STRING)


def strict_int(value: Any, tp: Any) -> int:
    if tp is int:
        kind = type(value)
        if kind is int:
            return value  # type: ignore[no-any-return]
        if kind is float and value.is_integer():
            return int(value)
        raise Rejected(_NOT_AN_INTEGER)
    result: int = _narrower(tp, int, value, _strict_int)
    return result


def _strict_int(value: Any) -> int:
    kind = type(value)
    if kind is int:
        return value  # type: ignore[no-any-return]
    # 5.0 is an integer to JSON Schema (and to a JSON decoder it is a float);
    # a fractional number would be truncated, so it is refused
    if kind is float and value.is_integer():
        return int(value)
    raise Rejected(_NOT_AN_INTEGER)


def strict_float(value: Any, tp: Any) -> float:
    if tp is float:
        kind = type(value)
        if kind is float:
            return value  # type: ignore[no-any-return]
        if kind is int:
            return float(value)
        raise Rejected(_NOT_A_NUMBER)
    result: float = _narrower(tp, float, value, _strict_float)
    return result


def _strict_float(value: Any) -> float:
    kind = type(value)
    if kind is float:
        return value  # type: ignore[no-any-return]
    if kind is int:
        return float(value)
    raise Rejected(_NOT_A_NUMBER)


def strict_bool(value: Any, tp: Any) -> bool:
    if tp is bool:
        if type(value) is bool:
            return value
        raise Rejected(_NOT_A_BOOLEAN)
    result: bool = _narrower(tp, bool, value, _strict_bool)
    return result


def _strict_bool(value: Any) -> bool:
    if type(value) is bool:
        return value
    raise Rejected(_NOT_A_BOOLEAN)


def _narrower(tp: Any, kind: type, value: Any, strict: Callable[[Any], Any]) -> Any:
    if tp is kind:
        return strict(value)
    if is_enum(tp):
        return enum_hook(tp)(value, tp)
    return tp(strict(value))


# ISO 8601 / RFC 3339, for every Python version toolparse supports (3.10's
# fromisoformat reads neither "Z" nor fractions of other than 3 or 6 digits)
_DATETIME = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d+))?)?"
    r"(?:([Zz])|([+-])(\d\d):?(\d\d))?"
)


def parse_datetime(text: str) -> dt.datetime:
    """Read an ISO 8601 date-time (``2024-05-01T14:30:00Z``; the offset may be left out)."""
    match = _DATETIME.fullmatch(text)
    if match is None:
        raise ValueError(text)
    year, month, day, hour, minute, second, fraction, zulu, sign, oh, om = match.groups()
    tz: dt.tzinfo | None = None
    if zulu:
        tz = dt.timezone.utc
    elif sign:
        offset = dt.timedelta(hours=int(oh), minutes=int(om))
        tz = dt.timezone(-offset if sign == "-" else offset)
    micro = int((fraction or "0")[:6].ljust(6, "0"))
    return dt.datetime(
        int(year),
        int(month),
        int(day),
        int(hour),
        int(minute),
        int(second or 0),
        micro,
        tz,
    )


def strict_datetime(value: Any, tp: Any) -> dt.datetime:
    if isinstance(value, str) and tp is dt.datetime:
        try:
            return parse_datetime(value)
        except ValueError:
            pass
    raise Rejected(_NOT_A_DATETIME)


def strict_date(value: Any, tp: Any) -> dt.date:
    if isinstance(value, str) and len(value) == 10 and tp is dt.date:
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise Rejected(_NOT_A_DATE)


# -- choices ------------------------------------------------------------------


def _choice_hook(pairs: list[tuple[Any, Any]]) -> Callable[[Any, Any], Any]:
    """Structure a JSON value into the choice whose value it is, type included.

    ``pairs`` are (JSON value, result). Keys carry the value's type so that
    ``True`` does not pass for ``1`` (they are equal in Python).
    """
    table = {(type(value), value): result for value, result in pairs}
    reason = one_of([value for value, _ in pairs])

    def structure(value: Any, _: Any) -> Any:
        try:
            return table[type(value), value]
        except (KeyError, TypeError):  # TypeError: an unhashable value
            raise Rejected(reason) from None

    return structure


def literal_hook(tp: Any) -> Callable[[Any, Any], Any]:
    return _choice_hook(list(zip(literal_values(tp), typing.get_args(tp), strict=False)))


@functools.lru_cache(maxsize=256)
def enum_hook(tp: Any) -> Callable[[Any, Any], Any]:
    return _choice_hook([(member.value, member) for member in tp])
