"""Generated input over @tool, marshmallow, attrs, pydantic and JSON Schema paths.

Every call is a result (never an exception), and every message the model reads is
text of at most 2,000 characters with no object address, no traceback and no URL.
Generated strings never spell those themselves (no ``x``, ``:``, ``k`` or ``w``), so
any that shows up came from toolparse or an adapter.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.reliability.adapter_tools import NAMES, VALID, tools

import toolparse as tp
from toolparse import messages

TOOLS = tools()
TOOLSET = tp.Toolset(TOOLS)
ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}")
URL = re.compile(r"[a-zA-Z]+://|www\.")
SETTINGS = settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def check(result: Any) -> None:
    """The promised shape of any outcome."""
    assert isinstance(result, (tp.Ok, tp.Error, tp.Interrupt)), type(result)
    if isinstance(result, tp.Error):
        text = result.message
        assert isinstance(text, str)
        assert len(text) <= messages.MAX_MESSAGE_CHARS
        assert not ADDRESS.search(text), text
        assert "Traceback" not in text, text
        assert not URL.search(text), text


def check_batch(arguments: Any) -> None:
    """One call to every tool in one batch: a result per call, in order, with its id."""
    calls = [tp.ToolCall(f"c{i}", fn.name, arguments) for i, fn in enumerate(TOOLS)]
    results = TOOLSET.execute(calls)
    assert [r.tool_call_id for r in results] == [c.id for c in calls]
    for r in results:
        assert isinstance(r.content, str)
        assert len(r.content) <= messages.MAX_MESSAGE_CHARS
        assert not ADDRESS.search(r.content), r.content


def run_all(arguments: Any) -> None:
    for fn in TOOLS:
        check(fn.execute(arguments))

    async def every() -> list[Any]:
        return [await fn.aexecute(arguments) for fn in TOOLS]

    for outcome in asyncio.run(every()):
        check(outcome)


_chars = st.characters(blacklist_characters="xXkKwW:", blacklist_categories=("Cc",))
_text = st.text(_chars, max_size=30) | st.sampled_from(["\ud800", "a\udfff", "\ufeff"])
_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**600), max_value=10**600),
    st.floats(allow_nan=True, allow_infinity=True),
    _text,
)
_json = st.recursive(
    _leaf,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(_text | st.sampled_from(NAMES), inner, max_size=4)
    ),
    max_leaves=20,
)
_mappings = st.dictionaries(
    st.sampled_from(NAMES) | st.text(_chars, max_size=12), _json, max_size=8
)


@SETTINGS
@given(_mappings)
def test_any_mapping_is_a_result(arguments: dict[str, Any]) -> None:
    run_all(arguments)
    check_batch(arguments)


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value)
    except ValueError:  # an integer past Python's text limit
        return "{}"


_texts = st.one_of(
    # a mapping as text, with a byte-order mark or blanks in front
    st.tuples(st.sampled_from(["", "\ufeff", " \n"]), _mappings).map(lambda t: t[0] + _dumps(t[1])),
    # NaN literals where a number goes
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-0.0"]).map(
        lambda v: f'{{"limit": {v}, "price": {v}, "year": {v}, "query": "q", "name": "n"}}'
    ),
    # duplicate keys: the last one wins, as in json.loads
    st.sampled_from(NAMES).map(lambda n: f'{{"{n}": "a", "{n}": 5, "{n}": null}}'),
    # huge numbers, integer and decimal
    st.integers(1, 6_000).map(lambda n: f'{{"limit": {"9" * n}, "price": {"9" * n}.5}}'),
    # deep nesting in lists and objects
    st.integers(1, 3_000).map(lambda d: '{"tags": ' + "[" * d + "]" * d + "}"),
    st.integers(1, 3_000).map(lambda d: '{"children": ' + '[{"children": ' * d + "[]}]" * d + "}"),
    # many keys, long keys
    st.integers(0, 5_000).map(lambda n: json.dumps({f"key_{i}": i for i in range(n)})),
    st.integers(0, 200_000).map(lambda n: json.dumps({"q" * n: 1, "query": "a"})),
    # not JSON at all, or not an object
    st.sampled_from(["", "{", '{"query": }', "[1, 2]", '"query"', "null", "12", "true", "\ufeff"]),
)


@SETTINGS
@given(_texts)
def test_any_json_text_is_a_result(text: str) -> None:
    run_all(text)
    check_batch(text)


def test_every_tool_accepts_its_valid_call() -> None:
    # so the generated calls below also reach the paths past validation
    assert sorted(VALID) == sorted(fn.name for fn in TOOLS)
    for fn in TOOLS:
        result = fn.execute(VALID[fn.name])
        assert isinstance(result, tp.Ok), (fn.name, result)
        assert isinstance(fn.execute(json.dumps(VALID[fn.name])), tp.Ok)


def _replace(arguments: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """A valid call with one value (or a value one level down) replaced."""
    out = dict(arguments)
    names = list(out)
    name = names[hash(key) % len(names)] if key not in out else key
    inner = out[name]
    if isinstance(inner, list) and inner and isinstance(inner[0], dict):
        first = dict(inner[0])
        first[next(iter(first))] = value
        out[name] = [first, *inner[1:]]
    else:
        out[name] = value
    return out


@SETTINGS
@given(st.sampled_from(NAMES), _json)
def test_a_valid_call_with_one_value_replaced_is_a_result(key: str, value: Any) -> None:
    for fn in TOOLS:
        arguments = _replace(VALID[fn.name], key, value)
        check(fn.execute(arguments))
        check(fn.execute(_dumps(arguments)))


def _tree(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"name": "leaf"}
    for _ in range(depth):
        value = {"name": "n", "children": [value]}
    return value


def _lists(depth: int) -> list[Any]:
    value: list[Any] = ["a"]
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [10, 255, 257, 499, 501, 3_000, 20_000])
def test_a_deep_mapping_is_a_result(depth: int) -> None:
    # jsonschema-rs under a recursive schema is kept from deep mappings (its
    # stack is not bounded); every other engine answers or says "nested too deeply"
    lists = {
        name: _lists(depth) for name in ("tags", "lines", "seats", "items", "children", "query")
    }
    for fn in TOOLS:
        check(fn.execute({**VALID[fn.name], **lists}))
        result = fn.execute(_tree(depth))  # a dict and a list per level
        check(result)
        if depth * 2 > tp.Limits().max_depth and fn.name.startswith("tree"):
            assert isinstance(result, tp.Error)
            assert "nested too deeply" in result.message


# a lone surrogate below, at and above a quarter of the size limit (where the
# size is first measured in UTF-8), at a third (three bytes each: just over the
# limit) and past the limit, raw in the text and escaped
_SIZES = [0, 10, 262_130, 262_150, 349_530, 1_048_600]


@pytest.mark.parametrize("escaped", [False, True])
@pytest.mark.parametrize("size", _SIZES)
def test_a_lone_surrogate_at_every_size(size: int, escaped: bool) -> None:
    surrogate = "\\ud800" if escaped else "\ud800"
    text = '{"query": "' + "a" * size + surrogate + '", "name": "' + surrogate + '"}'
    for fn in TOOLS:
        check(fn.execute(text))
    check_batch(text)


class _Thing:
    pass


_non_objects = st.one_of(
    _leaf,
    st.lists(_json, max_size=4),
    st.tuples(_json, _json),
    st.binary(max_size=20),
    st.sets(st.integers(), max_size=3),
    st.builds(object),
    st.builds(_Thing),
    st.just(NotImplemented),
)


@SETTINGS
@given(_non_objects)
def test_any_non_object_is_a_result(value: Any) -> None:
    run_all(value)


def test_a_thousand_mixed_concurrent_calls_answer_as_one_call_each() -> None:
    # every adapter path, concurrent or not, valid, rejected, not JSON, unknown tools:
    # in order, with the right ids, each the answer the tool gives alone
    functions = [fn.replace(concurrent=i % 2 == 0) for i, fn in enumerate(TOOLS)]
    calls = []
    for i in range(1_000):
        fn = functions[i % len(functions)]
        arguments: Any = (VALID[fn.name], {"zz": 1}, '{"broken', json.dumps(VALID[fn.name]))[i % 4]
        calls.append(tp.ToolCall(f"id-{i}", fn.name if i % 13 else "no_such_tool", arguments))
    alone = {}
    for c in calls:
        if c.name != "no_such_tool":
            fn = functions[int(c.id[3:]) % len(functions)]
            alone[c.id] = tp.ToolResult.from_outcome(c, fn, fn.execute(c.arguments)).content
    for results in (
        tp.execute_tool_calls(functions, calls, max_concurrency=8),
        asyncio.run(tp.aexecute_tool_calls(functions, calls, max_concurrency=8)),
    ):
        assert [r.tool_call_id for r in results] == [c.id for c in calls]
        for call, result in zip(calls, results, strict=True):
            if call.name == "no_such_tool":
                assert result.is_error
            else:
                assert result.content == alone[call.id], call
