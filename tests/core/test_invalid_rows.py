"""Problems given as rows render the message invalid_arguments renders, and become the same problems."""

from __future__ import annotations

import copy
import pickle
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import Count

import toolparse as tp
from toolparse import NOT_GIVEN, ArgumentProblem, invalid_arguments, invalid_rows
from toolparse.problems import ProblemRow, pending

_BOUNDED = settings(max_examples=200, deadline=None, derandomize=True)

_ACCEPTED = ("vendor_name", "total_amount", "currency", "line_items")


class _Name(str):
    """A name of a class of its own (a mapping's key need not be a plain str)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return f"<{self!s}>"


# a bool and a name of its own class too: equal to a plain index or name, but
# written as themselves (a line for a top-level name is the name's own text)
_part = (
    st.sampled_from(["vendor_name", "total_amount", "line_items", "", "a b", "é"])
    | st.integers(0, 3)
    | st.sampled_from([True, _Name("vendor_name"), _Name("x")])
)
_path = st.lists(_part, max_size=3).map(tuple)
_reason = st.sampled_from(
    ["is required", "must be a number", "must be greater than 0", "two\nlines", "tab\there"]
) | st.text(max_size=150)  # long ones: a message past 2,000 characters is fitted
_received = (
    st.just(NOT_GIVEN)
    | st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([10**16 - 1, 10**16, -(10**16) + 1, -(10**16), 10**40, 2**63])
    | st.floats(allow_nan=True)
    | st.text(max_size=50)
    | st.lists(st.integers(0, 3), max_size=3)
)
_kind = st.sampled_from(["invalid", "invalid", "missing", "unrecognized"])
_row = st.tuples(_path, _reason, _received, _kind)
# repeats on purpose: the same place, reason and kind is dropped however it was received
_rows = st.lists(_row, max_size=25).flatmap(
    lambda rows: (
        st.lists(st.sampled_from(rows), max_size=4).map(lambda extra: rows + extra)
        if rows
        else st.just(rows)
    )
)


def _both(rows: list[ProblemRow], arguments: dict[str, Any]) -> tuple[tp.Error, tp.Error]:
    cause = ValueError("the library's own")
    ours = invalid_rows(rows, arguments=arguments, accepted=_ACCEPTED, cause=cause)
    general = invalid_arguments(
        [ArgumentProblem(*row) for row in rows],
        arguments=arguments,
        accepted=_ACCEPTED,
        cause=cause,
    )
    return ours, general


@_BOUNDED
@given(rows=_rows, sent=st.sets(st.sampled_from([*_ACCEPTED, "vendor", "nme"])))
def test_rows_render_what_the_problems_render(rows: list[ProblemRow], sent: set[str]) -> None:
    arguments = dict.fromkeys(sent, 1)
    ours, general = _both(rows, arguments)
    assert ours.message == general.message
    assert isinstance(ours.exception, tp.InvalidArguments)
    assert isinstance(general.exception, tp.InvalidArguments)
    assert ours.exception.problems == general.exception.problems
    assert [p.received for p in ours.exception.problems] == [
        p.received for p in general.exception.problems
    ]
    assert ours.exception.__cause__ is general.exception.__cause__
    assert ours.exception.accepted == general.exception.accepted
    assert ours.exception.more == 0


def test_the_problems_are_built_only_when_read(problems_built: Count) -> None:
    rows: list[ProblemRow] = [
        (("vendor_name",), "is required", NOT_GIVEN, "missing"),
        (("total_amount",), "must be a number", "abc", "invalid"),
        (("line_items", 0, "quantity"), "must be greater than 0", 0, "invalid"),
    ]
    result = invalid_rows(rows, arguments={"total_amount": "abc"}, accepted=_ACCEPTED)
    assert result.message == (
        "Invalid arguments for this tool.\n\n"
        'total_amount: must be a number (received "abc")\n'
        "line_items[0].quantity: must be greater than 0 (received 0)\n"
        "Missing parameters: vendor_name\n"
        "Accepted parameters: vendor_name, total_amount, currency, line_items\n\n"
        "Fix these arguments and call the tool again."
    )
    assert problems_built.count == 0
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    expected = (
        ArgumentProblem.missing("vendor_name"),
        ArgumentProblem(("total_amount",), "must be a number", "abc"),
        ArgumentProblem(("line_items", 0, "quantity"), "must be greater than 0", 0),
    )
    assert problems_built.count == 3  # the expected ones
    assert exc.problems == expected
    assert problems_built.count == 6
    assert exc.problems is exc.problems  # built once


def test_a_copy_or_a_pickle_of_a_rejection_from_rows_is_the_same() -> None:
    rows: list[ProblemRow] = [(("total_amount",), "must be a number", "abc", "invalid")]
    exc = invalid_rows(rows, arguments={"total_amount": "abc"}, accepted=_ACCEPTED).exception
    assert isinstance(exc, tp.InvalidArguments)
    for again in (copy.copy(exc), pickle.loads(pickle.dumps(exc))):
        assert isinstance(again, tp.InvalidArguments)
        assert again.message == exc.message
        assert again.problems == exc.problems
        assert again.arguments == exc.arguments
        assert again.accepted == exc.accepted


def test_under_pending_the_rows_are_left_unrendered_as_problems() -> None:
    arguments = {"total_amount": "abc", "extra": 1}
    rows: list[ProblemRow] = [(("total_amount",), "must be a number", "abc", "invalid")]
    with pending(arguments):
        result = invalid_rows(rows, arguments=arguments, accepted=_ACCEPTED)
    assert result.message == ""
    assert isinstance(result.exception, tp.InvalidArguments)
    assert result.exception.problems == (
        ArgumentProblem(("total_amount",), "must be a number", "abc"),
    )


def test_an_unrecognized_name_gets_its_suggestion() -> None:
    rows: list[ProblemRow] = [(("vendor",), "Unrecognized parameter", NOT_GIVEN, "unrecognized")]
    result = invalid_rows(rows, arguments={"vendor": 1}, accepted=_ACCEPTED)
    assert 'Unrecognized parameters: vendor (did you mean "vendor_name"?)' in result.message


def test_a_place_is_written_by_its_own_parts_whatever_it_equals() -> None:
    # ("items", True, "qty") equals ("items", 1, "qty"): each is still written as itself
    def message(path: tuple[Any, ...]) -> str:
        rows: list[ProblemRow] = [
            (path, "must be greater than 0", 0, "invalid"),
            (("vendor_name",), "is required", NOT_GIVEN, "missing"),
        ]
        return invalid_rows(rows, arguments={}, accepted=_ACCEPTED).message

    for _ in range(2):  # and again, once each text was written
        assert "\nitems[1].qty: must be greater than 0 (received 0)\n" in message(
            ("items", 1, "qty")
        )
        assert "\nitems[True].qty: must be" in message(("items", True, "qty"))
        assert "\nitems.1.0.qty: must be" in message(("items", 1.0, "qty"))
        assert "\nitems.<x>: must be" in message(("items", _Name("x")))
        assert "\nitems.x: must be" in message(("items", "x"))
