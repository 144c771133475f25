"""toolparse adapter for raw JSON Schema, validated with the ``jsonschema`` library.

Installing this distribution registers the adapter through the ``toolparse``
entry point; ``args_schema=<a JSON Schema dict>`` then validates every call.
:class:`JsonSchema` wraps a schema with options (``apply_defaults``, ``fast``).
Importing this package (and collecting its adapter) imports no ``jsonschema``.
"""

from __future__ import annotations

from collections.abc import Callable

from toolparse import Adapter, hookimpl

from ._adapter import JsonSchema, JsonSchemaAdapter

__all__ = ["JsonSchema", "JsonSchemaAdapter", "toolparse_register_adapters"]


@hookimpl
def toolparse_register_adapters(register: Callable[[Adapter], None]) -> None:
    """Register the JSON Schema adapter (``jsonschema`` is imported when a tool needs it)."""
    register(JsonSchemaAdapter())
