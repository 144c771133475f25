"""The attrs adapter: attrs classes described as JSON Schema, structured by cattrs."""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import cattrs

from toolparse import EMPTY, Ok, ParseResult, SignatureParam, invalid_arguments
from toolparse.adapter import UnknownArguments

from ._converter import default_converter, get_structure_hook
from ._errors import ErrorReader
from ._fields import Fields
from ._schema import SchemaBuilder
from ._source import AttrsSource
from ._types import is_model

__all__ = ["AttrsAdapter"]


class AttrsAdapter:
    """attrs classes (``@define``, ``@frozen``, ``@attr.s``) as tools' arguments.

    :meth:`accepts` takes attrs classes and :class:`~toolparse_attrs.AttrsSource`
    (from :func:`~toolparse_attrs.using`). A bare dataclass is left to the
    other adapters that take one; wrap it with ``using()`` for cattrs.
    """

    name = "attrs"

    def __init__(self) -> None:
        # the converter a class was last used with, for serialising its instances
        self._converters: weakref.WeakKeyDictionary[type, cattrs.Converter] = (
            weakref.WeakKeyDictionary()
        )

    def accepts(self, source: object) -> bool:
        """Whether ``source`` is an attrs class or an :class:`AttrsSource`."""
        try:
            return isinstance(source, AttrsSource) or (
                isinstance(source, type) and attrs.has(source)
            )
        except Exception:  # accepts() must not raise, whatever the object does
            return False

    # -- definition ---------------------------------------------------------------

    def _resolve(self, source: Any, policy: UnknownArguments) -> tuple[type, cattrs.Converter]:
        """The class and the converter to use under the ``unknown_arguments`` policy."""
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
        """The JSON Schema of the class's fields, as the converter reads them."""
        cls, converter = self._resolve(source, unknown_arguments)
        closed = bool(getattr(converter, "forbid_extra_keys", False))
        return SchemaBuilder(Fields(converter), closed=closed).build(cls)

    def parser(
        self, source: Any, *, unknown_arguments: UnknownArguments = "report"
    ) -> Callable[[dict[str, Any]], ParseResult]:
        """The parser: cattrs structures the arguments into an instance."""
        cls, converter = self._resolve(source, unknown_arguments)
        fields = Fields(converter)
        accepted = tuple(f.key for f in fields.info(cls).fields)
        # the compiled hook, fetched once: no dispatch on each call
        hook = get_structure_hook(converter, cls)
        reader = ErrorReader(fields)

        def parse(arguments: dict[str, Any]) -> ParseResult:
            try:
                return Ok(hook(arguments, cls))
            except Exception as exc:
                return invalid_arguments(
                    reader.problems(exc, arguments, cls),
                    arguments=arguments,
                    accepted=accepted,
                    cause=exc,
                )

        return parse

    # -- results ------------------------------------------------------------------

    def serialize(self, value: object) -> str | None:
        """JSON text for an attrs instance (or a list of them) a tool returned."""
        items = value if isinstance(value, (list, tuple)) and value else (value,)
        if not all(attrs.has(type(item)) for item in items):
            return None
        converter = self._converters.get(type(items[0])) or default_converter()
        try:
            return json.dumps(
                converter.unstructure(value),
                ensure_ascii=False,
                allow_nan=False,
                default=_default,
            )
        except (TypeError, ValueError):
            return None

    # -- signatures ---------------------------------------------------------------

    def from_signature(self, name: str, params: Sequence[SignatureParam]) -> type:
        """An attrs class whose fields are a function's parameters (for ``@tool``)."""
        fields: dict[str, Any] = {}
        for p in params:
            options: dict[str, Any] = {"type": p.annotation, "kw_only": True, "alias": p.name}
            if p.description:
                options["metadata"] = {"description": p.description}
            if p.default is not EMPTY:
                options["default"] = p.default
            fields[p.name] = attrs.field(**options)
        return attrs.make_class(name, fields)


def _default(value: Any) -> Any:
    """JSON for what a converter leaves as is (dates and times: ISO 8601; sets: arrays)."""
    if isinstance(value, (set, frozenset)):
        return list(value)
    isoformat = getattr(value, "isoformat", None)
    if callable(isoformat):
        return isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")
