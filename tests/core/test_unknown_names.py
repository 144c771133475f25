"""A call that sends unknown top-level names: each is named, once, with bounded work.

The renderer finds the names sent and not accepted itself (an adapter need not
make a problem of each): the model reads the same message as when every name
was its own problem, the count past the shown names stays exact, and
``InvalidArguments.problems`` still lists every name (built when read). The
"report" policy remembers which names resemble no parameter: the memory only
skips work, the same call gets the same outcome every time.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, TypedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import Count

import toolparse as tp
from toolparse import messages
from toolparse.adapter import Compiled

ACCEPTED = ["name", "count", "price"]


@dataclasses.dataclass
class Order:
    name: str
    count: int
    price: float = 0.0


class OrderDict(TypedDict):
    name: str
    count: int
    price: float


@dataclasses.dataclass
class Line:
    sku: str
    qty: int


@dataclasses.dataclass
class Basket:
    lines: list[Line]


def _body(arguments: Any) -> str:
    return "ok"


def _per_name(arguments: dict[str, Any], found: list[tp.ArgumentProblem]) -> tp.Error:
    """The rendering of the same call with one problem per unknown name."""
    names = [k for k in arguments if k not in ACCEPTED]
    return tp.invalid_arguments(
        [*found, *map(tp.ArgumentProblem.unrecognized, names)],
        arguments=arguments,
        accepted=ACCEPTED,
    )


def _problems(result: object) -> tuple[tp.ArgumentProblem, ...]:
    assert isinstance(result, tp.Error)
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    return exc.problems


@pytest.mark.parametrize("source", [Order, OrderDict], ids=["dataclass", "TypedDict"])
def test_fifty_thousand_unknown_names_are_counted_exactly(source: type) -> None:
    fn = tp.Function("order", _body, args_schema=source)
    extra = {f"zz{i}_q": 0 for i in range(50_000)}
    arguments = {"name": "a", "count": 1, "price": 1.0, **extra}
    result = fn.execute(arguments)
    assert isinstance(result, tp.Error)
    assert len(result.message) <= messages.MAX_MESSAGE_CHARS
    line = next(t for t in result.message.splitlines() if t.startswith("Unrecognized parameters:"))
    shown = line.removeprefix("Unrecognized parameters: ").split(", ... and ")[0].split(", ")
    assert shown == sorted(extra)[: len(shown)]
    more = re.search(r"\.\.\. and (\d+) more", line)
    assert more is not None
    assert len(shown) + int(more.group(1)) == 50_000
    # the same message as one problem per name would give
    assert result.message == _per_name(arguments, []).message
    # every name is still on the problems, once, when read
    found = _problems(result)
    assert [p.path[0] for p in found] == list(extra)
    assert {p.kind for p in found} == {"unrecognized"}


@pytest.mark.parametrize("source", [Order, OrderDict], ids=["dataclass", "TypedDict"])
def test_unknown_names_build_no_problem_each_until_read(
    source: type, problems_built: Count
) -> None:
    fn = tp.Function("order", _body, args_schema=source)
    # near typos of a missing name: the did-you-mean search runs, bounded
    arguments: dict[str, Any] = {"count": "x", **{f"nam{i}": 0 for i in range(20_000)}}
    result = fn.execute(arguments)
    assert isinstance(result, tp.Error)
    assert problems_built.count <= 3  # the missing name and the wrong count, not one per name
    assert "Missing parameters: name" in result.message
    assert "... and " in result.message
    assert len(_problems(result)) == 2 + 20_000 + (0 if source is Order else 1)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    names=st.lists(
        st.text(alphabet="acemnoprtuz_", min_size=1, max_size=8).filter(
            lambda n: n not in ACCEPTED
        ),
        unique=True,
        max_size=40,
    ),
    count=st.sampled_from([1, "x", None]),
    price_sent=st.booleans(),
)
def test_the_message_and_problems_are_those_of_one_problem_per_name(
    names: list[str], count: Any, price_sent: bool
) -> None:
    arguments: dict[str, Any] = {"name": "a", "count": count, **dict.fromkeys(names, 0)}
    if price_sent:
        arguments["price"] = 2.0
    for source in (Order, OrderDict):
        for policy in ("report", "reject"):
            fn = tp.Function("order", _body, args_schema=source, unknown_arguments=policy)
            result = fn.execute(arguments)
            if count == 1 and not names and (price_sent or source is Order):
                assert result == tp.Ok("ok")
                continue
            found = [p for p in _problems(result) if p.kind != "unrecognized" or len(p.path) != 1]
            expected = _per_name(arguments, found)
            assert result.message == expected.message
            assert _problems(result) == _problems(expected)


def test_the_renderer_finds_the_names_no_problem_names() -> None:
    arguments = {"name": "a", "nmae": 1, "zzz": 2, "count": "x"}
    wrong = tp.ArgumentProblem(("count",), "must be an integer", "x")
    found = tp.invalid_arguments([wrong], arguments=arguments, accepted=ACCEPTED)
    each = tp.invalid_arguments(
        [wrong, tp.ArgumentProblem.unrecognized("nmae"), tp.ArgumentProblem.unrecognized("zzz")],
        arguments=arguments,
        accepted=ACCEPTED,
    )
    assert found.message == each.message
    assert "Unrecognized parameters: nmae, zzz" in found.message
    assert _problems(found) == _problems(each)


def test_a_name_both_sent_and_among_the_problems_is_one_name() -> None:
    arguments = {"name": "a", "count": 1, "zzz": 2}
    result = tp.invalid_arguments(
        [tp.ArgumentProblem.unrecognized("zzz"), tp.ArgumentProblem.unrecognized("zzz")],
        arguments=arguments,
        accepted=ACCEPTED,
    )
    assert "Unrecognized parameters: zzz\n" in result.message
    assert _problems(result) == (tp.ArgumentProblem.unrecognized("zzz"),)


def test_an_adapter_that_names_some_unknown_names_gets_the_rest_named() -> None:
    def parser(arguments: dict[str, Any]) -> tp.ParseResult:
        return tp.invalid_arguments(
            [
                tp.ArgumentProblem(("count",), "must be an integer", arguments.get("count")),
                tp.ArgumentProblem.unrecognized("zeta"),
            ],
            arguments=arguments,
            accepted=ACCEPTED,
        )

    class Partial:
        name = "partial-test"

        def accepts(self, source: object) -> bool:
            return source == "partial-source"

        def compile(self, source: Any, **options: Any) -> Compiled:
            schema = {"type": "object", "properties": {n: {} for n in ACCEPTED}}
            return Compiled(schema, parser, accepted=ACCEPTED)

    fn = tp.Function("t", _body, args_schema="partial-source", adapter=Partial())
    arguments = {"name": "a", "count": "x", "zeta": 1, "alpha": 2, "nmae": 3}
    result = fn.execute(arguments)
    assert isinstance(result, tp.Error)
    assert "Unrecognized parameters: alpha, nmae, zeta" in result.message
    names = [p.path[0] for p in _problems(result) if p.kind == "unrecognized"]
    assert names == ["zeta", "alpha", "nmae"]  # the adapter's, then the others in the order sent


def test_a_key_that_is_not_text_keeps_a_line_of_its_own() -> None:
    fn = tp.Function("order", _body, args_schema=Order)
    result = fn.execute({"name": "a", "count": 1, None: 1, "zzz": 2})
    assert isinstance(result, tp.Error)
    assert "\nNone: is not accepted\n" in result.message
    assert "Unrecognized parameters: zzz" in result.message
    assert [p.path for p in _problems(result)] == [(None,), ("zzz",)]


def test_many_wrong_objects_are_counted_exactly(problems_built: Count) -> None:
    fn = tp.Function("basket", _body, args_schema=Basket)
    # two wrong fields and one unknown name per object: 15,000 problems
    result = fn.execute({"lines": [{"sku": 1, "qty": "x", "extra": 0}] * 5_000})
    assert isinstance(result, tp.Error)
    assert result.message.count("\nlines[") == messages.MAX_PROBLEM_LINES
    assert f"... and {15_000 - messages.MAX_PROBLEM_LINES} more" in result.message
    assert "lines[0].sku: must be a string (received 1)" in result.message
    assert 'lines[0].qty: must be an integer (received "x")' in result.message
    # the count is real (the shown problems were built) and bounded
    assert messages.MAX_PROBLEM_LINES <= problems_built.count <= tp.adapter.MAX_PROBLEMS
    exc = _problems(result)
    assert len(exc) == tp.adapter.MAX_PROBLEMS


@dataclasses.dataclass
class Wide:
    a: list[int]
    b: list[int]


@dataclasses.dataclass
class Outer:
    inner: Wide


def test_a_nested_object_with_more_problems_than_kept_counts_them_all() -> None:
    fn = tp.Function("outer", _body, args_schema=Outer)
    bad = ["x"] * 800
    result = fn.execute({"inner": {"a": bad, "b": bad}})
    assert isinstance(result, tp.Error)
    assert f"... and {1_600 - messages.MAX_PROBLEM_LINES} more" in result.message
    assert len(_problems(result)) == tp.adapter.MAX_PROBLEMS


# -- the "report" policy's memory --------------------------------------------------


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
