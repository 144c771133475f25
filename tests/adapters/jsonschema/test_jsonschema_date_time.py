"""The ``date-time`` check of the pure engine: RFC 3339, every field in range.

(toolparse supplies it where the jsonschema library has none, without
``rfc3339-validator``.)
"""

from __future__ import annotations

import calendar
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse_jsonschema import JsonSchema

_TOOL = tp.Function(
    "t",
    lambda a: "ok",
    args_schema=JsonSchema(
        {"type": "object", "properties": {"w": {"format": "date-time"}}}, fast=False
    ),
)


def is_date_time(value: object) -> bool:
    """Whether the pure engine takes ``value`` as a date-time."""
    return isinstance(_TOOL.parse_arguments({"w": value}), tp.Ok)


_REFERENCE = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?"
    r"(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))",
    re.ASCII,
)
_DAYS = (0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def reference(value: str) -> bool:
    """The grammar, then every field converted and compared (the plain reading of RFC 3339)."""
    match = _REFERENCE.fullmatch(value)
    if match is None:
        return False
    y, mo, d, h, mi, s = (int(g) for g in match.groups()[:6])
    sign, oh, om = match.groups()[6:]
    off_h, off_m = int(oh or 0), int(om or 0)
    if not 1 <= mo <= 12 or not 1 <= d <= _DAYS[mo]:
        return False
    if mo == 2 and d == 29 and not calendar.isleap(y):
        return False
    if h > 23 or mi > 59 or s > 60 or off_h > 23 or off_m > 59:
        return False
    if s == 60:
        offset = (off_h * 60 + off_m) * (-1 if sign == "-" else 1)
        return (h * 60 + mi - offset) % (24 * 60) == 23 * 60 + 59
    return True


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("2024-01-31T09:30:00Z", True),
        ("2024-01-31t09:30:00.123+02:00", True),
        ("2024-02-29T00:00:00Z", True),  # a leap year
        ("2023-02-29T00:00:00Z", False),
        ("1900-02-29T00:00:00Z", False),
        ("2000-02-29T00:00:00Z", True),
        ("2024-04-31T00:00:00Z", False),
        ("2024-04-30T00:00:00Z", True),
        ("2024-13-01T00:00:00Z", False),
        ("2024-00-01T00:00:00Z", False),
        ("2024-01-00T00:00:00Z", False),
        ("2024-01-32T00:00:00Z", False),
        ("2024-01-01T24:00:00Z", False),
        ("2024-01-01T23:60:00Z", False),
        ("2024-01-01T23:59:61Z", False),
        ("2016-12-31T23:59:60Z", True),  # a leap second, at 23:59:60 UTC
        ("2016-12-31T12:00:60Z", False),
        ("2016-12-31T18:59:60-05:00", True),
        ("2016-12-31T23:59:60+01:00", False),
        ("2024-01-01T00:00:00+24:00", False),
        ("2024-01-01T00:00:00+23:60", False),
        ("2024-01-01T00:00:00", False),  # no offset
        ("2024-01-01 00:00:00Z", False),
        ("2024-01-01T00:00:00.Z", False),
        ("\uff12\uff10\uff12\uff14-01-01T00:00:00Z", False),  # ASCII digits only (fullwidth here)
        ("", False),
    ],
)
def test_date_time_cases(value: str, valid: bool) -> None:
    assert is_date_time(value) is valid
    assert reference(value) is valid


def test_non_strings_are_left_to_the_type_keyword() -> None:
    assert is_date_time(12) is True


_DIGITS = st.text("0123456789", min_size=2, max_size=2)
_DATE_TIMES = st.builds(
    lambda y, mo, d, h, mi, s, frac, off: f"{y}-{mo}-{d}T{h}:{mi}:{s}{frac}{off}",
    st.text("0123456789", min_size=4, max_size=4),
    _DIGITS,
    _DIGITS,
    _DIGITS,
    _DIGITS,
    st.sampled_from(["00", "59", "60", "61"]) | _DIGITS,
    st.sampled_from(["", ".5", ".000001"]),
    st.sampled_from(["Z", "z", ""])
    | st.builds(lambda s, h, m: f"{s}{h}:{m}", st.sampled_from("+-"), _DIGITS, _DIGITS),
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_DATE_TIMES | st.text(max_size=30))
@example("2024-02-29T23:59:60-00:00")
def test_date_time_agrees_with_the_plain_reading(value: str) -> None:
    assert is_date_time(value) is reference(value)
