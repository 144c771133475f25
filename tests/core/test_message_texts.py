"""The texts of ``toolparse.messages``: echoed values, places, and the call-level messages."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse import messages

_BOUNDED = settings(max_examples=300, deadline=None, derandomize=True)


# -- an echoed value ----------------------------------------------------------------------


def test_a_value_is_echoed_as_json_cut_to_its_limit() -> None:
    assert messages.value_text(None) == "null"
    assert messages.value_text({"a": [1, True]}) == '{"a": [1, true]}'
    assert messages.value_text("ü") == '"ü"'
    assert messages.value_text('say "hi"') == '"say \\"hi\\""'
    assert messages.value_text("x" * 50) == '"' + "x" * 36 + "..."
    assert messages.value_text("x" * 10, limit=8) == '"xxxx...'
    assert messages.value_text([1, 2, 3], limit=60) == "[1, 2, 3]"
    assert messages.value_text(10**20, limit=10) == "1000000..."


def test_a_value_that_is_not_data_is_echoed_without_an_address() -> None:
    assert messages.value_text(object()) == '"<object object>"'
    assert messages.value_text({1, 2}) in ('"{1, 2}"', '"{2, 1}"')
    nested: list[object] = []
    nested.append(nested)
    assert messages.value_text(nested) == "[[...]]"


@_BOUNDED
@given(
    st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([0.1, -0.0, 1e16, 1e-7, 1.5e300, 12345678901234567890.0])
)
def test_an_echoed_float_reads_as_its_json(value: float) -> None:
    text = json.dumps(value)
    assert messages.value_text(value) == (text if len(text) <= 40 else text[:37] + "...")
    if math.isfinite(value):
        assert float(messages.value_text(value)) == value or len(text) > 40


# -- a place ----------------------------------------------------------------------------


class _Name(str):
    """A key that is text of its own class, read otherwise by ``str()``."""

    def __str__(self) -> str:
        return "shown-by-str"


def _by_the_rule(path: Sequence[object]) -> str:
    # names after a dot (not the first), indexes in brackets, other keys as their repr
    if not path:
        return "(arguments)"
    out: list[str] = []
    for part in path:
        if isinstance(part, str):
            out.append(f".{part}" if out else part)
        elif isinstance(part, int):
            out.append(f"[{part}]")
        else:
            text = messages.safe_text(repr(part), messages.MAX_VALUE_CHARS)
            out.append(f".{text}" if out else text)
    return "".join(out)


_part = (
    st.text(max_size=4)
    | st.integers(-5, 10**6)
    | st.booleans()
    | st.none()
    | st.builds(_Name, st.text(max_size=3))
    | st.tuples(st.integers(0, 3))
)


@_BOUNDED
@given(path=st.lists(_part, max_size=5))
def test_a_place_reads_by_the_rule(path: list[object]) -> None:
    assert messages.path_text(path) == _by_the_rule(path)  # type: ignore[arg-type]
    assert messages.path_text(tuple(path)) == _by_the_rule(path)  # type: ignore[arg-type]


def test_an_empty_name_is_a_place_too() -> None:
    assert messages.path_text(("", "a")) == ".a"
    assert messages.path_text(("", 0, "")) == "[0]."
    assert messages.path_text(("items", 0, "qty")) == "items[0].qty"
    assert messages.path_text((_Name("key"), _Name("key"))) == "key.shown-by-str"
    assert messages.path_text((None, "a")) == "None.a"
    assert messages.path_text(("items", True, "qty")) == "items[True].qty"
    assert messages.path_text(()) == "(arguments)"


@_BOUNDED
@given(
    path=st.lists(_part, max_size=3),
    reason=st.text(max_size=20).filter(str.isprintable),
    received=st.just(tp.NOT_GIVEN)
    | st.text(max_size=45)
    | st.sampled_from(['say "hi"', "a\\b", "tab\there", "x" * 38, "x" * 39])
    | st.integers()
    | st.none()
    | st.floats(),
)
def test_a_line_is_its_place_its_reason_and_the_value_echoed(
    path: list[object], reason: str, received: object
) -> None:
    line = tp.ArgumentProblem(path, reason, received).line()  # type: ignore[arg-type]
    head = f"{_by_the_rule(path)}: {reason}"
    echoed = f" (received {messages.value_text(received)})"
    assert line == head + ("" if received is tp.NOT_GIVEN else echoed)


# -- the call itself -----------------------------------------------------------------------


def test_an_unknown_tool_names_the_tools_there_are() -> None:
    assert messages.unknown_tool("serch", ["search", "lookup"]) == (
        'Tool call made to serch but tool not found. Did you mean "search"? '
        "Available tools: lookup, search."
    )
    assert messages.unknown_tool("x", []) == "Tool call made to x but tool not found."
    assert messages.unknown_tool(None, []) == "Tool call made without a tool name."
    assert messages.unknown_tool(3, []) == "Tool call made with a tool name that is not text."


def test_the_arguments_of_a_call_that_cannot_be_read() -> None:
    assert messages.invalid_json("search", "Expecting ',' delimiter at line 1 column 17") == (
        "The arguments for tool search are not valid JSON (Expecting ',' delimiter at line 1 "
        "column 17). Send the arguments as one JSON object."
    )
    assert messages.not_an_object("search", [1]) == (
        "The arguments for tool search must be a JSON object, not a list."
    )
    assert messages.not_an_object("search", None).endswith("not null.")
    assert messages.too_large("search", 1_048_577, 1_048_576) == (
        "The arguments for tool search are too large (1,048,577 bytes; the limit is 1,048,576)."
    )
    assert messages.too_deep("search", 257, 256) == (
        "The arguments for tool search are nested too deeply (depth 257; the limit is 256)."
    )


def test_a_tool_that_did_not_finish() -> None:
    assert (
        messages.timed_out("search", 5)
        == "The tool search did not finish within 5 seconds and was stopped."
    )
    assert messages.timed_out("search", 1).startswith(
        "The tool search did not finish within 1 second "
    )
    assert messages.timed_out("send_email", 5, stopped=False) == (
        "The tool send_email did not finish within 5 seconds; it may still finish, "
        "so check its effect before calling it again."
    )
    assert messages.no_worker("search", 4).startswith(
        "The tool search could not be started: all 4 worker threads are busy"
    )


def test_a_body_that_read_a_key_not_sent() -> None:
    accepted = ["limit", "path"]
    assert messages.key_error("limit", {"lim": 1, "path": "/"}, accepted) == (
        "ERROR: The tool was called with an argument name it does not accept. Accepted "
        'parameters: limit, path. Unrecognized parameters: lim (did you mean "limit"?). '
        "Received: lim, path."
    )
    assert messages.key_error("limit", {"path": "/"}, accepted) == (
        'ERROR: The tool needs the "limit" argument, which was not provided. Accepted '
        "parameters: limit, path. Received: path."
    )
