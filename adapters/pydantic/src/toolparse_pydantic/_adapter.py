"""The pydantic adapter: models in, JSON Schema and a validating parser out.

This module imports nothing from pydantic: :meth:`PydanticAdapter.accepts` runs
for every tool, whatever its library, and decides from the source's type and
from whether pydantic is imported at all (a model cannot exist before it is).
pydantic is imported by :meth:`PydanticAdapter.compile`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, Literal

from toolparse.adapter import (
    Compiled,
    FieldSchema,
    KeptForms,
    SignatureParam,
    UnknownArguments,
    check_policy,
)
from toolparse.adapter import keywords as default_keywords

__all__ = ["PydanticAdapter"]

Kind = Literal["model", "v1", "type", "adapter"]

#: the classes whose compiled form is kept (per policy); past them the oldest goes
_KEPT = 256


def _loaded(module: str, name: str) -> Any:
    """``module.name`` when ``module`` is already imported, else ``None`` (imports nothing)."""
    found = sys.modules.get(module)
    return None if found is None else getattr(found, name, None)


def kind_of(source: object) -> Kind | None:
    """Which kind of pydantic source this is, or ``None`` when it is none."""
    type_adapter = _loaded("pydantic.type_adapter", "TypeAdapter")
    if type_adapter is not None and isinstance(source, type_adapter):
        return "adapter"
    if not isinstance(source, type):
        return None
    try:
        base = _loaded("pydantic.main", "BaseModel")
        if base is not None and issubclass(source, base):
            return "model"
        # never import pydantic.v1 ourselves: a program with a v1 model already has
        v1 = _loaded("pydantic.v1.main", "BaseModel")
        if v1 is not None and issubclass(source, v1):
            return "v1"
        typeddict = issubclass(source, dict) and hasattr(source, "__required_keys__")
    except TypeError:  # generic aliases pass isinstance(_, type) but not issubclass
        return None
    if typeddict or hasattr(source, "__dataclass_fields__"):
        return "type"
    return None


def _compile(source: Any, kind: Kind, policy: str, parser: bool) -> Compiled:
    """Compile ``source`` (of ``kind``) under ``policy``: the schema, and the parser if asked."""
    from ._parser import make_parser
    from ._schema import build

    schema = build(source, kind, reject=policy == "reject")
    accepted = tuple(schema.get("properties") or ())
    required = [name for name in schema.get("required", ()) if isinstance(name, str)]
    made = make_parser(source, kind, policy, accepted) if parser else None
    return Compiled(schema, made, accepted=accepted, required=required)


def _pydantic_dataclass(source: object) -> bool:
    """Whether ``source`` was made by ``pydantic.dataclasses.dataclass``."""
    return hasattr(source, "__dataclass_fields__") and hasattr(source, "__pydantic_fields__")


class PydanticAdapter:
    """The adapter for pydantic models and the types pydantic validates as objects.

    It accepts ``BaseModel`` subclasses (v2 and ``pydantic.v1``), pydantic
    dataclasses and a ready ``TypeAdapter``; with ``adapter="pydantic"`` it
    also compiles a plain ``TypedDict`` or dataclass (through ``TypeAdapter``).
    The schema is pydantic's own (by alias, validation mode) without titles;
    the parser is pydantic's validation in its default (lax) mode, by alias.
    """

    name = "pydantic"

    def __init__(self) -> None:
        #: (class, policy) -> what compiling it gave (the last 256 used)
        self._compiled = KeptForms(_KEPT)

    def accepts(self, source: object) -> bool:
        """Whether ``source`` is pydantic's own: a model, a pydantic dataclass or a ``TypeAdapter``.

        A plain dataclass or a ``TypedDict`` is the built-in adapter's, whether
        pydantic is installed or not (a tool must not change with what is
        installed); ``adapter="pydantic"`` still compiles one on purpose.
        """
        kind = kind_of(source)
        return kind is not None and (kind != "type" or _pydantic_dataclass(source))

    def compile(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments = "report",
        field_schema: FieldSchema | None = None,
        parser: bool = True,
    ) -> Compiled:
        """The model's JSON Schema (generated once) and the parser validating with pydantic.

        Under ``"reject"`` the schema says ``additionalProperties: false`` on
        every object (pydantic 2.12 and later, which can forbid extra keys at
        every level for one validation) or at the top level (older versions
        and ``pydantic.v1`` models). pydantic writes the whole schema itself,
        so ``field_schema`` is not consulted.

        A class's compiled form (a pydantic 2 model, dataclass or
        ``TypedDict``) is kept per policy, for the last 256 classes: another
        tool of it gets its own copy of the schema and shares the parser
        (pydantic's validator and the reasons it remembers), and the compiled
        form has a ``key`` (the class and the policy), so the core shares the
        steps it builds from the schema too. A ``TypeAdapter``
        and a ``pydantic.v1`` model (whose forward references can still
        change) are compiled each time.
        """
        policy = check_policy(unknown_arguments)
        kind = kind_of(source)
        if kind is None:
            name = getattr(source, "__qualname__", None) or repr(source)
            raise ValueError(f"{name} is not a pydantic model or a type pydantic validates")
        if kind not in ("model", "type"):
            return _compile(source, kind, policy, parser)
        # the class and the policy decide the schema (pydantic writes it all,
        # no plugin's field schema is asked): the key says so to the core
        key = (source, policy)
        kept = self._compiled.get(key, parser=parser)
        if kept is not None:
            return kept
        found = _compile(source, kind, policy, True)
        if not getattr(source, "__pydantic_complete__", True):
            # a model completed later has another schema: nothing kept, no key
            found.parser = found.parser if parser else None
            return found
        return self._compiled.keep(key, found, parser=parser)

    def json_schema(
        self, source: Any, *, unknown_arguments: UnknownArguments = "report"
    ) -> dict[str, Any]:
        """The schema alone (see :meth:`compile`)."""
        return self.compile(source, unknown_arguments=unknown_arguments, parser=False).schema

    def parser(self, source: Any, *, unknown_arguments: UnknownArguments = "report") -> Any:
        """The parser alone (see :meth:`compile`)."""
        return self.compile(source, unknown_arguments=unknown_arguments).parser

    def serialize(self, value: object) -> str | None:
        """JSON text for a returned pydantic model or pydantic dataclass instance."""
        base = _loaded("pydantic.main", "BaseModel")
        if base is None:
            return None  # pydantic was never imported: value cannot be one of its models
        from ._parser import serialize

        return serialize(value, base)

    def keywords(self, value: object) -> dict[str, Any]:
        """The body's keyword arguments for a parsed value: fields by attribute name."""
        base = _loaded("pydantic.main", "BaseModel")
        if base is not None and isinstance(value, base):
            from ._signature import SignatureModel

            # a v2 model keeps exactly its field values in __dict__ (extras live elsewhere)
            fields = dict(value.__dict__)
            if isinstance(value, SignatureModel) and value.toolparse_renamed:
                renamed = value.toolparse_renamed
                return {str(renamed.get(k) or k): v for k, v in fields.items()}
            return fields
        v1 = _loaded("pydantic.v1.main", "BaseModel")
        if v1 is not None and isinstance(value, v1):
            return {name: getattr(value, name) for name in type(value).__fields__}
        return default_keywords(value)

    def from_signature(self, name: str, params: Sequence[SignatureParam]) -> type:
        """A model whose fields are a plain function's parameters (for ``@tool``)."""
        from ._signature import model_from_signature

        return model_from_signature(name, params)
