"""Core: the cost of execute over what it wraps, import time, schema building."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import toolparse as tp
from harness import Row, interleaved

ARGS = {"city": "Oslo", "units": "celsius", "days": 3}
REQUIRED = frozenset(("city", "units", "days"))


def body(a: dict[str, object]) -> str:
    return f"{a['city']}: {a['days']} days in {a['units']}"


def floor(a: dict[str, object]) -> str | None:
    # the floor: a required-key set difference plus a direct call of the same body
    if REQUIRED - a.keys():
        return None
    return body(a)


def bare_body(a: dict[str, object]) -> str:
    return "ok"


def bare_floor(a: dict[str, object]) -> str | None:
    if REQUIRED - a.keys():
        return None
    return bare_body(a)


def params() -> list[tp.FunctionParam]:
    return [
        tp.FunctionParam("city", "string", required=True),
        tp.FunctionParam("units", "string", required=True, enum=["celsius", "fahrenheit"]),
        tp.FunctionParam("days", "integer", required=True),
    ]


def import_time(module: str) -> float:
    """Cumulative import time of ``module`` in a fresh process, in microseconds (best of 7).

    Bytecode may be written (a first run caches it), as on any installed
    package: otherwise the figure would be compile time, not import time.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    best = float("inf")
    for _ in range(8):
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stderr
        for line in out.splitlines():
            m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\S+)$", line)
            if m and m.group(2) == module:
                best = min(best, float(m.group(1)))
    return best


def run() -> list[Row]:
    fn = tp.Function("weather", body, parameters=params())
    ex = fn.execute
    t, base = interleaved(lambda: ex(ARGS), lambda: floor(ARGS))
    rows = [Row("execute, no parser, 3 args", t, base, "key check + body", 2.0)]

    # the declared types checked too, against the required-key check alone
    # (the same declaration as a raw schema gets only that check)
    keys_only = tp.Function(
        "weather", body, parameters_schema=tp.FunctionParam.to_parameters_schema(params())
    ).execute
    t, base = interleaved(lambda: ex(ARGS), lambda: keys_only(ARGS))
    rows.append(
        Row(
            "execute, 3 FunctionParams type-checked",
            t,
            base,
            "required-key check only (parameters_schema)",
            2.5,
        )
    )

    bare = tp.Function("weather", bare_body, parameters=params()).execute
    t, base = interleaved(lambda: bare(ARGS), lambda: bare_floor(ARGS))
    rows.append(
        Row("execute, no parser, 3 args, body reads nothing", t, base, "key check + body", None)
    )

    def parser(a: dict[str, object]) -> tp.ParseResult:
        return tp.ok()

    parsed = tp.Function("weather", body, parse_args=parser).execute
    t, base = interleaved(lambda: parsed(ARGS), lambda: (parser(ARGS), body(ARGS)))
    rows.append(Row("execute, parse_args", t, base, "parser + body", None))

    text = '{"city": "Oslo", "units": "celsius", "days": 3}'
    t, base = interleaved(lambda: ex(text), lambda: floor(__import__("json").loads(text)))
    rows.append(Row("execute, JSON text arguments", t, base, "json.loads + key check + body", None))

    t, base = interleaved(
        lambda: tp.Function("weather", body, parameters=params()), lambda: params()
    )
    rows.append(
        Row("define a Function (3 FunctionParams)", t, base, "the FunctionParams alone", None)
    )

    rows.append(
        Row(
            "import toolparse (fresh process)",
            import_time("toolparse"),
            import_time("pluggy"),
            "import pluggy",
            2.0,
        )
    )
    return rows
