"""``Compiled.verdict`` and ``Compiled.closed``: a call the adapter's own verdict accepts skips the parser.

A verdict is the parser's answer alone ("``Ok`` of these very arguments"),
cheaper than the parser; ``closed`` says the parser refuses every top-level
name outside the accepted ones. A call the verdict accepts then skips the
parser, the top-level null look (an accepted call has no null to restore)
and, when closed, the accepted-names test; every other call goes the way it
went before. Every verdict and every text must be the one of the plain order,
and a rejected call is still rendered once.
"""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.core.checking_adapter import (
    CALLS,
    AsyncChecker,
    Checker,
    CheckingAdapter,
    checked_function,
    counted_renders,
    counted_restores,
    verdict_of,
)

import toolparse as tp
from toolparse.adapter import Compiled, KeptForms

VALID = {"id": 1, "tag": "a", "items": [{"n": 1, "note": "x"}, {"n": 2}], "meta": {"x": 3}}


class CountedNames(frozenset[str]):
    """The accepted names, counting the accepted-names tests made with them."""

    tests = 0

    def issuperset(self, other: Any) -> bool:
        type(self).tests += 1
        return super().issuperset(other)


def _count_name_tests(fn: tp.Function) -> type[CountedNames]:
    space = fn._parse.__globals__
    counted = type("Counted", (CountedNames,), {"tests": 0})
    space["accepted"] = counted(space["accepted"])
    return counted


def test_compiled_has_no_verdict_and_is_open_by_default() -> None:
    compiled = Compiled({"type": "object"})
    assert compiled.verdict is None
    assert compiled.closed is False
    assert compiled.explain is None
    given_ = Compiled({"type": "object"}, verdict=bool, closed=True, explain=repr)
    assert given_.verdict is bool
    assert given_.closed is True
    assert given_.explain is repr


def test_kept_forms_hand_each_tool_the_verdict_and_the_fact() -> None:
    kept = KeptForms()
    parser = Checker()
    kept.keep(
        "k",
        Compiled(
            {"type": "object"}, parser, verdict=parser.verdict, closed=True, explain=parser.explain
        ),
    )
    again = kept.get("k")
    assert again is not None
    assert again.verdict == parser.verdict
    assert again.explain == parser.explain
    assert again.closed is True
    # a tool that asked for no parser gets no verdict either
    bare = kept.get("k", parser=False)
    assert bare is not None
    assert bare.parser is None
    assert bare.verdict is None
    assert bare.explain is None


def test_a_call_the_verdict_accepts_skips_the_parser_and_the_null_look() -> None:
    parser = Checker(closed=True)
    fn = checked_function(parser=parser, verdict=True, closed=True)
    restores = counted_restores(fn)
    sent = dict(VALID)
    result = fn.parse_arguments(sent)
    assert result == tp.Ok(VALID)
    assert result[0] is sent  # the very arguments, as the parser's Ok(None) would give
    assert fn.execute(sent) == tp.Ok(json.dumps(VALID))
    assert parser.calls == 0
    assert parser.judged == [VALID, VALID]
    assert restores == []


@pytest.mark.parametrize("closed", [True, False])
def test_a_closed_parser_s_accepted_call_skips_the_accepted_names_test(closed: bool) -> None:
    fn = checked_function(verdict=True, closed=closed, schema_closed=True)
    counted = _count_name_tests(fn)
    assert fn.parse_arguments(VALID) == tp.Ok(VALID)
    assert counted.tests == (0 if closed else 1)


@pytest.mark.parametrize("policy", tp.adapter.POLICIES)
def test_an_open_parser_s_accepted_call_with_an_unknown_name_meets_the_policy(policy: str) -> None:
    # the open schema admits any other name: the verdict accepts the call, the policy decides
    sent = {"id": 1, "tga": "a", "unrelated": 2}
    fn = checked_function(verdict=True, unknown_arguments=policy)
    plain = checked_function(after=False, unknown_arguments=policy)
    got, want = fn.execute(dict(sent)), plain.execute(dict(sent))
    assert verdict_of(got) == verdict_of(want)
    if policy == "ignore":
        assert got == tp.Ok('{"id": 1}')
    else:
        assert isinstance(got, tp.Error)
        assert 'tga (did you mean "tag"?)' in got.message


@pytest.mark.parametrize("answer", [ValueError("cannot take it"), 1, None, False])
def test_any_answer_but_true_leaves_the_call_to_the_parser(answer: Any) -> None:
    def verdict(args: dict[str, Any]) -> Any:
        if isinstance(answer, Exception):
            raise answer
        return answer

    parser = Checker()
    fn = checked_function(parser=parser, verdict=verdict)
    assert fn.parse_arguments(dict(VALID)) == tp.Ok(VALID)
    assert parser.calls == 1
    result = fn.execute({"id": "one"})
    assert isinstance(result, tp.Error)
    assert "\nid: must be an integer\n" in result.message


def test_a_call_the_verdict_refused_is_explained_not_decided_again() -> None:
    parser = Checker()
    fn = checked_function(parser=parser, verdict=True, explain=True)
    sent = {"id": "one", "tga": 1}
    result = fn.execute(dict(sent))
    assert isinstance(result, tp.Error)
    assert verdict_of(result) == verdict_of(checked_function(after=False).execute(dict(sent)))
    assert parser.judged == [sent]
    assert parser.explained == [sent]
    assert parser.seen == []


def test_only_the_very_arguments_refused_are_explained() -> None:
    # a top-level null the look restores: the restored call is the parser's to decide
    parser = Checker()
    fn = checked_function(parser=parser, verdict=True, explain=True)
    assert fn.parse_arguments({"id": 1, "tag": None}) == tp.Ok({"id": 1})
    assert parser.explained == []
    assert parser.seen == [{"id": 1}]
    # a nested null: explained once refused, then the restored call parsed
    parser.seen.clear()
    sent = {"id": 1, "items": [{"n": 1, "note": None}]}
    assert fn.parse_arguments(sent) == tp.Ok({"id": 1, "items": [{"n": 1}]})
    assert parser.explained == [sent]
    assert parser.seen == [{"id": 1, "items": [{"n": 1}]}]


def test_a_verdict_that_raised_leaves_the_call_to_the_parser_not_to_explain() -> None:
    def verdict(args: dict[str, Any]) -> bool:
        raise OverflowError("cannot take it")

    parser = Checker()
    adapter = CheckingAdapter(parser, verdict=verdict)
    adapter.explain = parser.explain
    fn = tp.Function("t", lambda a: a, args_schema="checked", adapter=adapter)
    assert isinstance(fn.execute({"id": "one"}), tp.Error)
    assert parser.explained == []
    assert parser.calls == 1


def test_a_top_level_null_goes_past_the_verdict_to_one_parse_of_the_restored_call() -> None:
    parser = Checker()
    fn = checked_function(parser=parser, verdict=True)
    assert fn.parse_arguments({"id": 1, "tag": None}) == tp.Ok({"id": 1})
    assert parser.judged == [{"id": 1, "tag": None}]
    assert parser.seen == [{"id": 1}]


def test_a_nested_null_goes_past_the_verdict_and_is_restored_after_the_rejection() -> None:
    parser = Checker()
    fn = checked_function(parser=parser, verdict=True)
    sent = {"id": 1, "items": [{"n": 1, "note": None}]}
    assert fn.parse_arguments(sent) == tp.Ok({"id": 1, "items": [{"n": 1}]})
    assert parser.seen == [sent, {"id": 1, "items": [{"n": 1}]}]


def test_your_own_parse_args_never_meets_the_adapter_s_verdict() -> None:
    adapter_parser, yours = Checker(), Checker()
    adapter = CheckingAdapter(adapter_parser, verdict=True, closed=True)
    fn = tp.Function("t", lambda a: a, args_schema="checked", adapter=adapter, parse_args=yours)
    assert fn.parse_arguments(dict(VALID)) == tp.Ok(VALID)
    assert yours.calls == 1
    assert adapter_parser.judged == []


def test_an_async_parser_decides_alone() -> None:
    parser = AsyncChecker()
    fn = checked_function(parser=parser, verdict=True)
    assert asyncio.run(fn.aparse_arguments(dict(VALID))) == tp.Ok(VALID)
    assert fn.parse_arguments(dict(VALID)) == tp.Ok(VALID)
    assert parser.calls == 2
    assert parser.judged == []


def test_an_async_body_after_a_sync_parser_meets_the_verdict() -> None:
    async def body(args: Any) -> str:
        await asyncio.sleep(0)
        return str(sorted(args))

    parser = Checker()
    fn = checked_function(body, parser, verdict=True)
    assert asyncio.run(fn.aexecute(dict(VALID))) == tp.Ok("['id', 'items', 'meta', 'tag']")
    assert fn.execute(dict(VALID)) == tp.Ok("['id', 'items', 'meta', 'tag']")
    assert parser.calls == 0
    assert len(parser.judged) == 2


def test_a_name_the_application_bound_is_rejected_before_the_verdict() -> None:
    def body(args: Any, tag: str = "") -> Any:
        return args

    parser = Checker()
    fn = checked_function(functools.partial(body, tag="mine"), parser, verdict=True)
    result = fn.execute({"id": 1, "tag": "theirs"})
    assert isinstance(result, tp.Error)
    assert parser.judged == []
    assert parser.calls == 0


@pytest.mark.parametrize("policy", tp.adapter.POLICIES)
@pytest.mark.parametrize("closed", [True, False])
def test_a_rejected_call_past_a_verdict_is_rendered_once(policy: str, closed: bool) -> None:
    fn = checked_function(verdict=True, closed=closed, unknown_arguments=policy)
    for sent in (
        {"id": "one"},
        {"id": "one", "tga": 1},
        {"tag": 1, "other": 2},
        {"id": 1, "tga": 1},
    ):
        with counted_renders() as renders:
            result = fn.execute(dict(sent))
        if isinstance(result, tp.Error):
            assert renders == [1], sent


@settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    sent=CALLS,
    policy=st.sampled_from(tp.adapter.POLICIES),
    schema_closed=st.booleans(),
    after=st.booleans(),
    explain=st.booleans(),
)
def test_past_a_verdict_every_verdict_and_text_is_the_plain_order_s(
    sent: dict[str, Any], policy: str, schema_closed: bool, after: bool, explain: bool
) -> None:
    def body(args: Any) -> str:
        return json.dumps(args, sort_keys=True)

    # the shortcuts: the verdict, the closed parser (when it is), nulls after a rejection
    quick = checked_function(
        body,
        verdict=True,
        closed=schema_closed,
        schema_closed=schema_closed,
        after=after,
        explain=explain,
        unknown_arguments=policy,
    )
    plain = checked_function(
        body, after=False, closed=False, schema_closed=schema_closed, unknown_arguments=policy
    )
    # the same order of the null step, without the verdict: as many renderings
    same_order = checked_function(
        body, after=after, closed=False, schema_closed=schema_closed, unknown_arguments=policy
    )
    for run in (
        lambda fn: fn.parse_arguments(dict(sent)),
        lambda fn: fn.execute(dict(sent)),
        lambda fn: asyncio.run(fn.aexecute(dict(sent))),
    ):
        with counted_renders() as renders:
            got = run(quick)
        with counted_renders() as renders_same:
            run(same_order)
        with counted_renders() as renders_plain:
            want = run(plain)
        assert type(got) is type(want)
        assert verdict_of(got) == verdict_of(want)
        assert renders == renders_same
        assert len(renders_plain) <= 1
