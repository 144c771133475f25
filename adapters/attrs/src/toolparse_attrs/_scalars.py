"""The strict scalar hooks (no ``str(123)``, no ``int(True)``, ISO 8601 dates, exact choices)."""

from __future__ import annotations

import datetime as dt
import functools
import re
import typing
from collections.abc import Callable
from typing import Any

import cattrs

from toolparse.adapter import format_reason, one_of_reason, type_reason

from ._types import is_enum, is_literal, literal_values

__all__ = ["Rejected", "register_scalar_hooks"]


class Rejected(ValueError):
    """A value the strict hooks refuse; its one argument is the reason the model reads."""


# the reasons, worded once (a refusal is on the error path of every wrong call)
_NOT_A_STRING = type_reason("string")
_NOT_AN_INTEGER = type_reason("integer")
_NOT_A_NUMBER = type_reason("number")
_NOT_A_BOOLEAN = type_reason("boolean")
_NOT_A_DATETIME = format_reason("date-time")
_NOT_A_DATE = format_reason("date")

# cattrs finds these hooks by class hierarchy: ``tp`` may be a subclass of the
# plain type (an enum mixing in ``int``): an enum takes its members' exact values.


def strict_str(value: Any, tp: Any) -> str:
    if tp is not str:
        return _narrower(tp, value, strict_str, str)  # type: ignore[no-any-return]
    if isinstance(value, str):
        return value
    raise Rejected(_NOT_A_STRING)


def strict_int(value: Any, tp: Any) -> int:
    if tp is not int:
        return _narrower(tp, value, strict_int, int)  # type: ignore[no-any-return]
    kind = type(value)
    if kind is int:
        return value  # type: ignore[no-any-return]
    if kind is float and value.is_integer():
        return int(value)  # a fractional number would be truncated: refused
    raise Rejected(_NOT_AN_INTEGER)


def strict_float(value: Any, tp: Any) -> float:
    if tp is not float:
        return _narrower(tp, value, strict_float, float)  # type: ignore[no-any-return]
    kind = type(value)
    if kind is float:
        return value  # type: ignore[no-any-return]
    if kind is int:
        return float(value)
    raise Rejected(_NOT_A_NUMBER)


def strict_bool(value: Any, tp: Any) -> bool:
    if tp is not bool:
        return _narrower(tp, value, strict_bool, bool)  # type: ignore[no-any-return]
    if type(value) is bool:
        return value
    raise Rejected(_NOT_A_BOOLEAN)


def _narrower(tp: Any, value: Any, strict: Callable[[Any, Any], Any], plain: type) -> Any:
    if is_enum(tp):
        return enum_hook(tp)(value, tp)
    return tp(strict(value, plain))


# ISO 8601 / RFC 3339, for every Python version toolparse supports (3.10's
# fromisoformat reads neither "Z" nor fractions of other than 3 or 6 digits)
_DATETIME = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d+))?)?"
    r"(?:([Zz])|([+-])(\d\d):?(\d\d))?"
)


def strict_datetime(value: Any, tp: Any) -> dt.datetime:
    """An ISO 8601 date-time string (``2024-05-01T14:30:00Z``; the offset may be left out)."""
    match = _DATETIME.fullmatch(value) if isinstance(value, str) and tp is dt.datetime else None
    if match is None:
        raise Rejected(_NOT_A_DATETIME)
    year, month, day, hour, minute, second, fraction, zulu, sign, oh, om = match.groups()
    tz = dt.timezone.utc if zulu else None
    if sign:
        offset = dt.timedelta(hours=int(oh), minutes=int(om))
        tz = dt.timezone(-offset if sign == "-" else offset)
    micro = int((fraction or "0")[:6].ljust(6, "0"))
    try:
        year, month, day, hour, minute, second = (
            int(n) for n in (year, month, day, hour, minute, second or 0)
        )
        return dt.datetime(year, month, day, hour, minute, second, micro, tz)
    except ValueError:  # a day or an hour out of range
        raise Rejected(_NOT_A_DATETIME) from None


def strict_date(value: Any, tp: Any) -> dt.date:
    try:
        if isinstance(value, str) and len(value) == 10 and tp is dt.date:
            return dt.date.fromisoformat(value)
    except ValueError:
        pass
    raise Rejected(_NOT_A_DATE)


def _choice_hook(pairs: list[tuple[Any, Any]]) -> Callable[[Any, Any], Any]:
    """A choice among ``pairs`` (JSON value, result), by type too (``True`` is not ``1``)."""
    table = {(type(value), value): result for value, result in pairs}
    reason = one_of_reason([value for value, _ in pairs])

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


def register_scalar_hooks(converter: cattrs.BaseConverter) -> None:
    """Register the strict hooks on ``converter`` (and ISO 8601 text for unstructured dates)."""
    for kind, hook in (
        (str, strict_str),
        (int, strict_int),
        (float, strict_float),
        (bool, strict_bool),
        (dt.datetime, strict_datetime),
        (dt.date, strict_date),
    ):
        converter.register_structure_hook(kind, hook)
    converter.register_unstructure_hook(dt.datetime, dt.datetime.isoformat)
    converter.register_unstructure_hook(dt.date, dt.date.isoformat)
    converter.register_structure_hook_factory(is_literal, literal_hook)
    converter.register_structure_hook_factory(is_enum, enum_hook)
