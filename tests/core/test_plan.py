"""What a Function's plan does with a call, through the public API.

A rejection is built once and rendered once (an adapter's own rendering is the
answer when the tool's policy adds nothing to it), null for an optional
property means absent, the policy applies after an adapter's parser, bodies
and parsers of every shape are called as they declare, and what a body
returns reads the same whatever its type.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import json
import pickle
from collections.abc import Callable, Generator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.core.checking_adapter import ACCEPTED, CALLS, AsyncChecker, Checker, checked_function

import toolparse as tp
from toolparse.adapter import Compiled

POLICIES = ("report", "reject", "ignore")
SECRET = "sk-live-0123456789"


@dataclasses.dataclass
class Forecast:
    """Weather for a city."""

    city: str
    days: int = 1


@pytest.fixture
def pm() -> tp.PluginManager:
    return tp.make_plugin_manager(load_entry_points=False)


class Keeping(Checker):
    """The checker, keeping every result it returned."""

    def __init__(self, closed: bool = False) -> None:
        super().__init__(closed)
        self.answers: list[tp.ParseResult] = []

    def __call__(self, args: dict[str, Any]) -> tp.ParseResult:
        self.answers.append(super().__call__(args))
        return self.answers[-1]


class Quoting(Checker):
    """A parser that quotes the call in its rejection (as a library's text may)."""

    def __call__(self, args: dict[str, Any]) -> tp.ParseResult:
        problem = tp.ArgumentProblem(("tag",), f"must not be {args.get('tag')}")
        return tp.invalid_arguments([problem], arguments=args, accepted=ACCEPTED)


class OtherNames(Checker):
    """A parser that renders its rejection with accepted names of its own."""

    def __call__(self, args: dict[str, Any]) -> tp.ParseResult:
        return tp.invalid_arguments(
            [tp.ArgumentProblem.missing("id")], arguments=args, accepted=("id",)
        )


# -- a rejection is rendered once -----------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("bad", [{"id": "one", "tag": 5}, {"id": "one", "tgs": 1, "zzz": 2}])
def test_an_adapters_rejection_is_the_answer_as_it_is(policy: str, bad: dict[str, Any]) -> None:
    parser = Keeping()
    fn = checked_function(parser=parser, unknown_arguments=policy, after=False)
    result = fn.execute(bad)
    assert result is parser.answers[-1]  # rendered by the adapter, once, and not again
    assert fn.parse_arguments(bad) is parser.answers[-1]
    if policy == "ignore":
        assert parser.seen[-1] == {"id": "one"} | ({"tag": 5} if "tag" in bad else {})
    elif "idd" in bad:
        # every unknown name is named, the likely typo with its suggestion
        assert 'Unrecognized parameters: idd (did you mean "id"?), zzz' in result.message


@pytest.mark.parametrize("policy", ["report", "reject"])
def test_a_rejected_call_names_the_adapters_problem_and_every_unknown_name(
    pm: tp.PluginManager, policy: Any
) -> None:
    fn = tp.Function(
        "forecast",
        lambda a: "ok",
        args_schema=Forecast,
        plugin_manager=pm,
        unknown_arguments=policy,
    )
    result = fn.execute({"city": 5, "dayz": 2, "other": 1})
    assert isinstance(result, tp.Error)
    assert "\ncity: " in result.message
    assert 'Unrecognized parameters: dayz (did you mean "days"?), other' in result.message
    assert isinstance(result.exception, tp.InvalidArguments)
    unknown = [p.path for p in result.exception.problems if p.kind == "unrecognized"]
    assert unknown == [("dayz",), ("other",)]


@pytest.mark.parametrize("policy", POLICIES)
def test_a_rejection_rendered_with_other_names_is_rendered_with_the_tools(policy: str) -> None:
    fn = checked_function(parser=OtherNames(), unknown_arguments=policy, after=False)
    result = fn.execute({"tag": "a"})
    assert isinstance(result, tp.Error)
    expected = tp.invalid_arguments(
        [tp.ArgumentProblem.missing("id")], arguments={"tag": "a"}, accepted=ACCEPTED
    )
    assert result.message == expected.message
    assert "Accepted parameters: id, tag, meta, items" in result.message


def test_an_accepted_call_with_a_likely_typo_is_rejected_for_it_alone() -> None:
    fn = checked_function(unknown_arguments="report", after=False)
    result = fn.execute({"id": 1, "tga": "x", "unrelated": 2})
    assert isinstance(result, tp.Error)
    assert result.message == (
        "Invalid arguments for this tool.\n\n"
        'Unrecognized parameters: tga (did you mean "tag"?), unrelated\n'
        "Accepted parameters: id, tag, meta, items\n\n"
        "Fix these arguments and call the tool again."
    )
    # a name resembling no parameter passes through to the body under "report"
    assert fn.parse_arguments({"id": 1, "unrelated": 2}) == tp.Ok({"id": 1, "unrelated": 2})
    assert isinstance(
        checked_function(unknown_arguments="reject").parse_arguments({"id": 1, "unrelated": 2}),
        tp.Error,
    )


@pytest.mark.parametrize("policy", POLICIES)
def test_a_context_string_the_rejection_quotes_is_redacted(policy: str) -> None:
    fn = checked_function(parser=Quoting(), unknown_arguments=policy, after=False)
    bad = {"id": 1, "tag": SECRET}
    for context in ({"key": SECRET}, [SECRET], {f"k{i}": i for i in range(100)} | {"k": SECRET}):
        result = fn.execute(bad, context)
        assert isinstance(result, tp.Error)
        assert SECRET not in result.message
        assert "[redacted]" in result.message
    assert SECRET in fn.execute(bad).message  # with no context, nothing is hidden
    assert SECRET in fn.execute(bad, {"tool_call_id": SECRET}).message  # the call's own id


def test_your_own_parsers_rejection_is_returned_as_it_is_or_redacted() -> None:
    answers: list[tp.Error] = []

    def parse_args(args: dict[str, Any]) -> tp.ParseResult:
        answers.append(tp.Error(f"id {args['id']} is not known"))
        return answers[-1]

    fn = tp.Function(
        "t", lambda a: a, parameters=[tp.FunctionParam("id", "string")], parse_args=parse_args
    )
    assert fn.execute({"id": SECRET}) is answers[-1]
    assert fn.parse_arguments({"id": SECRET}) is answers[-1]
    assert fn.execute({"id": SECRET}, {"key": SECRET}).message == "id [redacted] is not known"
    assert fn.execute({"id": SECRET}, {"n": 1}) is answers[-1]


def test_an_async_parser_is_awaited_and_the_policy_applies_after_it() -> None:
    fn = checked_function(parser=AsyncChecker(), after=False)
    bad = {"id": "one", "idd": 1}
    result = asyncio.run(fn.aexecute(bad))
    assert isinstance(result, tp.Error)
    assert "id: must be an integer" in result.message
    assert "idd" in result.message
    assert fn.execute(bad).message == result.message
    assert asyncio.run(fn.aparse_arguments({"id": 1})) == tp.Ok({"id": 1})
    assert fn.parse_arguments({"id": 1}) == tp.Ok({"id": 1})


# -- null means absent ------------------------------------------------------------------


@pytest.mark.parametrize("strict", [False, True])
def test_null_for_an_optional_field_gives_its_default(pm: tp.PluginManager, strict: bool) -> None:
    seen: list[Any] = []
    fn = tp.Function(
        "forecast",
        lambda a: seen.append(a) or "ok",
        args_schema=Forecast,
        plugin_manager=pm,
        strict=strict,
    )
    assert fn.execute({"city": "Oslo", "days": None}) == tp.Ok("ok")
    assert seen == [Forecast("Oslo", 1)]
    assert isinstance(fn.execute({"city": None}), tp.Error)  # a required field's null is judged


def test_nulls_below_the_top_are_dropped_without_a_top_level_null() -> None:
    schema = {
        "type": "object",
        "properties": {
            "options": {
                "type": "object",
                "properties": {"days": {"type": "integer"}, "hourly": {"type": "boolean"}},
                "required": ["days"],
            }
        },
    }
    fn = tp.Function("t", lambda a: tp.ok(dict(a)), parameters_schema=schema)
    assert fn.parse_arguments({"options": {"days": 2, "hourly": None}}) == tp.Ok(
        {"options": {"days": 2}}
    )


@pytest.mark.parametrize("policy", POLICIES)
def test_a_parser_that_checks_nulls_itself_sees_a_nested_null_only_after_rejecting(
    policy: str,
) -> None:
    parser = Checker(closed=True)
    fn = checked_function(lambda a: dict(a), parser, unknown_arguments=policy, schema_closed=True)
    sent = {"id": 1, "items": [{"n": 1, "note": None}]}
    assert fn.execute(sent) == tp.Ok('{"id": 1, "items": [{"n": 1}]}')
    assert parser.seen == [sent, {"id": 1, "items": [{"n": 1}]}]
    # an optional name's null at the top is restored before the parser (parsed once)
    parser.seen.clear()
    assert fn.execute({"id": 1, "tag": None}) == tp.Ok('{"id": 1}')
    assert parser.seen == [{"id": 1}]
    parser.seen.clear()
    assert isinstance(fn.execute({"id": None}), tp.Error)  # a required name's null is judged
    assert parser.seen == [{"id": None}]


@settings(max_examples=80, deadline=None, derandomize=True)
@given(CALLS, st.sampled_from(POLICIES))
def test_restoring_after_a_rejection_answers_as_restoring_first(
    args: dict[str, Any], policy: str
) -> None:
    body = functools.partial(json.dumps, sort_keys=True)
    after = checked_function(lambda a: body(a), unknown_arguments=policy)
    first = checked_function(lambda a: body(a), unknown_arguments=policy, after=False)
    got, want = after.execute(dict(args)), first.execute(dict(args))
    assert type(got) is type(want)
    assert got[0] == want[0]  # the value the body returned, or the text the model reads


# -- parsers, bodies and what they return ---------------------------------------------------


class ToolOut:
    """Not a result type: its outcome goes through the serialiser."""


class AwaitableDict(dict[str, Any]):
    """A dict subclass a sync body returns that must still be awaited."""

    def __await__(self) -> Generator[Any, None, str]:
        yield from asyncio.sleep(0).__await__()
        return "awaited"


@pytest.mark.parametrize(
    ("returned", "expected"),
    [
        ("text", tp.Ok("text")),
        ({"a": 1}, tp.Ok('{"a": 1}')),
        ([1, "x"], tp.Ok('[1, "x"]')),
        ((1, 2), tp.Ok("[1, 2]")),
        (3, tp.Ok("3")),
        (2.5, tp.Ok("2.5")),
        (True, tp.Ok("true")),
        (None, tp.Ok("null")),
        (tp.Ok("done"), tp.Ok("done")),
        (tp.Error("no such id"), tp.Error("no such id")),
        (tp.Interrupt("ask first", {"k": 1}), tp.Interrupt("ask first", {"k": 1})),
        (AwaitableDict(x=1), tp.Ok("awaited")),
    ],
)
def test_what_a_body_returns_reads_the_same_on_every_path(
    returned: Any, expected: tp.Outcome
) -> None:
    fn = checked_function(lambda a: returned)
    assert fn.execute({"id": 1}) == expected
    assert type(fn.execute({"id": 1})) is type(expected)
    assert asyncio.run(fn.aexecute({"id": 1})) == expected


def test_a_returned_tool_result_is_copied_and_another_object_is_not_shown() -> None:
    shown = tp.ToolResult("c1", "t", "hello")
    result = checked_function(lambda a: shown).execute({"id": 1})
    assert isinstance(result, tp.Ok)
    assert result.value is not shown  # the call never fills in the tool's own object
    assert result.value.content == "hello"
    assert checked_function(lambda a: ToolOut()).execute({"id": 1}) == tp.Error(
        "An unexpected response was returned from the tool."
    )


def _shapes() -> list[tuple[Callable[..., Any], bool]]:
    """Bodies of every shape, with whether each takes the context."""

    def one(a):
        return dict(a)

    def two(a, c):
        return {"ctx": c}

    def star(*args):
        return {"n": len(args)}

    def defaults(a, c=None, d=2):
        return {"ctx": c}

    async def coro(a):
        return dict(a)

    class Call:
        def __call__(self, a: Any, c: Any = None) -> Any:
            return {"ctx": c}

    class ACall:
        async def __call__(self, a: Any) -> Any:
            return dict(a)

    @functools.wraps(one)
    def wrapped(*args: Any) -> Any:
        return one(args[0])

    wrapped.__signature__ = inspect.signature(one)  # type: ignore[attr-defined]
    return [
        (one, False), (two, True), (star, True), (defaults, True), (coro, False),
        (Call(), True), (ACall(), False), (wrapped, False),
        (functools.partial(two, {"x": 1}), False), (lambda a: dict(a), False),
    ]  # fmt: skip


@pytest.mark.parametrize(("body", "with_context"), _shapes())
def test_bodies_of_every_shape_are_called_as_they_declare(
    body: Callable[..., Any], with_context: bool
) -> None:
    fn = tp.Function("t", body)
    context = {"user": 7}
    result = fn.execute({}, context)
    assert isinstance(result, tp.Ok), result
    assert asyncio.run(fn.aexecute({}, context)) == result
    decoded = json.loads(result.value)
    if with_context and "ctx" in decoded:
        assert decoded["ctx"] == context


def test_an_async_body_runs_from_sync_code_even_inside_a_running_loop() -> None:
    async def body(a: Any) -> str:
        await asyncio.sleep(0)
        return "done"

    fn = tp.Function("t", body)
    assert fn.execute({}) == tp.Ok("done")

    async def main() -> tp.Outcome:
        return fn.execute({})  # a loop is running: the body runs in a loop of its own

    assert asyncio.run(main()) == tp.Ok("done")


def test_a_parameter_check_follows_the_required_key_check() -> None:
    fn = tp.Function(
        "t",
        lambda a: f"ran {a['city']}",
        parameters=[
            tp.FunctionParam("city", "string", required=True),
            tp.FunctionParam("days", "integer"),
        ],
    )
    assert fn.execute({"city": "Oslo", "days": 2}) == tp.Ok("ran Oslo")
    rejected = fn.execute({"city": "Oslo", "days": "x"})
    assert isinstance(rejected, tp.Error)
    assert 'days: must be an integer (received "x")' in rejected.message
    # the required-key message comes first: the values are not checked
    missing = fn.parse_arguments({"days": "x"})
    assert isinstance(missing, tp.Error)
    assert missing.message.startswith("Missing required parameters")
    assert "must be an integer" not in missing.message


# -- the definition ------------------------------------------------------------------------


def test_replace_changes_the_given_fields_only() -> None:
    fn = tp.Function(
        "math.factorial",
        lambda a: str(a["n"]),
        description="Factorial.",
        parameters=[tp.FunctionParam("n", "integer", required=True)],
        concurrent=True,
    )
    renamed = fn.replace(name="math_factorial")
    assert renamed is not fn
    assert (renamed.name, fn.name) == ("math_factorial", "math.factorial")
    assert renamed.description == "Factorial."
    assert renamed.concurrent is True
    assert renamed.parameters == fn.parameters
    assert renamed.execute({"n": 3}) == tp.Ok("3")
    assert fn.replace(concurrent=False).concurrent is False
    with pytest.raises(TypeError, match="unexpected field"):
        fn.replace(title="x")
    with pytest.raises(tp.FunctionDefinitionError, match="name: can't be blank"):
        fn.replace(name="")


def test_description_is_taken_from_the_source(pm: tp.PluginManager) -> None:
    fn = tp.Function("forecast", lambda a: "ok", args_schema=Forecast, plugin_manager=pm)
    assert fn.description == "Weather for a city."
    schema = {"type": "object", "description": " Look it up. ", "properties": {}}
    assert tp.Function("t", lambda a: "ok", parameters_schema=schema).description == "Look it up."
    given = tp.Function(
        "forecast", lambda a: "ok", description="Mine.", args_schema=Forecast, plugin_manager=pm
    )
    assert given.description == "Mine."

    @dataclasses.dataclass
    class Plain:
        city: str

    # replace takes it again from the new source
    assert fn.replace(args_schema=Plain).description is None
    assert given.replace(args_schema=Plain).description == "Mine."


def _square(arguments: Any) -> str:
    return str(arguments["n"] ** 2)


def test_a_function_pickles_as_its_definition() -> None:
    fn = tp.Function(
        "square",
        _square,
        description="Square a number.",
        parameters=[tp.FunctionParam("n", "integer", required=True)],
        unknown_arguments="reject",
    )
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        loaded = pickle.loads(pickle.dumps(fn, protocol))
        assert loaded.name == fn.name
        assert loaded.description == fn.description
        assert loaded.parameters == fn.parameters
        assert loaded.unknown_arguments == "reject"
        assert loaded.json_schema() == fn.json_schema()
        assert loaded.execute({"n": 3}) == tp.Ok("9")
        assert loaded.execute({"n": "x"}).message == fn.execute({"n": "x"}).message


def test_the_exception_hook_of_the_default_manager_applies_to_every_tool() -> None:
    class Formatter:
        @tp.hookimpl
        def toolparse_format_exception(self, exception: BaseException, function: Any) -> str:
            return f"{function.name} failed: {exception}"

    def boom(a: Any) -> str:
        raise RuntimeError("no")

    formatter = Formatter()
    tp.plugin_manager().register(formatter)
    try:
        result = tp.Function("plain", boom).execute({})
    finally:
        tp.plugin_manager().unregister(formatter)
    assert isinstance(result, tp.Error)
    assert result.message == "plain failed: no"
    assert isinstance(result.exception, RuntimeError)


def test_an_adapters_accepted_names_are_the_tools() -> None:
    class Named:
        name = "named-test"

        def accepts(self, source: object) -> bool:
            return source == "named"

        def compile(self, source: Any, **options: Any) -> Compiled:
            schema = {"type": "object", "properties": {"b": {}, "a": {}}}
            return Compiled(schema, lambda args: tp.ok(), accepted=["b", "a"], required=["a"])

    fn = tp.Function("t", lambda a: "ok", args_schema="named", adapter=Named())
    assert fn.accepted_param_names() == ["b", "a"]
    assert fn.required_param_names() == ["a"]
    assert fn.execute({"a": 1}) == tp.Ok("ok")
