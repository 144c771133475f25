"""The "report" policy remembers which unknown names resemble no parameter.

The memory only skips work: the same call gets the same outcome the first
time and every time after, whatever was sent alongside.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp


def make() -> tp.Function:
    return tp.Function(
        "weather",
        lambda a: "ok",
        parameters=[
            tp.FunctionParam("city", "string", required=True),
            tp.FunctionParam("days", "integer"),
        ],
    )


def test_a_name_like_no_parameter_is_accepted_every_time() -> None:
    fn = make()
    for _ in range(3):
        assert fn.execute({"city": "Oslo", "reasoning": "asked"}) == tp.Ok("ok")


def test_a_typo_is_rejected_after_the_name_was_accepted_with_its_parameter_sent() -> None:
    fn = make()
    # "dayz" resembles "days"; with "days" sent there is nothing to suggest
    assert fn.execute({"city": "Oslo", "days": 2, "dayz": 3}) == tp.Ok("ok")
    result = fn.execute({"city": "Oslo", "dayz": 3})
    assert isinstance(result, tp.Error)
    assert 'dayz (did you mean "days"?)' in result.message
    assert fn.execute({"city": "Oslo", "days": 2, "dayz": 3}) == tp.Ok("ok")


def test_the_memory_is_bounded() -> None:
    fn = make()
    for i in range(1000):
        assert fn.execute({"city": "Oslo", f"zq{i}": 1}) == tp.Ok("ok")
    result = fn.execute({"city": "Oslo", "dayz": 3})
    assert isinstance(result, tp.Error)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=8), max_size=4), st.booleans())
def test_same_outcome_first_and_again(names: list[str], with_days: bool) -> None:
    args: dict[str, Any] = {"city": "Oslo", **dict.fromkeys(names, 1)}
    if with_days:
        args["days"] = 2
    fresh = make().execute(dict(args))
    warm = make()
    warm.execute(dict(args))
    assert warm.execute(dict(args)) == fresh
