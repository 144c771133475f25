"""Hostile input: the worst 1 MiB call per adapter path, against the library's own validation.

One ordinary 9-parameter tool (``name, count, price, tags, ids, active, kind,
note, items``) is declared on every adapter path. Each is sent every hostile
payload below as JSON text just under the 1 MiB size limit (many unknown keys,
many near-typo keys, long strings, deep lists, many wrong items, many valid
items, everything wrong, nulls everywhere). A first pass finds the payload
that costs toolparse most on each path; that payload is then timed again,
interleaved with the library's own way to the same knowledge: ``json.loads``
plus its validation and, on a failure, its own error text (pydantic's
``str(e)``, marshmallow's ``messages``, cattrs' ``transform_error``,
jsonschema's ``iter_errors`` with each message). The paths with no library (no
parser, the built-in adapter) are measured against ``json.loads`` alone.

Targets: every worst call within 5x of the library's own, and under 0.5 s
wherever the library's own work on the same text is under 0.5 s (where the
library itself takes longer, as pure ``jsonschema`` does over a megabyte of
wrong items, no call that validates that text can be under it: the size limit
bounds it, and the row holds it to the library's own instead). The last rows:
a schema with 10,000 required names sent ``{}``, under 1 s; then the cost of
defining: a JSON Schema tool of 3,000 required properties under 1 s and of
10,000 under 3 s (its metaschema check is most of it), and a Function of three
FunctionParams of a shape never defined before under 90 us.

    uv run --locked python benchmarks/bench_hostile.py
"""

import gc
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter

import toolparse as tp
from harness import Row
from hostile_tools import (
    PARAMS,
    SCHEMA,
    VALID,
    AOrder,
    DOrder,
    MOrder,
    POrder,
    TOrder,
    V1Order,
    body,
    loads_only,
    order,
    own_attrs,
    own_jsonschema_pure,
    own_jsonschema_rs,
    own_marshmallow,
    own_pydantic,
    own_v1,
)
from toolparse_jsonschema import JsonSchema

LIMIT = 1_048_576
SIZE = 1_040_000  # payloads just under the size limit
BOUND_S = 0.5
RATIO = 5.0


@dataclass
class Path:
    """One adapter path: the tool, and the library's own way through the same payload."""

    name: str
    function: tp.Function
    own: Callable[[str], object]
    own_label: str
    results: dict[str, float] = field(default_factory=dict)


_LOADS = "json.loads alone (no library)"


def paths() -> list[Path]:
    def fn(source: Any) -> tp.Function:
        return tp.Function("order", body, args_schema=source)

    adapter = TypeAdapter(TOrder)
    # fmt: off
    table = [
        ("no parser, parameters", tp.Function("order", body, parameters=PARAMS), loads_only, _LOADS),
        ("no parser, parameters_schema", tp.Function("order", body, parameters_schema=SCHEMA), loads_only, _LOADS),
        ("plain dataclass", fn(DOrder), loads_only, _LOADS),
        ("plain TypedDict", fn(TOrder), loads_only, _LOADS),
        ("@tool (plain)", tp.tool(order), loads_only, _LOADS),
        ("pydantic BaseModel", fn(POrder), own_pydantic(POrder.model_validate), "model_validate + str(e)"),
        ("pydantic TypeAdapter", fn(adapter), own_pydantic(adapter.validate_python), "validate_python + str(e)"),
        ("pydantic.v1", fn(V1Order), own_v1, "parse_obj + str(e)"),
        ("marshmallow", fn(MOrder), own_marshmallow, "load + messages"),
        ("attrs", fn(AOrder), own_attrs, "structure + transform_error"),
        ("jsonschema pure", fn(JsonSchema(SCHEMA, fast=False)), own_jsonschema_pure, "iter_errors + messages"),
        ("jsonschema-rs", fn(JsonSchema(SCHEMA, fast=True)), own_jsonschema_rs, "rs iter_errors + messages"),
    ]
    # fmt: on
    return [Path(*row) for row in table]


# -- the payloads ------------------------------------------------------------------------


def _fill(build: Callable[[int], dict[str, Any]]) -> str:
    """The text of ``build(n)`` for the largest ``n`` that stays under SIZE bytes."""
    one = len(json.dumps(build(1)))
    unit = max(1, len(json.dumps(build(101))) - one) / 100
    n = max(1, int((SIZE - one) / unit))
    text = json.dumps(build(n))
    while len(text.encode()) > SIZE:
        n = int(n * 0.97)
        text = json.dumps(build(n))
    return text


def _deep(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


PAYLOADS: dict[str, Callable[[int], dict[str, Any]]] = {
    "many unknown keys": lambda n: {**VALID, **{f"zz{i}_q": 0 for i in range(n)}},
    "many near-typo keys": lambda n: {
        **{k: v for k, v in VALID.items() if k != "name"},
        **{f"nam{i}": 0 for i in range(n)},
    },
    "one long string": lambda n: {**VALID, "name": "a" * n, "note": "b" * n},
    "many long strings": lambda n: {**VALID, "tags": ["t" * 1_000] * (n // 1_000 + 1)},
    "deep lists": lambda n: {**VALID, "tags": [_deep(200)] * (n // 100 + 1)},
    "many wrong items": lambda n: {**VALID, "ids": ["x"] * n},
    "many wrong objects": lambda n: {**VALID, "items": [{"sku": 1, "qty": "x"}] * (n // 10 + 1)},
    "many valid items": lambda n: {**VALID, "ids": list(range(n // 4 + 1))},
    "everything wrong": lambda n: {
        "name": 5,
        "count": "x",
        "price": [],
        "tags": [1] * (n // 6),
        "ids": [{}] * (n // 6),
        "active": "yes",
        "kind": "z",
        "items": [{"sku": None, "qty": None, "extra": 1}] * (n // 30),
    },
}


def _cpu_s(call: Callable[[], object]) -> float:
    """Thread CPU time of one call, with the collector off (as the harness times)."""
    gc.collect()
    gc.disable()
    try:
        start = time.thread_time()
        call()
        return time.thread_time() - start
    finally:
        gc.enable()


@dataclass
class Worst:
    path: str
    payload: str
    toolparse_s: float
    own_s: float
    own_label: str

    @property
    def ratio(self) -> float:
        return self.toolparse_s / self.own_s


def measure(
    selected: list[Path] | None = None, repeat: int = 3, verbose: bool = False
) -> list[Worst]:
    """The worst payload of each path, timed again side by side with the library's own.

    A first pass times every payload once; the two costliest are timed again,
    interleaved with the library's own way, ``repeat`` times (once for a call
    of seconds), and the costlier of them is the path's worst call.
    """
    texts = {name: _fill(build) for name, build in PAYLOADS.items()}
    for text in texts.values():
        assert len(text.encode()) < LIMIT
    worst = []
    for path in selected or paths():
        for name, text in texts.items():
            outcome = path.function.execute(text)
            assert isinstance(outcome, (tp.Ok, tp.Error)), outcome
            path.results[name] = _cpu_s(lambda fn=path.function, t=text: fn.execute(t))
            if verbose:
                print(
                    f"    {path.name} / {name}: {path.results[name] * 1e3:.0f} ms", file=sys.stderr
                )
        found = []
        for name in sorted(path.results, key=path.results.__getitem__)[-2:]:
            text = texts[name]
            ours = own = float("inf")
            for _ in range(repeat if path.results[name] < 1 else 1):  # interleaved: drift hits both
                ours = min(ours, _cpu_s(lambda fn=path.function, t=text: fn.execute(t)))
                own = min(own, _cpu_s(lambda o=path.own, t=text: o(t)))
            found.append(Worst(path.name, name, ours, own, path.own_label))
        w = max(found, key=lambda w: w.toolparse_s)
        worst.append(w)
        print(
            f"  {w.path}: worst {w.payload!r} {w.toolparse_s * 1e3:.0f} ms"
            f" vs {w.own_s * 1e3:.0f} ms ({w.ratio:.2f}x)",
            file=sys.stderr,
            flush=True,
        )
    return worst


def run() -> list[Row]:
    found = measure()
    rows = [
        Row(
            f"hostile 1 MiB, {w.path}: worst call ({w.payload})",
            w.toolparse_s * 1e6,
            w.own_s * 1e6,
            w.own_label,
            RATIO,
        )
        for w in found
    ]
    rows.extend(bound_rows(found))
    return [*rows, *required_rows(), *definition_rows()]


def bound_rows(found: list[Worst]) -> list[Row]:
    """The slowest worst call against what bounds it: the 0.5 s bound where it applies.

    The bound holds where the library's own work on the same text is under it
    (the paths with no library: ``json.loads``). Where the library itself
    takes longer (a megabyte of wrong items through pure ``jsonschema``, say),
    no validating call can be under it, so that path's slowest call is held
    to the library's own work on the same payload instead, within the same 5x.
    """
    rows = []
    bounded = [w for w in found if w.own_s < BOUND_S]
    if bounded:
        w = max(bounded, key=lambda w: w.toolparse_s)
        rows.append(
            Row(
                f"hostile 1 MiB: slowest worst call where the library's own is under 0.5 s"
                f" ({w.path}, {w.payload})",
                w.toolparse_s * 1e6,
                BOUND_S * 1e6,
                "the 0.5 s bound",
                1.0,
            )
        )
    over = [w for w in found if w.own_s >= BOUND_S]
    if over:
        w = max(over, key=lambda w: w.toolparse_s)
        rows.append(
            Row(
                f"hostile 1 MiB: slowest worst call where the library's own is over 0.5 s"
                f" ({w.path}, {w.payload})",
                w.toolparse_s * 1e6,
                w.own_s * 1e6,
                f"{w.own_label} (the library's own; no 0.5 s bound)",
                RATIO,
            )
        )
    return rows


def required_rows(n: int = 10_000) -> list[Row]:
    """A schema with ``n`` required names sent ``{}``: bounded by 1 s, on both JSON Schema paths."""
    names = [f"field_{i}" for i in range(n)]
    schema = {
        "type": "object",
        "properties": {name: {"type": "string"} for name in names},
        "required": names,
    }
    rows = []
    for label, fast in (("jsonschema-rs", True), ("jsonschema pure", False)):
        fn = tp.Function("wide", body, args_schema=JsonSchema(schema, fast=fast))
        result = fn.execute({})
        assert isinstance(result, tp.Error), result
        assert len(result.message) <= 2_000, result
        took = min(_cpu_s(lambda f=fn: f.execute({})) for _ in range(3))
        rows.append(
            Row(f"{n:,} required names sent {{}}, {label}", took * 1e6, 1e6, "the 1 s bound", 1.0)
        )
    return rows


def definition_rows() -> list[Row]:
    """Defining: wide JSON Schema tools against their bounds, a new FunctionParam shape against 90 us."""
    rows = []
    for n, bound_s in ((3_000, 1.0), (10_000, 3.0)):
        names = [f"field_{i}" for i in range(n)]
        schema = {
            "type": "object",
            "properties": {name: {"type": "string"} for name in names},
            "required": names,
        }
        took = min(
            _cpu_s(lambda s=schema: tp.Function("wide", body, args_schema=s)) for _ in range(3)
        )
        rows.append(
            Row(
                f"define a JSON Schema tool of {n:,} required properties",
                took * 1e6,
                bound_s * 1e6,
                f"the {bound_s:g} s bound",
                1.0,
            )
        )
    fresh = iter(range(10**9))

    def new_shape() -> None:
        i = next(fresh)
        tp.Function(
            "weather",
            body,
            parameters=[
                tp.FunctionParam(f"city_{i}", "string", required=True),
                tp.FunctionParam(f"units_{i}", "string", enum=["celsius", "fahrenheit"]),
                tp.FunctionParam(f"days_{i}", "integer"),
            ],
        )

    number = 2_000
    took = min(_cpu_s(lambda: [new_shape() for _ in range(number)]) for _ in range(5)) / number
    rows.append(
        Row(
            "define a Function of 3 FunctionParams, a new shape",
            took * 1e6,
            90,
            "the 90 us bound",
            1.0,
        )
    )
    return rows


if __name__ == "__main__":
    from harness import table

    if "-v" in sys.argv:
        measure(verbose=True)
    elif "--definitions" in sys.argv:
        print(table(definition_rows()))
    else:
        print(table(run()))
