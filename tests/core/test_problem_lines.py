"""A rejected call with many problems: the message shows 20 lines and counts the rest."""

from __future__ import annotations

import toolparse as tp
from toolparse.messages import MAX_PROBLEM_LINES
from toolparse.problems import render_problems


def test_many_problems_render_the_shown_lines_and_the_count() -> None:
    problems = [tp.ArgumentProblem((f"f{i}",), "must be an integer", "x") for i in range(300)]
    result = render_problems(problems, {f"f{i}": "x" for i in range(300)}, [], None)
    lines = result.message.split("\n")
    shown = [line for line in lines if line.startswith("f")]
    assert shown == [f'f{i}: must be an integer (received "x")' for i in range(len(shown))]
    assert 0 < len(shown) <= MAX_PROBLEM_LINES
    assert f"... and {300 - len(shown)} more" in result.message
    # every problem is still on the exception, rendered or not
    assert isinstance(result.exception, tp.InvalidArguments)
    assert len(result.exception.problems) == 300


def test_few_problems_are_all_shown() -> None:
    problems = [tp.ArgumentProblem(("a", 0), "must be a string", 1)]
    result = render_problems(problems, {"a": [1]}, ["a"], None)
    assert "a[0]: must be a string (received 1)" in result.message
    assert "more" not in result.message
