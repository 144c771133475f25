"""The attrs adapter: attrs classes described as JSON Schema, structured by cattrs.

This module imports neither attrs nor cattrs: :meth:`AttrsAdapter.accepts`
runs for every tool, whatever its library, and an attrs class says what it is
by its ``__attrs_attrs__``. The libraries are imported by
:meth:`AttrsAdapter.compile` (and by ``serialize`` for an attrs instance).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toolparse.adapter import (
    EMPTY,
    Compiled,
    FieldSchema,
    SignatureParam,
    UnknownArguments,
    check_policy,
)

from ._source import AttrsSource

if TYPE_CHECKING:
    import cattrs

    from ._fields import Fields

__all__ = ["AttrsAdapter"]


def _is_attrs_class(source: object) -> bool:
    # what attrs.has() reads, without importing attrs
    return isinstance(source, type) and getattr(source, "__attrs_attrs__", None) is not None


class AttrsAdapter:
    """attrs classes (``@define``, ``@frozen``, ``@attr.s``) as tools' arguments.

    :meth:`accepts` takes attrs classes and :class:`~toolparse_attrs.AttrsSource`
    (from :func:`~toolparse_attrs.using`). A bare dataclass is left to the
    other adapters that take one; wrap it with ``using()`` for cattrs.
    """

    name = "attrs"

    def __init__(self) -> None:
        # the converter a class was last used with, for serialising its instances
        self._converters: weakref.WeakKeyDictionary[type, cattrs.BaseConverter] = (
            weakref.WeakKeyDictionary()
        )

    def accepts(self, source: object) -> bool:
        """Whether ``source`` is an attrs class or an :class:`AttrsSource`."""
        try:
            return isinstance(source, AttrsSource) or _is_attrs_class(source)
        except Exception:  # accepts() must not raise, whatever the object does
            return False

    # -- definition ---------------------------------------------------------------

    def compile(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments = "report",
        field_schema: FieldSchema | None = None,
        parser: bool = True,
    ) -> Compiled:
        """Read the class once, as the converter structures it: its schema and parser.

        The parser is the converter's compiled structure hook for the class
        (fetched once: no dispatch on each call), its errors as problems.
        ``field_schema`` is asked about every field and type.
        """
        from ._fields import Fields
        from ._parser import make_parser
        from ._schema import SchemaBuilder

        policy = check_policy(unknown_arguments)
        cls, converter = self._resolve(source, policy)
        fields = Fields(converter)
        closed = bool(getattr(converter, "forbid_extra_keys", False))
        schema = SchemaBuilder(fields, closed=closed, field_schema=field_schema).build(cls)
        info = fields.info(cls)
        accepted = tuple(f.key for f in info.fields)
        return Compiled(
            schema,
            make_parser(converter, fields, cls, accepted) if parser else None,
            accepted=accepted,
            required=schema.get("required", ()),
            nulls_after_reject=self._checks_its_schema(source, fields, field_schema),
        )

    @staticmethod
    def _checks_its_schema(source: Any, fields: Fields, field_schema: FieldSchema | None) -> bool:
        """Whether the parser refuses every null and text the exported schema refuses.

        So with toolparse's own converter: each of its strict hooks refuses a
        ``null`` for a type whose schema does not admit one (and a string for
        an object), so the core restores nested nulls only once a call is
        rejected. Not with your converter (its hooks may be lenient), a plugin
        that maps fields (its schema is not the type's), or any field with an
        attrs converter or its own hook (either may take a ``null``).
        """
        if isinstance(source, AttrsSource) and source.converter is not None:
            return False
        if field_schema is not None and getattr(field_schema, "answers", True):
            return False
        return not any(
            f.converter is not None or f.hook is not None
            for info in fields.read
            for f in info.fields
        )

    def _resolve(self, source: Any, policy: str) -> tuple[type, cattrs.BaseConverter]:
        """The class and the converter to use under the ``unknown_arguments`` policy."""
        import cattrs

        from ._converter import default_converter
        from ._types import is_model

        cls, given = (
            (source.cls, source.converter) if isinstance(source, AttrsSource) else (source, None)
        )
        if not is_model(cls):
            raise ValueError(f"expected an attrs class or a dataclass, got {cls!r:.80}")
        if given is None:
            return cls, default_converter(forbid_extra_keys=policy == "reject")
        if not isinstance(given, cattrs.BaseConverter):
            raise ValueError(f"expected a cattrs converter, got {given!r:.80}")
        self._converters[cls] = given
        # your converter's own forbid_extra_keys rules the nested levels (a copy
        # with another rule would still run hooks bound to the original); the
        # core applies the policy to the top-level names
        return cls, given

    def json_schema(
        self, source: Any, *, unknown_arguments: UnknownArguments = "report"
    ) -> dict[str, Any]:
        """The JSON Schema alone (see :meth:`compile`)."""
        return self.compile(source, unknown_arguments=unknown_arguments, parser=False).schema

    def parser(self, source: Any, *, unknown_arguments: UnknownArguments = "report") -> Any:
        """The parser alone (see :meth:`compile`)."""
        return self.compile(source, unknown_arguments=unknown_arguments).parser

    # -- results ------------------------------------------------------------------

    def serialize(self, value: object) -> str | None:
        """JSON text for an attrs instance (or a list of them) a tool returned."""
        items = value if isinstance(value, (list, tuple)) and value else (value,)
        if not all(_is_attrs_class(type(item)) for item in items):
            return None
        from ._parser import dump

        return dump(value, self._converters.get(type(items[0])))

    # -- signatures ---------------------------------------------------------------

    def from_signature(self, name: str, params: Sequence[SignatureParam]) -> type:
        """An attrs class whose fields are a function's parameters (for ``@tool``)."""
        import attrs

        fields: dict[str, Any] = {}
        for p in params:
            options: dict[str, Any] = {"type": p.annotation, "kw_only": True, "alias": p.name}
            if p.description:
                options["metadata"] = {"description": p.description}
            if p.default is not EMPTY:
                options["default"] = p.default
            fields[p.name] = attrs.field(**options)
        return attrs.make_class(name, fields)
