"""Which ``format`` values the pure engine checks, and the checks toolparse adds.

The ``jsonschema`` library checks ``date-time`` and ``time`` only with
``rfc3339-validator`` installed, ``uri`` only with ``rfc3987`` or
``rfc3986-validator``: where it has no checker, toolparse supplies a small one
(RFC 3339 and RFC 3986 grammar), so these are checked whatever else is installed.
"""

from __future__ import annotations

import calendar
import re

from jsonschema import FormatChecker  # jsonschema ships no type information
from jsonschema.protocols import Validator  # jsonschema ships no type information

from ._patterns import is_regex

__all__ = ["format_checker"]

_TIME = r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"
_DATE_TIME = re.compile(rf"([0-9]{{4}})-([0-9]{{2}})-([0-9]{{2}})[Tt]{_TIME}", re.ASCII)
_TIME_ONLY = re.compile(_TIME, re.ASCII)
_DAYS = (0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _time_ok(
    hour: str, minute: str, second: str, sign: str | None, oh: str | None, om: str | None
) -> bool:
    h, m, s = int(hour), int(minute), int(second)
    off_h = int(oh) if oh else 0
    off_m = int(om) if om else 0
    if h > 23 or m > 59 or s > 60 or off_h > 23 or off_m > 59:
        return False
    if s == 60:
        # a leap second happens at 23:59:60 UTC only
        offset = (off_h * 60 + off_m) * (-1 if sign == "-" else 1)
        return (h * 60 + m - offset) % (24 * 60) == 23 * 60 + 59
    return True


def is_date_time(value: object) -> bool:
    """RFC 3339 ``date-time``: ``2024-01-31T09:30:00Z``, ``...+02:00``."""
    if not isinstance(value, str):
        return True  # formats only constrain strings
    match = _DATE_TIME.fullmatch(value)
    if match is None:
        return False
    year, month, day, *time = match.groups()
    y, mo, d = int(year), int(month), int(day)
    if not 1 <= mo <= 12 or not 1 <= d <= _DAYS[mo]:
        return False
    return not (mo == 2 and d == 29 and not calendar.isleap(y)) and _time_ok(*time)


def is_time(value: object) -> bool:
    """RFC 3339 ``full-time``: ``09:30:00Z``, ``09:30:00.5+02:00``."""
    if not isinstance(value, str):
        return True
    match = _TIME_ONLY.fullmatch(value)
    return match is not None and _time_ok(*match.groups())


_HEX = "[0-9A-Fa-f]"
_PCT = f"%{_HEX}{_HEX}"
_UNRESERVED_SUB = r"[A-Za-z0-9\-._~!$&'()*+,;=]"
_PCHAR = f"(?:{_UNRESERVED_SUB}|{_PCT}|[:@])"
_URI = re.compile(
    r"[A-Za-z][A-Za-z0-9+\-.]*:"  # scheme
    rf"(?://(?:(?:{_UNRESERVED_SUB}|{_PCT}|:)*@)?"  # userinfo
    rf"(?:\[[0-9A-Fa-f:.]+\]|(?:{_UNRESERVED_SUB}|{_PCT})*)"  # host
    r"(?::[0-9]*)?"  # port
    rf"(?:/{_PCHAR}*)*"  # path-abempty
    rf"|/?(?:{_PCHAR}+(?:/{_PCHAR}*)*)?)"  # path-absolute, -rootless, -empty
    rf"(?:\?(?:{_PCHAR}|[/?])*)?"  # query
    rf"(?:#(?:{_PCHAR}|[/?])*)?",  # fragment
    re.ASCII,
)


def is_uri(value: object) -> bool:
    """RFC 3986 absolute ``URI`` (a scheme is required): ``https://example.com/a``."""
    if not isinstance(value, str):
        return True
    return _URI.fullmatch(value) is not None


_FALLBACKS = {"date-time": is_date_time, "time": is_time, "uri": is_uri}


def format_checker(validator: type[Validator]) -> FormatChecker:
    """The format checker for ``validator``'s draft: the library's, completed.

    A new checker each time (the library's own is shared and must not change).
    """
    checker = FormatChecker(formats=())
    checker.checkers = dict(validator.FORMAT_CHECKER.checkers)
    # a model-sent regex is compiled only up to a length (see _patterns)
    if "regex" in checker.checkers:
        checker.checkers["regex"] = (is_regex, ())
    # "time" is not a format of drafts 4 and 6; it is not added there
    old_draft = any(d in validator.META_SCHEMA.get("$schema", "") for d in ("-04/", "-06/"))
    for name, check in _FALLBACKS.items():
        if name not in checker.checkers and not (name == "time" and old_draft):
            checker.checks(name)(check)
    return checker
