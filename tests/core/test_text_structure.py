"""The depth of JSON text read without walking the decoded value: strings that hold brackets,
escapes, many flat records and long texts, each answered as the decoded value's depth says."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp

_BOUNDED = settings(max_examples=50, deadline=None, derandomize=True)

# strings as a model writes them: brackets, quotes and escapes inside, or none
_TEXT = st.text(alphabet='[]{}"\\ab,:\n\u00e9\U0001f600', max_size=10) | st.sampled_from(
    ["", "plain", "a]b", "[[", "}}", '"', "\\", '\\"]', "x[y]z"]
)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_TEXT, inner, max_size=5),
    max_leaves=12,
)


def depth(value: Any) -> int:
    """How deeply a decoded value nests (the arguments object is depth 1)."""
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


def answers_as_its_depth(text: str | bytes, value: Any, limit: int) -> None:
    """``text`` (the JSON of ``value``) is accepted within ``limit`` and refused one level past it."""
    fn = tp.Function("t", lambda a: "ok", limits=tp.Limits(max_depth=limit))
    expected = (
        tp.Ok("ok")
        if depth(value) <= limit
        else tp.Error(
            f"The arguments for tool t are nested too deeply (depth {limit + 1}; "
            f"the limit is {limit})."
        )
    )
    assert fn.execute(text) == expected


@_BOUNDED
@given(st.dictionaries(_TEXT, _JSON, max_size=5), st.integers(1, 6))
def test_brackets_and_quotes_in_strings_are_not_structure(
    value: dict[str, Any], limit: int
) -> None:
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False, indent=1)):
        answers_as_its_depth(text, value, limit)
        answers_as_its_depth(text.encode("utf-8", "surrogatepass"), value, limit)


@pytest.mark.parametrize(
    "value",
    [
        {"a": "]", "b": [1]},  # a closing bracket in a string, one level short
        {"a": "[[[[", "b": {}},  # opening brackets in a string
        {"k[": ["x]", {"y": "{"}]},  # in keys and values, at odd and even places
        {"a": ["", "", "]"], "b": '"]"'},  # empty strings, a quote escaped beside a bracket
    ],
)
def test_a_string_that_holds_brackets_is_not_structure(value: dict[str, Any]) -> None:
    for limit in (1, 2, 3):
        answers_as_its_depth(json.dumps(value), value, limit)


def test_many_flat_records_are_within_the_limit_and_a_deep_one_among_them_is_not() -> None:
    fn = tp.Function("order", lambda a: "ok")
    records = [{"sku": f"A-{i}", "note": "[x]" if i % 7 else "", "n": i} for i in range(3000)]
    assert fn.execute(json.dumps({"items": records})) == tp.Ok("ok")
    deep: Any = "end"
    for _ in range(300):
        deep = [deep]
    text = json.dumps({"items": [*records, deep]})
    assert fn.execute(text) == tp.Error(
        "The arguments for tool order are nested too deeply (depth 257; the limit is 256)."
    )


@_BOUNDED
@given(depth_=st.integers(1, 40), width=st.integers(0, 60), limit=st.integers(1, 45))
def test_the_bound_on_levels_never_hides_a_deep_value(depth_: int, width: int, limit: int) -> None:
    # a chain beside flat siblings: what the two-brackets-in-a-row bound reads
    chain: Any = 0
    for i in range(depth_ - 1):
        chain = [chain, "]"] if i % 2 else {"k": chain, "s": "[["}
    value = {"chain": chain, "flat": [{"a": 1}] * width}
    answers_as_its_depth(json.dumps(value), value, limit)


@pytest.mark.parametrize("at", [65_535, 131_042, 131_072, 196_607])
def test_a_long_text_is_read_as_a_short_one(at: int) -> None:
    # escapes, quotes and brackets after a long string
    value = {"pad": "x" * at, "s": 'a\\"[b', "t": "\\\\", "deep": [[[["]", "é"]]]], "n": [1] * 50}
    text = json.dumps(value, ensure_ascii=False)
    for limit in (3, 4, 5, 6, 256):
        answers_as_its_depth(text, value, limit)
        answers_as_its_depth(text.encode(), value, limit)


def _as_json_loads_reads_it(text: str) -> object:
    # what decode promises: json.loads' value (a JSON string too: `""`), or its own reason
    # in the shared words
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        reason = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
        return tp.Error(
            f"The arguments for tool t are not valid JSON ({reason}). "
            "Send the arguments as one JSON object."
        )
    return value


@_BOUNDED
@given(
    st.text(alphabet='{}[]":,\ufeff \n0123456789aetrulsfn\\\ud800', max_size=24)
    | st.dictionaries(_TEXT, _JSON, max_size=3).map(json.dumps)
)
def test_a_text_decodes_as_json_loads_reads_it(text: str) -> None:
    got = tp.Function("t", lambda a: "ok").parse_arguments(text)
    if not text.strip():
        assert got == tp.Ok({})
        return
    expected = _as_json_loads_reads_it(text)
    if isinstance(expected, tp.Error):
        assert isinstance(got, tp.Error)
        assert got.message == expected.message
    elif isinstance(expected, dict):
        assert got == tp.Ok(expected)
    else:
        assert isinstance(got, tp.Error)
        assert "must be a JSON object" in got.message


def test_a_byte_order_mark_reads_as_json_loads_says() -> None:
    got = tp.Function("t", lambda a: "ok").parse_arguments('\ufeff{"a": 1}')
    assert isinstance(got, tp.Error)
    assert got.message == (
        "The arguments for tool t are not valid JSON (Unexpected UTF-8 BOM (decode using "
        "utf-8-sig) at line 1 column 1). Send the arguments as one JSON object."
    )


@pytest.mark.parametrize("limit", [1, 2, 3, 10])
def test_the_shortest_text_one_level_too_deep_is_measured(limit: int) -> None:
    # an object, one name and its lists: 2 * limit + 5 characters, past the
    # length (two characters a level) under which a text is not even counted
    fn = tp.Function("t", lambda a: "ok", limits=tp.Limits(max_depth=limit))
    deep = '{"":' + "[" * limit + "]" * limit + "}"
    assert fn.execute(deep) == tp.Error(
        f"The arguments for tool t are nested too deeply (depth {limit + 1}; the limit is {limit})."
    )
    assert fn.execute('{"":' + "[" * (limit - 1) + "0" + "]" * (limit - 1) + "}") == tp.Ok("ok")
