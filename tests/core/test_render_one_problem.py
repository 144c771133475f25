"""A call rejected for one problem renders through a quick way: the general rule's text, exactly."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.problems import InvalidArguments, render_problems

_BOUNDED = settings(max_examples=200, deadline=None, derandomize=True)

_key = st.text(max_size=30)
_path = st.lists(_key | st.integers(-3, 30), max_size=4)
# reasons as validators write them: short and long (past the message's limit), odd characters
_reason = st.text(max_size=60) | st.text(min_size=1900, max_size=2100)
_value = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=60)
_received = st.just(tp.NOT_GIVEN) | _value | st.lists(_value, max_size=3)
_kind = st.sampled_from(["invalid", "missing", "unrecognized"])
_names = st.lists(_key, max_size=8)


@_BOUNDED
@given(path=_path, reason=_reason, received=_received, kind=_kind, accepted=_names, sent=_names)
def test_one_problem_reads_as_the_general_rule(
    path: list[str | int],
    reason: str,
    received: Any,
    kind: Any,
    accepted: list[str],
    sent: list[str],
) -> None:
    problem = tp.ArgumentProblem(path, reason, received, kind)
    arguments = dict.fromkeys(sent, 1)
    cause = ValueError("the library's own")
    quick = render_problems([problem], arguments, tuple(accepted), cause)
    # a tuple of problems takes the general rule's one pass
    general = render_problems((problem,), arguments, tuple(accepted), cause)
    assert quick.message == general.message
    assert len(quick.message) <= 2000
    exc, expected = quick.exception, general.exception
    assert isinstance(exc, InvalidArguments)
    assert isinstance(expected, InvalidArguments)
    assert exc.problems == expected.problems == (problem,)
    assert exc.args == (quick.message,)
    assert exc.accepted == expected.accepted
    assert exc.arguments == expected.arguments
    assert exc.more == 0
    assert exc.__cause__ is cause


def test_one_wrong_value_at_a_nested_place_reads_as_the_contract_says() -> None:
    problem = tp.ArgumentProblem(("line_items", 0, "quantity"), "must be greater than 0", 0)
    result = render_problems([problem], None, (), None)
    assert result.message == (
        "Invalid arguments for this tool.\n\n"
        "line_items[0].quantity: must be greater than 0 (received 0)\n\n"
        "Fix these arguments and call the tool again."
    )
    assert isinstance(result.exception, InvalidArguments)
    assert result.exception.arguments == {}
    assert result.exception.__cause__ is None
