"""What the model sent: JSON text, mappings, None, junk, and the limits."""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp


def echo() -> tp.Function:
    return tp.Function("search", lambda a: json.dumps(dict(a), sort_keys=True))


def test_json_string_is_decoded() -> None:
    assert echo().execute('{"q": "x", "n": 1}') == tp.Ok('{"n": 1, "q": "x"}')


def test_bytes_are_decoded() -> None:
    assert echo().execute(b'{"q": "x"}') == tp.Ok('{"q": "x"}')


@pytest.mark.parametrize("blank", ["", "   ", None])
def test_blank_is_empty(blank: Any) -> None:
    assert echo().execute(blank) == tp.Ok("{}")


def test_invalid_json() -> None:
    result = echo().execute('{"query": "x" "limit": 1}')
    assert isinstance(result, tp.Error)
    assert result.message == (
        "The arguments for tool search are not valid JSON (Expecting ',' delimiter at line 1 column 15). "
        "Send the arguments as one JSON object."
    )
    assert isinstance(result.exception, json.JSONDecodeError)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("[1, 2]", "a list"),
        ('"x"', "a string"),
        ("3", "a number"),
        ("1.5", "a number"),
        ("true", "a boolean"),
        ("null", "null"),
    ],
)
def test_not_an_object(text: str, kind: str) -> None:
    assert echo().execute(text) == tp.Error(
        f"The arguments for tool search must be a JSON object, not {kind}."
    )


@pytest.mark.parametrize(
    ("value", "kind"), [([1], "a list"), (3, "a number"), (object(), "object")]
)
def test_non_mapping_python_values(value: Any, kind: str) -> None:
    assert echo().execute(value) == tp.Error(
        f"The arguments for tool search must be a JSON object, not {kind}."
    )


def test_any_mapping_is_accepted_and_copied() -> None:
    assert echo().execute(OrderedDict(q="x")) == tp.Ok('{"q": "x"}')


def test_too_large() -> None:
    fn = tp.Function("search", lambda a: "x", limits=tp.Limits(max_bytes=100))
    text = json.dumps({"q": "x" * 200})
    result = fn.execute(text)
    size = len(text.encode())
    assert result == tp.Error(
        f"The arguments for tool search are too large ({size:,} bytes; the limit is 100)."
    )


def test_size_counts_utf8_bytes() -> None:
    fn = tp.Function("search", lambda a: "x", limits=tp.Limits(max_bytes=30))
    text = json.dumps({"q": "ü" * 15}, ensure_ascii=False)  # 15 characters, 30 bytes of ü
    assert len(text) <= 30 < len(text.encode())
    assert isinstance(fn.execute(text), tp.Error)


def test_default_size_limit_is_one_mib() -> None:
    text = '{"q": "' + "x" * (1024 * 1024) + '"}'
    size = len(text)
    assert echo().execute(text) == tp.Error(
        f"The arguments for tool search are too large ({size:,} bytes; the limit is 1,048,576)."
    )
    at_limit = '{"q": "' + "x" * (1024 * 1024 - 9) + '"}'
    assert len(at_limit) == 1024 * 1024
    assert isinstance(tp.Function("search", lambda a: "x").execute(at_limit), tp.Ok)


def nested(depth: int) -> str:
    return '{"a": ' * (depth - 1) + "{}" + "}" * (depth - 1)


def test_depth_limit_on_text() -> None:
    fn = tp.Function("search", lambda a: "x")
    assert fn.execute(nested(256)) == tp.Ok("x")
    assert fn.execute(nested(257)) == tp.Error(
        "The arguments for tool search are nested too deeply (depth 257; the limit is 256)."
    )


def test_depth_beyond_the_decoder() -> None:
    text = "[" * 100_000 + "]" * 100_000
    result = tp.Function("search", lambda a: "x").execute('{"a": ' + text + "}")
    assert isinstance(result, tp.Error)
    assert result.message == (
        "The arguments for tool search are nested too deeply (depth 100001; the limit is 256)."
    )


def deep_dict(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    cur = value
    for _ in range(depth - 1):
        cur["a"] = {}
        cur = cur["a"]
    return value


def test_a_parser_that_recurses_too_deep_gets_the_depth_message() -> None:
    def walk(value: Any) -> int:
        return (
            1 + max((walk(v) for v in value.values()), default=0) if isinstance(value, dict) else 0
        )

    fn = tp.Function("search", lambda a: "x", parse_args=lambda a: tp.ok({"depth": walk(a)}))
    result = fn.execute(deep_dict(5000))
    assert result == tp.Error(
        "The arguments for tool search are nested too deeply (depth 257; the limit is 256).",
        result.exception,  # type: ignore[union-attr]
    )
    assert isinstance(result.exception, RecursionError)  # type: ignore[union-attr]

    # a recursion error with arguments within the limit keeps the ordinary format
    def boom(a: Any) -> Any:
        return boom(a)

    shallow = tp.Function("search", lambda a: "x", parse_args=boom).execute({"a": 1})
    assert shallow.message.startswith("ERROR: (RecursionError)")  # type: ignore[union-attr]


def test_a_mapping_is_handed_on_as_it_is() -> None:
    # no walk over a mapping the caller built: the parser decides
    seen: list[Any] = []
    fn = tp.Function("search", lambda a: "x", parse_args=lambda a: seen.append(a) or tp.ok())
    value = deep_dict(300)
    assert fn.execute(value) == tp.Ok("x")
    assert seen == [value]
    # the same arguments as JSON text are refused before anything runs
    assert fn.execute(json.dumps(value)) == tp.Error(
        "The arguments for tool search are nested too deeply (depth 257; the limit is 256)."
    )


def test_configurable_depth() -> None:
    fn = tp.Function("search", lambda a: "x", limits=tp.Limits(max_depth=2))
    assert fn.execute('{"a": {}}') == tp.Ok("x")
    assert fn.execute('{"a": {"b": []}}') == tp.Error(
        "The arguments for tool search are nested too deeply (depth 3; the limit is 2)."
    )


def test_limits_validation_and_equality() -> None:
    with pytest.raises(ValueError, match="at least"):
        tp.Limits(max_depth=0)
    assert tp.Limits() == tp.Limits(1024 * 1024, 256)
    assert repr(tp.Limits()) == "Limits(max_bytes=1048576, max_depth=256)"


# -- the depth read from the text agrees with the decoded value's ------------------------

_TRICKY_TEXT = st.text(alphabet='[]{}",:\\ab\n\u00e9\U0001f600', max_size=8)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TRICKY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TRICKY_TEXT, inner, max_size=4),
    max_leaves=25,
)


def depth_of(value: Any) -> int:
    """How deeply a decoded value nests (the arguments object is depth 1)."""
    if isinstance(value, (dict, list)):
        items = value.values() if isinstance(value, dict) else value
        return 1 + max(map(depth_of, items), default=0)
    return 0


def answers_as_its_depth(text: str | bytes, value: Any, limit: int) -> None:
    fn = tp.Function("search", lambda a: "x", limits=tp.Limits(max_depth=limit))
    too_deep = tp.Error(
        f"The arguments for tool search are nested too deeply (depth {limit + 1}; "
        f"the limit is {limit})."
    )
    assert fn.execute(text) == (tp.Ok("x") if depth_of(value) <= limit else too_deep)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(value=st.dictionaries(_TRICKY_TEXT, _JSON, max_size=4), limit=st.integers(1, 8))
def test_the_text_depth_is_the_decoded_depth(value: dict[str, Any], limit: int) -> None:
    for text in (
        json.dumps(value),
        json.dumps(value, ensure_ascii=False),
        json.dumps(value, indent=2, separators=(" ,  ", " :\t")),
    ):
        answers_as_its_depth(text.encode("utf-8", "surrogatepass"), value, limit)


@pytest.mark.parametrize("depth", [1, 2, 255, 256, 257, 300])
def test_the_text_depth_of_deep_and_wide_text(depth: int) -> None:
    # a deep chain beside wide siblings, with brackets in strings on the way
    inner: Any = []
    for i in range(depth - 2):
        inner = [{"k]": "[{", "v": [1, 2]}, inner, "]]", [[]] * 3][:: 1 if i % 2 else -1]
    value = {"a": inner, "b": [{"sku": f"A-{i}", "n": i} for i in range(500)]}
    for limit in (depth - 1, depth, 256):
        if limit >= 1:
            answers_as_its_depth(json.dumps(value), value, limit)


def test_long_text_is_read_without_counting_and_keeps_the_promise() -> None:
    fn = tp.Function("search", lambda a: "x")
    wide = {"pad": "x" * 20_000, "items": [{"q": "]" * 3}] * 100}
    assert fn.execute(json.dumps(wide)) == tp.Ok("x")
    deep = {"pad": "[" * 20_000, "a": nested_value(300)}
    assert fn.execute(json.dumps(deep)) == tp.Error(
        "The arguments for tool search are nested too deeply (depth 257; the limit is 256)."
    )
    # the same over a non-ASCII text long enough to be measured in bytes
    deep["pad"] = "\u00e9" * 300_000
    assert fn.execute(json.dumps(deep, ensure_ascii=False)) == tp.Error(
        "The arguments for tool search are nested too deeply (depth 257; the limit is 256)."
    )


def nested_value(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


@pytest.mark.parametrize("depth", [10, 120, 255, 256, 257, 300])
def test_many_deep_siblings_are_measured_past_the_peeling_passes(depth: int) -> None:
    # thousands of siblings each `depth` deep: past the first few levels the
    # depth is read in one linear pass, and still agrees with the decoded value
    def nested(d: int) -> Any:
        value: Any = "x"
        for _ in range(d):
            value = [value]
        return value

    value = {"name": "a", "tags": [nested(depth)] * 300}
    for limit in (depth - 1, depth, depth + 1, depth + 2):
        answers_as_its_depth(json.dumps(value), value, limit)
