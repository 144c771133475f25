"""Structured output: a tool's ``outputSchema`` and a result's ``structuredContent``."""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..function import Function
    from ..results import ToolResult

__all__ = ["output_schema", "structured_content", "structured_of_text"]


def _body_of(function: Function) -> Any:
    """The callable whose return annotation describes the tool's output.

    ``@tool`` keeps the decorated function on its body as ``func``; a
    ``functools.partial`` keeps it as ``func`` too.
    """
    target: Any = function.function
    for _ in range(8):  # a partial of a partial of ...: bounded, never a cycle
        inner = getattr(target, "func", None)
        if inner is None or not callable(inner):
            break
        target = inner
    return target


def _is_model(annotation: Any) -> bool:
    if not isinstance(annotation, type):
        return False
    if dataclasses.is_dataclass(annotation) or typing.is_typeddict(annotation):
        return True
    from pydantic import BaseModel  # installed with the mcp SDK

    return issubclass(annotation, BaseModel)


def output_schema(function: Function) -> dict[str, Any] | None:
    """The ``outputSchema`` of ``function``, or ``None`` when its output is plain text.

    A schema the Function declares (``options={"output_schema": ...}``) is
    already in its MCP export. Otherwise a return annotation that is a model
    (a pydantic model, a dataclass or a TypedDict) gives one, in the shape the
    core serialises such a value (field names, not aliases; pydantic's
    serialisation schema, else the schema of the toolparse adapter that takes
    the type). Computed once, when the server is built.
    """
    declared = (function.options or {}).get("output_schema")
    if isinstance(declared, Mapping):
        return dict(declared)
    try:
        annotation = typing.get_type_hints(_body_of(function)).get("return")
    except Exception:
        return None  # an annotation that cannot be resolved describes nothing
    if not _is_model(annotation):
        return None
    schema = _pydantic_schema(annotation)
    if schema is None:
        schema = _adapter_schema(function, annotation)
    return schema if schema is not None and schema.get("type") == "object" else None


def _pydantic_schema(annotation: Any) -> dict[str, Any] | None:
    """The serialisation schema pydantic gives (the mcp SDK depends on pydantic)."""
    try:
        from pydantic import TypeAdapter

        schema: dict[str, Any] = TypeAdapter(annotation).json_schema(
            mode="serialization", by_alias=False
        )
    except Exception:
        return None  # e.g. a typing.TypedDict before Python 3.12
    return schema


def _adapter_schema(function: Function, annotation: Any) -> dict[str, Any] | None:
    """The schema of the toolparse adapter that takes ``annotation``, if any."""
    pm = function._pm
    if pm is None:
        # the default manager, looked up only for a tool built without one
        from ..plugins import plugin_manager

        # the default manager, when the server is built (never per call)
        pm = plugin_manager()
    for adapter in pm.adapters():
        try:
            if adapter.accepts(annotation):
                return dict(adapter.json_schema(annotation))
        except Exception:
            continue  # an adapter that cannot describe it: ask the next one
    return None


def structured_content(result: ToolResult) -> dict[str, Any] | None:
    """The JSON object a successful result's text holds, for ``structuredContent``.

    The core already turned the returned model into JSON text; parsing that
    text gives the object, with no second serialisation of the value.
    """
    text = result.content
    return structured_of_text(text) if isinstance(text, str) else None


def structured_of_text(text: str) -> dict[str, Any] | None:
    """The JSON object ``text`` holds, or ``None`` when it holds something else."""
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
