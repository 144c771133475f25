"""Every message the model reads stays within its caps, whatever the model or the tool sent."""

from __future__ import annotations

import json
import re
from typing import Any

import hypothesis.strategies as st
from hypothesis import given, settings

import toolparse as tp
from toolparse import messages

CAP = 2000
FAST = settings(max_examples=25, deadline=None)
NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_.0123456789", min_size=1, max_size=64)


def listed(text: str, label: str) -> list[str]:
    """The names after ``label: `` up to the end of that line or sentence."""
    found = re.search(rf"{label}: (.*?)(?:\.$|\n|$)", text)
    assert found, text
    return [n for n in found.group(1).split(", ") if not n.startswith("... and ")]


@FAST
@given(names=st.lists(NAME, min_size=0, max_size=1000, unique=True), called=st.text(max_size=300))
def test_an_unknown_tool_among_many_stays_within_the_caps(names: list[str], called: str) -> None:
    text = messages.unknown_tool(called, names)
    assert len(text) <= CAP
    if names:
        shown = listed(text, "Available tools")
        assert len(shown) <= 30
        if len(names) > 30:
            assert f"... and {len(names) - len(shown)} more" in text


def test_the_closest_tool_names_come_first_when_cut() -> None:
    names = [f"tool_{i:04d}" for i in range(1000)] + ["search_documents"]
    text = messages.unknown_tool("search_document", names)
    assert len(text) <= CAP
    assert listed(text, "Available tools")[0] == "search_documents"
    assert text.endswith("... and 971 more.")
    toolset = tp.Toolset([tp.Function(n, lambda a: "x") for n in names])
    (result,) = toolset.execute([tp.ToolCall("1", "search_document")])
    assert result.text == text


TRAPS = st.sampled_from(
    [
        "see https://errors.pydantic.dev/2.9/v/int_parsing",
        "at <object object at 0x7f46a2b3c4d0>",
        'Traceback (most recent call last):\n  File "/srv/app.py", line 3, in f\n    x()\n',
        "\n  Input should be a valid integer [type=int_parsing, input_value='abc', input_type=str]",
        "www.example.com/secret",
        "id 0xdeadbeefcafe",
    ]
)


@FAST
@given(text=st.text(max_size=3000), traps=st.lists(TRAPS, max_size=6))
def test_an_exception_message_is_made_safe(text: str, traps: list[str]) -> None:
    message = "".join(
        part for pair in zip([text, *traps], [*traps, ""], strict=True) for part in pair
    )

    def body(a: Any) -> str:
        raise ValueError(message)

    (result,) = tp.execute_tool_calls([tp.Function("t", body)], [tp.ToolCall("1", "t")])
    out = result.text
    assert result.is_error
    assert len(out) <= CAP
    assert "\n" not in out
    assert "\r" not in out
    assert "://" not in out
    assert "www." not in out
    assert "0x" not in out
    assert "Traceback" not in out
    assert "input_value=" not in out
    assert out.startswith("ERROR: (ValueError) ")
    assert out.endswith(".body")  # the tool's own frame
    said = out[len("ERROR: (ValueError) ") : out.rindex(" at test_message_caps.py:")]
    assert len(said) <= 300


def test_a_huge_exception_text_is_cut() -> None:
    def body(a: Any) -> str:
        raise ValueError("x" * 10_000)

    (result,) = tp.execute_tool_calls([tp.Function("t", body)], [tp.ToolCall("1", "t")])
    assert len(result.text) < 400
    assert "x" * 297 + "..." in result.text


def test_the_application_frame_is_named_not_the_librarys() -> None:
    def parse_config(a: Any) -> str:
        return str(json.loads("{not json"))

    (result,) = tp.execute_tool_calls([tp.Function("cfg", parse_config)], [tp.ToolCall("1", "cfg")])
    assert result.text.startswith("ERROR: (JSONDecodeError) Expecting property name")
    assert re.search(r" at test_message_caps\.py:\d+: .*parse_config$", result.text), result.text


def test_a_body_that_is_library_code_names_its_own_frame() -> None:
    (result,) = tp.execute_tool_calls(
        [tp.Function("loads", json.loads)], [tp.ToolCall("1", "loads")]
    )
    assert result.is_error
    assert " at __init__.py:" in result.text  # json's own: there is no application frame
    assert "\n" not in result.text


def test_an_unprintable_exception_does_not_break_the_error_path() -> None:
    class Odd(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no")

    def body(a: Any) -> str:
        raise Odd

    (result,) = tp.execute_tool_calls([tp.Function("t", body)], [tp.ToolCall("1", "t")])
    assert result.text.startswith("ERROR: (Odd) <Odd with an unprintable message>")


@FAST
@given(
    count=st.integers(min_value=31, max_value=300),
    sent=st.lists(st.text(min_size=1, max_size=80), max_size=300),
)
def test_a_300_parameter_tool_stays_within_the_caps(count: int, sent: list[str]) -> None:
    props = {f"field_number_{i}": {"type": "string"} for i in range(count)}
    schema = {"type": "object", "properties": props, "required": list(props)}
    arguments = dict.fromkeys(sent, 1)
    declared = tp.Function("wide", lambda a: "x", parameters_schema=schema)
    typed = tp.Function(
        "typed",
        lambda a: "x",
        parameters=[tp.FunctionParam(name, "integer", required=True) for name in props],
    )
    for fn in (declared, typed):
        (result,) = tp.execute_tool_calls([fn], [tp.ToolCall("1", fn.name, arguments)])
        assert result.is_error
        assert len(result.text) <= CAP
        for label in ("Required parameters", "Missing parameters", "Accepted parameters"):
            if f"{label}: " in result.text:
                assert len(listed(result.text, label)) <= 30


def test_a_key_error_on_a_300_parameter_tool_stays_within_the_caps() -> None:
    names = [f"p{i}" for i in range(300)]
    fn = tp.Function(
        "wide", lambda a: a["p299"], parameters=[tp.FunctionParam(n, "string") for n in names]
    )
    (result,) = tp.execute_tool_calls([fn], [tp.ToolCall("1", "wide", {"p0": "x"})])
    assert result.text.startswith(
        'ERROR: The tool needs the "p299" argument, which was not provided.'
    )
    assert len(result.text) <= CAP
    assert "... and 270 more" in result.text


@FAST
@given(keys=st.lists(st.text(min_size=1, max_size=100), min_size=1, max_size=1000, unique=True))
def test_many_unknown_names_stay_within_the_caps(keys: list[str]) -> None:
    fn = tp.Function(
        "t",
        lambda a: "x",
        parameters=[tp.FunctionParam("query", "string")],
        unknown_arguments="reject",
    )
    (result,) = tp.execute_tool_calls([fn], [tp.ToolCall("1", "t", dict.fromkeys(keys, 1))])
    assert len(result.text) <= CAP


@FAST
@given(name=st.text(min_size=1, max_size=64), seconds=st.floats(min_value=1e-6, max_value=1e6))
def test_timeout_and_pool_messages_stay_within_the_caps(name: str, seconds: float) -> None:
    for text in (
        messages.timed_out(name, seconds),
        messages.timed_out(name, seconds, stopped=False),
        messages.no_worker(name, 32),
    ):
        assert len(text) <= CAP
        assert name in text


def test_long_names_give_way_before_the_lines_and_the_tail() -> None:
    names = [f"parameter_with_a_rather_long_descriptive_name_number_{i:03d}" for i in range(300)]
    fn = tp.Function(
        "wide",
        lambda a: "ok",
        parameters=[tp.FunctionParam(n, "integer", required=True) for n in names],
    )
    text = fn.execute({"z" * 90: 1})[0]
    assert len(text) <= 2_000
    assert text.endswith(
        "Ensure you're passing the correct parameter names as defined in the tool schema."
    )
    for label in ("Required", "Missing", "Unrecognized", "Accepted"):
        assert f"\n{label} parameters: " in text
    assert "... and 29" in text  # fewer names shown, each line still says how many are left
    wide = tp.Function(
        "wide", lambda a: "ok", parameters=[tp.FunctionParam(n, "integer") for n in names]
    )
    text = wide.execute({names[0]: "x", "z" * 90: 1, "q" * 80: 2})[0]
    assert len(text) <= 2_000
    assert f"{names[0]}: must be an integer" in text
    assert text.endswith("Fix these arguments and call the tool again.")


def test_a_body_reading_a_missing_key_keeps_every_label_when_the_names_are_long() -> None:
    names = [f"parameter_with_a_rather_long_descriptive_name_number_{i:03d}" for i in range(300)]

    def reads(arguments: object) -> str:
        return str(arguments["absent_parameter"])  # type: ignore[index]

    fn = tp.Function("wide", reads, parameters=[tp.FunctionParam(n, "integer") for n in names])
    text = fn.execute(dict.fromkeys(names[:200], 1))[0]
    assert len(text) <= 2_000
    assert "Accepted parameters: " in text
    assert "Received: " in text
    assert text.endswith("more.")
