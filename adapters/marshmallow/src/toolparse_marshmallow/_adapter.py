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

from toolparse.adapter import Compiled, FieldSchema, KeptForms, UnknownArguments, check_policy

__all__ = ["MarshmallowAdapter"]


#: how many schema classes' compiled forms an adapter keeps
_CACHED = 256


def _schema_class() -> type | None:
    module = sys.modules.get("marshmallow.schema")
    return None if module is None else getattr(module, "Schema", None)


def _plain_hook(field_schema: FieldSchema | None) -> bool:
    """Whether the field-schema hook answers nothing (no plugin implements it).

    Only then does a class's conversion depend on the class alone, so it can
    be kept; the core's hook says so with ``answers`` (another caller's hook,
    which may not, is taken to answer).
    """
    return field_schema is None or getattr(field_schema, "answers", True) is False


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
        #: (schema class, policy) -> what compiling it gave (the last 256 used)
        self._compiled = KeptForms(_CACHED)

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

        A class's compiled form is kept (per policy, for the last 256
        classes) while no plugin maps fields: the tools of one class then
        share one schema instance and parser, each gets its own copy of the
        JSON Schema, and the compiled form has a ``key`` (the class and the
        policy) so the core shares the steps it builds from that schema too.
        An instance is compiled each time (it may be
        configured or changed in ways a class is not).
        """
        policy = check_policy(unknown_arguments)
        if not isinstance(source, type) or not _plain_hook(field_schema):
            return self._compile(source, policy, field_schema, parser)
        # the class and the policy decide the schema: the key says so to the core
        key = (source, policy)
        kept = self._compiled.get(key, parser=parser)
        if kept is not None:
            return kept
        return self._compiled.keep(
            key, self._compile(source, policy, field_schema, True), parser=parser
        )

    def _compile(
        self, source: Any, policy: str, field_schema: FieldSchema | None, parser: bool
    ) -> Compiled:
        from ._parser import make_parser
        from ._schema import convert

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
