"""A fast-path rejection explained from jsonschema-rs's errors reads exactly as the pure path's.

Generated schemas (the keywords the fast explanation words itself, and some
it leaves to the pure library) and generated calls go through both paths:
wherever both reject, the message and the problems are the same, byte for
byte. The official test suite's rejected instances are compared too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse import FunctionDefinitionError
from toolparse_jsonschema import JsonSchema
from toolparse_jsonschema._compiled import CompiledSchema

pytest.importorskip("jsonschema_rs")

NAMES = ["a", "b", "c"]
STRINGS = ["", "a", "abc", "ABC", "A1", "2024-01-31", "2024-02-30", "1.2.3.4", "x@y", "zz"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.sampled_from([0.5, 1.0, 2.5, -1.5]),
    st.sampled_from(STRINGS),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from([*NAMES, "q"]), inner, max_size=3)
    ),
    max_leaves=6,
)
calls = st.dictionaries(st.sampled_from([*NAMES, "extra"]), values, max_size=4)

TYPES = ["string", "integer", "number", "boolean", "array", "object", "null"]

leaf = st.one_of(
    st.builds(lambda t: {"type": t}, st.sampled_from(TYPES)),
    st.builds(
        lambda ts: {"type": ts},
        st.lists(st.sampled_from(TYPES), min_size=2, max_size=3, unique=True),
    ),
    st.builds(lambda e: {"enum": e}, st.lists(scalars, min_size=1, max_size=3, unique_by=repr)),
    st.builds(lambda c: {"const": c}, scalars),
    st.builds(
        lambda k, n: {"type": "number", k: n},
        st.sampled_from(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]),
        st.sampled_from([0, 1, 2.5, 10]),
    ),
    st.builds(lambda n: {"multipleOf": n}, st.sampled_from([2, 3, 0.5])),
    st.builds(
        lambda k, n: {k: n},
        st.sampled_from(
            ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]
        ),
        st.integers(0, 3),
    ),
    st.just({"uniqueItems": True}),
    st.builds(
        lambda p: {"type": "string", "pattern": p},
        st.sampled_from(["^[a-z]+$", "[0-9]", "^A", "b$"]),
    ),
    st.builds(lambda f: {"format": f}, st.sampled_from(["date", "ipv4", "date-time", "email"])),
    st.just({"not": {"type": "string"}}),
    st.just({"$ref": "#/$defs/word"}),
    st.just(False),
    st.just({"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 5}]}),
    st.just({"oneOf": [{"type": "integer"}, {"minimum": 2}]}),
    st.just({"propertyNames": {"maxLength": 1}}),
    st.just({"contains": {"type": "integer"}}),
    st.builds(
        lambda n: {"prefixItems": [{"type": "string"}] * n, "items": False}, st.integers(0, 2)
    ),
)


def _objects(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(
        lambda props, required, closed, extra: {
            "type": "object",
            "properties": props,
            **({"required": required} if required else {}),
            **({"additionalProperties": False} if closed else {}),
            **extra,
        },
        st.dictionaries(st.sampled_from(NAMES), inner, max_size=3),
        st.lists(st.sampled_from(NAMES), max_size=3, unique=True),
        st.booleans(),
        st.sampled_from(
            [
                {},
                {"dependentRequired": {"a": ["b", "c"]}},
                {"if": {"required": ["a"]}, "then": {"required": ["c"]}},
                {"allOf": [{"properties": {"b": {"type": "integer"}}}]},
                {"patternProperties": {"^q": {"type": "string"}}},
                {"additionalProperties": {"type": "integer"}},
            ]
        ),
    )


def _with_items(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.builds(lambda s: {"type": "array", "items": s}, inner)


subschemas = st.recursive(leaf, lambda inner: _objects(inner) | _with_items(inner), max_leaves=5)
schemas = _objects(subschemas).map(
    lambda s: {**s, "$defs": {"word": {"type": "string", "minLength": 2}}}
)


def _both(schema: dict[str, Any]) -> tuple[CompiledSchema, CompiledSchema] | None:
    try:
        fast = CompiledSchema(JsonSchema(schema, fast=True))
    except FunctionDefinitionError:
        return None
    return fast, CompiledSchema(JsonSchema(schema, fast=False))


def _problems(result: Any) -> list[str]:
    return [repr(p) for p in result.exception.problems]


#: how many generated rejections the fast explanation worded (not the pure library)
worded: list[int] = []


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(schemas, st.lists(calls, min_size=1, max_size=8))
def test_fast_and_pure_rejections_read_alike(schema: dict[str, Any], sent: list[Any]) -> None:
    found = _both(schema)
    if found is None:
        return
    fast, pure = found
    for arguments in sent:
        a, b = fast.parse(arguments), pure.parse(arguments)
        if not (isinstance(a, tp.Error) and isinstance(b, tp.Error)):
            continue  # a value the two libraries decide differently (documented)
        assert a.message == b.message, (schema, arguments)
        assert _problems(a) == _problems(b), (schema, arguments)
        if fast.rs_problems is not None and fast.fast is not None:
            errors = list(fast.fast.iter_errors(arguments))
            worded.append(fast.rs_problems.problems(arguments, errors) is not None)


def test_the_generated_rejections_were_mostly_worded_from_jsonschema_rs() -> None:
    # runs after the property test (file order): it must not be vacuous
    if not worded:
        pytest.skip("run with the property test")
    assert sum(worded) > len(worded) // 2 > 50


def test_a_rejection_jsonschema_rs_explains() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "inner": {"$ref": "#/$defs/inner"},
        },
        "required": ["n", "when"],
        "additionalProperties": False,
        "$defs": {
            "inner": {
                "type": "object",
                "properties": {"when": {"type": "string", "format": "date"}},
                "required": ["id"],
            }
        },
    }
    compiled = CompiledSchema(JsonSchema(schema, fast=True))
    arguments = {"n": 0, "tags": [1, "a", "b"], "inner": {"when": "soon"}, "extra": 1}
    assert compiled.fast is not None
    assert compiled.rs_problems is not None
    worded_here = compiled.rs_problems.problems(
        arguments, list(compiled.fast.iter_errors(arguments))
    )
    assert worded_here is not None
    assert [p.line() for p in worded_here] == [
        "extra: Unrecognized parameter",
        "inner.id: is required",
        'inner.when: must be a date like "2024-01-31" (received "soon")',
        "n: must be at least 1 (received 0)",
        'tags: must have at most 2 items (received [1, "a", "b"])',
        "tags[0]: must be a string (received 1)",
        "when: is required",
    ]
    pure = CompiledSchema(JsonSchema(schema, fast=False))
    assert compiled.parse(arguments).message == pure.parse(arguments).message


@pytest.mark.parametrize(
    ("schema", "arguments", "line"),
    [
        # a const false is a value, not a false schema
        (
            {"properties": {"a": {"items": {"const": False}}}},
            {"a": [None]},
            "a[0]: must be false (received null)",
        ),
        # an items schema's own additionalProperties: false is no property's name
        (
            {"properties": {"a": {"items": {"properties": {}, "additionalProperties": False}}}},
            {"a": [{"x": None}]},
            "a[0].x: Unrecognized parameter",
        ),
        (
            {"properties": {"a": {"prefixItems": [{}], "items": False}}},
            {"a": [1, 2, 3]},
            "a: must have at most 1 item (received [1, 2, 3])",
        ),
        ({"properties": {"a": False}}, {"a": {"b": 1}}, "a: is not allowed here"),
    ],
)
def test_rejections_read_alike_where_they_once_did_not(
    schema: dict[str, Any], arguments: dict[str, Any], line: str
) -> None:
    fast = CompiledSchema(JsonSchema(schema, fast=True))
    pure = CompiledSchema(JsonSchema(schema, fast=False))
    assert fast.rs_problems is not None
    assert fast.fast is not None
    assert fast.rs_problems.problems(arguments, list(fast.fast.iter_errors(arguments)))
    a, b = fast.parse(arguments), pure.parse(arguments)
    assert isinstance(a, tp.Error)
    assert isinstance(b, tp.Error)
    assert a.message == b.message
    assert line in a.message.splitlines()


@pytest.mark.parametrize(
    ("schema", "arguments"),
    [
        # the closest option's detail is the pure library's
        ({"properties": {"v": {"anyOf": [{"type": "string"}, {"minimum": 3}]}}}, {"v": 1}),
        # only jsonschema-rs refuses this address: the pure library has its say
        (
            {"properties": {"m": {"type": "string", "format": "email"}}, "required": ["x"]},
            {"m": ".a@b.c"},
        ),
        # two reasons at one place come in each library's own order
        ({"properties": {"v": {"minimum": 5, "multipleOf": 2}}}, {"v": 3}),
        # a pattern search out of time is the pure path's to word
        (
            JsonSchema(
                {"properties": {"s": {"type": "string", "pattern": "^(a|aa)+$"}}},
                pattern_timeout=0.01,
            ),
            {"s": "a" * 40 + "!"},
        ),
    ],
)
def test_what_only_the_pure_library_can_word_is_worded_by_it(
    schema: Any, arguments: dict[str, Any]
) -> None:
    compiled = CompiledSchema(schema if isinstance(schema, JsonSchema) else JsonSchema(schema))
    assert compiled.fast is not None
    assert compiled.rs_problems is not None
    errors = list(compiled.fast.iter_errors(arguments))
    assert errors
    assert compiled.rs_problems.problems(arguments, errors) is None
    options = schema.schema if isinstance(schema, JsonSchema) else schema
    pure = CompiledSchema(JsonSchema(options, fast=False, pattern_timeout=0.01))
    assert compiled.parse(arguments).message == pure.parse(arguments).message


def test_more_than_the_bound_are_built_by_the_pure_path_and_counted_once() -> None:
    schema = {"type": "object", "properties": {"xs": {"items": {"type": "string"}}}}
    compiled = CompiledSchema(JsonSchema(schema, fast=True))
    result = compiled.parse({"xs": list(range(1500))})
    assert isinstance(result, tp.Error)
    assert result.exception.more == 500
    assert len(result.exception.problems) == 1000


DATA = Path(__file__).parents[2] / "data" / "json-schema-test-suite"
DIALECT = {
    "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft7": "http://json-schema.org/draft-07/schema#",
}


def test_the_suite_rejections_read_alike_on_both_paths() -> None:
    """Every instance of the official suite both paths reject: one message."""
    compared = worded_suite = 0
    for path in sorted(DATA.rglob("*.json")):
        draft = path.relative_to(DATA).as_posix().split("/")[0]
        for group in json.loads(path.read_text(encoding="utf-8")):
            if not isinstance(group["schema"], dict):
                continue
            try:
                compiled = CompiledSchema(
                    JsonSchema({"$schema": DIALECT[draft], **group["schema"]}, fast=True),
                    object_only=False,
                )
            except FunctionDefinitionError:
                continue
            assert compiled.fast is not None
            for test in group["tests"]:
                data = test["data"]
                if compiled.fast.is_valid(data) or compiled.validator.is_valid(data):
                    continue
                fast, pure = compiled.rejected(data), compiled.explain(data)
                assert fast.message == pure.message, (group["description"], test["description"])
                assert _problems(fast) == _problems(pure)
                compared += 1
                if compiled.rs_problems is not None:
                    errors = list(compiled.fast.iter_errors(data))
                    worded_suite += compiled.rs_problems.problems(data, errors) is not None
    assert compared > 1000
    assert worded_suite > 900


NULLABLE_LATER = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "where": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
            "required": ["city"],
        },
        "tags": {
            "type": "array",
            "items": {"type": "object", "properties": {"n": {"type": "integer"}}},
        },
    },
    "required": ["id"],
}


@pytest.mark.parametrize("fast", [True, False])
def test_nested_nulls_are_restored_once_the_schema_rejects_them(fast: bool) -> None:
    seen: list[Any] = []
    fn = tp.Function("t", seen.append, args_schema=JsonSchema(NULLABLE_LATER, fast=fast))
    sent = {"id": 1, "where": {"city": "Oslo", "zip": None}, "tags": [{"n": None}], "x": None}
    assert isinstance(fn.execute(sent), tp.Ok)
    # a null for an optional property means absent (the unknown name's null is the body's)
    assert seen[-1] == {"id": 1, "where": {"city": "Oslo"}, "tags": [{}], "x": None}
    assert sent["where"] == {"city": "Oslo", "zip": None}  # the model's dict is left as sent
    valid = {"id": 1, "where": {"city": "Oslo"}}
    assert isinstance(fn.execute(valid), tp.Ok)
    assert seen[-1] is valid  # accepted as sent: nothing looked into, nothing copied
    rejected = fn.execute({"id": None, "where": {"city": None}})
    assert isinstance(rejected, tp.Error)
    # a required name's null is a value, wrong as any other
    assert "id: must be an integer (received null)" in rejected.message
    assert "where.city: must be a string (received null)" in rejected.message
    # a rejection whose nested nulls are restored is parsed again: the rest stands
    again = fn.execute({"id": "1", "where": {"city": "Oslo", "zip": None}})
    assert isinstance(again, tp.Error)
    assert again.message.splitlines()[2:-2] == ['id: must be an integer (received "1")']


def test_the_adapter_asks_for_the_restore_only_after_a_rejection() -> None:
    from toolparse_jsonschema import JsonSchemaAdapter

    adapter = JsonSchemaAdapter()
    compiled = adapter.compile(NULLABLE_LATER, unknown_arguments="report", parser=True)
    assert compiled.nulls_after_reject is True
    schema_only = adapter.compile(NULLABLE_LATER, unknown_arguments="report", parser=False)
    assert schema_only.nulls_after_reject is False
