"""A rejected call whose jsonschema-rs errors would copy too much is explained by the pure engine.

jsonschema-rs builds all the errors of a value at once, each with a copy of the
value it is about: one per missing name or refused property name of a large
object copies that object each time. Such a call is still decided by
jsonschema-rs and explained by the ``jsonschema`` library, in the same words.
"""

from __future__ import annotations

import functools
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse_jsonschema import JsonSchema, _cost

from .models import rs_usable

if not rs_usable():  # (the tools below are defined when the module loads)
    pytest.skip("needs jsonschema-rs", allow_module_level=True)

NAMES = [f"field_{i}" for i in range(3_000)]
WIDE = {
    "type": "object",
    "properties": {name: {"type": "string"} for name in NAMES},
    "required": NAMES,
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 5}},
        "filter": {
            "type": "object",
            "properties": {"tag": {"type": "string"}},
            "propertyNames": {"pattern": "^[a-z]+$"},
            "required": ["tag"],
        },
    },
    "required": ["query"],
}


FAST = tp.Function("t", lambda a: "ran", args_schema=JsonSchema(SCHEMA, fast=True))
PURE = tp.Function("t", lambda a: "ran", args_schema=JsonSchema(SCHEMA, fast=False))


@functools.cache
def _wide(fast: bool) -> tp.Function:
    return tp.Function("wide", lambda a: "ran", args_schema=JsonSchema(WIDE, fast=fast))


def _cause(result: object) -> object:
    assert isinstance(result, tp.Error), result
    assert isinstance(result.exception, tp.InvalidArguments)
    return result.exception.__cause__


def test_a_large_object_missing_thousands_of_names_is_explained_by_the_pure_engine() -> None:
    sent = {f"other_{i}": i for i in range(3_000)}
    result = _wide(True).execute(sent)
    assert isinstance(_cause(result), jsonschema.ValidationError)
    assert isinstance(result, tp.Error)
    expected = _wide(False).execute(sent)
    assert isinstance(expected, tp.Error)
    assert result.message == expected.message


def test_a_small_rejected_call_is_explained_by_jsonschema_rs() -> None:
    import jsonschema_rs

    assert isinstance(_cause(_wide(True).execute({"field_0": 1})), jsonschema_rs.ValidationError)


_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.dictionaries(st.sampled_from(["query", "tags", "filter", "other"]), _values, max_size=4))
def test_either_engine_explains_a_call_in_the_same_words(arguments: dict[str, Any]) -> None:
    expected = PURE.execute(arguments)
    # every rejected call explained by the pure engine, as a costly one is
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_cost, "MAX_COPIED", -1)
        got = FAST.execute(arguments)
    assert type(got) is type(expected)
    if isinstance(expected, tp.Error):
        assert isinstance(got, tp.Error)
        assert got.message == expected.message
