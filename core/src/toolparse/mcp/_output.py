"""Structured output: a tool's ``outputSchema`` and a result's ``structuredContent``."""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["output_schema", "structured"]


def output_schema(function: Function) -> dict[str, Any] | None:
    """The ``outputSchema`` of ``function``, or ``None`` when its output is plain text.

    The one it declares (``options={"output_schema": ...}``), else that of a return annotation
    that is a model (pydantic, dataclass, TypedDict), as the core serialises it: field names,
    not aliases (pydantic's serialisation schema, else the adapter's that takes the type).
    """
    declared = (function.options or {}).get("output_schema")
    if isinstance(declared, Mapping):
        return dict(declared)
    # ``@tool`` keeps the decorated function on its body as ``func``, as a
    # ``functools.partial`` does: its return annotation describes the output
    body: Any = function.function
    for _ in range(8):  # bounded: a mock's ``func`` is another mock, for ever
        if not callable(getattr(body, "func", None)):
            break
        body = body.func
    from pydantic import BaseModel, TypeAdapter  # installed with the mcp SDK

    try:
        annotation = typing.get_type_hints(body).get("return")
    except Exception:
        return None  # an annotation that cannot be resolved describes nothing
    if not isinstance(annotation, type) or not (
        dataclasses.is_dataclass(annotation)
        or typing.is_typeddict(annotation)
        or issubclass(annotation, BaseModel)
    ):
        return None
    try:
        schema: dict[str, Any] | None = TypeAdapter(annotation).json_schema(
            mode="serialization", by_alias=False
        )
    except Exception:  # e.g. a typing.TypedDict before Python 3.12
        schema = _adapter_schema(function, annotation)
    return schema if schema is not None and schema.get("type") == "object" else None


def _adapter_schema(function: Function, annotation: type) -> dict[str, Any] | None:
    """The schema of the first adapter of the Function's plugin manager that takes ``annotation``."""
    for adapter in function._pm.adapters():
        try:
            if adapter.accepts(annotation):
                return dict(adapter.json_schema(annotation))
        except Exception:
            continue  # an adapter that cannot describe it: ask the next one
    return None


def structured(content: object) -> dict[str, Any] | None:
    """The JSON object a successful result's text holds, for ``structuredContent``.

    The core already turned the returned model into JSON text: no second serialisation.
    """
    if not isinstance(content, str) or not content.startswith("{"):
        return None
    try:
        value = json.loads(content)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
