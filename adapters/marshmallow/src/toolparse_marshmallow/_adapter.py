"""The marshmallow adapter: a ``Schema`` class or instance as a tool's ``args_schema``.

This module imports no marshmallow (``accepts`` runs for every tool, and a
marshmallow schema cannot exist before marshmallow is imported): ``build`` does.
"""

from __future__ import annotations

import inspect
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
        # marshmallow not imported yet: no marshmallow schema can exist
        schema = getattr(sys.modules.get("marshmallow.schema"), "Schema", None)
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

        An instance is compiled each time: it may be configured or changed.
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
        """Instantiate a class once, convert the instance: the JSON Schema of ``load``, and ``load``."""
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
        doc = type(schema).__dict__.get("__doc__")  # its own, not marshmallow's Schema's
        if isinstance(doc, str) and doc.strip():  # the tool's description by default
            body = {**body, "description": inspect.cleandoc(doc).strip()}
        accepted = tuple(body["properties"])
        made = (
            make_parser(schema, root, unknown_arguments, accepted, self._dumpers)
            if parser
            else None
        )
        return Compiled(body, made, accepted=accepted, required=body.get("required", ()))

    def serialize(self, value: object) -> str | None:
        """JSON text for an object a tool's ``load`` built (``@post_load``), dumped by its schema.

        marshmallow cannot tell which schema dumps an arbitrary object: any
        other object gives ``None`` (not mine).
        """
        schema = self._dumpers.get(type(value))
        if schema is None:
            return None
        try:
            return json.dumps(schema.dump(value), ensure_ascii=False, allow_nan=False, default=str)
        except (TypeError, ValueError, AttributeError):
            return None
