"""The null walk (``toolparse.nulls``): what it restores, and what it hands back untouched.

A restorer decides at the top level first whether a call may change at all;
these tests check that this decision never hides a change the whole walk
makes, that a call with nothing to restore comes back as the very same
object, and that the Function's own parsing says the same.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.nulls import MAX_DEPTH, Restorer, null_restorer

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
    "required_deep": {
        "type": "object",
        "properties": {"address": ADDRESS, "people": {"type": "array", "items": ADDRESS}},
        "required": ["address", "people"],
    },
    "open_root": {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "additionalProperties": ADDRESS,
    },
}

NAMES = ["a", "b", "n", "address", "people", "deep", "city", "zip", "tags", "pair", "by_name"]
NAMES += ["pet", "kind", "lives", "name", "many", "tree", "kids", "meta", "either", "x"]

_leaf = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "s", "cat", "dog"])
_leaf |= st.sampled_from(['{"a": null}', "{not json", '{"k": 1}', '{"city": "c", "zip": null}'])
VALUES = st.recursive(
    _leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(NAMES), inner, max_size=5)
    ),
    max_leaves=15,
)
ARGUMENTS = st.dictionaries(st.sampled_from(NAMES), VALUES, max_size=6)


def whole_walk(schema: dict[str, Any]) -> Restorer:
    """A restorer of the same schema whose top level cannot decide: a root union walks always."""
    defs = schema.get("$defs", {})
    inner = {k: v for k, v in schema.items() if k != "$defs"}
    restorer = null_restorer({"anyOf": [inner], "$defs": defs})
    assert restorer is not None
    return restorer


@pytest.mark.parametrize("name", list(SCHEMAS))
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(arguments=ARGUMENTS)
def test_the_top_level_decision_never_hides_a_change(name: str, arguments: dict[str, Any]) -> None:
    schema = SCHEMAS[name]
    restore = null_restorer(schema)
    assert restore is not None
    restored = restore(arguments)
    assert restored == whole_walk(schema)(arguments)
    # the very same object exactly when nothing changes: never an equal copy
    assert (restored is arguments) == (restored == arguments)
    top = restore.top(arguments)
    assert (top is arguments) == (top == arguments)
    assert top == {k: v for k, v in arguments.items() if k in top}


@pytest.mark.parametrize("name", list(SCHEMAS))
@settings(max_examples=30, deadline=None, derandomize=True)
@given(arguments=ARGUMENTS)
def test_a_function_parses_what_the_walk_restores(name: str, arguments: dict[str, Any]) -> None:
    schema = SCHEMAS[name]
    restore = null_restorer(schema)
    assert restore is not None
    # (repair=None: the walk alone; the repairs are tested in test_repair.py)
    fn = tp.Function("t", lambda a: "ok", parameters_schema=schema, repair=None)
    sent = {k: v for k, v in arguments.items() if k in schema["properties"]}
    result = fn.parse_arguments(sent)
    if isinstance(result, tp.Ok):
        assert result[0] == restore(sent)


_SMALL = st.sampled_from(["a", "b", "c", "d"])
_LEAVES = st.sampled_from(
    [
        {"type": "string"},
        {"type": "integer"},
        {"type": ["string", "null"]},
        {"type": "object"},  # free-form: may travel as text
        {"$ref": "#/$defs/Node"},
        {"const": "a"},
        True,
    ]
)


def _objects(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        props = draw(st.dictionaries(_SMALL, children, max_size=3))
        out: dict[str, Any] = {"type": "object", "properties": props}
        required = [n for n in props if draw(st.booleans())]
        if required:
            out["required"] = required
        extra = draw(st.one_of(st.none(), st.just(False), children))
        if extra is not None:
            out["additionalProperties"] = extra
        return out

    return build()


_SCHEMAS = st.recursive(
    _LEAVES,
    lambda children: st.one_of(
        _objects(children),
        st.builds(lambda items: {"type": "array", "items": items}, children),
        st.builds(lambda a, b: {"anyOf": [a, b]}, children, children),
        st.builds(lambda a, b: {"allOf": [a, b]}, children, children),
    ),
    max_leaves=8,
)
_SMALL_VALUES = st.recursive(
    st.none() | st.integers(0, 1) | st.sampled_from(["", "a", '{"a": null}']),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_SMALL, inner, max_size=4),
    max_leaves=12,
)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    root=_objects(_SCHEMAS),
    node=_objects(_SCHEMAS),
    arguments=st.dictionaries(_SMALL, _SMALL_VALUES, max_size=4),
)
def test_on_any_schema_the_top_level_decision_is_the_walks(
    root: dict[str, Any], node: dict[str, Any], arguments: dict[str, Any]
) -> None:
    schema = {**root, "$defs": {"Node": node}}
    restore = null_restorer(schema)
    if restore is None:
        return
    restored = restore(arguments)
    assert restored == whole_walk(schema)(arguments)
    assert (restored is arguments) == (restored == arguments)


def test_a_call_without_nulls_is_handed_back_as_it_is() -> None:
    restore = null_restorer(SCHEMAS["nested"])
    assert restore is not None
    arguments = {
        "address": {"city": "Oslo", "zip": "0150"},
        "people": [{"city": "Rome"}, {"city": "Bern", "zip": "3000"}],
        "deep": {"tags": [{"city": "Lima"}]},
    }
    assert restore(arguments) is arguments
    assert restore.top(arguments) is arguments


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
        # a falsy value before the null: it is still found
        ({"address": {"city": "", "zip": None}}, {"address": {"city": ""}}),
    ],
)
def test_a_null_anywhere_the_walk_drops_it_is_found(
    arguments: dict[str, Any], expected: dict[str, Any]
) -> None:
    restore = null_restorer(SCHEMAS["nested"])
    assert restore is not None
    assert restore(arguments) == expected
    fn = tp.Function("t", lambda a: "ok", parameters_schema=SCHEMAS["nested"])
    assert fn.parse_arguments(arguments) == tp.Ok(expected)


def test_the_top_level_alone() -> None:
    restore = null_restorer(SCHEMAS["nested"])
    assert restore is not None
    sent = {"address": None, "deep": {"address": None}, "people": [{"city": "a", "zip": None}]}
    assert restore.top(sent) == {"deep": {"address": None}, "people": [{"city": "a", "zip": None}]}
    assert restore(sent) == {"deep": {}, "people": [{"city": "a"}]}
    flat = null_restorer(SCHEMAS["flat"])
    assert flat is not None
    # a required name's null and a null the schema admits are values: the same dict back
    kept = {"a": None, "n": None}
    assert flat.top(kept) is kept
    assert flat(kept) is kept
    # a root union: its branches decide, so the whole walk runs
    union = whole_walk(SCHEMAS["nested"])
    assert union.top(sent) == restore(sent)


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


def test_names_the_root_does_not_declare_are_walked_too() -> None:
    restore = null_restorer(SCHEMAS["open_root"])
    assert restore is not None
    assert restore({"a": "x", "home": {"city": "c", "zip": None}}) == {
        "a": "x",
        "home": {"city": "c"},
    }


def test_roots_spelled_with_all_of_ref_or_branches_restore_nested_nulls() -> None:
    box = {"type": "object", "properties": {"size": {"type": "integer"}}}
    plain = {"type": "object", "properties": {"box": box}, "required": ["box"]}
    roots: list[dict[str, Any]] = [
        plain,
        {"allOf": [plain]},
        {"$ref": "#/$defs/A", "$defs": {"A": plain}},
        {"anyOf": [plain]},
    ]
    for schema in roots:
        fn = tp.Function("t", lambda a: "ok", parameters_schema=schema)
        assert fn.parse_arguments({"box": {"size": None}}) == tp.Ok({"box": {}}), schema


def test_a_nested_null_is_dropped_beside_names_with_nothing_to_restore() -> None:
    schema = {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "box": {"type": "object", "properties": {"size": {"type": "integer"}}},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["id", "box"],
    }
    fn = tp.Function("t", lambda a: "ok", parameters_schema=schema)
    args = {"id": 1, "box": {"size": None}, "tags": ["x"]}
    assert fn.parse_arguments(args) == tp.Ok({"id": 1, "box": {}, "tags": ["x"]})


def test_a_free_form_object_sent_as_text_is_decoded() -> None:
    restore = null_restorer(SCHEMAS["free_form"])
    assert restore is not None
    assert restore({"meta": '{"k": 1}'}) == {"meta": {"k": 1}}
    assert restore({"meta": {"k": 1}}) == {"meta": {"k": 1}}
    # a branch takes strings too: the exports ask for the object as JSON text all the same
    assert restore({"either": '{"k": 1}'}) == {"either": {"k": 1}}
    assert restore({"either": "plain text"}) == {"either": "plain text"}


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


def test_a_loop_of_bare_references_defines_and_restores_the_rest() -> None:
    schema = {
        "type": "object",
        "properties": {
            "x": {"anyOf": [{"$ref": "#/$defs/A"}, ADDRESS]},
            "y": {"$ref": "#/$defs/B"},
        },
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
    }
    restore = null_restorer(schema)
    assert restore is not None
    assert restore({"x": {"city": "c", "zip": None}, "y": None}) == {"x": {"city": "c"}}


def test_a_recursion_through_an_alias_restores_every_level() -> None:
    schema = {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Alias"}},
        "$defs": {
            "Alias": {"$ref": "#/$defs/Node", "description": "another name"},
            "Node": {
                "type": "object",
                "properties": {
                    "note": {"type": "string"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/Alias"}},
                },
            },
        },
    }
    restore = null_restorer(schema)
    assert restore is not None
    sent = {"tree": {"kids": [{"note": None, "kids": [{"note": None}]}]}}
    assert restore(sent) == {"tree": {"kids": [{"kids": [{}]}]}}


def test_a_subschema_shared_by_many_parents_is_built_once_per_depth() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"x": {"type": "string"}}}
    for _ in range(40):  # 2**40 paths, 41 distinct subschemas: built path by path, never ends
        schema = {"type": "object", "properties": {"a": schema, "b": schema}}
    restore = null_restorer(schema)
    assert restore is not None
    value: dict[str, Any] = {"x": "s"}
    for _ in range(40):
        value = {"a": value, "b": None}
    cleaned = restore(value)
    assert "b" not in cleaned
    assert "b" not in cleaned["a"]["a"]


def test_a_key_shares_one_restorer() -> None:
    schema = SCHEMAS["nested"]
    first = null_restorer(schema, key=("nulls-test", 1))
    assert first is not None
    assert null_restorer(dict(schema), key=("nulls-test", 1)) is first
    assert null_restorer(schema, key=("nulls-test", 2)) is not first
    assert null_restorer(schema) is not first
    assert null_restorer(SCHEMAS["flat"]["properties"]["a"], key=("nulls-test", 3)) is None


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_a_restorer_pickles(name: str) -> None:
    restore = null_restorer(SCHEMAS[name])
    assert restore is not None
    again = pickle.loads(pickle.dumps(restore))
    sent = {"address": {"city": "c", "zip": None}, "tree": {"name": None}, "meta": '{"k": 1}'}
    assert again(sent) == restore(sent)


def test_a_reference_to_itself_inside_branches_defines_and_runs() -> None:
    # a bare reference loop under anyOf/oneOf once looped forever at definition
    schema = {
        "properties": {
            "g1": {
                "anyOf": [{"$ref": "#/$defs/D0"}],
                "oneOf": [{"oneOf": [{"properties": {"c1": {"type": "number"}}}]}],
            }
        },
        "$defs": {"D0": {"$ref": "#/$defs/D0"}},
    }
    fn = tp.Function("t", lambda a: "ok", parameters_schema=schema)
    assert fn.execute({"g1": {"c1": 1, "x": None}}) == tp.Ok("ok")
