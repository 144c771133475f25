"""The jsonschema adapter's verdict and closed schema: what a valid call skips, and that nothing else changes.

On the fast path jsonschema-rs's own ``is_valid`` is the parser's verdict
(``Compiled.verdict``), and a schema with ``additionalProperties: false`` is
closed (``Compiled.closed``): a valid call skips the parser, the null look and
the accepted-names test. Every call must read as it does through the plain
order (nulls restored first, the parser, then the policy).
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
from toolparse_jsonschema._adapter import closed
from toolparse_jsonschema._compiled import CompiledSchema

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


def _fast_usable() -> bool:
    try:
        return CompiledSchema(JsonSchema({"type": "object"}, fast=True)).fast is not None
    except tp.FunctionDefinitionError:
        return False


needs_fast = pytest.mark.skipif(not _fast_usable(), reason="needs jsonschema-rs 0.27 or later")


class PlainOrder(JsonSchemaAdapter):
    """The same adapter saying nothing of its parser: the order that is always correct."""

    name = "jsonschema-plain"

    def compile(self, source: Any, **options: Any) -> Compiled:
        found = super().compile(source, **options)
        return Compiled(
            found.schema, found.parser, accepted=found.accepted, required=found.required
        )


def test_closed_means_no_name_outside_the_properties() -> None:
    assert closed(SCHEMA)
    assert not closed(OPEN)
    assert not closed({**SCHEMA, "additionalProperties": {"type": "string"}})
    assert not closed({**SCHEMA, "patternProperties": {"^x_": {"type": "string"}}})
    assert closed({**SCHEMA, "patternProperties": {}})
    assert not closed({"type": "object", "additionalProperties": False})  # no properties


@needs_fast
def test_the_fast_path_s_verdict_is_jsonschema_rs_s_own_is_valid() -> None:
    compiled = JsonSchemaAdapter().compile(JsonSchema(SCHEMA, fast=True))
    assert compiled.verdict is not None
    assert compiled.verdict({"summary": "x"}) is True
    assert compiled.verdict({"summary": ""}) is False
    assert compiled.closed is True
    assert JsonSchemaAdapter().compile(JsonSchema(OPEN, fast=True)).closed is False


@pytest.mark.parametrize(
    "source",
    [
        JsonSchema(SCHEMA, fast=False),  # the pure path decides in the parser
        JsonSchema(  # defaults filled in: the body gets a new dict
            {**SCHEMA, "properties": {**SCHEMA["properties"], "kind": {"default": "a"}}},
            fast=True,
            apply_defaults=True,
        ),
        JsonSchema(  # a recursive schema: a depth walk comes first
            {
                "type": "object",
                "properties": {"node": {"$ref": "#/$defs/n"}},
                "$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}}},
            },
            fast=True,
        ),
    ],
)
def test_no_verdict_where_the_parser_does_more_than_decide(source: Any) -> None:
    assert JsonSchemaAdapter().compile(source).verdict is None
    assert JsonSchemaAdapter().compile(source, parser=False).verdict is None


@needs_fast
def test_a_valid_call_skips_the_parser_and_gets_its_own_arguments() -> None:
    fn = tp.Function("t", lambda a: a, args_schema=JsonSchema(SCHEMA, fast=True))
    space = fn._parse.__globals__
    calls: list[Any] = []
    parser = space["parser"]

    def counting(args: Any) -> Any:
        calls.append(args)
        return parser(args)

    space["parser"] = counting
    sent = {"summary": "x", "priority": 2}
    result = fn.parse_arguments(sent)
    assert result == tp.Ok(sent)
    assert result[0] is sent
    assert calls == []
    # a top-level null (a strict export's "absent") goes past the verdict: restored, parsed once
    assert fn.parse_arguments({"summary": "x", "priority": None}) == tp.Ok({"summary": "x"})
    assert calls == [{"summary": "x"}]


@needs_fast
def test_a_value_jsonschema_rs_cannot_take_is_left_to_the_parser() -> None:
    fn = tp.Function("t", lambda a: "ok", args_schema=JsonSchema(SCHEMA, fast=True))
    result = fn.execute({"summary": "x", "priority": 10**400})
    assert isinstance(result, tp.Error)
    assert "priority: must be at most 5" in result.message
    assert fn.execute({"summary": "x", "priority": 3}) == tp.Ok("ok")


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


_TOOLS: dict[tuple[str, bool], tuple[tp.Function, tp.Function]] = {}


def _tools(policy: str, open_: bool) -> tuple[tp.Function, tp.Function]:
    """The tool through the adapter's shortcuts and through the plain order (built once)."""
    found = _TOOLS.get((policy, open_))
    if found is None:
        source = JsonSchema(OPEN if open_ else SCHEMA, fast=True)
        quick = tp.Function("t", lambda a: a, args_schema=source, unknown_arguments=policy)
        plain = tp.Function(
            "t", lambda a: a, args_schema=source, adapter=PlainOrder(), unknown_arguments=policy
        )
        found = _TOOLS[policy, open_] = (quick, plain)
    return found


@needs_fast
@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(sent=_calls, policy=st.sampled_from(POLICIES), open_=st.booleans())
def test_every_call_reads_as_through_the_plain_order(
    sent: dict[str, Any], policy: str, open_: bool
) -> None:
    quick, plain = _tools(policy, open_)
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
