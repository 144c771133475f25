"""parse_args: the parse contract (sync and async, 1 or 2 parameters)."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

import toolparse as tp
from toolparse import FunctionParam as P


def capture(parser: Any, **kwargs: Any) -> tuple[tp.Function, list[Any]]:
    seen: list[Any] = []

    def body(args: Any, ctx: Any) -> tp.Ok[Any]:
        seen.append(args)
        return tp.ok("SUCCESS", args)

    return tp.Function("t", body, parse_args=parser, **kwargs), seen


def test_no_parser_body_gets_the_arguments() -> None:
    fn, seen = capture(None)
    assert fn.execute({"a": 1}) == tp.Ok("SUCCESS", {"a": 1})
    assert seen == [{"a": 1}]


def test_ok_means_use_the_arguments_as_they_are() -> None:
    fn, seen = capture(lambda a: tp.ok())
    assert fn.execute({"a": 1}) == tp.Ok("SUCCESS", {"a": 1})
    assert seen == [{"a": 1}]


def test_ok_parsed_replaces_the_arguments() -> None:
    fn, seen = capture(lambda a: tp.ok({"value": int(a["value"])}))
    fn.execute({"value": "42"})
    assert seen == [{"value": 42}]


def test_ok_parsed_may_be_any_object() -> None:
    class Model:
        def __init__(self, value: int) -> None:
            self.value = value

    fn, seen = capture(lambda a: tp.ok(Model(int(a["value"]))))
    fn.execute({"value": "7"})
    assert seen[0].value == 7


def test_error_is_returned_verbatim_and_body_not_run() -> None:
    fn, seen = capture(lambda a: tp.error("device_task_id is required"))
    assert fn.execute({}) == tp.Error("device_task_id is required")
    assert seen == []


def test_error_with_non_string_reason() -> None:
    fn, seen = capture(lambda a: tp.Error({"validation": "failed"}))  # type: ignore[arg-type]
    assert fn.execute({}) == tp.Error("{'validation': 'failed'}")
    assert seen == []


@pytest.mark.parametrize("junk", ["totally_invalid", None, {"a": 1}, ("ok", 1), True])
def test_unexpected_shape(junk: Any) -> None:
    fn, seen = capture(lambda a: junk)
    # the type alone: the value may carry anything (the context, secrets)
    expected = f"parse_args returned unexpected shape: {type(junk).__name__}"
    assert fn.execute({}) == tp.Error(expected)
    assert seen == []


def test_raising_parser() -> None:
    def parser(a: Any) -> Any:
        raise ValueError("boom")

    fn, seen = capture(parser)
    result = fn.execute({})
    assert isinstance(result, tp.Error)
    assert result.message.startswith("ERROR: (ValueError) boom at test_parse_args.py:")
    name = "test_raising_parser.<locals>.parser" if sys.version_info >= (3, 11) else "parser"
    assert result.message.endswith(f": {name}")
    assert isinstance(result.exception, ValueError)
    assert seen == []


def test_parser_skips_the_required_key_check() -> None:
    fn, seen = capture(lambda a: tp.ok(), parameters=[P("id", "string", required=True)])
    assert fn.execute({}) == tp.Ok("SUCCESS", {})
    assert seen == [{}]


def test_parser_message_is_the_only_message() -> None:
    def parser(a: Any) -> Any:
        if "coolio" not in a:
            return tp.error("PARSER: coolio is required")
        return tp.ok()

    fn, _ = capture(
        parser,
        parameters_schema={"type": "object", "properties": {"coolio": {}}, "required": ["coolio"]},
    )
    assert fn.execute({"value": 1}) == tp.Error("PARSER: coolio is required")
    assert fn.execute({"colio": 1}) == tp.Error("PARSER: coolio is required")


def test_parser_set_keeps_key_error_format() -> None:
    fn = tp.Function(
        "t",
        lambda a: a["limit"],
        parse_args=lambda a: tp.ok(),
        parameters_schema={"type": "object", "properties": {"path": {}, "limit": {}}},
    )
    result = fn.execute({"path": "/a"})
    assert isinstance(result, tp.Error)
    assert "KeyError" in result.message
    assert "does not accept" not in result.message


def test_parser_with_context() -> None:
    def parser(a: Any, ctx: Any) -> Any:
        if a["id"] not in ctx["records"]:
            return tp.error(f"No record {a['id']} for this account.")
        return tp.ok({"record": ctx["records"][a["id"]]})

    fn, seen = capture(parser)
    ctx = {"records": {"r1": "Record One"}}
    assert fn.execute({"id": "r2"}, ctx) == tp.Error("No record r2 for this account.")
    fn.execute({"id": "r1"}, ctx)
    assert seen == [{"record": "Record One"}]


def test_async_parser_and_body_from_sync_execute() -> None:
    async def parser(a: Any) -> Any:
        await asyncio.sleep(0)
        return tp.ok({"n": a["n"] * 2})

    async def body(a: Any) -> str:
        await asyncio.sleep(0)
        return f"n={a['n']}"

    fn = tp.Function("t", body, parse_args=parser)
    assert fn.execute({"n": 2}) == tp.Ok("n=4")
    assert asyncio.run(fn.aexecute({"n": 3})) == tp.Ok("n=6")
    assert fn.parse_arguments({"n": 1}) == tp.Ok({"n": 2})
    assert asyncio.run(fn.aparse_arguments({"n": 5})) == tp.Ok({"n": 10})


def test_async_body_raising_is_rescued() -> None:
    async def body(a: Any) -> str:
        raise tp.ToolError("async says no")

    fn = tp.Function("t", body)
    assert fn.execute({}).message == "async says no"  # type: ignore[union-attr]
    assert asyncio.run(fn.aexecute({})).message == "async says no"  # type: ignore[union-attr]


def test_execute_inside_a_running_loop() -> None:
    async def body(a: Any) -> str:
        return "inside"

    fn = tp.Function("t", body)

    async def main() -> tp.Outcome:
        return fn.execute({})  # sync call from async code: runs in a worker thread

    assert asyncio.run(main()) == tp.Ok("inside")


def test_async_raising_parser() -> None:
    async def parser(a: Any) -> Any:
        raise LookupError("nope")

    fn = tp.Function("t", lambda a: "x", parse_args=parser)
    result = asyncio.run(fn.aexecute({}))
    assert isinstance(result, tp.Error)
    assert result.message.startswith("ERROR: (LookupError) nope")


def test_aexecute_with_sync_body() -> None:
    fn = tp.Function("t", lambda a: f"x={a['x']}")
    assert asyncio.run(fn.aexecute('{"x": 1}')) == tp.Ok("x=1")


# -- parse_arguments runs exactly what execute runs --------------------------------------


def test_parse_arguments_matches_what_the_body_receives() -> None:
    fn, seen = capture(lambda a: tp.ok({"n": int(a["n"])}))
    parsed = fn.parse_arguments('{"n": "5"}')
    fn.execute('{"n": "5"}')
    assert parsed == tp.Ok(seen[0])


def test_parse_arguments_reports_like_execute() -> None:
    fn = tp.Function("t", lambda a: "x", parameters=[P("id", "string", required=True)])
    assert fn.parse_arguments({}) == fn.execute({})
    assert fn.parse_arguments({"id": "1"}) == tp.Ok({"id": "1"})
    assert fn.parse_arguments("[]") == fn.execute("[]")


def test_parser_runs_once_per_call_and_never_writes() -> None:
    calls: list[Any] = []

    def parser(a: dict[str, Any]) -> Any:
        calls.append(a)
        return tp.ok()

    fn, _ = capture(parser)
    args = {"a": 1}
    fn.parse_arguments(args)
    fn.execute(args)
    assert len(calls) == 2
    assert args == {"a": 1}


def test_parser_result_with_a_model_like_zoi() -> None:
    # a schema library behind the contract: coerces, reports every problem in one message
    def parser(a: dict[str, Any]) -> Any:
        problems = []
        task = a.get("device_task_id")
        if task is None:
            problems.append(tp.ArgumentProblem.missing("device_task_id"))
        elif not isinstance(task, str) or len(task) < 1:
            problems.append(
                tp.ArgumentProblem(
                    ("device_task_id",), "too small: must have at least 1 character(s)", task
                )
            )
        if problems:
            return tp.invalid_arguments(problems, arguments=a, accepted=["device_task_id"])
        return tp.ok({"device_task_id": task})

    fn, seen = capture(parser)
    fn.execute({"device_task_id": "dt-42"})
    assert seen == [{"device_task_id": "dt-42"}]
    missing = fn.execute({})
    assert isinstance(missing, tp.Error)
    assert "Missing parameters: device_task_id" in missing.message
    small = fn.execute({"device_task_id": ""})
    assert isinstance(small, tp.Error)
    assert (
        'device_task_id: too small: must have at least 1 character(s) (received "")'
        in small.message
    )


@pytest.mark.parametrize("strict", [True, False])
def test_null_for_an_optional_property_means_absent_at_every_level(strict: bool) -> None:
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "units": {"type": "string"},
            "note": {"type": ["string", "null"]},
            "options": {
                "type": "object",
                "properties": {"days": {"type": "integer"}, "hourly": {"type": "boolean"}},
                "required": ["days"],
            },
        },
        "required": ["city"],
    }
    fn, seen = capture(lambda a: tp.ok(), parameters_schema=schema, strict=strict)
    fn.execute(
        {"city": "Oslo", "units": None, "note": None, "options": {"days": 2, "hourly": None}}
    )
    # optional and not nullable in the declared schema: null means "absent",
    # strict or not; a property that admits null keeps it
    assert seen == [{"city": "Oslo", "note": None, "options": {"days": 2}}]
    fn.execute({"city": "Oslo", "units": None})
    assert seen[-1] == {"city": "Oslo"}
    # a required property keeps its null (it counts as sent)
    fn.execute({"city": None})
    assert seen[-1] == {"city": None}
