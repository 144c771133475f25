"""The look before the null-restoring walk: it never hides a change the walk makes.

``null_restorer`` looks first and walks only when the look says a value may
change; these tests check that the answer is always the walk's own, and that
a value with nothing to restore comes back as the very same object.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolparse._null_look import changes_of
from toolparse._null_plan import plan_of
from toolparse._nulls import MAX_DEPTH, null_restorer

ADDRESS = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
    "required": ["city"],
}

SCHEMAS: dict[str, dict[str, Any]] = {
    "flat": {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "n": {"type": "null"}},
        "required": ["a"],
    },
    "nested": {
        "type": "object",
        "properties": {
            "address": ADDRESS,
            "people": {"type": "array", "items": ADDRESS},
            "deep": {
                "type": "object",
                "properties": {"address": ADDRESS, "tags": {"type": "array", "items": ADDRESS}},
            },
        },
    },
    "tuple_and_map": {
        "type": "object",
        "properties": {
            "pair": {
                "type": "array",
                "prefixItems": [ADDRESS, {"type": "string"}],
                "items": ADDRESS,
            },
            "by_name": {"type": "object", "additionalProperties": ADDRESS},
        },
    },
    "union": {
        "type": "object",
        "properties": {
            "pet": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}},
                        "required": ["kind"],
                    },
                    {
                        "type": "object",
                        "properties": {
                            "kind": {"const": "dog"},
                            "name": {"type": ["string", "null"]},
                            "lives": {"type": "integer"},
                        },
                        "required": ["kind"],
                    },
                ]
            },
            "many": {
                "anyOf": [{"type": "array", "items": ADDRESS}, {"type": "array", "items": {}}]
            },
        },
    },
    "recursive": {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/node"}},
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                },
            }
        },
    },
    "free_form": {
        "type": "object",
        "properties": {
            "meta": {"type": "object"},
            "either": {"anyOf": [{"type": "object"}, {"type": "string"}]},
        },
    },
}

NAMES = ["a", "b", "n", "address", "people", "deep", "city", "zip", "tags", "pair", "by_name"]
NAMES += ["pet", "kind", "lives", "name", "many", "tree", "kids", "meta", "either", "x"]

_leaf = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "s", "cat", "dog"])
_leaf |= st.sampled_from(['{"a": null}', "{not json", '{"k": 1}'])
VALUES = st.recursive(
    _leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(NAMES), inner, max_size=5)
    ),
    max_leaves=15,
)
ARGUMENTS = st.dictionaries(st.sampled_from(NAMES), VALUES, max_size=6)


def _walk(schema: dict[str, Any]) -> Any:
    plan = plan_of(schema)
    assert plan is not None
    return plan


@pytest.mark.parametrize("name", list(SCHEMAS))
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(arguments=ARGUMENTS)
def test_the_answer_is_always_the_walks(name: str, arguments: dict[str, Any]) -> None:
    schema = SCHEMAS[name]
    restore = null_restorer(schema)
    assert restore is not None
    walk = _walk(schema)
    expected = walk.apply(arguments, 0)
    assert restore(arguments) == expected
    if not changes_of(walk)(arguments, 0):
        # nothing to restore: the very same object, no copy
        assert restore(arguments) is arguments
        assert expected == arguments


def test_a_call_without_nulls_is_handed_back_as_it_is() -> None:
    restore = null_restorer(SCHEMAS["nested"])
    assert restore is not None
    arguments = {
        "address": {"city": "Oslo", "zip": "0150"},
        "people": [{"city": "Rome"}, {"city": "Bern", "zip": "3000"}],
        "deep": {"tags": [{"city": "Lima"}]},
    }
    assert restore(arguments) is arguments


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"address": {"city": "Oslo", "zip": None}}, {"address": {"city": "Oslo"}}),
        (
            {"people": [{"city": "a"}, {"city": "b", "zip": None}]},
            {"people": [{"city": "a"}, {"city": "b"}]},
        ),
        ({"deep": {"tags": [{"city": "c", "zip": None}]}}, {"deep": {"tags": [{"city": "c"}]}}),
        ({"deep": {"address": None, "tags": []}}, {"deep": {"tags": []}}),
        # a falsy value before the null: the look still finds it
        ({"address": {"city": "", "zip": None}}, {"address": {"city": ""}}),
    ],
)
def test_a_null_anywhere_the_walk_drops_it_is_found(
    arguments: dict[str, Any], expected: dict[str, Any]
) -> None:
    restore = null_restorer(SCHEMAS["nested"])
    assert restore is not None
    assert restore(arguments) == expected


def test_nulls_in_map_values_tuples_and_union_branches_are_found() -> None:
    restore = null_restorer(SCHEMAS["tuple_and_map"])
    assert restore is not None
    assert restore({"pair": [{"city": "a", "zip": None}, "s", {"city": "b", "zip": None}]}) == {
        "pair": [{"city": "a"}, "s", {"city": "b"}]
    }
    assert restore({"by_name": {"x": {"city": "a", "zip": None}}}) == {
        "by_name": {"x": {"city": "a"}}
    }
    union = null_restorer(SCHEMAS["union"])
    assert union is not None
    assert union({"pet": {"kind": "cat", "lives": None}}) == {"pet": {"kind": "cat"}}
    # the dog admits a null name: kept
    dog = {"pet": {"kind": "dog", "name": None}}
    assert union(dog) == dog


def test_a_free_form_object_sent_as_text_is_decoded() -> None:
    restore = null_restorer(SCHEMAS["free_form"])
    assert restore is not None
    assert restore({"meta": '{"k": 1}'}) == {"meta": {"k": 1}}
    assert restore({"meta": {"k": 1}}) == {"meta": {"k": 1}}
    # a branch takes strings: the text stays text
    assert restore({"either": '{"k": 1}'}) == {"either": '{"k": 1}'}


def test_a_deep_recursive_value_is_looked_at_to_the_bound_only() -> None:
    restore = null_restorer(SCHEMAS["recursive"])
    assert restore is not None
    node: dict[str, Any] = {"name": "leaf", "kids": []}
    for _ in range(1_000):  # far past the bound, and past Python's recursion limit
        node = {"name": "n", "kids": [node]}
    arguments = {"tree": node}
    assert restore(arguments) is arguments
    shallow = {"tree": {"name": None, "kids": [{"name": "a", "kids": None}]}}
    assert restore(shallow) == {"tree": {"kids": [{"name": "a"}]}}
    assert MAX_DEPTH < 1_000


def test_a_subschema_shared_by_many_parents_is_built_once_per_depth(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toolparse import _null_plan

    built: list[int] = []
    build = _null_plan._Builder._build

    def counting(self: Any, node: Any, depth: int) -> Any:
        built.append(depth)
        return build(self, node, depth)

    monkeypatch.setattr(_null_plan._Builder, "_build", counting)
    schema: dict[str, Any] = {"type": "object", "properties": {"x": {"type": "string"}}}
    for _ in range(40):  # 2**40 paths, 41 distinct subschemas
        schema = {"type": "object", "properties": {"a": schema, "b": schema}}
    restore = null_restorer(schema)
    assert restore is not None
    assert len(built) <= 2 * 42
    value: dict[str, Any] = {"x": "s"}
    for _ in range(40):
        value = {"a": value, "b": None}
    cleaned = restore(value)
    assert "b" not in cleaned
    assert "b" not in cleaned["a"]["a"]
