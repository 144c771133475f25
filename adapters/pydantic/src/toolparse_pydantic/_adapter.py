"""The pydantic adapter: models in, JSON Schema and a validating parser out."""

from __future__ import annotations

import dataclasses
import inspect
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Literal

import typing_extensions
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError

from toolparse import Error, Ok, SignatureParam, invalid_arguments
from toolparse.adapter import UnknownArguments
from toolparse.adapter import keywords as default_keywords

from . import _errors, _schema
from ._signature import SignatureModel, model_from_signature

__all__ = ["PydanticAdapter"]

_Kind = Literal["model", "v1", "type", "adapter"]

# pydantic 2.12 and later can forbid extra keys for one validation call, at
# every level; older versions only through each model's own config
_VALIDATE_EXTRA = "extra" in inspect.signature(TypeAdapter.validate_python).parameters

_new = tuple.__new__  # builds an Ok without its Python-level __new__ (hot path)


def _v1_module() -> Any:
    # never import pydantic.v1 ourselves: a program with a v1 model already has
    return sys.modules.get("pydantic.v1.main")


def _kind(source: object) -> _Kind | None:
    """Which kind of pydantic source this is, or ``None`` when it is none."""
    if isinstance(source, TypeAdapter):
        return "adapter"
    if not isinstance(source, type):
        return None
    try:
        if issubclass(source, BaseModel):
            return "model"
        v1 = _v1_module()
        if v1 is not None and issubclass(source, v1.BaseModel):
            return "v1"
    except TypeError:  # generic aliases pass isinstance(_, type) but not issubclass
        return None
    if typing_extensions.is_typeddict(source) or dataclasses.is_dataclass(source):
        return "type"
    return None


def _describe(source: object) -> str:
    return getattr(source, "__qualname__", None) or repr(source)


class PydanticAdapter:
    """The adapter for pydantic models and the types pydantic validates as objects.

    It accepts ``BaseModel`` subclasses (v2 and ``pydantic.v1``), any
    ``TypedDict``, dataclass or pydantic dataclass (through ``TypeAdapter``),
    and a ready ``TypeAdapter`` of one. The schema is pydantic's own (by alias, validation mode) without titles;
    the parser is pydantic's validation in its default (lax) mode, by alias.
    """

    name = "pydantic"

    def accepts(self, source: object) -> bool:
        """Whether ``source`` is a pydantic model or a type pydantic validates as an object."""
        return _kind(source) is not None

    def json_schema(
        self, source: Any, *, unknown_arguments: UnknownArguments = "report"
    ) -> dict[str, Any]:
        """The model's JSON Schema, by alias, without titles.

        Under ``"reject"`` it says ``additionalProperties: false`` on every
        object (pydantic 2.12 and later, which can forbid extra keys at every
        level for one validation) or at the top level (older versions and
        ``pydantic.v1`` models).
        """
        kind = _kind(source)
        if kind is None:
            raise ValueError(
                f"{_describe(source)} is not a pydantic model or a type pydantic validates"
            )
        if kind == "v1":
            raw = _schema.from_v1(source.schema(by_alias=True, ref_template="#/$defs/{model}"))
        elif kind == "model":
            raw = source.model_json_schema(by_alias=True, schema_generator=_schema.Generator)
        else:
            adapter = source if kind == "adapter" else TypeAdapter(source)
            raw = adapter.json_schema(by_alias=True, schema_generator=_schema.Generator)
        reject = unknown_arguments == "reject"
        schema = _schema.clean(_inline_top(raw), close=reject and kind != "v1" and _VALIDATE_EXTRA)
        _schema.object_schema(schema, _describe(source))
        if reject:
            schema["additionalProperties"] = False
        return schema  # type: ignore[no-any-return]

    def parser(
        self, source: Any, *, unknown_arguments: UnknownArguments = "report"
    ) -> Callable[[dict[str, Any]], Ok[Any] | Error]:
        """A parser validating with pydantic, built once for ``source``."""
        kind = _kind(source)
        accepted = tuple(self.json_schema(source).get("properties") or ())
        if kind == "v1":
            # already imported by whoever defined the model
            from pydantic.v1 import ValidationError as V1ValidationError

            return _make_parser(source.parse_obj, V1ValidationError, _v1_problems, accepted)
        validate: Any  # pydantic-core's validate_python, or TypeAdapter's
        if kind == "model":
            if not getattr(source, "__pydantic_complete__", True):
                source.model_rebuild()
            # the validator itself: model_validate is a Python-level wrapper around it
            validate = source.__pydantic_validator__.validate_python
        else:
            validate = (source if kind == "adapter" else TypeAdapter(source)).validate_python
        if unknown_arguments == "reject" and _VALIDATE_EXTRA:
            validate = partial(validate, extra="forbid")
        return _make_parser(validate, ValidationError, _v2_problems, accepted)

    def serialize(self, value: object) -> str | None:
        """JSON text for a returned pydantic model or pydantic dataclass instance."""
        try:
            if isinstance(value, BaseModel):
                return value.model_dump_json()
            serializer = getattr(type(value), "__pydantic_serializer__", None)
            if serializer is not None and dataclasses.is_dataclass(value):
                # a pydantic dataclass: its own serializer, built with the class
                return str(serializer.to_json(value).decode())
            v1 = _v1_module()
            if v1 is not None and isinstance(value, v1.BaseModel):
                return str(value.json())
        except (PydanticSerializationError, TypeError, ValueError):
            return None  # the core then says the tool returned something it cannot show
        return None

    def keywords(self, value: object) -> dict[str, Any]:
        """The body's keyword arguments for a parsed value: fields by attribute name."""
        if isinstance(value, BaseModel):
            # a v2 model keeps exactly its field values in __dict__ (extras live elsewhere)
            fields = dict(value.__dict__)
            if isinstance(value, SignatureModel) and value.toolparse_renamed:
                renamed = value.toolparse_renamed
                return {renamed.get(k, k): v for k, v in fields.items()}
            return fields
        v1 = _v1_module()
        if v1 is not None and isinstance(value, v1.BaseModel):
            return {name: getattr(value, name) for name in type(value).__fields__}
        return default_keywords(value)

    def from_signature(self, name: str, params: Sequence[SignatureParam]) -> type[BaseModel]:
        """A model whose fields are a plain function's parameters (for ``@tool``)."""
        return model_from_signature(name, params)


def _inline_top(schema: dict[str, Any]) -> dict[str, Any]:
    """Inline a top-level ``$ref`` (pydantic writes one for a recursive model).

    Older pydantic versions write it as ``allOf: [{"$ref": ...}]``.
    """
    ref = schema.get("$ref")
    one = schema.get("allOf")
    if ref is None and isinstance(one, list) and len(one) == 1 and isinstance(one[0], dict):
        ref = one[0].get("$ref")
    defs = schema.get("$defs")
    prefix = "#/$defs/"
    if isinstance(ref, str) and ref.startswith(prefix) and isinstance(defs, dict):
        target = defs.get(ref[len(prefix) :])
        if isinstance(target, dict):
            rest = {k: v for k, v in schema.items() if k not in ("$ref", "allOf")}
            return {**target, **rest}
    return schema


def _v2_problems(exc: Any, arguments: Any) -> list[Any]:
    return _errors.problems(exc.errors(include_url=False, include_context=False), arguments)


def _v1_problems(exc: Any, arguments: Any) -> list[Any]:
    return _errors.problems_v1(exc.errors(), arguments)


def _make_parser(
    validate: Callable[[Any], Any],
    error_type: type[Exception],
    to_problems: Callable[[Any, Any], list[Any]],
    accepted: tuple[str, ...],
) -> Callable[[dict[str, Any]], Ok[Any] | Error]:
    def parse(arguments: dict[str, Any]) -> Ok[Any] | Error:
        try:
            value = validate(arguments)
        except error_type as exc:
            return invalid_arguments(
                to_problems(exc, arguments), arguments=arguments, accepted=accepted, cause=exc
            )
        return _new(Ok, (value, None))

    return parse
