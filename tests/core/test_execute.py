"""Function.execute: the Elixir behaviour (required-key check, result normalisation,
exception rescue, KeyError reinterpretation) plus the unknown-argument policy."""

from __future__ import annotations

import datetime
import sys
from typing import Any

import pytest

import toolparse as tp
from toolparse import FunctionParam as P

EXACT_MISSING = (
    "Missing required parameters for this tool.\n\n"
    "Required parameters: record_id, content\n"
    "Missing parameters: record_id, content\n"
    "Unrecognized parameters: display_name\n"
    "Accepted parameters: record_id, content, active\n\n"
    "Ensure you're passing the correct parameter names as defined in the tool schema."
)


def returns(value: Any) -> tp.Function:
    return tp.Function("t", lambda a: value)


def record_fn(calls: list[Any] | None = None) -> tp.Function:
    def body(args: Any) -> str:
        if calls is not None:
            calls.append(args)
        return "SUCCESS"

    return tp.Function(
        "t",
        body,
        parameters=[
            P("record_id", "string", required=True),
            P("content", "string", required=True),
            P("active", "boolean"),
        ],
    )


# -- result normalisation ------------------------------------------------------------


def test_ok_passes_through() -> None:
    assert returns(tp.ok("SUCCESS")).execute({}) == tp.Ok("SUCCESS")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (tp.ok("SUCCESS"), tp.Ok("SUCCESS")),
        ("SUCCESS", tp.Ok("SUCCESS")),
        (tp.error("FAILED"), tp.Error("FAILED")),
        (
            tp.ok("2024-11-01", datetime.date(2024, 11, 1)),
            tp.Ok("2024-11-01", datetime.date(2024, 11, 1)),
        ),
        (tp.interrupt("Needs approval.", {"id": 1}), tp.Interrupt("Needs approval.", {"id": 1})),
        ({"a": 1}, tp.Ok('{"a": 1}')),
        ([1, 2], tp.Ok("[1, 2]")),
        (123, tp.Ok("123")),
        (1.5, tp.Ok("1.5")),
        (True, tp.Ok("true")),
        (None, tp.Ok("null")),
        ({"ü": "ñ"}, tp.Ok('{"ü": "ñ"}')),
        (tp.ok({"rows": [1]}, "native"), tp.Ok('{"rows": [1]}', "native")),
    ],
)
def test_body_results_normalised(value: Any, expected: tp.Outcome) -> None:
    assert returns(value).execute({}) == expected


def test_error_with_non_string_reason_is_rendered() -> None:
    result = returns(tp.Error(datetime.date(2024, 4, 1))).execute({})  # type: ignore[arg-type]
    assert result == tp.Error("datetime.date(2024, 4, 1)")


@pytest.mark.parametrize(
    "value",
    [object(), {1, 2}, float("nan"), {"a": object()}, tp.Interrupt(5)],  # type: ignore[arg-type]
)
def test_unshowable_results(value: Any) -> None:
    assert returns(value).execute({}) == tp.Error(
        "An unexpected response was returned from the tool."
    )


def test_content_parts_pass_through() -> None:
    parts = [tp.TextPart("Hello"), tp.ImagePart("aGVsbG8=", "image/png")]
    assert returns(parts).execute({}) == tp.Ok(parts)


def test_tool_result_passes_through() -> None:
    result = tp.ToolResult(
        None, None, [tp.TextPart("Hi", options={"cache_control": True})], options={"custom": 1}
    )
    assert returns(result).execute({}) == tp.Ok(result)


# -- exceptions ---------------------------------------------------------------------------


def fake_exception(args: Any) -> str:
    raise RuntimeError("fake exception")


def test_raise_is_rescued_with_location() -> None:
    result = tp.Function("t", fake_exception).execute({})
    assert isinstance(result, tp.Error)
    line = fake_exception.__code__.co_firstlineno + 1
    assert (
        result.message
        == f"ERROR: (RuntimeError) fake exception at test_execute.py:{line}: fake_exception"
    )
    assert isinstance(result.exception, RuntimeError)


def test_innermost_frame_is_named() -> None:
    def helper() -> None:
        raise ValueError("amount must be positive")

    def create_invoice(args: Any) -> str:
        helper()
        return "x"

    result = tp.Function("t", create_invoice).execute({})
    assert isinstance(result, tp.Error)
    assert result.message.startswith(
        "ERROR: (ValueError) amount must be positive at test_execute.py:"
    )
    # the qualified name where Python records it (3.11+), else the plain name
    name = (
        "test_innermost_frame_is_named.<locals>.helper" if sys.version_info >= (3, 11) else "helper"
    )
    assert result.message.endswith(f": {name}")


def test_tool_error_goes_back_as_written() -> None:
    def body(args: Any) -> str:
        raise tp.ToolError("The invoice is already paid; pick another.")

    result = tp.Function("t", body).execute({})
    assert result == tp.Error("The invoice is already paid; pick another.", result.exception)  # type: ignore[union-attr]
    assert isinstance(result.exception, tp.ToolError)  # type: ignore[union-attr]


def test_base_exceptions_are_not_swallowed() -> None:
    def body(args: Any) -> str:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tp.Function("t", body).execute({})


# -- required-key check --------------------------------------------------------------------


def test_missing_required_exact_message_and_body_not_run() -> None:
    calls: list[Any] = []
    result = record_fn(calls).execute({"active": True, "display_name": "Some Name"})
    assert result == tp.Error(EXACT_MISSING)
    assert calls == []


def test_all_present_runs() -> None:
    assert record_fn().execute({"record_id": "1", "content": "c", "active": True}) == tp.Ok(
        "SUCCESS"
    )


def test_all_optional_and_empty() -> None:
    fn = tp.Function("t", lambda a: "SUCCESS", parameters=[P("a", "string"), P("b", "integer")])
    assert fn.execute({}) == tp.Ok("SUCCESS")


def test_schema_required_field() -> None:
    fn = tp.Function(
        "t",
        lambda a: "SUCCESS",
        parameters_schema={
            "type": "object",
            "properties": {"field": {"type": "string"}},
            "required": ["field"],
        },
    )
    result = fn.execute({})
    assert isinstance(result, tp.Error)
    assert "Missing required parameters" in result.message
    assert "Required parameters: field" in result.message
    assert "Accepted parameters: field" in result.message
    assert fn.execute({"field": "x"}) == tp.Ok("SUCCESS")


def test_schema_without_required() -> None:
    fn = tp.Function(
        "t", lambda a: "SUCCESS", parameters_schema={"type": "object", "properties": {"f": {}}}
    )
    assert fn.execute({}) == tp.Ok("SUCCESS")


def test_schema_required_without_properties() -> None:
    fn = tp.Function(
        "t", lambda a: "SUCCESS", parameters_schema={"type": "object", "required": ["field"]}
    )
    result = fn.execute({"other": 1})
    assert isinstance(result, tp.Error)
    assert "Required parameters: field" in result.message
    assert "Accepted parameters" not in result.message
    assert "Unrecognized parameters" not in result.message
    assert isinstance(fn.execute({}), tp.Error)


def path_schema(required: list[str], *names: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {n: {"type": "string"} for n in names},
        "required": required,
    }


def test_renamed_argument_gets_did_you_mean() -> None:
    fn = tp.Function(
        "t", lambda a: "x", parameters_schema=path_schema(["path"], "path", "offset", "limit")
    )
    result = fn.execute({"file_path": "/a.md"})
    assert isinstance(result, tp.Error)
    assert "Missing parameters: path" in result.message
    assert 'Unrecognized parameters: file_path (did you mean "path"?)' in result.message
    assert "Accepted parameters: limit, offset, path" in result.message


def test_unrelated_name_has_no_suggestion() -> None:
    fn = tp.Function("t", lambda a: "x", parameters_schema=path_schema(["path"], "path"))
    result = fn.execute({"query": "abc"})
    assert isinstance(result, tp.Error)
    assert "Unrecognized parameters: query\n" in result.message
    assert "did you mean" not in result.message


def test_no_unrecognized_line_when_none() -> None:
    fn = tp.Function(
        "t", lambda a: "x", parameters=[P("path", "string", required=True), P("limit", "integer")]
    )
    result = fn.execute({"limit": 5})
    assert isinstance(result, tp.Error)
    assert "Missing parameters: path" in result.message
    assert "Unrecognized" not in result.message


def test_supplied_name_is_never_suggested() -> None:
    fn = tp.Function(
        "t",
        lambda a: "x",
        parameters=[P("pattern", "string", required=True), P("file_path", "string", required=True)],
    )
    result = fn.execute({"file_path": "/a", "patern": "x"})
    assert isinstance(result, tp.Error)
    assert 'Unrecognized parameters: patern (did you mean "pattern"?)' in result.message
    assert 'did you mean "file_path"' not in result.message


def test_required_in_declaration_order() -> None:
    fn = tp.Function(
        "t",
        lambda a: "x",
        parameters=[P(n, "string", required=True) for n in ("alpha", "beta", "gamma")],
    )
    result = fn.execute({})
    assert isinstance(result, tp.Error)
    assert "Required parameters: alpha, beta, gamma" in result.message


def test_none_arguments_are_empty() -> None:
    result = record_fn().execute(None)
    assert isinstance(result, tp.Error)
    assert "Missing required parameters" in result.message
    assert "record_id" in result.message


def test_null_value_counts_as_present() -> None:
    # the Elixir required-key check (parameters_schema): null is present
    fn = tp.Function(
        "t",
        lambda a: "SUCCESS",
        parameters_schema=tp.FunctionParam.to_parameters_schema(record_fn().parameters),
    )
    assert fn.execute({"record_id": None, "content": None}) == tp.Ok("SUCCESS")
    # declared FunctionParams are also type-checked: null is present, but not a string
    result = record_fn().execute({"record_id": None, "content": None})
    assert isinstance(result, tp.Error)
    assert "record_id: must be a string (received null)" in result.message


def test_unrelated_extras_pass_through_under_report() -> None:
    calls: list[Any] = []
    fn = record_fn(calls)
    args = {"record_id": "1", "content": "c", "zzz": 1, "nested_extra": {"a": [1]}, "qqq": None}
    assert fn.execute(args) == tp.Ok("SUCCESS")
    assert calls == [args]


def test_body_gets_a_copy_not_the_callers_dict() -> None:
    args = {"record_id": "1", "content": "c"}

    def body(a: dict[str, Any]) -> str:
        a["mutated"] = True
        return "x"

    tp.Function("t", body, parameters=[P("record_id", "string")]).execute(args)
    assert "mutated" not in args


# -- unknown_arguments policy (no parser) ----------------------------------------------------------


def units_fn(policy: str, calls: list[Any] | None = None) -> tp.Function:
    def body(a: Any) -> str:
        if calls is not None:
            calls.append(dict(a))
        return "ok"

    return tp.Function(
        "weather",
        body,
        parameters=[P("city", "string", required=True), P("units", "string")],
        unknown_arguments=policy,  # type: ignore[arg-type]
    )


def test_report_rejects_a_typo_of_an_optional_name() -> None:
    calls: list[Any] = []
    result = units_fn("report", calls).execute({"city": "Oslo", "unit": "c"})
    assert result == tp.Error(
        "Unrecognized parameters for this tool.\n\n"
        'Unrecognized parameters: unit (did you mean "units"?)\n'
        "Accepted parameters: city, units\n\n"
        "Ensure you're passing the correct parameter names as defined in the tool schema."
    )
    assert calls == []


def test_report_names_every_unknown_when_one_is_a_typo() -> None:
    result = units_fn("report").execute({"city": "Oslo", "unit": "c", "zzz": 1})
    assert isinstance(result, tp.Error)
    assert 'Unrecognized parameters: unit (did you mean "units"?), zzz' in result.message


def test_report_does_not_suggest_a_name_already_sent() -> None:
    assert units_fn("report").execute({"city": "Oslo", "units": "c", "unit": "f"}) == tp.Ok("ok")


def test_reject_rejects_any_unknown() -> None:
    result = units_fn("reject").execute({"city": "Oslo", "zzz": 1})
    assert isinstance(result, tp.Error)
    assert result.message.startswith("Unrecognized parameters for this tool.")
    assert "Unrecognized parameters: zzz\n" in result.message


def test_ignore_drops_unknown_names() -> None:
    calls: list[Any] = []
    assert units_fn("ignore", calls).execute({"city": "Oslo", "unit": "c", "zzz": 1}) == tp.Ok("ok")
    assert calls == [{"city": "Oslo"}]


def test_missing_message_wins_over_policy() -> None:
    result = units_fn("reject").execute({"zzz": 1})
    assert isinstance(result, tp.Error)
    assert result.message.startswith("Missing required parameters for this tool.")
    assert "Unrecognized parameters: zzz" in result.message


# -- KeyError reinterpretation --------------------------------------------------------------------


def limit_tool(policy: str = "report") -> tp.Function:
    return tp.Function(
        "read",
        lambda a: f"{a['path']}:{a['limit']}",
        parameters_schema=path_schema(["path"], "path", "limit"),
        unknown_arguments=policy,  # type: ignore[arg-type]
    )


def test_key_error_for_a_name_not_accepted() -> None:
    # "foo" is not a typo of anything, so the policy lets it through to the body
    result = limit_tool().execute({"path": "/a.md", "foo": 5})
    assert result == tp.Error(
        "ERROR: The tool was called with an argument name it does not accept. "
        "Accepted parameters: limit, path. Unrecognized parameters: foo. Received: foo, path.",
        result.exception,  # type: ignore[union-attr]
    )
    assert isinstance(result.exception, KeyError)  # type: ignore[union-attr]


def test_key_error_message_with_did_you_mean() -> None:
    # Through execute, a likely typo is rejected by the "report" policy before
    # the body runs (dropped under "ignore", rejected under "reject"), so the
    # suggestion form of this message is only reached by the renderer itself.
    from toolparse import messages

    assert messages.key_error("limit", {"path": "/a.md", "lim": 5}, ["limit", "path"]) == (
        "ERROR: The tool was called with an argument name it does not accept. "
        'Accepted parameters: limit, path. Unrecognized parameters: lim (did you mean "limit"?). '
        "Received: lim, path."
    )
    fn = limit_tool()
    result = fn.execute({"path": "/a.md", "lim": 5})
    assert isinstance(result, tp.Error)
    assert 'Unrecognized parameters: lim (did you mean "limit"?)' in result.message
    assert "KeyError" not in result.message


def test_key_error_exact_message_from_the_messages_contract() -> None:
    def body(a: Any) -> str:
        return str(a["limit"])

    fn = tp.Function("read", body, parameters_schema=path_schema(["path"], "path", "limit"))
    # reach the body with the typo by a name the policy does not flag
    result = fn.execute({"path": "/a.md", "lim_value_x": 5})
    assert isinstance(result, tp.Error)
    assert result.message.startswith(
        "ERROR: The tool was called with an argument name it does not accept."
    )
    assert ".py:" not in result.message


def test_key_error_for_a_missing_optional_argument() -> None:
    result = limit_tool().execute({"path": "/a.md"})
    assert result == tp.Error(
        'ERROR: The tool needs the "limit" argument, which was not provided. '
        "Accepted parameters: limit, path. Received: path.",
        result.exception,  # type: ignore[union-attr]
    )


def test_key_error_non_string_key() -> None:
    fn = tp.Function("t", lambda a: a[3], parameters_schema=path_schema([], "path"))
    result = fn.execute({"path": "x"})
    assert isinstance(result, tp.Error)
    assert result.message == (
        "ERROR: The tool could not read the arguments it was given. Accepted parameters: path. Received: path."
    )


def test_key_error_on_another_mapping_keeps_the_original_format() -> None:
    def body(a: Any) -> str:
        return {}["totally_unrelated"]  # type: ignore[no-any-return]

    result = tp.Function("t", body, parameters_schema=path_schema([], "path")).execute(
        {"path": "x"}
    )
    assert isinstance(result, tp.Error)
    assert "KeyError" in result.message
    assert "totally_unrelated" in result.message


def test_key_error_with_no_declared_parameters_keeps_the_original_format() -> None:
    result = tp.Function("t", lambda a: a["limit"]).execute({})
    assert isinstance(result, tp.Error)
    assert result.message.startswith("ERROR: (KeyError) 'limit' at ")


def test_key_error_in_a_helper_reading_the_arguments_is_reinterpreted() -> None:
    def helper(a: Any) -> Any:
        return a["limit"]

    fn = tp.Function("t", lambda a: helper(a), parameters_schema=path_schema([], "path", "limit"))
    result = fn.execute({"path": "x"})
    assert isinstance(result, tp.Error)
    assert result.message.startswith('ERROR: The tool needs the "limit" argument')


def test_arguments_behave_as_a_dict() -> None:
    seen: list[Any] = []

    def body(a: Any) -> str:
        seen.append((isinstance(a, dict), a.get("missing", "d"), "path" in a, dict(a)))
        return "x"

    tp.Function("t", body).execute({"path": 1})
    assert seen == [(True, "d", True, {"path": 1})]


def test_context_reaches_the_body() -> None:
    fn = tp.Function("t", lambda a, ctx: f"{ctx['user']}:{a['x']}")
    assert fn.execute({"x": 1}, {"user": "u1"}) == tp.Ok("u1:1")
