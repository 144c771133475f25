"""Nulls meant as "absent": the parser rejects every null the schema does not admit.

So the adapter asks the core to restore them only once a call is rejected
(``Compiled.nulls_after_reject``): an accepted call is handed on as it is, and
every call reads as it does when the nulls are restored first.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.adapter import POLICIES, Compiled
from toolparse_jsonschema import JsonSchema, JsonSchemaAdapter

from .models import rs_usable

ENGINES = [False, pytest.param(None, marks=pytest.mark.skipif(not rs_usable(), reason="rs"))]

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


@pytest.mark.parametrize("fast", ENGINES)
def test_nested_nulls_are_restored_once_the_schema_rejects_them(fast: bool | None) -> None:
    seen: list[Any] = []
    fn = tp.Function("t", seen.append, args_schema=JsonSchema(NULLABLE_LATER, fast=fast))
    sent = {"id": 1, "where": {"city": "Oslo", "zip": None}, "tags": [{"n": None}], "x": None}
    assert isinstance(fn.execute(sent), tp.Ok)
    # a null for an optional property means absent (the unknown name's null is the body's)
    assert seen[-1] == {"id": 1, "where": {"city": "Oslo"}, "tags": [{}], "x": None}
    assert sent["where"] == {"city": "Oslo", "zip": None}  # the model's dict is left as sent
    valid = {"id": 1, "where": {"city": "Oslo"}}
    assert isinstance(fn.execute(valid), tp.Ok)
    assert seen[-1] == valid
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
    adapter = JsonSchemaAdapter()
    compiled = adapter.compile(NULLABLE_LATER, unknown_arguments="report", parser=True)
    assert compiled.nulls_after_reject is True
    schema_only = adapter.compile(NULLABLE_LATER, unknown_arguments="report", parser=False)
    assert schema_only.nulls_after_reject is False


SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "summary": {"type": "string", "minLength": 1},
        "start": {"type": "string", "format": "date-time"},
        "priority": {"type": "integer", "minimum": 1, "maximum": 5},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
        "location": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "room": {"type": "integer"}},
            "required": ["name"],
            "additionalProperties": False,
        },
        "kind": {"enum": ["a", "b"]},
    },
    "required": ["summary"],
    "additionalProperties": False,
}
OPEN = {k: v for k, v in SCHEMA.items() if k != "additionalProperties"}


@pytest.mark.parametrize("fast", ENGINES)
def test_a_valid_call_gets_its_own_arguments_and_a_top_level_null_is_absent(
    fast: bool | None,
) -> None:
    fn = tp.Function("t", lambda a: a, args_schema=JsonSchema(SCHEMA, fast=fast))
    sent = {"summary": "x", "priority": 2}
    assert fn.parse_arguments(sent) == tp.Ok(sent)
    assert fn.parse_arguments({"summary": "x", "priority": None}) == tp.Ok({"summary": "x"})
    # an integer of hundreds of digits is a number like any other
    result = fn.execute({"summary": "x", "priority": 10**400})
    assert isinstance(result, tp.Error)
    assert "priority: must be at most 5" in result.message
    assert isinstance(fn.execute({"summary": "x", "priority": 3}), tp.Ok)


class PlainOrder(JsonSchemaAdapter):
    """The same adapter saying nothing of its parser: the order that is always correct."""

    name = "jsonschema-plain"

    def build(self, source: Any, **options: Any) -> Compiled:
        found = super().build(source, **options)
        return Compiled(
            found.schema, found.parser, accepted=found.accepted, required=found.required
        )


_leaf = st.one_of(
    st.none(),
    st.integers(-1, 6),
    st.sampled_from(["", "x", "a", "2024-01-31T09:30:00Z", "monday"]),
    st.booleans(),
)


def _mostly(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A value the schema takes two times in three, else any leaf (a null among them)."""
    return st.one_of(valid, valid, _leaf)


_names = st.fixed_dictionaries(
    {"summary": _mostly(st.sampled_from(["x", "plan"]))},
    optional={
        "start": _mostly(st.just("2024-01-31T09:30:00Z")),
        "priority": st.one_of(_mostly(st.integers(1, 5)), st.just(10**400)),
        "tags": _mostly(st.lists(st.sampled_from(["a", "b", ""]), max_size=3)),
        "location": _mostly(
            st.fixed_dictionaries(
                {"name": _mostly(st.just("R"))},
                optional={"room": _mostly(st.integers(0, 3)), "floor": _leaf},
            )
        ),
        "kind": _mostly(st.sampled_from(["a", "b"])),
    },
)
# now and then the required name left out, or a name the schema does not list
_calls = st.tuples(
    _names,
    st.sampled_from(["keep", "keep", "keep", "drop"]),
    st.sampled_from([{}, {}, {}, {"sumary": "x"}, {"unrelated": 1}]),
).map(lambda t: {**{k: v for k, v in t[0].items() if t[1] == "keep" or k != "summary"}, **t[2]})


_TOOLS: dict[tuple[str, bool, bool | None], tuple[tp.Function, tp.Function]] = {}


def _tools(policy: str, open_: bool, fast: bool | None) -> tuple[tp.Function, tp.Function]:
    """The tool as the adapter describes it, and through the plain order (built once)."""
    found = _TOOLS.get((policy, open_, fast))
    if found is None:
        source = JsonSchema(OPEN if open_ else SCHEMA, fast=fast)
        quick = tp.Function("t", lambda a: a, args_schema=source, unknown_arguments=policy)
        plain = tp.Function(
            "t", lambda a: a, args_schema=source, adapter=PlainOrder(), unknown_arguments=policy
        )
        found = _TOOLS[policy, open_, fast] = (quick, plain)
    return found


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    sent=_calls,
    policy=st.sampled_from(POLICIES),
    open_=st.booleans(),
    fast=st.sampled_from([False, None] if rs_usable() else [False]),
)
def test_every_call_reads_as_through_the_plain_order(
    sent: dict[str, Any], policy: str, open_: bool, fast: bool | None
) -> None:
    quick, plain = _tools(policy, open_, fast)
    for run in (
        lambda fn: fn.parse_arguments(copy.deepcopy(sent)),
        lambda fn: fn.execute(copy.deepcopy(sent)),
        lambda fn: asyncio.run(fn.aexecute(copy.deepcopy(sent))),
    ):
        got, want = run(quick), run(plain)
        assert type(got) is type(want)
        if isinstance(got, tp.Error):
            assert got.message == want.message
        else:
            assert got[0] == want[0]
