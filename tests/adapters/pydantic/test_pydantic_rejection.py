"""A rejected call: pydantic's errors read once, every problem on the rejection, the text bounded."""

from __future__ import annotations

import gc
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

import toolparse as tp
from toolparse.adapter import MAX_PROBLEMS

from .models import Invoice, Line


def _rejected(fn: tp.Function, arguments: dict[str, Any]) -> tp.InvalidArguments:
    result = fn.execute(arguments)
    assert isinstance(result, tp.Error), result
    assert isinstance(result.exception, tp.InvalidArguments)
    return result.exception


def test_the_common_rejection_reads_and_carries_every_problem() -> None:
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
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    assert [p.line() for p in exc.problems] == [
        "vendor_name: is required",
        'total_amount: must be a number (received "abc")',
        "line_items[0].quantity: must be greater than 0 (received 0)",
    ]
    assert [p.kind for p in exc.problems] == ["missing", "invalid", "invalid"]
    assert exc.more == 0
    assert isinstance(exc.__cause__, ValidationError)  # pydantic's own, for the application


def test_a_wrong_number_at_the_top_level_is_its_problem() -> None:
    fn = tp.Function("create_invoice", lambda invoice: "ok", args_schema=Invoice)
    exc = _rejected(fn, {"vendor_name": "ACME", "total_amount": "abc", "line_items": []})
    (problem,) = exc.problems
    assert (problem.path, problem.reason, problem.received) == (
        ("total_amount",),
        "must be a number",
        "abc",
    )
    assert problem.line() == 'total_amount: must be a number (received "abc")'


def test_a_rejection_leaves_no_cycle_for_the_collector() -> None:
    fn = tp.Function("create_invoice", lambda invoice: "ok", args_schema=Invoice)
    bad = {"total_amount": "abc"}
    exc = _rejected(fn, bad)
    assert isinstance(exc.__cause__, ValidationError)  # still the library's own
    assert exc.__cause__.__traceback__ is None  # (it would only show the adapter's frame)
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


def test_three_hundred_wrong_fields_show_twenty_lines_and_count_the_rest() -> None:
    model = create_model("Wide300", **{f"field_{i}": (int, ...) for i in range(300)})  # type: ignore[call-overload]
    fn = tp.Function("wide", lambda arguments: "ok", args_schema=model)
    result = fn.execute({f"field_{i}": "x" for i in range(300)})
    assert isinstance(result, tp.Error)
    lines = result.message.splitlines()
    assert lines[2:4] == [
        'field_0: must be an integer (received "x")',
        'field_1: must be an integer (received "x")',
    ]
    assert lines[21] == 'field_19: must be an integer (received "x")'
    assert lines[22] == "... and 280 more"
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    # every problem is on the rejection, up to the SDK's bound
    assert [p.path for p in exc.problems] == [(f"field_{i}",) for i in range(300)]
    assert exc.more == 0


def test_past_the_bound_problems_are_only_counted_and_every_name_is_kept() -> None:
    class Many(BaseModel):
        model_config = ConfigDict(extra="forbid")
        items: list[int]
        name: str

    fn = tp.Function("many", lambda arguments: "ok", args_schema=Many)
    sent = {"items": ["x"] * (MAX_PROBLEMS + 200), "zzz": 1}
    result = fn.execute(sent)
    assert isinstance(result, tp.Error)
    lines = result.message.splitlines()
    assert lines[21] == 'items[19]: must be an integer (received "x")'
    assert lines[22] == f"... and {MAX_PROBLEMS + 200 - 20} more"
    assert "Missing parameters: name" in lines
    assert "Unrecognized parameters: zzz" in lines
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    # pydantic reports the items first: the names past the bound are still built
    assert len(exc.problems) == MAX_PROBLEMS + 2
    assert exc.more == 200
    assert {p.kind for p in exc.problems[-2:]} == {"missing", "unrecognized"}


def test_missing_and_unknown_names_past_the_lines_shown_are_all_named() -> None:
    model = create_model(
        "Named",
        __config__=ConfigDict(extra="forbid"),
        **{f"n{i}": (int, ...) for i in range(40)},  # type: ignore[call-overload]
    )
    fn = tp.Function("named", lambda arguments: "ok", args_schema=model)
    sent: dict[str, Any] = {f"n{i}": "x" for i in range(30)}  # n30..n39 missing
    sent["zzz"] = 1
    result = fn.execute(sent)
    assert isinstance(result, tp.Error)
    lines = result.message.splitlines()
    assert "... and 10 more" in lines
    assert "Missing parameters: " + ", ".join(f"n{i}" for i in range(30, 40)) in lines
    assert "Unrecognized parameters: zzz" in lines
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    assert exc.more == 0
    assert len(exc.problems) == 41


class Address(BaseModel):
    street: str
    postcode: str = Field(min_length=4)


class Shipment(BaseModel):
    address: Address
    items: list[Line]


def test_problems_at_nested_paths_read_as_places_in_the_data() -> None:
    fn = tp.Function("ship", lambda shipment: "ok", args_schema=Shipment)
    sent = {
        "address": {"postcode": "12"},
        "items": [{"sku": "A-1", "quantity": 2}, {"sku": "B-2", "quantity": "two"}],
    }
    result = fn.execute(sent)
    assert isinstance(result, tp.Error)
    assert result.message == (
        "Invalid arguments for this tool.\n\n"
        "address.street: is required\n"
        'address.postcode: must be at least 4 characters long (received "12")\n'
        'items[1].quantity: must be an integer (received "two")\n\n'
        "Fix these arguments and call the tool again."
    )


_WRONG = st.sampled_from(["x", -1, 2.5, None, [], {}])


@settings(max_examples=60, deadline=None)
@given(
    postcode=st.one_of(st.just("1234"), _WRONG),
    quantities=st.lists(st.one_of(st.just(1), _WRONG), max_size=4),
)
def test_each_nested_problem_is_at_its_place_with_the_value_sent_there(
    postcode: object, quantities: list[object]
) -> None:
    fn = tp.Function("ship", lambda shipment: "ok", args_schema=Shipment)
    sent = {
        "address": {"street": "1 Main St", "postcode": postcode},
        "items": [{"sku": "A", "quantity": q} for q in quantities],
    }
    result = fn.execute(sent)
    wrong = [("items", i, "quantity") for i, q in enumerate(quantities) if q != 1]
    if postcode != "1234":
        wrong.insert(0, ("address", "postcode"))
    if not wrong:
        assert result == tp.Ok("ok")
        return
    assert isinstance(result, tp.Error)
    assert isinstance(result.exception, tp.InvalidArguments)
    problems = result.exception.problems
    assert [p.path for p in problems] == wrong
    for problem in problems:
        value: Any = sent
        for step in problem.path:
            value = value[step]
        # the value sent there is echoed (an object is not)
        assert (
            problem.received is tp.NOT_GIVEN
            if isinstance(value, dict)
            else problem.received == value
        )
