"""The quick reading of a rejected call: the same problems as the full walk, read directly.

The differential test defines every tool twice, once reading cattrs' errors
with the full walk (``ErrorReader``) and once as the adapter does
(``QuickReader``), and holds the two to the same result over generated wrong
calls: the same message, the same problems in the same order, the same count.
"""

from __future__ import annotations

import collections
import gc
import types
from collections.abc import Callable
from typing import Any
from unittest import mock

import attrs
import cattrs
import pytest
from attrs import validators as v
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse_attrs import AttrsAdapter, _parser
from toolparse_attrs._converter import Rejected
from toolparse_attrs._errors import ErrorReader
from toolparse_attrs._quick import QuickReader

from .models import CORPUS, LineItem, Node

runs: collections.Counter[str] = collections.Counter()


def counted(name: str, inner: Callable[..., Any]) -> Callable[..., Any]:
    """A validator of yours that counts its runs, then hands the value to ``inner``."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        runs[name] += 1
        inner(instance, attribute, value)

    return check


def _positive(instance: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, (int, float)) and value <= 0:
        raise ValueError("must be positive")


@attrs.define
class Order:
    """Plain validators before and after one another, an alias, a private field."""

    code: str = attrs.field(validator=v.min_len(2))
    count: int = attrs.field(default=1, validator=[v.ge(0), v.le(9)])
    _note: str = attrs.field(default="n", validator=v.max_len(3))
    weight: float = attrs.field(default=1.0, alias="kg", validator=counted("weight", _positive))
    lines: list[LineItem] = attrs.Factory(list)


@attrs.define
class Converted:
    """An attrs converter, and a post-init check."""

    size: int = attrs.field(converter=abs, validator=v.lt(5))
    label: str = attrs.field(default="x", validator=v.in_(["x", "y"]))

    def __attrs_post_init__(self) -> None:
        if self.label == "y" and self.size == 0:
            raise ValueError("a y label needs a size")


@attrs.define
class Parts:
    """Combinators: which part and which item raised is read from their frames."""

    tags: list[int] = attrs.field(factory=list, validator=v.deep_iterable(v.ge(0)))
    nick: str | None = attrs.field(default=None, validator=v.optional(v.min_len(2)))
    rank: int = attrs.field(default=1, validator=v.and_(v.ge(1), v.le(3)))


@attrs.define
class Bill:
    """The benchmark's shape: no validator of its own, an array of validated items."""

    vendor_name: str
    total_amount: float
    line_items: list[LineItem]
    currency: str = "EUR"


@attrs.define
class Holder:
    """Classes inside classes: a field of a class type and arrays of them."""

    order: Order
    many: list[Order] = attrs.Factory(list)
    parts: Parts | None = None
    nodes: list[Node] = attrs.Factory(list)


CLASSES: list[Any] = [*CORPUS, LineItem, Order, Converted, Parts, Bill, Holder, Node]


def _define(policy: str) -> tuple[list[tp.Function], list[tp.Function]]:
    quick = [
        tp.Function(f"t{i}", lambda a: "ok", args_schema=c, unknown_arguments=policy)
        for i, c in enumerate(CLASSES)
    ]
    with mock.patch.object(_parser, "QuickReader", ErrorReader):
        full = [
            tp.Function(f"t{i}", lambda a: "ok", args_schema=c, unknown_arguments=policy)
            for i, c in enumerate(CLASSES)
        ]
    return quick, full


TOOLS = {policy: _define(policy) for policy in ("report", "reject")}


SCALAR = (
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats(-2, 2, allow_nan=False)
    | st.sampled_from(["", "a", "ab", "abcd", "x", "y", "ABC", "m", "cat", "dog", "2024-01-02"])
)
JSON = st.recursive(
    SCALAR,
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=4,
)
_TEXTS = ["", "a", "ab", "abcd", "ABC", "x", "y", "s", "m", "2024-01-02", "2024-01-02T03:04:05"]


def _near(schema: dict[str, Any], root: dict[str, Any], depth: int = 0) -> Any:
    """Values the schema takes, and now and then any JSON at all: calls nearly right."""
    taken = _taken(schema, root, depth)
    return st.one_of(taken, taken, taken, taken, taken, JSON)


def _taken(schema: dict[str, Any], root: dict[str, Any], depth: int) -> Any:
    if schema.get("$ref") == "#":
        schema = root
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([_taken(s, root, depth) for s in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "string":
        return st.sampled_from(_TEXTS)
    if kind == "integer":
        return st.sampled_from([-1, 0, 1, 2, 3, 4, 5, 9, 10, 149, 150])
    if kind == "number":
        return st.integers(-1, 6) | st.floats(-1, 2, allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        if depth > 2:
            return st.just([])
        return st.lists(_near(schema.get("items", {}), root, depth + 1), max_size=3)
    if kind == "object" and "properties" in schema and depth <= 2:
        shown = {k: _near(s, root, depth + 1) for k, s in schema["properties"].items()}
        needed = set(schema.get("required", ()))
        call = st.fixed_dictionaries(
            {k: s for k, s in shown.items() if k in needed},
            optional={k: s for k, s in shown.items() if k not in needed},
        )
        # now and then a required key left out, or a key the class does not have
        return st.tuples(call, st.sampled_from(["as is", "one left out", "one more"])).map(_changed)
    if kind == "object":
        values = _near(schema.get("additionalProperties", {}), root, depth + 1)
        return st.dictionaries(st.sampled_from(["a", "s", "m"]), values, max_size=2)
    return JSON


def _changed(sent: tuple[dict[str, Any], str]) -> dict[str, Any]:
    call, how = sent
    if how == "one left out" and call:
        call.pop(next(iter(call)))
    elif how == "one more":
        call["extra"] = 1
    return call


def _read(result: Any) -> tuple[Any, ...]:
    """What the model reads and what the application gets from a parse."""
    if isinstance(result, tp.Ok):
        return ("ok", repr(result.value))
    exc = result.exception
    problems = getattr(exc, "problems", ())
    return (
        result.message,
        [(p.path, p.reason, p.kind, repr(p.received)) for p in problems],
        getattr(exc, "more", 0),
    )


BENCH_CALL = {
    "vendor_name": 5,
    "total_amount": "abc",
    "line_items": [{"sku": "A-1", "quantity": 0}, {"sku": 7, "quantity": 2}],
}


#: for each tool, the calls of its own schema (nearly right)
SCHEMAS = [f.json_schema() for f in TOOLS["report"][0]]
#: the classes with validators drawn more often (where __init__ stops is read there)
DRAWN = [i for i, c in enumerate(CLASSES) for _ in range(4 if c in (LineItem, Order, Bill) else 1)]
CALLS = st.sampled_from(DRAWN).flatmap(
    lambda i: st.tuples(st.just(i), _taken(SCHEMAS[i], SCHEMAS[i], 0))
)


@settings(
    max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(call=CALLS, policy=st.sampled_from(sorted(TOOLS)))
# __init__ stopped at the first validator: the ones after it run (a list of them too)
@example(
    call=(CLASSES.index(Order), {"code": "a", "count": 20, "note": "long", "kg": -1}),
    policy="report",
)
@example(call=(CLASSES.index(Order), {"code": "ab", "note": "long", "kg": -1}), policy="reject")
@example(call=(CLASSES.index(Converted), {"size": -7}), policy="report")  # after the converter
@example(
    call=(CLASSES.index(Holder), {"order": {"code": ""}, "many": [{"code": "x", "kg": 0}]}),
    policy="report",
)
@example(call=(CLASSES.index(Bill), BENCH_CALL), policy="reject")
def test_the_quick_reading_finds_what_the_full_walk_finds(
    call: tuple[int, dict[str, Any]], policy: str
) -> None:
    which, arguments = call
    quick, full = TOOLS[policy]
    runs.clear()
    seen = _read(quick[which].parse_arguments(arguments))
    quick_runs = dict(runs)
    runs.clear()
    assert seen == _read(full[which].parse_arguments(arguments))
    assert quick_runs == dict(runs)  # the same validators ran, as many times


def test_the_commonest_rejection_is_read_without_the_full_walk() -> None:
    # wrong values, and an item whose __init__ stopped at a plain validator
    fn = tp.Function("invoice", lambda a: "ok", args_schema=Bill)
    full_walk = AssertionError("the full walk")
    with (
        mock.patch.object(ErrorReader, "_class", side_effect=full_walk),
        mock.patch.object(ErrorReader, "_settle", side_effect=full_walk),
    ):
        result = fn.parse_arguments({**BENCH_CALL, "line_items": BENCH_CALL["line_items"][:1]})
    assert isinstance(result, tp.Error)
    assert [p.path for p in result.exception.problems] == [
        ("vendor_name",),
        ("total_amount",),
        ("line_items", 0, "quantity"),
    ]


@pytest.mark.parametrize(
    ("cls", "arguments", "step"),
    [
        (Parts, {"rank": 7}, "_settle"),  # and_: which part raised is read from its frame
        (Converted, {"size": 0, "label": "y"}, "_settle"),  # __attrs_post_init__ raised
        (Converted, {"size": 2, "extra": 1}, "_settle"),  # an extra key: validators run
        (LineItem, {"sku": 5, "quantity": 0}, "_settle"),  # __init__ never ran
        (Order, {"code": "ab", "lines": [{"sku": "a", "quantity": 1}, "x"]}, "_class"),  # a text
    ],
)
def test_any_other_shape_is_read_as_the_full_walk_reads_it(
    cls: type, arguments: dict[str, Any], step: str
) -> None:
    fn = tp.Function("t", lambda a: "ok", args_schema=cls, unknown_arguments="reject")
    calls = []
    walk = getattr(ErrorReader, step)

    def spy(self: ErrorReader, *args: Any, **kwargs: Any) -> None:
        calls.append(type(self))
        walk(self, *args, **kwargs)

    with mock.patch.object(ErrorReader, step, spy):
        result = fn.parse_arguments(arguments)
    assert isinstance(result, tp.Error)
    assert calls
    assert set(calls) == {QuickReader}


def test_a_rejected_call_leaves_no_reference_cycle_of_its_own() -> None:
    # the parser's frames and the converter's hooks hold no error they raised:
    # what a rejected call leaves is freed as soon as its result is dropped
    parser = AttrsAdapter().compile(Bill).parser
    assert parser is not None
    call = {**BENCH_CALL, "line_items": [*BENCH_CALL["line_items"], {"sku": 8, "quantity": 0}]}
    assert isinstance(parser(call), tp.Error)
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(3):
            assert isinstance(parser(call), tp.Error)
        gc.collect()
        # (anything another thread left meanwhile is not this call's)
        left = [
            o
            for o in gc.garbage
            if isinstance(o, (tp.Error, cattrs.BaseValidationError, Rejected))
            or (isinstance(o, types.FrameType) and "attrs" in o.f_code.co_filename)
        ]
        assert left == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
