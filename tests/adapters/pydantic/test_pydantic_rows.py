"""A rejection handed to the core as rows reads, and carries, what the general mapping gives."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError
from tests.conftest import Count

import toolparse as tp
from toolparse_pydantic._mapper import Mapper
from toolparse_pydantic._rows import problem_rows

from .models import Choices, Constrained, Invoice, Owner, Strict, Unions

_BOUNDED = settings(max_examples=120, deadline=None, derandomize=True)

_MODELS: list[type[BaseModel]] = [Invoice, Choices, Constrained, Owner, Strict, Unions]

# dict keys include "int" and "str": a union member's label in pydantic's loc that is a key
# of the data too (a step into it then)
_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 200)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["fast", "cat", "dog", "A-1", "EUR", "12.5"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["sku", "quantity", "kind", "meows", "key", "name", "int", "str"]),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)


def _keys(model: type[BaseModel]) -> list[str]:
    return [f.alias or name for name, f in model.model_fields.items()]


@st.composite
def _wrong_call(draw: st.DrawFn) -> tuple[type[BaseModel], dict[str, Any]]:
    model = draw(st.sampled_from(_MODELS))
    keys = draw(st.lists(st.sampled_from(_keys(model)), unique=True, max_size=6))
    return model, {key: draw(_json) for key in keys}


def _both(model: type[BaseModel], arguments: dict[str, Any]) -> tuple[tp.Error, tp.Error]:
    accepted = tuple(_keys(model))
    try:
        model.model_validate(arguments)
    except ValidationError as exc:
        ours = Mapper(accepted=accepted).rejection(exc, arguments)
        found, more = Mapper()(exc, arguments)
        general = tp.invalid_arguments(
            found, arguments=arguments, accepted=accepted, cause=exc, more=more
        )
        return ours, general
    assume(False)  # accepted: nothing to compare
    raise AssertionError("unreachable")


@_BOUNDED
@given(call=_wrong_call())
def test_a_wrong_call_reads_as_the_general_mapping_renders_it(
    call: tuple[type[BaseModel], dict[str, Any]],
) -> None:
    ours, general = _both(*call)
    assert ours.message == general.message
    assert isinstance(ours.exception, tp.InvalidArguments)
    assert isinstance(general.exception, tp.InvalidArguments)
    assert ours.exception.problems == general.exception.problems
    assert ours.exception.more == general.exception.more
    assert ours.exception.__cause__ is general.exception.__cause__


# one Mapper per model for every call, as a tool keeps it: the reasons it
# remembers (a bound's, read once from pydantic's context) are read back
_KEPT = {model: Mapper(accepted=tuple(_keys(model))) for model in _MODELS}


@_BOUNDED
@given(calls=st.lists(_wrong_call(), min_size=2, max_size=4))
def test_a_tool_rejecting_call_after_call_reads_as_the_general_mapping_renders_it(
    calls: list[tuple[type[BaseModel], dict[str, Any]]],
) -> None:
    for model, arguments in calls * 2:  # each call again, every reason remembered
        try:
            model.model_validate(arguments)
        except ValidationError as exc:
            ours = _KEPT[model].rejection(exc, arguments)
            general = _both(model, arguments)[1]
            assert ours.message == general.message
            assert ours.exception.problems == general.exception.problems  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("model", "arguments"),
    [
        # a union's members at one place join their type words: the general path
        (Unions, {"value": [1]}),
        # a discriminated union's tag: its own problem at the tag's key
        (Owner, {"owner": "ann", "pet": {"kind": "cow"}}),
        # a name missing deeper than the top level
        (Invoice, {"vendor_name": "a", "total_amount": 1, "line_items": [{"sku": "A"}]}),
    ],
)
def test_what_rows_cannot_say_goes_the_general_way_and_reads_the_same(
    model: type[BaseModel], arguments: dict[str, Any]
) -> None:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(arguments)
    errors = caught.value.errors(include_url=False, include_context=True)
    assert problem_rows(errors, arguments, Mapper()) is None  # not the rows' case
    ours, general = _both(model, arguments)
    assert ours.message == general.message
    assert ours.exception.problems == general.exception.problems  # type: ignore[union-attr]


def test_the_common_rejection_builds_no_problem_until_they_are_read(
    problems_built: Count,
) -> None:
    fn = tp.Function("create_invoice", lambda invoice: "ok", args_schema=Invoice)
    bad = {"total_amount": "abc", "line_items": [{"sku": "A-1", "quantity": 0}]}
    result = fn.execute(bad)
    assert isinstance(result, tp.Error)
    assert result.message == (
        "Invalid arguments for this tool.\n\n"
        'total_amount: must be a number (received "abc")\n'
        "line_items[0].quantity: must be greater than 0 (received 0)\n"
        "Missing parameters: vendor_name\n"
        "Accepted parameters: vendor_name, total_amount, currency, line_items\n\n"
        "Fix these arguments and call the tool again."
    )
    assert problems_built.count == 0
    assert isinstance(result.exception, tp.InvalidArguments)
    assert [p.line() for p in result.exception.problems] == [
        "vendor_name: is required",
        'total_amount: must be a number (received "abc")',
        "line_items[0].quantity: must be greater than 0 (received 0)",
    ]
    assert problems_built.count == 3


def test_a_rejection_leaves_no_cycle_for_the_collector() -> None:
    import gc

    fn = tp.Function("create_invoice", lambda invoice: "ok", args_schema=Invoice)
    bad = {"total_amount": "abc"}
    result = fn.execute(bad)
    assert isinstance(result, tp.Error)
    assert isinstance(result.exception, tp.InvalidArguments)
    assert isinstance(result.exception.__cause__, ValidationError)  # still the library's own
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(20):
            fn.execute(bad)
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
