"""With toolparse's own converter the attrs parser checks its schema: nested nulls are restored after a rejection.

Each strict hook refuses a ``null`` the exported schema does not admit, so the
core looks for nulls to restore only once the parser rejects a call. The
verdict must be the one restoring first gives, for every kind of field.
"""

from __future__ import annotations

import datetime
import enum
from typing import Any, Literal

import attrs
import cattrs
from attrs import converters
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.core.checking_adapter import verdict_of

import toolparse as tp
from toolparse.adapter import Compiled
from toolparse_attrs import AttrsAdapter, AttrsSource


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@attrs.define
class Line:
    sku: str
    qty: int = 1
    price: float | None = None
    tags: list[str] = attrs.Factory(list)
    when: datetime.date | None = None


@attrs.define
class Order:
    id: int
    lines: list[Line] = attrs.Factory(list)
    note: str = ""
    colour: Colour = Colour.RED
    mode: Literal["a", "b"] = "a"
    counts: dict[str, int] = attrs.Factory(dict)
    first: Line | None = None
    paid: bool = False


@attrs.define
class Converted:
    id: int
    lines: list[Line] = attrs.Factory(list)
    n: int = attrs.field(default=5, converter=converters.optional(int))


class _Forced:
    """The attrs adapter, with the flag its Compiled carries forced to a value."""

    name = "attrs-forced"

    def __init__(self, after: bool) -> None:
        self.after = after

    def accepts(self, source: object) -> bool:
        return True

    def compile(self, source: Any, **options: Any) -> Compiled:
        compiled = AttrsAdapter().compile(source, **options)
        compiled.nulls_after_reject = self.after
        return compiled


def test_toolparse_s_own_converter_checks_its_schema() -> None:
    assert AttrsAdapter().compile(Order).nulls_after_reject is True


def test_an_attrs_converter_or_your_own_converter_restores_first() -> None:
    # an attrs converter may take a null the schema does not admit
    assert AttrsAdapter().compile(Converted).nulls_after_reject is False
    yours = AttrsSource(Order, converter=cattrs.Converter())
    assert AttrsAdapter().compile(yours).nulls_after_reject is False


def test_a_nested_null_still_means_absent() -> None:
    fn = tp.Function("t", lambda o: o, args_schema=Order)
    parsed = fn.parse_arguments({"id": 1, "lines": [{"sku": "a", "qty": None, "tags": None}]})
    assert isinstance(parsed, tp.Ok)
    assert parsed[0] == Order(id=1, lines=[Line(sku="a")])


_leaf = st.one_of(
    st.none(),
    st.integers(-2, 2),
    st.sampled_from(["a", "b", "red", "2024-01-02", ""]),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False, width=16),
)
_line = st.fixed_dictionaries(
    {},
    optional={
        "sku": _leaf,
        "qty": _leaf,
        "price": _leaf,
        "tags": st.one_of(_leaf, st.lists(_leaf, max_size=2)),
        "when": _leaf,
        "zz": _leaf,
    },
)
_order = st.fixed_dictionaries(
    {},
    optional={
        "id": _leaf,
        "lines": st.one_of(_leaf, st.lists(st.one_of(_line, _leaf), max_size=3)),
        "note": _leaf,
        "colour": _leaf,
        "mode": _leaf,
        "counts": st.one_of(_leaf, st.dictionaries(st.sampled_from(["x", "y"]), _leaf, max_size=2)),
        "first": st.one_of(_leaf, _line),
        "paid": _leaf,
        "nte": _leaf,
    },
)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(sent=_order, policy=st.sampled_from(tp.adapter.POLICIES))
def test_after_the_rejection_or_first_the_verdict_is_the_same(
    sent: dict[str, Any], policy: str
) -> None:
    after = tp.Function(
        "t", lambda a: a, args_schema=Order, adapter=_Forced(True), unknown_arguments=policy
    )
    first = tp.Function(
        "t", lambda a: a, args_schema=Order, adapter=_Forced(False), unknown_arguments=policy
    )
    assert verdict_of(after.parse_arguments(sent)) == verdict_of(first.parse_arguments(sent))
