"""The valid call's path through a plan: what each shortcut skips must not change a verdict.

A body result of a common exact type is normalised without the awaitable
test; under ``"ignore"`` an adapter's parser is called without the
accepted-names test (the names it would find were dropped); before a parser
that checks its schema, the top-level null look reads the values first.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Generator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.core.checking_adapter import Checker, checked_function

import toolparse as tp


def _fn(body: Callable[..., Any], parser: Checker | None = None, **kwargs: Any) -> tp.Function:
    # the schema closed at the top level: the parser names an unknown name itself
    return checked_function(body, parser or Checker(closed=True), schema_closed=True, **kwargs)


class ToolOut:
    """Not a settled type: its outcome goes through the serialiser path."""


class AwaitableDict(dict[str, Any]):
    """A dict subclass a sync body returns that must still be awaited."""

    def __await__(self) -> Generator[Any, None, str]:
        yield from asyncio.sleep(0).__await__()
        return "awaited"


@pytest.mark.parametrize(
    ("returned", "expected"),
    [
        ({"a": 1}, tp.Ok('{"a": 1}')),
        ([1, "x"], tp.Ok('[1, "x"]')),
        ((1, 2), tp.Ok("[1, 2]")),
        (3, tp.Ok("3")),
        (2.5, tp.Ok("2.5")),
        (True, tp.Ok("true")),
        (None, tp.Ok("null")),
        (tp.Ok("done"), tp.Ok("done")),
        (tp.Error("no such id"), tp.Error("no such id")),
    ],
)
def test_a_settled_result_reads_as_before(returned: Any, expected: tp.Outcome) -> None:
    fn = _fn(lambda a: returned)
    result = fn.execute({"id": 1})
    assert result == expected
    assert type(result) is type(expected)
    assert asyncio.run(fn.aexecute({"id": 1})) == expected


def test_a_tool_result_and_an_interrupt_go_through_their_outcome() -> None:
    shown = tp.ToolResult("c1", "t", "hello")
    result = _fn(lambda a: shown).execute({"id": 1})
    assert isinstance(result, tp.Ok)
    assert result.value is not shown  # a copy: the call never fills in the tool's own object
    assert result.value.content == "hello"
    interrupt = tp.Interrupt("ask first", {"k": 1})
    assert _fn(lambda a: interrupt).execute({"id": 1}) == interrupt


def test_an_awaitable_of_a_settled_base_type_is_still_awaited() -> None:
    result = _fn(lambda a: AwaitableDict(x=1)).execute({"id": 1})
    assert result == tp.Ok("awaited")


def test_a_result_of_another_type_is_still_rejected_or_serialised() -> None:
    result = _fn(lambda a: ToolOut()).execute({"id": 1})
    assert isinstance(result, tp.Error)


@pytest.mark.parametrize("after", [True, False])
def test_ignore_drops_unknown_names_before_the_parser(after: bool) -> None:
    parser = Checker(closed=True)
    fn = _fn(lambda a: dict(a), parser, unknown_arguments="ignore", after=after)
    assert fn.execute({"id": 1, "tgs": "x", "other": 2}) == tp.Ok('{"id": 1}')
    assert parser.seen == [{"id": 1}]
    # a rejection is rendered by the adapter alone: no unknown name is ever named
    result = fn.execute({"id": "one", "tgs": "x"})
    assert isinstance(result, tp.Error)
    assert "id" in result.message
    assert "tgs" not in result.message


def test_ignore_with_a_nested_null_restores_it_after_the_rejection() -> None:
    parser = Checker(closed=True)
    fn = _fn(lambda a: dict(a), parser, unknown_arguments="ignore")
    sent = {"id": 1, "items": [{"n": 1, "note": None}], "extra": 1}
    assert fn.execute(sent) == tp.Ok('{"id": 1, "items": [{"n": 1}]}')
    assert parser.seen == [
        {"id": 1, "items": [{"n": 1, "note": None}]},
        {"id": 1, "items": [{"n": 1}]},
    ]


def test_report_still_names_an_unknown_name_beside_the_adapter_s_problem() -> None:
    fn = _fn(lambda a: "ok", None, unknown_arguments="report")
    result = fn.execute({"id": "one", "tgs": "x"})
    assert isinstance(result, tp.Error)
    assert "id" in result.message
    assert "tgs" in result.message


def test_a_top_level_null_is_looked_at_only_under_a_watched_name() -> None:
    parser = Checker(closed=True)
    fn = _fn(lambda a: dict(a), parser)
    # an optional name's null is "absent", restored before the parser (parsed once)
    assert fn.execute({"id": 1, "tag": None}) == tp.Ok('{"id": 1}')
    assert parser.seen == [{"id": 1}]
    # a required name's null is the parser's to judge
    parser.seen.clear()
    assert isinstance(fn.execute({"id": None}), tp.Error)
    assert parser.seen[0] == {"id": None}


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.dictionaries(
        st.sampled_from(["id", "tag", "items", "tgs"]),
        st.one_of(st.none(), st.integers(), st.text(max_size=3), st.just([{"n": 1, "note": None}])),
        max_size=4,
    ),
    st.sampled_from(["report", "ignore", "reject"]),
)
def test_the_verdict_is_the_one_of_restoring_first(args: dict[str, Any], policy: str) -> None:
    after = _fn(lambda a: json.dumps(a, sort_keys=True), unknown_arguments=policy)
    first = _fn(lambda a: json.dumps(a, sort_keys=True), unknown_arguments=policy, after=False)
    got, want = after.execute(dict(args)), first.execute(dict(args))
    assert type(got) is type(want)
    assert got[0] == want[0]  # the value the body returned, or the text the model reads
