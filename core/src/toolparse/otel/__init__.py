"""OpenTelemetry tracing of tool calls: ``pip install "toolparse[otel]"``.

:class:`ToolparseInstrumentor` follows OpenTelemetry's instrumentor convention
(``instrument()``/``uninstrument()``, the ``opentelemetry_instrumentor`` entry
point, so ``opentelemetry-instrument`` turns it on). While instrumented, every
tool call, on every path, runs inside one ``execute_tool <tool name>`` span
with the GenAI semantic-convention attributes; see the telemetry page of the
docs for the attributes, the error types and content capture.
"""

from __future__ import annotations

from ._instrumentor import ToolparseInstrumentor

__all__ = ["ToolparseInstrumentor"]
