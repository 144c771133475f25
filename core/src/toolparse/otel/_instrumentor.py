"""``ToolparseInstrumentor``: installs the tracer of :mod:`._spans` while instrumented."""

from __future__ import annotations

import os
from collections.abc import Collection
from typing import Any

from opentelemetry import trace
from opentelemetry.instrumentation.instrumentor import (  # type: ignore[attr-defined]
    BaseInstrumentor,
)

from ..function import _tracing
from ._spans import OtelTracer

__all__ = ["CAPTURE_CONTENT_ENV", "ToolparseInstrumentor"]

#: the GenAI instrumentations' switch for recording arguments and results
CAPTURE_CONTENT_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"


class ToolparseInstrumentor(BaseInstrumentor):  # type: ignore[misc]
    """Trace every toolparse tool call with OpenTelemetry.

    ``instrument()`` turns tracing on for the process, ``uninstrument()`` off
    (one instrumentor per process, as OpenTelemetry's are). Each call, on every
    path, runs in one ``execute_tool <tool name>`` span (kind ``INTERNAL``), a
    child of the span current where the call or its batch started.
    """

    def instrumentation_dependencies(self) -> Collection[str]:
        """Nothing to check: the instrumentation ships with toolparse itself."""
        return ()

    def instrument(
        self,
        *,
        tracer_provider: trace.TracerProvider | None = None,
        capture_content: bool | None = None,
        **kwargs: Any,
    ) -> None:
        """Turn tracing on (``uninstrument()`` turns it off).

        :param tracer_provider: the provider of the tracer (default: the global one).
        :param capture_content: record each call's arguments and result text, cut
            to 2,000 characters and redacted; ``None``: when the
            ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`` environment
            variable is ``true``.
        """
        super().instrument(
            tracer_provider=tracer_provider, capture_content=capture_content, **kwargs
        )

    def _instrument(self, **kwargs: Any) -> None:
        from .. import __version__

        capture = kwargs.get("capture_content")
        if capture is None:
            capture = os.environ.get(CAPTURE_CONTENT_ENV, "").strip().lower() == "true"
        tracer = trace.get_tracer(
            "toolparse", __version__, tracer_provider=kwargs.get("tracer_provider")
        )
        _tracing.tracer = OtelTracer(tracer, bool(capture))

    def _uninstrument(self, **kwargs: Any) -> None:
        _tracing.tracer = None
