"""A tool call's span: the GenAI semantic-convention attributes, its status, its content."""

from __future__ import annotations

import json
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import SpanKind, Status, StatusCode

from .._repair import recording
from ..context import redact, secrets_of
from ..contract import Error, Interrupt, Outcome
from ..function._tracing import qualified
from ..results import TextPart, ToolResult

__all__ = ["MAX_CONTENT_CHARS", "OtelTracer"]

#: how much of the arguments and of the result text a span records
MAX_CONTENT_CHARS = 2000


class OtelTracer:
    """The tracer ``toolparse.otel`` installs: a span per tool call."""

    __slots__ = ("capture", "tracer")

    def __init__(self, tracer: trace.Tracer, capture: bool) -> None:
        self.tracer, self.capture = tracer, capture

    def start(self, name: str, call_id: object, arguments: object, context: object) -> CallSpan:
        """The span of one call of tool ``name`` (started, not current yet)."""
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": name,
            "gen_ai.tool.type": "function",
        }
        if call_id:
            attributes["gen_ai.tool.call.id"] = str(call_id)
        secrets: tuple[str, ...] | None = None
        if self.capture:
            secrets = secrets_of(context)
            if arguments is not None:
                attributes["gen_ai.tool.call.arguments"] = captured(arguments, secrets)
        span = self.tracer.start_span(
            f"execute_tool {name}", kind=SpanKind.INTERNAL, attributes=attributes
        )
        return CallSpan(span, secrets)


class CallSpan:
    """One call's span: current while entered, ended on exit."""

    __slots__ = ("_recording", "_repairs", "_secrets", "_span", "_token")

    def __init__(self, span: trace.Span, secrets: tuple[str, ...] | None) -> None:
        self._span = span
        self._secrets = secrets  # ``None``: content is not recorded
        self._token: object = None
        self._repairs: list[str] = []  # what the call's repairs made, in words

    def __enter__(self) -> CallSpan:
        self._token = otel_context.attach(trace.set_span_in_context(self._span))
        self._recording = recording.set(self._repairs)
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        recording.reset(self._recording)
        otel_context.detach(self._token)  # type: ignore[arg-type]
        if exc is not None:  # a call stopped by what ``execute`` does not catch (a cancellation)
            self._span.set_attribute("error.type", qualified(kind))
            self._span.set_status(Status(StatusCode.ERROR))
        self._span.end()

    def finish(self, outcome: Outcome, error_type: str | None) -> None:
        """Record how the call ended."""
        span = self._span
        if type(outcome) is Interrupt:
            span.set_attribute("toolparse.interrupted", True)
        if self._repairs:
            span.set_attribute("toolparse.repairs", self._repairs)
        if error_type is not None:
            span.set_attribute("error.type", error_type)
            span.set_status(Status(StatusCode.ERROR))
        if self._secrets is not None:
            span.set_attribute("gen_ai.tool.call.result", captured(_text(outcome), self._secrets))


def captured(value: object, secrets: tuple[str, ...]) -> str:
    """``value`` as a span records it: text, the context's strings redacted, cut short."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, default=repr)
        except (TypeError, ValueError, RecursionError):
            text = repr(value)
    text = redact(text, secrets)
    return text if len(text) <= MAX_CONTENT_CHARS else text[:MAX_CONTENT_CHARS] + "...[cut]"


def _text(outcome: Outcome) -> object:
    """What the model reads of an outcome."""
    if type(outcome) is Error or type(outcome) is Interrupt:
        return outcome[0]
    content = outcome[0]
    if isinstance(content, ToolResult):
        return content.text
    if isinstance(content, list) and all(isinstance(p, TextPart) for p in content):
        return "".join(p.text for p in content)
    return content
