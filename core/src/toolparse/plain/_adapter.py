"""The built-in adapter for plain Python types: dataclasses and TypedDicts.

It needs no third-party library. It is registered through the same hook a
plugin uses (see ``_defaults``), so an adapter registered later (pydantic,
attrs) is asked first and takes dataclasses over when installed.

The type mapping lives in ``_nodes`` and ``_types`` (annotations read once
into a node tree), ``_schema`` (the tree as JSON Schema) and ``_parse`` (the
tree compiled into a strict parser); :meth:`PlainAdapter.compile` reads the
source once and hands the one tree to both.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..adapter import (
    EMPTY,
    Compiled,
    FieldSchema,
    SignatureParam,
    UnknownArguments,
    check_policy,
)
from ..contract import ParseResult
from ._nodes import is_plain_dataclass, is_typeddict
from ._parse import compile_parser
from ._schema import object_schema
from ._types import analyse

__all__ = ["PlainAdapter"]


class PlainAdapter:
    """Dataclasses and TypedDicts, with fields of plain Python types.

    Fields may be ``str``, ``int``, ``float``, ``bool``, ``None``, ``Any``,
    ``list[T]``, ``dict[str, T]``, ``tuple[T, ...]``, ``tuple[A, B]``,
    ``Literal[...]``, ``Enum`` subclasses, unions and ``Optional``, nested
    dataclasses and TypedDicts (recursive ones too), and ``Annotated[T,
    "description"]``. Any other type is a definition error unless a
    ``toolparse_field_schema`` plugin describes it (its values then pass
    through unvalidated).

    The parser is strict: the only coercion is an integer for a float.
    Dataclasses are instantiated (nested ones too); TypedDicts stay dicts.
    """

    name = "plain"

    def accepts(self, source: object) -> bool:
        """Accept a TypedDict class or a (non-pydantic) dataclass class."""
        try:
            return is_typeddict(source) or is_plain_dataclass(source)
        except Exception:  # an exotic metaclass must not break adapter selection
            return False

    def compile(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments = "report",
        field_schema: FieldSchema | None = None,
        parser: bool = True,
    ) -> Compiled:
        """Read ``source`` once: its object schema (closed at every level) and strict parser.

        The parser gives ``Ok(instance)`` for a dataclass, ``Ok(dict)`` for a
        TypedDict. ``field_schema`` is asked about every field and every type
        the adapter has no rule for (``None``: no plugin has a say).
        """
        policy = check_policy(unknown_arguments)
        hook = _unchanged if field_schema is None else field_schema
        tree = analyse(source, hook, policy)
        schema = object_schema(tree, hook)
        return Compiled(
            schema,
            compile_parser(tree, policy) if parser else None,
            accepted=[f.name for f in tree.fields],
            required=[f.name for f in tree.fields if f.required],
        )

    def json_schema(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments = "report",
        field_schema: FieldSchema | None = None,
    ) -> dict[str, Any]:
        """The object schema alone (see :meth:`compile`)."""
        return self.compile(
            source, unknown_arguments=unknown_arguments, field_schema=field_schema, parser=False
        ).schema

    def parser(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments = "report",
        field_schema: FieldSchema | None = None,
    ) -> Callable[[dict[str, Any]], ParseResult]:
        """The strict parser alone (see :meth:`compile`)."""
        compiled = self.compile(
            source, unknown_arguments=unknown_arguments, field_schema=field_schema
        )
        assert compiled.parser is not None
        return compiled.parser

    def serialize(self, value: object) -> str | None:
        """JSON text for a dataclass instance (enums by value); ``None`` otherwise."""
        if isinstance(value, type) or not is_plain_dataclass(type(value)):
            return None
        import json

        try:
            return json.dumps(dataclasses.asdict(value), default=_enum_value)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            return None  # not JSON data: the core says it cannot show it

    def keywords(self, value: object) -> dict[str, Any]:
        """Return the keyword arguments for a ``@tool`` body (``__init__`` fields)."""
        if isinstance(value, Mapping):
            return {str(k): v for k, v in value.items()}
        fields = dataclasses.fields(value)  # type: ignore[arg-type]
        return {f.name: getattr(value, f.name) for f in fields if f.init}

    def from_signature(self, name: str, params: Sequence[SignatureParam]) -> type:
        """Build a dataclass with one field per parameter, for ``@tool``.

        Fields are keyword-only, so required and optional parameters may come
        in any order; a mutable default is copied for every call.
        """
        specs: list[tuple[str, Any, Any]] = []
        for param in params:
            metadata = {"description": param.description} if param.description else None
            if param.default is EMPTY:
                spec = dataclasses.field(metadata=metadata)
            elif type(param.default).__hash__ is None:
                # dataclasses refuses unhashable defaults (lists, dicts, sets)
                spec = dataclasses.field(default_factory=_copier(param.default), metadata=metadata)
            else:
                spec = dataclasses.field(default=param.default, metadata=metadata)
            specs.append((param.name, param.annotation, spec))
        cls = dataclasses.make_dataclass(_class_name(name), specs, kw_only=True)
        return cls


def _unchanged(field: object, schema: dict[str, Any]) -> dict[str, Any]:
    return schema


def _enum_value(value: object) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    raise TypeError(f"{type(value).__name__} is not JSON data")


def _copier(default: Any) -> Callable[[], Any]:
    return lambda: copy.deepcopy(default)


def _class_name(name: str) -> str:
    """Name the arguments class: ``get_weather`` -> ``GetWeatherArguments``."""
    words = "".join(c if c.isalnum() else " " for c in name).split()
    text = "".join(w[:1].upper() + w[1:] for w in words) or "Tool"
    if not text.isidentifier():
        text = f"Tool{text}"
    return f"{text}Arguments"
