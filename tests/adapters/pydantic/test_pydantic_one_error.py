"""One pydantic error goes to the core as a row: the same message and problems as the general loop."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field, ValidationError

import toolparse as tp
from toolparse_pydantic._mapper import Mapper

from .models import Invoice

_BOUNDED = settings(max_examples=150, deadline=None, derandomize=True)


class Flags(BaseModel):
    name: str = "x"
    count: int = Field(default=0, ge=0, le=9)
    ratio: float = 0.0
    on: bool = False
    tags: list[str] = []
    meta: dict[str, int] = {}


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
_field = st.sampled_from(["name", "count", "ratio", "on", "tags", "meta"])


def _rejected_both_ways(exc: ValidationError, arguments: Any, accepted: tuple[str, ...]) -> None:
    quick = Mapper(accepted=accepted).rejection(exc, arguments)
    general = Mapper()._every(exc.errors(include_url=False, include_context=True), arguments)
    assert isinstance(quick.exception, tp.InvalidArguments)
    assert quick.exception.more == 0
    assert list(quick.exception.problems) == general
    assert [p.line() for p in quick.exception.problems] == [p.line() for p in general]
    rendered = tp.invalid_arguments(general, arguments=arguments, accepted=accepted, cause=exc)
    assert quick.message == rendered.message


def _mapped_both_ways(model: type[BaseModel], arguments: Any) -> None:
    try:
        model.model_validate(arguments)
    except ValidationError as exc:
        _rejected_both_ways(exc, arguments, tuple(model.model_fields))
    else:
        raise AssertionError(f"{arguments!r} was accepted")


@_BOUNDED
@given(field=_field, value=_json)
def test_one_wrong_value_maps_as_the_general_loop(field: str, value: Any) -> None:
    arguments = {field: value}
    try:
        Flags.model_validate(arguments)
    except ValidationError as exc:
        _rejected_both_ways(exc, arguments, tuple(Flags.model_fields))
    else:
        assume(False)  # a value the model accepts: no problem to compare


def test_a_wrong_number_at_the_top_level_is_its_problem() -> None:
    arguments = {"vendor_name": "ACME", "total_amount": "abc", "line_items": []}
    with pytest.raises(ValidationError) as caught:
        Invoice.model_validate(arguments)
    (problem,), more = Mapper()(caught.value, arguments)
    assert more == 0
    assert problem.line() == 'total_amount: must be a number (received "abc")'


@pytest.mark.parametrize(
    "arguments",
    [
        {"total_amount": 1, "line_items": []},  # one missing name: not the quick case
        {"vendor_name": "A", "total_amount": 1, "line_items": [{"sku": "a", "quantity": 0}]},
        {"vendor_name": "A", "total_amount": {"a": 1}, "line_items": []},  # an object: no echo
        {"vendor_name": "A", "total_amount": [1], "line_items": []},
    ],
)
def test_one_error_of_another_kind_maps_as_the_general_loop(arguments: dict[str, Any]) -> None:
    _mapped_both_ways(Invoice, arguments)
