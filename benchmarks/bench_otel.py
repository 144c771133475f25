"""Tracing: what it costs when it is off, and what a span costs when it is on.

- a valid call of a Function with ``toolparse.otel`` installed but not
  instrumented, against the same call through a ``Function`` whose
  ``execute`` is the one before tracing existed (no check of the tracer):
  off, tracing must cost nothing measurable on the call path;
- the same call instrumented (an SDK tracer provider with no exporter)
  against it not instrumented: the price of a span, for information.
"""

from __future__ import annotations

from typing import Any

from opentelemetry.sdk.trace import TracerProvider

import toolparse as tp
from harness import Row, ratio_rounds
from toolparse.function._callables import run_sync
from toolparse.function._plan import OUTCOMES
from toolparse.otel import ToolparseInstrumentor

ARGS = {"city": "Oslo", "units": "celsius", "days": 3}
SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "units": {"type": "string"},
        "days": {"type": "integer"},
    },
    "required": ["city", "units", "days"],
}


def body(a: dict[str, Any]) -> str:
    return f"{a['city']}: {a['days']} days in {a['units']}"


class Untraced(tp.Function):
    """A Function whose ``execute`` is the one before tracing: the floor."""

    __slots__ = ()

    def execute(self, arguments: object = None, context: Any = None) -> tp.Outcome:
        if self._async:
            return run_sync(self._plan_.arun(arguments, context))  # type: ignore[no-any-return]
        out = self._run(arguments, context)
        if type(out) in OUTCOMES:
            return out  # type: ignore[no-any-return]
        return run_sync(out)  # type: ignore[no-any-return]


def run() -> list[Row]:
    ours = tp.Function("weather", body, parameters_schema=SCHEMA)
    floor = Untraced("weather", body, parameters_schema=SCHEMA)
    assert ours.execute(ARGS) == floor.execute(ARGS)
    rows = [
        ratio_rounds(lambda: ours.execute(ARGS), lambda: floor.execute(ARGS), rounds=9).row(
            "execute, tracing not instrumented", "execute before tracing", 1.03
        )
    ]
    instrumentor = ToolparseInstrumentor()
    instrumentor.instrument(tracer_provider=TracerProvider())
    try:
        traced = ratio_rounds(lambda: ours.execute(ARGS), lambda: floor.execute(ARGS))
    finally:
        instrumentor.uninstrument()
    rows.append(traced.row("execute, instrumented (a span, no exporter)", "not instrumented"))
    return rows


if __name__ == "__main__":
    from harness import table

    print(table(run()))
