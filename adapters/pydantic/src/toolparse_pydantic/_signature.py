"""Models built from a plain function's parameters, for ``@tool``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, create_model

from toolparse.adapter import EMPTY, SignatureParam

__all__ = ["SignatureModel", "model_from_signature"]


class SignatureModel(BaseModel):
    """The base of every model built from a function signature.

    A parameter whose name pydantic cannot use as a field name (``_private``,
    ``json``, ``schema``: a ``BaseModel`` attribute) is a field of another
    name with the parameter's name as its alias; :attr:`toolparse_renamed`
    maps it back for the keyword arguments of the body.
    """

    # parameter names such as ``model_name`` are ordinary arguments here
    model_config = ConfigDict(protected_namespaces=())

    #: field name -> parameter name, for the fields that had to be renamed
    toolparse_renamed: ClassVar[dict[str, str]] = {}


def _field_name(name: str, taken: set[str]) -> str:
    """A field name pydantic accepts for the parameter ``name``."""
    if not name.startswith("_") and not hasattr(SignatureModel, name):
        return name
    stem = name.strip("_") or "param"
    candidate = f"{stem}_param"
    i = 1
    while candidate in taken or hasattr(SignatureModel, candidate):
        i += 1
        candidate = f"{stem}_param{i}"
    return candidate


def model_from_signature(name: str, params: Sequence[SignatureParam]) -> type[SignatureModel]:
    """Build one model whose fields are the function's parameters.

    Defaults and descriptions are kept; pydantic reads ``Annotated[...,
    Field(...)]`` as usual (a ``description`` from the docstring over it).
    """
    taken = {p.name for p in params}
    fields: dict[str, Any] = {}
    renamed: dict[str, str] = {}
    for p in params:
        field = _field_name(p.name, taken)
        taken.add(field)
        options: dict[str, Any] = {}
        if field != p.name:
            options["alias"] = p.name
            renamed[field] = p.name
        # an explicit None would override a description given in Annotated
        if p.description is not None:
            options["description"] = p.description
        default = ... if p.default is EMPTY else p.default
        fields[field] = (p.annotation, Field(default, **options))
    model: type[SignatureModel] = create_model(name, __base__=SignatureModel, **fields)
    model.toolparse_renamed = renamed
    return model
