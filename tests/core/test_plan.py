"""A Function's plan: one rendering per rejected call, null as absent, replace(), and
the small guarantees every tool has (the exception hook, a returned ToolResult untouched)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import toolparse as tp
import toolparse.function._plan as plan_module
import toolparse.function._steps as steps_module
import toolparse.problems as problems_module
from toolparse import plugins as plugins_module
from toolparse.adapter import Compiled


@dataclasses.dataclass
class Forecast:
    """Weather for a city."""

    city: str
    days: int = 1


@pytest.fixture
def pm() -> tp.PluginManager:
    return tp.make_plugin_manager(load_entry_points=False)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the rejections rendered (each text is written by ``problems.invalid``)."""
    count: list[int] = []
    original = problems_module.invalid

    def counting(*args: Any, **kwargs: Any) -> Any:
        count.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(problems_module, "invalid", counting)
    return count


# -- render once ----------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["report", "reject"])
def test_a_rejected_call_with_unknown_names_is_rendered_once(
    pm: tp.PluginManager, renders: list[int], policy: Any
) -> None:
    fn = tp.Function(
        "forecast",
        lambda a: "ok",
        args_schema=Forecast,
        plugin_manager=pm,
        unknown_arguments=policy,
    )
    # a wrong value (the adapter's problem) and two unknown names (the policy's)
    result = fn.execute({"city": 5, "dayz": 2, "other": 1})
    assert isinstance(result, tp.Error)
    assert "\ncity: " in result.message
    assert 'Unrecognized parameters: dayz (did you mean "days"?), other' in result.message
    assert renders == [1]
    problems = result.exception.problems  # type: ignore[union-attr]
    assert [(p.path, p.kind) for p in problems][-2:] == [
        (("dayz",), "unrecognized"),
        (("other",), "unrecognized"),
    ]


def test_every_kind_of_rejected_call_is_rendered_once(
    pm: tp.PluginManager, renders: list[int]
) -> None:
    fn = tp.Function("forecast", lambda a: "ok", args_schema=Forecast, plugin_manager=pm)
    calls: list[dict[str, Any]] = [
        {"city": 5},  # the adapter alone
        {"days": "x"},  # missing and invalid
        {"city": "Oslo", "dayz": 2},  # only the policy (a likely typo)
        {"city": 5, "unrelated": 1},  # the adapter, and a name the policy names
    ]
    for arguments in calls:
        renders.clear()
        assert isinstance(fn.execute(arguments), tp.Error)
        assert renders == [1], arguments
        renders.clear()
        assert isinstance(fn.parse_arguments(arguments), tp.Error)
        assert renders == [1], arguments


def test_an_adapter_that_names_the_unknown_names_itself_is_rendered_once(
    renders: list[int],
) -> None:
    accepted = ["city"]

    def parser(arguments: dict[str, Any]) -> Any:
        problems = [tp.ArgumentProblem.unrecognized(k) for k in arguments if k not in accepted]
        return tp.invalid_arguments(problems, arguments=arguments, accepted=accepted)

    class Strict:
        name = "strict-test"

        def accepts(self, source: object) -> bool:
            return source == "strict-source"

        def compile(self, source: Any, **options: Any) -> Compiled:
            schema = {"type": "object", "properties": {"city": {"type": "string"}}}
            return Compiled(schema, parser, accepted=accepted)

    fn = tp.Function("t", lambda a: "ok", args_schema="strict-source", adapter=Strict())
    result = fn.execute({"city": "Oslo", "other": 1})
    assert isinstance(result, tp.Error)
    assert result.message.startswith("Invalid arguments for this tool.")
    assert "Unrecognized parameters: other" in result.message
    assert renders == [1]


def test_invalid_arguments_outside_a_function_still_renders() -> None:
    error = tp.invalid_arguments([tp.ArgumentProblem.missing("city")], arguments={})
    assert error.message.startswith("Invalid arguments for this tool.")
    assert "Missing parameters: city" in error.message


# -- null means absent, for every Function -------------------------------------------


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
    # a required field's null is the adapter's to judge
    assert isinstance(fn.execute({"city": None}), tp.Error)


@pytest.fixture
def fresh_steps() -> Iterator[None]:
    """Steps shared by tools of one declaration are built again (and not kept after)."""
    plan_module._shared_nulls_step.cache_clear()
    yield
    plan_module._shared_nulls_step.cache_clear()


@pytest.mark.usefixtures("fresh_steps")
def test_the_null_step_runs_only_when_a_null_could_be_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walks: list[Any] = []
    original = plan_module.null_restorer

    def counting(schema: Any) -> Callable[[Any], Any] | None:
        restore = original(schema)
        if restore is None:
            return None

        def walk(value: Any) -> Any:
            walks.append(value)
            return restore(value)

        return walk

    monkeypatch.setattr(plan_module, "null_restorer", counting)
    params = [
        tp.FunctionParam("city", "string", required=True),
        tp.FunctionParam("days", "integer"),
    ]
    fn = tp.Function("t", lambda a: str(dict(a)), parameters=params)
    walks.clear()  # probing at definition does not count
    assert fn.execute({"city": "Oslo"}) == tp.Ok("{'city': 'Oslo'}")
    assert fn.execute({"city": "Oslo", "days": 2}) == tp.Ok("{'city': 'Oslo', 'days': 2}")
    assert walks == []
    assert fn.execute({"city": "Oslo", "days": None}) == tp.Ok("{'city': 'Oslo'}")
    assert walks == [{"city": "Oslo", "days": None}]
    # nothing optional: no null step at all
    required = tp.Function("t", lambda a: "ok", parameters=params[:1])
    walks.clear()
    assert required.execute({"city": "Oslo"}) == tp.Ok("ok")
    assert isinstance(required.execute({"city": None}), tp.Error)  # null is not a string
    assert walks == []


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


# -- replace and description ---------------------------------------------------------


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


# -- every tool ----------------------------------------------------------------------


def test_the_exception_hook_applies_to_tools_without_a_plugin_manager(
    monkeypatch: pytest.MonkeyPatch, pm: tp.PluginManager
) -> None:
    class Formatter:
        @tp.hookimpl
        def toolparse_format_exception(self, exception: BaseException, function: Any) -> str:
            return f"{function.name} failed: {exception}"

    pm.register(Formatter())
    monkeypatch.setattr(plugins_module, "_default", pm)

    def boom(a: Any) -> str:
        raise RuntimeError("no")

    plain = tp.Function("plain", boom)  # no args_schema: no plugin manager of its own
    result = plain.execute({})
    assert isinstance(result, tp.Error)
    assert result.message == "plain failed: no"
    assert isinstance(result.exception, RuntimeError)


def test_a_returned_tool_result_is_never_mutated() -> None:
    mine = tp.ToolResult(None, None, "cached answer")
    fn = tp.Function("t", lambda a: mine, display_text="Looking", return_direct=True)
    first, second = tp.execute_tool_calls(
        [fn], [tp.ToolCall("1", "t", {}), tp.ToolCall("2", "t", {})]
    )
    assert (first.tool_call_id, second.tool_call_id) == ("1", "2")
    assert (first.name, first.display_text, first.return_direct) == ("t", "Looking", True)
    assert (mine.tool_call_id, mine.name, mine.display_text, mine.return_direct) == (
        None,
        None,
        None,
        False,
    )


def test_a_parameter_check_follows_the_required_key_check() -> None:
    from toolparse.function._outcome import Outcomes
    from toolparse.function._plan import compile_plan
    from toolparse.function._policy import Policy

    owner = tp.Function("t", lambda a: "ok")
    seen: list[Any] = []

    def check(value: Any) -> tp.Error | None:
        seen.append(dict(value))
        return tp.Error("days: must be an integer") if value.get("days") == "x" else None

    plan = compile_plan(
        name="t",
        limits=owner.limits,
        schema={"type": "object", "properties": {"city": {}, "days": {}}, "required": ["city"]},
        policy=Policy("report", ["city", "days"], ["city"]),
        parser=None,
        parser_arity=0,
        guarded=False,
        outcomes=Outcomes(owner, ["city", "days"]),
        function=lambda a: f"ran {a['city']}",
        body_arity=1,
        parser_async=False,
        body_async=False,
        check_parameters=check,
    )
    assert plan.run({"city": "Oslo", "days": 2}, None) == tp.Ok("ran Oslo")
    assert plan.run({"city": "Oslo", "days": "x"}, None) == tp.Error("days: must be an integer")
    # the required-key message comes first: the check does not run
    assert plan.parse({"days": "x"}, None).message.startswith("Missing required parameters")
    assert seen == [{"city": "Oslo", "days": 2}, {"city": "Oslo", "days": "x"}]


def test_a_plan_source_holds_no_text_of_the_definition(monkeypatch: pytest.MonkeyPatch) -> None:
    # the compiled source is a join of the fixed pieces: names, descriptions and
    # schemas reach the plan as values, never as code, so the cache stays small
    sources: list[str] = []
    original = steps_module._code

    def recording(source: str) -> Any:
        sources.append(source)
        return original(source)

    monkeypatch.setattr(steps_module, "_code", recording)
    steps_module.entry_points.cache_clear()  # compile this shape again, recorded
    hostile = '"""\nimport os\nos.exit(1)\n'
    for i in range(30):
        marker = f"zq_marker_{i}"
        fn = tp.Function(
            f"{marker}_tool",
            lambda a: ",".join(a.values()),
            description=hostile + marker,
            parameters=[tp.FunctionParam(marker, "string", description=hostile, required=True)],
        )
        assert fn.execute({marker: "x"}) == tp.Ok("x")
    assert sources
    assert not [s for s in sources if "zq_marker" in s or "os.exit" in s]
    # thirty tools of one shape compile the same few sources, once
    assert len(sources) == len(set(sources)) <= 5
    assert original.cache_info().maxsize is not None  # bounded, however many tools
    assert steps_module.entry_points.cache_info().maxsize is not None


def _steps(fn: tp.Function) -> tuple[Any, Any]:
    namespace = fn._run.__globals__
    return namespace["check_parameters"], namespace["restore"]


def test_tools_of_one_declaration_share_the_steps_built_from_it() -> None:
    def declared() -> list[tp.FunctionParam]:
        return [
            tp.FunctionParam("city", "string", required=True),
            tp.FunctionParam("days", "integer", enum=[1, 2, 3]),
            tp.FunctionParam(
                "stops",
                "array",
                item_type="object",
                object_properties=[tp.FunctionParam("name", "string", required=True)],
            ),
        ]

    first = tp.Function("a", lambda a: "a", parameters=declared())
    second = tp.Function("b", lambda a, c: "b", parameters=declared(), display_text="x")
    check, restore = _steps(first)
    assert check is not None
    assert restore is not None
    assert _steps(second) == (check, restore)
    # each still runs its own body, with its own name in what it says
    assert first.execute({"city": "Oslo"}) == tp.Ok("a")
    assert second.execute({"city": "Oslo", "days": None}) == tp.Ok("b")
    assert "days: must be one of: 1, 2, 3" in second.execute({"city": "x", "days": 9})[0]
    # another policy, or a bound name, is another declaration
    rejecting = tp.Function("a", lambda a: "a", parameters=declared(), unknown_arguments="reject")
    assert _steps(rejecting)[0] is not check


def test_enum_values_equal_in_python_but_not_in_json_are_not_shared() -> None:
    # FunctionParam equality says 1 == 1.0 == True; a check and its message do not
    texts = {}
    for values in ([1], [1.0], [True]):
        fn = tp.Function(
            "t", lambda a: "ok", parameters=[tp.FunctionParam("x", "number", enum=values)]
        )
        texts[repr(values)] = fn.execute({"x": 2})[0].splitlines()[2]
        assert fn.execute({"x": values[0]}) == tp.Ok("ok")
    assert texts == {
        "[1]": "x: must be 1 (received 2)",
        "[1.0]": "x: must be 1.0 (received 2)",
        "[True]": "x: must be true (received 2)",
    }


def test_a_declaration_that_is_not_a_key_still_works() -> None:
    # an enum value past Python's integer text limit cannot be a key: built for the tool alone
    huge = 10**5000
    fn = tp.Function(
        "t", lambda a: "ok", parameters=[tp.FunctionParam("x", "integer", enum=[huge])]
    )
    assert fn.execute({"x": huge}) == tp.Ok("ok")
    assert isinstance(fn.execute({"x": 1}), tp.Error)


def test_a_remembered_harmless_name_passes_the_quick_test_and_only_under_report() -> None:
    declared = [
        tp.FunctionParam("city", "string", required=True),
        tp.FunctionParam("days", "integer"),
    ]
    fn = tp.Function("t", lambda a: ",".join(sorted(a)), parameters=declared)
    sent = {"city": "Oslo", "reasoning": "asked about Oslo"}
    assert fn.execute(sent) == tp.Ok("city,reasoning")
    passes = fn._run.__globals__["passes"]
    assert "reasoning" in passes  # remembered: the next call passes with no search
    assert fn.execute(sent) == tp.Ok("city,reasoning")
    assert isinstance(fn.execute({"reasoning": "x"}), tp.Error)  # required still checked
    # a likely typo is never remembered as harmless
    assert isinstance(fn.execute({"city": "Oslo", "dayz": 2}), tp.Error)
    assert isinstance(fn.execute({"city": "Oslo", "dayz": 2}), tp.Error)
    assert "dayz" not in passes
    for policy in ("reject", "ignore"):
        other = tp.Function(
            "t", lambda a: ",".join(sorted(a)), parameters=declared, unknown_arguments=policy
        )
        outcome = other.execute(sent)
        assert outcome == tp.Ok("city") if policy == "ignore" else isinstance(outcome, tp.Error)
        assert "reasoning" not in other._run.__globals__["passes"]


def test_the_quick_test_passes_only_what_the_check_passes() -> None:
    declared = [
        tp.FunctionParam("city", "string", required=True),
        tp.FunctionParam("units", "string", enum=["celsius", "fahrenheit"]),
        tp.FunctionParam("days", "integer"),
        tp.FunctionParam("ratio", "number"),
        tp.FunctionParam("daily", "boolean"),
        tp.FunctionParam("levels", "integer", enum=[1, 2]),
        tp.FunctionParam("tags", "array", item_type="string"),
    ]
    fn = tp.Function("t", lambda a: "ok", parameters=declared)
    namespace = fn._run.__globals__
    check = namespace["check_parameters"]
    checked: list[Any] = []

    def counting(value: Any) -> Any:
        checked.append(dict(value))
        return check(value)

    namespace["check_parameters"] = counting
    quick = [
        {"city": "Oslo"},
        {"city": "Oslo", "units": "celsius", "days": 3, "ratio": 0.5, "daily": True},
    ]
    for sent in quick:
        assert fn.execute(sent) == tp.Ok("ok")
    assert checked == []  # all passed by the quick test alone
    to_check = [
        ({"city": 1}, False),
        ({"city": "Oslo", "units": "kelvin"}, False),
        ({"city": "Oslo", "days": True}, False),  # a boolean is no integer
        ({"city": "Oslo", "days": 3.0}, False),
        ({"city": "Oslo", "ratio": "2"}, False),
        ({"city": "Oslo", "ratio": 2}, True),  # an integer is a number, the check says
        ({"city": "Oslo", "ratio": 10**400}, False),  # but not one past what a float holds
        ({"city": "Oslo", "daily": 1}, False),
        ({"city": "Oslo", "levels": 1}, True),  # no quick test for an integer enum
        ({"city": "Oslo", "levels": True}, False),
        ({"city": "Oslo", "tags": ["a"]}, True),  # nor for an array
        ({"city": "Oslo", "tags": [1]}, False),
    ]
    for sent, accepted in to_check:
        outcome = fn.execute(sent)
        assert isinstance(outcome, tp.Ok) is accepted, (sent, outcome)
    assert checked == [sent for sent, _ in to_check]  # each went to the check


def test_no_quick_test_when_a_required_value_is_the_checks_alone() -> None:
    declared = [
        tp.FunctionParam("city", "string", required=True),
        tp.FunctionParam("tags", "array", item_type="string", required=True),
    ]
    fn = tp.Function("t", lambda a: "ok", parameters=declared)
    assert "_k0" not in fn._run.__globals__
    assert fn.execute({"city": "Oslo", "tags": ["a"]}) == tp.Ok("ok")
    assert isinstance(fn.execute({"city": "Oslo", "tags": "a"}), tp.Error)


def test_the_names_of_the_last_passing_call_pass_at_once_and_nothing_else_does() -> None:
    declared = [
        tp.FunctionParam("city", "string", required=True),
        tp.FunctionParam("days", "integer"),
    ]
    for policy in ("report", "reject", "ignore"):
        fn = tp.Function(
            "t",
            lambda a: ",".join(sorted(a)),
            parameters=declared,
            unknown_arguments=policy,  # type: ignore[arg-type]
        )
        last = fn._run.__globals__["last"]
        assert fn.execute({"city": "Oslo"}) == tp.Ok("city")  # an optional name left out
        assert last[0] == {"city"}
        assert fn.execute({"city": "Bergen"}) == tp.Ok("city")
        # other names still take the whole way: the required check, the policy
        assert isinstance(fn.execute({"days": 2}), tp.Error)
        assert last[0] == {"city"}
        extra = fn.execute({"city": "Oslo", "note": "x"})
        assert extra == (tp.Ok("city,note") if policy == "report" else extra)
        if policy == "report":
            # remembered as resembling no parameter: the next such call passes the quick test
            assert fn.execute({"city": "Oslo", "note": "y"}) == tp.Ok("city,note")
            assert last[0] == {"city", "note"}
        elif policy == "reject":
            assert isinstance(extra, tp.Error)
        else:
            assert extra == tp.Ok("city")  # dropped, never remembered as passing
        assert "note" not in last[0] or policy == "report"
