"""The built-in adapter for plain Python types: dataclasses and TypedDicts.

It is registered through the same hook a plugin uses (see ``_defaults``), so an adapter
registered later (pydantic, attrs) is asked first and takes dataclasses over when installed.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import functools
import json
from collections.abc import Sequence
from typing import Any

from ..adapter import EMPTY, AdapterBase, Compiled, FieldSchema, SignatureParam, UnknownArguments
from ._annotations import analyse, is_plain_dataclass, is_typeddict
from ._parser import compile_parser
from ._schema import object_schema

__all__ = ["PlainAdapter"]


class PlainAdapter(AdapterBase):
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

    def build(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments,
        field_schema: FieldSchema,
        parser: bool,
    ) -> Compiled:
        """Read ``source`` once: its object schema (closed at every level) and strict parser."""
        tree = analyse(source, field_schema, unknown_arguments)
        return Compiled(
            object_schema(tree, field_schema),
            compile_parser(tree, unknown_arguments) if parser else None,
            accepted=[f.name for f in tree.fields],
            required=[f.name for f in tree.fields if f.required],
        )

    def serialize(self, value: object) -> str | None:
        """JSON text for a dataclass instance (enums by value); ``None`` otherwise."""
        if isinstance(value, type) or not is_plain_dataclass(type(value)):
            return None
        try:
            return json.dumps(dataclasses.asdict(value), default=_enum_value)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            return None  # not JSON data: the core says it cannot show it

    def keywords(self, value: object) -> dict[str, Any]:
        """Return the keyword arguments for a ``@tool`` body (``__init__`` fields)."""
        cls: Any = type(value)
        names = _INIT_NAMES.get(cls)  # (a dataclass seen before: one look)
        if names is None:
            if not hasattr(cls, "__dataclass_fields__"):  # (first: a Mapping check costs more)
                return {str(k): v for k, v in value.items()}  # type: ignore[attr-defined]
            if len(_INIT_NAMES) >= 1024:  # (bounded as an lru_cache is: emptied when full)
                _INIT_NAMES.clear()
            names = _INIT_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.init)
        found = {}  # (a loop: before 3.12 a comprehension is one more call)
        for name in names:
            found[name] = getattr(value, name)
        return found

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
                copied = functools.partial(copy.deepcopy, param.default)
                spec = dataclasses.field(default_factory=copied, metadata=metadata)
            else:
                spec = dataclasses.field(default=param.default, metadata=metadata)
            specs.append((param.name, param.annotation, spec))
        return dataclasses.make_dataclass(_class_name(name), specs, kw_only=True)


#: each dataclass's ``__init__`` fields, read once (a dict: one look costs a fifth of an lru_cache's)
_INIT_NAMES: dict[type, tuple[str, ...]] = {}


def _enum_value(value: object) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    raise TypeError(f"{type(value).__name__} is not JSON data")


def _class_name(name: str) -> str:
    """Name the arguments class: ``get_weather`` -> ``GetWeatherArguments``."""
    words = "".join(c if c.isalnum() else " " for c in name).split()
    text = "".join(w[:1].upper() + w[1:] for w in words) or "Tool"
    if not text.isidentifier():
        text = f"Tool{text}"
    return f"{text}Arguments"
