"""``deep_names``: one plan says, for every top-level name, what one plan per name says."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse._nulls import deep_names, null_restorer

_NAMES = st.sampled_from(["a", "b", "c", "d"])

_LEAVES = st.sampled_from(
    [
        {"type": "string"},
        {"type": "integer"},
        {"type": ["string", "null"]},
        {"type": "object"},  # free-form: may travel as text
        {"$ref": "#/$defs/Node"},
        {"$ref": "#/properties/a"},
        True,
    ]
)


def _objects(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        props = draw(st.dictionaries(_NAMES, children, max_size=3))
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
    ),
    max_leaves=8,
)


def _per_name(schema: dict[str, Any]) -> frozenset[Any]:
    """What the plan asked per name: a schema of that one property, required."""
    return frozenset(
        name
        for name, prop in schema["properties"].items()
        if null_restorer({**schema, "properties": {name: prop}, "required": [name]}) is not None
    )


@settings(max_examples=80, deadline=None, derandomize=True)
@given(root=_objects(_SCHEMAS), node=_objects(_SCHEMAS))
def test_one_plan_says_what_one_plan_per_name_says(
    root: dict[str, Any], node: dict[str, Any]
) -> None:
    schema = {**root, "$defs": {"Node": node}}
    found = deep_names(schema)
    assert found is not None
    # a name the per-name ask misses may only be one whose reference into the
    # root's own properties that schema of one property cannot resolve
    assert _per_name(schema) <= found
    refs_into_root = "#/properties/" in repr(schema)
    if not refs_into_root:
        assert found == _per_name(schema)


def test_roots_one_plan_cannot_read_are_asked_per_name() -> None:
    props = {"a": {"type": "object", "properties": {"x": {"type": "string"}}}}
    assert deep_names({"type": "object", "properties": props, "allOf": [{}]}) is None
    assert deep_names({"$ref": "#/$defs/A", "$defs": {"A": {}}}) is None
    assert deep_names({"anyOf": [{}], "properties": props}) is None
    assert deep_names({"type": "object", "properties": props}) == {"a"}


def test_a_nested_null_is_still_dropped_through_the_names_watched() -> None:
    schema = {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "box": {"type": "object", "properties": {"size": {"type": "integer"}}},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["id", "box"],
    }
    assert deep_names(schema) == {"box"}
    fn = tp.Function("t", lambda a: "ok", parameters_schema=schema)
    args = {"id": 1, "box": {"size": None}, "tags": ["x"]}
    assert fn.parse_arguments(args) == tp.Ok({"id": 1, "box": {}, "tags": ["x"]})
