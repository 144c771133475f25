"""Each problem is one line of the message, whatever its reason holds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp


def test_a_reason_of_several_lines_is_joined_into_one() -> None:
    problem = tp.ArgumentProblem(("a", 0), "first\nsecond\r\n\n  third\tpart", 3)
    assert problem.line() == "a[0]: first; second; third part (received 3)"
    assert problem.reason == "first\nsecond\r\n\n  third\tpart"  # the data stays as given


def test_a_validator_s_multi_line_message_keeps_the_layout() -> None:
    message = tp.invalid_arguments(
        [tp.ArgumentProblem(("when",), "must be later\nthan now"), tp.ArgumentProblem.missing("x")]
    ).message
    assert message.splitlines() == [
        "Invalid arguments for this tool.",
        "",
        "when: must be later; than now",
        "Missing parameters: x",
        "",
        "Fix these arguments and call the tool again.",
    ]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.text(max_size=40))
def test_every_reason_gives_one_line(reason: str) -> None:
    line = tp.ArgumentProblem(("f",), reason).line()
    assert len(line.splitlines()) <= 1
    if reason.isprintable():
        assert line == f"f: {reason}"
