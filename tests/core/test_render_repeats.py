"""Problems rendered with repeats among them: each once, in the order first found, by the general rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse import messages
from toolparse.problems import InvalidArguments, render_problems

_BOUNDED = settings(max_examples=200, deadline=None, derandomize=True)

_names = ["a", "b", "total", "qty", ""]
# a small pool, so repeats (the same place, reason and kind) are common
_problem = st.builds(
    tp.ArgumentProblem,
    st.lists(st.sampled_from([*_names, 0, 1]), min_size=0, max_size=3),
    st.sampled_from(["must be a number", "is required", "bad\nvalue"]),
    st.sampled_from([tp.NOT_GIVEN, 0, "x", None]),
    st.sampled_from(["invalid", "missing", "unrecognized"]),
)


def _reference(
    problems: Sequence[tp.ArgumentProblem], arguments: dict[str, Any], accepted: tuple[str, ...]
) -> tuple[str, list[tp.ArgumentProblem]]:
    # the rule spelled out: drop repeats, gather top-level names, render the rest
    kept: list[tp.ArgumentProblem] = []
    for p in problems:
        if all((q.path, q.reason, q.kind) != (p.path, p.reason, p.kind) for q in kept):
            kept.append(p)
    named = [p for p in kept if p.kind != "invalid" and len(p.path) == 1 and type(p.path[0]) is str]
    missing = [str(p.path[0]) for p in named if p.kind == "missing"]
    unknown = [str(p.path[0]) for p in named if p.kind == "unrecognized"]
    order = {name: i for i, name in enumerate(accepted)}
    if accepted:
        missing.sort(key=lambda name: order.get(name, len(order)))
    lines = [p.line() for p in kept if p not in named or p.kind not in ("missing", "unrecognized")]
    sent = [n for n in accepted if n in arguments]
    found = messages.suggestions(unknown, accepted, sent) if unknown else {}
    return messages.invalid(lines, missing, found, accepted), kept


@_BOUNDED
@given(
    problems=st.lists(_problem, max_size=8),
    accepted=st.lists(st.sampled_from(_names), max_size=4, unique=True),
    as_iterator=st.booleans(),
)
def test_problems_with_repeats_read_as_the_rule(
    problems: list[tp.ArgumentProblem], accepted: list[str], as_iterator: bool
) -> None:
    names = tuple(accepted)
    arguments = {"a": 1, "qty": 2}
    given_problems = iter(problems) if as_iterator else problems
    result = render_problems(given_problems, arguments, names, None)
    text, kept = _reference(problems, arguments, names)
    assert result.message == text
    assert isinstance(result.exception, InvalidArguments)
    assert list(result.exception.problems) == kept
    assert [id(p) for p in result.exception.problems] == [id(p) for p in kept]
