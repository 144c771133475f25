"""The marshmallow adapter: a ``Schema`` class or instance as a tool's ``args_schema``.

This module imports nothing from marshmallow: :meth:`MarshmallowAdapter.accepts`
runs for every tool, whatever its library, and a marshmallow schema cannot
exist before marshmallow is imported. The library is imported by
:meth:`MarshmallowAdapter.compile`.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from toolparse.adapter import Compiled, FieldSchema, UnknownArguments, check_policy

__all__ = ["MarshmallowAdapter"]


def _schema_class() -> type | None:
    module = sys.modules.get("marshmallow.schema")
    return None if module is None else getattr(module, "Schema", None)


class MarshmallowAdapter:
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

    def compile(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments = "report",
        field_schema: FieldSchema | None = None,
        parser: bool = True,
    ) -> Compiled:
        """Instantiate a class once, convert the instance once; the schema and ``load``.

        The schema is what ``schema.load`` accepts under the policy (see the
        converter); the parser is ``load`` with its errors as problems.
        ``field_schema`` is asked about every field.
        """
        from ._parser import make_parser
        from ._schema import convert

        policy = check_policy(unknown_arguments)
        schema = source() if isinstance(source, type) else source
        if schema.many:
            raise ValueError(
                f"{type(schema).__name__} was created with many=True, so it loads a list; "
                "tool arguments are one JSON object: pass the schema class, or an instance "
                "without many=True"
            )
        converted = convert(schema, policy=policy, field_schema=field_schema)
        body = converted.json_schema
        accepted = tuple(body["properties"])
        made = make_parser(schema, converted, policy, accepted, self._dumpers) if parser else None
        return Compiled(body, made, accepted=accepted, required=body.get("required", ()))

    def json_schema(
        self, source: Any, *, unknown_arguments: UnknownArguments = "report"
    ) -> dict[str, Any]:
        """The JSON Schema of what ``schema.load`` accepts (see :meth:`compile`)."""
        return self.compile(source, unknown_arguments=unknown_arguments, parser=False).schema

    def parser(self, source: Any, *, unknown_arguments: UnknownArguments = "report") -> Any:
        """The parser alone (see :meth:`compile`)."""
        return self.compile(source, unknown_arguments=unknown_arguments).parser

    def serialize(self, value: object) -> str | None:
        """JSON text for an object a tool's schema builds in ``@post_load``.

        marshmallow cannot tell which schema dumps an arbitrary object, so
        only the types that a loaded schema's ``@post_load`` hook is annotated
        to return are known; they are dumped with that schema. Anything else:
        ``None`` (not mine).
        """
        schema = self._dumpers.get(type(value))
        if schema is None:
            return None
        try:
            return json.dumps(schema.dump(value), ensure_ascii=False, allow_nan=False, default=str)
        except (TypeError, ValueError, AttributeError):
            return None
