"""The attrs adapter: attrs classes described as JSON Schema, structured by cattrs.

This module imports neither attrs nor cattrs (``accepts`` runs for every tool,
whatever its library): :meth:`AttrsAdapter.build` and ``serialize`` do.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from toolparse.adapter import (
    EMPTY,
    AdapterBase,
    Compiled,
    FieldSchema,
    SignatureParam,
    UnknownArguments,
    plugin_maps_fields,
)

if TYPE_CHECKING:
    import cattrs

    from ._fields import Fields

__all__ = ["AttrsAdapter", "AttrsSource", "using"]


class AttrsSource:
    """An ``args_schema`` for the attrs adapter: a class and, optionally, its converter.

    Build it with :func:`using`; the attrs adapter takes it whatever the class
    (an attrs class or a dataclass).

    :param cls: an attrs class or a dataclass.
    :param converter: the ``cattrs.Converter`` that structures the arguments and
        serialises returned instances; ``None`` for toolparse's default converter.
    """

    __slots__ = ("cls", "converter")

    def __init__(self, cls: type, converter: cattrs.Converter | None = None) -> None:
        self.cls = cls
        self.converter = converter

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AttrsSource):
            return NotImplemented
        return self.cls is other.cls and self.converter is other.converter

    def __hash__(self) -> int:
        return hash((self.cls, id(self.converter)))

    def __repr__(self) -> str:
        name = getattr(self.cls, "__qualname__", repr(self.cls))
        return f"using({name})" if self.converter is None else f"using({name}, {self.converter!r})"


def using(cls: type, converter: Any = None) -> AttrsSource:
    """Hand ``cls`` to the attrs adapter, structured by ``converter``.

    ``Function(args_schema=using(Order, my_converter))`` structures the arguments
    with your converter (its hooks, its ``forbid_extra_keys``), which serialises
    the ``Order`` instances a tool returns too. ``using(SomeDataclass)`` routes a
    dataclass to cattrs (a bare dataclass is left to the other adapters).

    :param cls: an attrs class or a dataclass.
    :param converter: a ``cattrs.Converter``; ``None`` for the default one.
    """
    return AttrsSource(cls, converter)


def _is_attrs_class(source: object) -> bool:
    # what attrs.has() reads, without importing attrs
    return isinstance(source, type) and getattr(source, "__attrs_attrs__", None) is not None


class AttrsAdapter(AdapterBase):
    """attrs classes (``@define``, ``@frozen``, ``@attr.s``) as tools' arguments.

    :meth:`accepts` takes attrs classes and :class:`~toolparse_attrs.AttrsSource`
    (from :func:`~toolparse_attrs.using`). A bare dataclass is left to the
    other adapters that take one; wrap it with ``using()`` for cattrs.
    """

    name = "attrs"

    def __init__(self) -> None:
        super().__init__()
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

    def kept_key(
        self, source: Any, unknown_arguments: UnknownArguments, field_schema: FieldSchema | None
    ) -> Hashable | None:
        """A bare class's compiled form is kept per class and policy (not with your converter)."""
        if isinstance(source, AttrsSource) or plugin_maps_fields(field_schema):
            return None
        return (source, unknown_arguments == "reject")

    def build(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments,
        field_schema: FieldSchema | None,
        parser: bool,
    ) -> Compiled:
        """Read the class once, as the converter structures it: its schema and parser."""
        from ._errors import make_parser
        from ._fields import Fields
        from ._schema import SchemaBuilder

        cls, converter = self._resolve(source, unknown_arguments)
        fields = Fields(converter)
        closed = bool(getattr(converter, "forbid_extra_keys", False))
        schema = SchemaBuilder(fields, closed=closed, field_schema=field_schema).build(cls)
        accepted = tuple(f.key for f in fields.info(cls).fields)
        return Compiled(
            schema,
            make_parser(converter, fields, cls, accepted, _refers(schema)) if parser else None,
            accepted=accepted,
            required=schema.get("required", ()),
            nulls_after_reject=_checks_its_schema(source, fields, field_schema),
        )

    def _resolve(self, source: Any, policy: UnknownArguments) -> tuple[type, cattrs.BaseConverter]:
        """The class and the converter to use under the ``unknown_arguments`` policy."""
        import cattrs

        from ._converter import default_converter
        from ._types import is_model

        mine = isinstance(source, AttrsSource)
        cls, given = (source.cls, source.converter) if mine else (source, None)
        if not is_model(cls):
            raise ValueError(f"expected an attrs class or a dataclass, got {cls!r:.80}")
        if given is None:
            return cls, default_converter(forbid_extra_keys=policy == "reject")
        if not isinstance(given, cattrs.BaseConverter):
            raise ValueError(f"expected a cattrs converter, got {given!r:.80}")
        self._converters[cls] = given
        # your converter's forbid_extra_keys rules the nested levels (a copy with another
        # would still run hooks bound to it); the core applies the policy to the top level
        return cls, given

    def serialize(self, value: object) -> str | None:
        """JSON text for an attrs instance (or a list of them) a tool returned."""
        items = value if isinstance(value, (list, tuple)) and value else (value,)
        if not all(_is_attrs_class(type(item)) for item in items):
            return None
        from ._converter import dump

        return dump(value, self._converters.get(type(items[0])))

    def from_signature(self, name: str, params: Sequence[SignatureParam]) -> type:
        """An attrs class whose fields are a function's parameters (for ``@tool``)."""
        import attrs

        fields: dict[str, Any] = {}
        for p in params:
            default = attrs.NOTHING if p.default is EMPTY else p.default
            metadata = {"description": p.description} if p.description else None
            options = {"type": p.annotation, "kw_only": True, "alias": p.name, "metadata": metadata}
            fields[p.name] = attrs.field(default=default, **options)
        return attrs.make_class(name, fields)


def _refers(schema: Any) -> bool:
    """Whether ``schema`` holds a ``$ref``: the class holds itself (its only references)."""
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if "$ref" in node:
                return True
            todo += node.values()
        elif isinstance(node, list):
            todo += node
    return False


def _checks_its_schema(source: Any, fields: Fields, field_schema: FieldSchema | None) -> bool:
    """Whether the parser refuses every null (and text for an object) the schema refuses.

    So with toolparse's own converter, whose strict hooks do. Not with yours
    (its hooks may be lenient), a plugin that maps fields, or a field with an
    attrs converter or its own hook (either may take a ``null``).
    """
    if isinstance(source, AttrsSource) and source.converter is not None:
        return False
    return not plugin_maps_fields(field_schema) and not any(
        f.converter is not None or f.hook is not None
        for info in fields.read.values()
        for f in info.fields
    )
