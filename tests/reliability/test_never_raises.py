"""Never raise, never hang, never crash: the reproductions, each a result."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from typing import Any

import pytest

import toolparse as tp


def _tool(name: str = "t", body: Any = None, **kwargs: Any) -> tp.Function:
    if not kwargs:
        kwargs["parameters"] = [tp.FunctionParam("x", "string")]
    return tp.Function(name, body or (lambda a: "ok"), **kwargs)


def _deep(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"c": value}
    return value


@pytest.mark.parametrize("filler", [10, 300_000])
def test_a_lone_surrogate_at_any_size_is_no_exception(filler: int) -> None:
    # over a quarter of the limit the size is measured in UTF-8, which a lone
    # surrogate cannot be encoded to
    text = '{"x": "' + "a" * filler + '\ud800"}'
    fn = _tool()
    assert isinstance(fn.execute(text), (tp.Ok, tp.Error))
    [result] = tp.execute_tool_calls([fn], [tp.ToolCall("1", "t", text)])
    assert result.tool_call_id == "1"


def test_a_lone_surrogate_in_a_concurrent_batch_settles() -> None:
    text = '{"x": "' + "a" * 300_000 + '\ud800"}'
    fn = tp.Function(
        "t", lambda a: "ok", parameters=[tp.FunctionParam("x", "string")], concurrent=True
    )
    calls = [tp.ToolCall(str(i), "t", text) for i in range(3)]
    results = tp.execute_tool_calls([fn], calls)
    assert [r.tool_call_id for r in results] == ["0", "1", "2"]


def test_a_deep_mapping_never_reaches_the_fast_path_under_a_recursive_schema() -> None:
    # jsonschema-rs follows a recursive schema down a Python mapping without a
    # stack bound: a crash kills the process, so the call runs in a child
    pytest.importorskip("jsonschema_rs")
    code = textwrap.dedent(
        """
        import toolparse as tp
        value = {}
        for _ in range(20_000):
            value = {"c": value}
        schema = {"type": "object", "properties": {"c": {"$ref": "#"}}}
        fn = tp.Function("r", lambda a: "ok", args_schema=schema)
        result = fn.execute({"c": value})
        print(type(result).__name__, result.message)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.startswith("Error ")
    assert "nested too deeply" in done.stdout


def test_a_broken_str_is_an_error_result() -> None:
    class Broken(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no text")

    def body(a: Any) -> str:
        raise Broken

    def parser(a: Any) -> Any:
        raise Broken

    for fn in (tp.Function("b", body), tp.Function("p", lambda v: "ok", parse_args=parser)):
        result = fn.execute({})
        assert isinstance(result, tp.Error)
        assert isinstance(result.message, str)
        assert "Broken" in result.message
        [res] = tp.execute_tool_calls(
            [fn.replace(concurrent=True)], [tp.ToolCall("1", fn.name, {})]
        )
        assert res.is_error


def test_strict_null_restoring_with_a_deep_mapping() -> None:
    schema = {
        "type": "object",
        "properties": {"c": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}},
    }
    fn = tp.Function("r", lambda a: "ok", parameters_schema=schema, strict=True)
    for depth in (1_000, 5_000):
        assert isinstance(fn.execute({"c": _deep(depth)}), (tp.Ok, tp.Error))


def test_an_async_tools_own_cancelled_error_is_its_failure() -> None:
    async def body(a: Any) -> str:
        raise asyncio.CancelledError

    fn = tp.Function("c", body)
    [result] = tp.execute_tool_calls([fn], [tp.ToolCall("1", "c", {})])
    assert result.is_error
    assert "CancelledError" in str(result.content)
    outcome = asyncio.run(fn.aexecute({}))
    assert isinstance(outcome, tp.Error)


def test_a_timeout_still_cancels_an_async_body() -> None:
    async def body(a: Any) -> str:
        await asyncio.sleep(5)
        return "late"

    fn = tp.Function("slow", body)
    [result] = tp.execute_tool_calls([fn], [tp.ToolCall("1", "slow", {})], timeout=0.05)
    assert result.is_error


def test_system_exit_is_an_error_keyboard_interrupt_propagates() -> None:
    def leaves(a: Any) -> str:
        raise SystemExit(3)

    def interrupted(a: Any) -> str:
        raise KeyboardInterrupt

    result = tp.Function("s", leaves).execute({})
    assert isinstance(result, tp.Error)
    assert "SystemExit" in result.message
    [res] = tp.execute_tool_calls([tp.Function("s", leaves)], [tp.ToolCall("1", "s", {})])
    assert res.is_error
    with pytest.raises(KeyboardInterrupt):
        tp.Function("k", interrupted).execute({})


def test_a_list_as_a_tool_name() -> None:
    [result] = tp.execute_tool_calls([_tool()], [tp.ToolCall("1", ["t"], {})])  # type: ignore[arg-type]
    assert result.is_error
    assert isinstance(result.content, str)


def test_tool_error_none_is_text() -> None:
    def body(a: Any) -> str:
        raise tp.ToolError(None)  # type: ignore[arg-type]

    result = tp.Function("e", body).execute({})
    assert isinstance(result, tp.Error)
    assert isinstance(result.message, str)


def _internal(message: str) -> bool:
    return any(s in message for s in (".py:", "set_int_max_str_digits", "OverflowError"))


@pytest.mark.parametrize(
    "text",
    [
        '{"x": ' + "9" * 401 + "}",
        '{"x": ' + "9" * 401 + ".5}",
        '{"x": 1e400}',
        '{"x": -1e400}',
        '{"x": NaN}',
        '{"x": Infinity}',
        '{"x": ' + "9" * 5_000 + "}",
    ],
)
def test_numbers_json_can_carry_are_argument_messages(text: str) -> None:
    schema = {
        "type": "object",
        "properties": {"x": {"type": "number", "multipleOf": 0.5}},
        "required": ["x"],
    }
    fns = [
        tp.Function("m", lambda a: "ok", args_schema=schema),
        tp.Function("m", lambda a: "ok", args_schema=tp.JsonSchema(schema, fast=False))
        if hasattr(tp, "JsonSchema")
        else tp.Function("m", lambda a: "ok", parameters_schema=schema),
        tp.Function("f", lambda a: "ok", parameters=[tp.FunctionParam("x", "number")]),
    ]
    for fn in fns:
        result = fn.execute(text)
        if isinstance(result, tp.Error):
            assert not _internal(result.message), result.message


@pytest.mark.parametrize("key", [None, (1, 2), 3, 1.5])
def test_keys_that_are_not_text(key: object) -> None:
    fns = [
        _tool(),
        tp.Function(
            "j",
            lambda a: "ok",
            args_schema={
                "type": "object",
                "properties": {"x": {"type": "string"}},
                "additionalProperties": False,
            },
        ),
    ]
    for fn in fns:
        result = fn.execute({key: 1, "x": "a"})
        if isinstance(result, tp.Error):
            assert not _internal(result.message), result.message


def test_deep_text_says_nested_too_deeply() -> None:
    schema = {"type": "object", "properties": {"c": {"$ref": "#"}}}
    for fn in (
        tp.Function("r", lambda a: "ok", args_schema=schema),
        _tool(),
    ):
        result = fn.execute({"c": _deep(3_000)})
        if isinstance(result, tp.Error):
            assert "Recursion limit" not in result.message
            assert "nested too deeply" in result.message
        text = '{"c": ' * 3_000 + "{}" + "}" * 3_000
        result = fn.execute(text)
        assert isinstance(result, tp.Error)
        assert "nested too deeply" in result.message


def test_an_integer_past_the_text_limit_in_a_mapping() -> None:
    from pydantic import BaseModel

    class Model(BaseModel):
        x: float

    huge = 10**5000
    for fn in (
        tp.Function("f", lambda a: "ok", parameters=[tp.FunctionParam("x", "number")]),
        tp.Function("f", lambda a: "ok", parameters=[tp.FunctionParam("x", "string")]),
        tp.Function(
            "m",
            lambda a: "ok",
            args_schema={"type": "object", "properties": {"x": {"type": "string"}}},
        ),
        tp.Function("m", lambda a: "ok", args_schema=Model),
    ):
        result = fn.execute({"x": huge})
        assert isinstance(result, tp.Error)
        assert not _internal(result.message), result.message


def test_an_echoed_object_keeps_no_address() -> None:
    from toolparse import messages

    assert "0x" not in messages.value_text(object())
    assert "0x" not in messages.value_text([object()])
    result = tp.Function("o", lambda a: tp.error(object())).execute({})  # type: ignore[arg-type]
    assert isinstance(result, tp.Error)
    assert "0x" not in result.message


def test_no_reason_carries_a_url() -> None:
    pytest.importorskip("toolparse_jsonschema")
    from toolparse_jsonschema import JsonSchema

    rejected = 0
    for keyword in ("uri", "uri-reference", "iri", "email", "hostname"):
        schema = {"type": "object", "properties": {"v": {"type": "string", "format": keyword}}}
        for fast in (True, False):
            fn = tp.Function("f", lambda a: "ok", args_schema=JsonSchema(schema, fast=fast))
            result = fn.execute({"v": "not a thing <> at all"})
            if isinstance(result, tp.Error):  # (a format a library does not check passes)
                rejected += 1
                assert "://" not in result.message
                assert "www." not in result.message
    assert rejected >= 4
    # the shared words every adapter may use
    from toolparse.adapter import FORMAT_WORDS, format_reason

    for fmt in FORMAT_WORDS:
        assert "://" not in format_reason(fmt), fmt
        assert "www." not in format_reason(fmt), fmt


@pytest.mark.parametrize("kind", ["parameters", "args_schema"])
def test_long_names_lines_never_drop_the_problem_lines(kind: str) -> None:
    names = [f"parameter_with_a_rather_long_descriptive_name_number_{i:03d}" for i in range(300)]
    if kind == "parameters":
        fn = tp.Function(
            "wide", lambda a: "ok", parameters=[tp.FunctionParam(n, "integer") for n in names]
        )
    else:
        schema = {"type": "object", "properties": {n: {"type": "integer"} for n in names}}
        fn = tp.Function(
            "wide", lambda a: "ok", args_schema={**schema, "additionalProperties": False}
        )
    result = fn.execute({names[0]: "x", "z" * 90: 1, "q" * 80: 2})
    assert isinstance(result, tp.Error)
    assert len(result.message) <= 2_000
    assert f"{names[0]}: must be an integer" in result.message
