"""A tracer provider recording into the SDK's in-memory exporter, and toolparse instrumented with it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("opentelemetry.sdk")

from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from toolparse.otel import ToolparseInstrumentor

EXPORTER = InMemorySpanExporter()
PROVIDER = TracerProvider()
PROVIDER.add_span_processor(SimpleSpanProcessor(EXPORTER))
# the global provider too: the MCP SDK's own request spans go through it
trace.set_tracer_provider(PROVIDER)


class Spans:
    """The finished spans, and the tracer tests open their own spans with."""

    tracer = PROVIDER.get_tracer("tests")

    def all(self) -> list[ReadableSpan]:
        return list(EXPORTER.get_finished_spans())

    def tools(self) -> list[ReadableSpan]:
        """The ``execute_tool`` spans, in the order they ended."""
        return [s for s in self.all() if s.name.startswith("execute_tool ")]

    def one(self) -> ReadableSpan:
        (span,) = self.tools()
        return span


@pytest.fixture
def spans() -> Iterator[Spans]:
    """toolparse instrumented (content not captured) for one test."""
    EXPORTER.clear()
    ToolparseInstrumentor().instrument(tracer_provider=PROVIDER)
    try:
        yield Spans()
    finally:
        ToolparseInstrumentor().uninstrument()
        EXPORTER.clear()


@pytest.fixture
def captured() -> Iterator[Spans]:
    """toolparse instrumented with content capture for one test."""
    EXPORTER.clear()
    ToolparseInstrumentor().instrument(tracer_provider=PROVIDER, capture_content=True)
    try:
        yield Spans()
    finally:
        ToolparseInstrumentor().uninstrument()
        EXPORTER.clear()
