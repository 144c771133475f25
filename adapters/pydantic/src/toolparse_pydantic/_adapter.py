"""The pydantic adapter: models in, JSON Schema and a validating parser out.

This module imports nothing from pydantic: :meth:`PydanticAdapter.accepts` runs
for every tool, whatever its library, and decides from the source's type and
from whether pydantic is imported at all (a model cannot exist before it is).
pydantic is imported by :meth:`PydanticAdapter.build`.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from typing import Any, Literal

from toolparse.adapter import (
    AdapterBase,
    Compiled,
    FieldSchema,
    SignatureParam,
    UnknownArguments,
)
from toolparse.adapter import keywords as default_keywords

__all__ = ["PydanticAdapter"]

Kind = Literal["model", "v1", "type", "adapter"]
#: the kinds whose compiled form is kept per class (see :meth:`PydanticAdapter.kept_key`)
_KEPT = ("model", "type")


def loaded(module: str, name: str) -> Any:
    """``module.name`` when ``module`` is already imported, else ``None`` (imports nothing)."""
    found = sys.modules.get(module)
    return None if found is None else getattr(found, name, None)


def kind_of(source: object) -> Kind | None:
    """Which kind of pydantic source this is, or ``None`` when it is none."""
    type_adapter = loaded("pydantic.type_adapter", "TypeAdapter")
    if type_adapter is not None and isinstance(source, type_adapter):
        return "adapter"
    if not isinstance(source, type):
        return None
    try:
        base = loaded("pydantic.main", "BaseModel")
        if base is not None and issubclass(source, base):
            return "model"
        # never import pydantic.v1 ourselves: a program with a v1 model already has
        v1 = loaded("pydantic.v1.main", "BaseModel")
        if v1 is not None and issubclass(source, v1):
            return "v1"
        typeddict = issubclass(source, dict) and hasattr(source, "__required_keys__")
    except TypeError:  # generic aliases pass isinstance(_, type) but not issubclass
        return None
    if typeddict or hasattr(source, "__dataclass_fields__"):
        return "type"
    return None


class PydanticAdapter(AdapterBase):
    """The adapter for pydantic models and the types pydantic validates as objects.

    It accepts ``BaseModel`` subclasses (v2 and ``pydantic.v1``), pydantic
    dataclasses and a ready ``TypeAdapter``; with ``adapter="pydantic"``, a plain
    ``TypedDict`` or dataclass too. The schema is pydantic's own (by alias) without
    titles; the parser is pydantic's validation (lax, by alias).
    """

    name = "pydantic"

    def accepts(self, source: object) -> bool:
        """Whether ``source`` is pydantic's own: a model, a pydantic dataclass or a ``TypeAdapter``.

        A plain dataclass or a ``TypedDict`` is the built-in adapter's, whether
        pydantic is installed or not (a tool must not change with what is
        installed); ``adapter="pydantic"`` still compiles one on purpose.
        """
        kind = kind_of(source)
        if kind != "type":
            return kind is not None
        # a pydantic dataclass (made by ``pydantic.dataclasses.dataclass``)
        return hasattr(source, "__dataclass_fields__") and hasattr(source, "__pydantic_fields__")

    def kept_key(
        self, source: Any, unknown_arguments: UnknownArguments, field_schema: FieldSchema | None
    ) -> Hashable | None:
        """The class and the policy, for a complete pydantic 2 model, dataclass or ``TypedDict``.

        pydantic writes the whole schema (no plugin's field schema is asked):
        the class and the policy decide it. A ``TypeAdapter``, a ``pydantic.v1``
        model (whose forward references can still change) and a model not
        complete yet (completed, it has another schema) are compiled per tool.
        """
        complete = getattr(source, "__pydantic_complete__", True)
        return (source, unknown_arguments) if complete and kind_of(source) in _KEPT else None

    def build(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments,
        field_schema: FieldSchema | None,
        parser: bool,
    ) -> Compiled:
        """The model's JSON Schema and the parser validating with pydantic.

        Under ``"reject"`` every object says ``additionalProperties: false``
        (pydantic 2.12 and later forbid extra keys at every level for one
        validation), or only the top level (older versions, ``pydantic.v1``).
        """
        from ._parser import VALIDATE_EXTRA, make_parser
        from ._schema import build

        kind = kind_of(source)
        name = getattr(source, "__qualname__", None) or repr(source)
        if kind is None:
            raise ValueError(f"{name} is not a pydantic model or a type pydantic validates")
        if kind == "type":  # a TypedDict or dataclass: through one TypeAdapter, for both
            from pydantic import TypeAdapter

            source, kind = TypeAdapter(source), "adapter"
        reject = unknown_arguments == "reject"
        schema = build(source, kind, reject=reject, nested=VALIDATE_EXTRA and kind != "v1")
        if schema.get("type") != "object":
            found = schema.get("type") or "not a plain object"
            raise ValueError(
                f"{name} does not describe a JSON object ({found}); tool arguments are "
                "always one object, so use a model, TypedDict or dataclass"
            )
        # the top-level names in the model's order (its rejections list them too)
        accepted = tuple(schema.get("properties") or ())
        made = make_parser(source, kind, unknown_arguments, accepted) if parser else None
        return Compiled(schema, made, accepted=accepted)

    def serialize(self, value: object) -> str | None:
        """JSON text for a returned pydantic model or pydantic dataclass instance."""
        base = loaded("pydantic.main", "BaseModel")
        if base is None:
            return None  # pydantic was never imported: value cannot be one of its models
        from pydantic_core import PydanticSerializationError

        try:
            if isinstance(value, base):
                return str(value.model_dump_json())
            serializer = getattr(type(value), "__pydantic_serializer__", None)
            if serializer is not None and hasattr(type(value), "__dataclass_fields__"):
                # a pydantic dataclass: its own serializer, built with the class
                return str(serializer.to_json(value).decode())
            v1 = loaded("pydantic.v1.main", "BaseModel")
            if v1 is not None and isinstance(value, v1):
                return str(value.json())
        except (PydanticSerializationError, TypeError, ValueError):
            return None  # the core then says the tool returned something it cannot show
        return None

    def keywords(self, value: object) -> dict[str, Any]:
        """The body's keyword arguments for a parsed value: fields by attribute name."""
        base = loaded("pydantic.main", "BaseModel")
        if base is not None and isinstance(value, base):
            # a v2 model keeps exactly its field values in __dict__ (extras live elsewhere)
            fields = dict(value.__dict__)
            # a model built from a signature renamed the parameters pydantic cannot name
            renamed: dict[str, str] = getattr(type(value), "toolparse_renamed", None) or {}
            return {renamed.get(k) or k: v for k, v in fields.items()} if renamed else fields
        v1 = loaded("pydantic.v1.main", "BaseModel")
        if v1 is not None and isinstance(value, v1):
            return {name: getattr(value, name) for name in type(value).__fields__}
        return default_keywords(value)

    def from_signature(self, name: str, params: Sequence[SignatureParam]) -> type:
        """A model whose fields are a plain function's parameters (for ``@tool``)."""
        from ._signature import model_from_signature

        return model_from_signature(name, params)
