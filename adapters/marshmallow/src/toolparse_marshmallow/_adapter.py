"""The marshmallow adapter: a ``Schema`` class or instance as a tool's ``args_schema``.

This module imports nothing from marshmallow: :meth:`MarshmallowAdapter.accepts`
runs for every tool, whatever its library, and a marshmallow schema cannot
exist before marshmallow is imported. The library is imported by
:meth:`MarshmallowAdapter.build`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Hashable
from typing import Any

from toolparse.adapter import (
    AdapterBase,
    Compiled,
    FieldSchema,
    UnknownArguments,
    plugin_maps_fields,
)

__all__ = ["MarshmallowAdapter"]


def _schema_class() -> type | None:
    module = sys.modules.get("marshmallow.schema")
    return None if module is None else getattr(module, "Schema", None)


class MarshmallowAdapter(AdapterBase):
    """Turns a marshmallow ``Schema`` (class or instance) into a tool's schema and parser.

    The JSON Schema comes from this package's converter (marshmallow has none);
    the parser is ``schema.load`` itself, so marshmallow's coercions,
    validators, ``@validates_schema`` and ``@post_load`` all apply, and the
    tool body receives what ``load`` returns. A class is instantiated once per
    tool; an instance is used as it is (its ``only``, ``exclude``,
    ``partial``, ``unknown`` and ``context`` included).
    """

    name = "marshmallow"

    def __init__(self) -> None:
        super().__init__()
        #: type a schema's @post_load builds -> that schema, for serialize()
        self._dumpers: dict[type, Any] = {}

    def accepts(self, source: object) -> bool:
        """A ``Schema`` subclass or instance."""
        schema = _schema_class()
        if schema is None:
            return False
        try:
            return isinstance(source, schema) or (
                isinstance(source, type) and issubclass(source, schema)
            )
        except Exception:
            return False

    def kept_key(
        self, source: Any, unknown_arguments: UnknownArguments, field_schema: FieldSchema | None
    ) -> Hashable | None:
        """The class and the policy, for a class while no plugin maps fields.

        The tools of one class then share one schema instance and parser (each
        gets its own copy of the JSON Schema). An instance is compiled each
        time: it may be configured or changed in ways a class is not.
        """
        if not isinstance(source, type) or plugin_maps_fields(field_schema):
            return None
        return (source, unknown_arguments)

    def build(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments,
        field_schema: FieldSchema | None,
        parser: bool,
    ) -> Compiled:
        """Instantiate a class once, convert the instance once: the schema and ``load``.

        The schema is what ``schema.load`` accepts under the policy (see the
        converter); the parser is ``load`` with its errors as problems.
        ``field_schema`` is asked about every field.
        """
        from ._parser import make_parser
        from ._schema import convert

        schema = source() if isinstance(source, type) else source
        if schema.many:
            raise ValueError(
                f"{type(schema).__name__} was created with many=True, so it loads a list; "
                "tool arguments are one JSON object: pass the schema class, or an instance "
                "without many=True"
            )
        body, root = convert(schema, policy=unknown_arguments, field_schema=field_schema)
        accepted = tuple(body["properties"])
        made = (
            make_parser(schema, root, unknown_arguments, accepted, self._dumpers)
            if parser
            else None
        )
        return Compiled(body, made, accepted=accepted, required=body.get("required", ()))

    def serialize(self, value: object) -> str | None:
        """JSON text for an object a tool's schema builds in ``@post_load``.

        marshmallow cannot tell which schema dumps an arbitrary object, so only
        the types that a tool's ``load`` has built are known; they are dumped
        with that schema. Anything else: ``None`` (not mine).
        """
        schema = self._dumpers.get(type(value))
        if schema is None:
            return None
        try:
            return json.dumps(schema.dump(value), ensure_ascii=False, allow_nan=False, default=str)
        except (TypeError, ValueError, AttributeError):
            return None
