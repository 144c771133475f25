"""Parameters: a tool's, declared one by one, and a plain function's, for ``@tool``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .errors import FunctionDefinitionError

__all__ = ["EMPTY", "FunctionParam", "SignatureParam"]

TYPES = ("string", "integer", "number", "boolean", "array", "object")
_ENUM_TYPES = ("string", "integer", "number")
#: the keyword options of a FunctionParam, in the order its repr shows them
_OPTIONS = ("item_type", "enum", "description", "required", "object_properties")


class _Empty:
    __slots__ = ()

    def __repr__(self) -> str:
        return "EMPTY"


#: Marks a signature parameter without a default.
EMPTY: Any = _Empty()


class SignatureParam:
    """One parameter of a plain function, for an adapter's optional ``from_signature``.

    :param name: the parameter name (also the argument name the model sends).
    :param annotation: its type annotation, resolved (``inspect.Parameter.empty``
        resolved to ``typing.Any``).
    :param default: its default, or :data:`EMPTY` when it is required.
    :param description: its description (from ``Annotated`` or the docstring).
    """

    __slots__ = ("annotation", "default", "description", "name")

    def __init__(
        self, name: str, annotation: Any, default: Any = EMPTY, description: str | None = None
    ) -> None:
        self.name = name
        self.annotation = annotation
        self.default = default
        self.description = description

    @property
    def required(self) -> bool:
        """Whether the parameter has no default."""
        return self.default is EMPTY

    def __repr__(self) -> str:
        return (
            f"SignatureParam({self.name!r}, {self.annotation!r}, "
            f"default={self.default!r}, description={self.description!r})"
        )


class FunctionParam:
    """One parameter of a tool, converted to JSON Schema.

    :param name: the argument name the model sends.
    :param type: one of ``"string"``, ``"integer"``, ``"number"``,
        ``"boolean"``, ``"array"``, ``"object"``.
    :param item_type: the JSON type of an array's items (arrays only).
    :param enum: the allowed values (string, integer and number only).
    :param description: shown to the model.
    :param required: whether the model must send it.
    :param object_properties: the nested parameters of an ``object``, or of an
        ``array`` whose ``item_type`` is ``"object"`` (required for both).

    A bad parameter raises :class:`~toolparse.FunctionDefinitionError` naming
    every problem. Instances are immutable.
    """

    __slots__ = (
        "description",
        "enum",
        "item_type",
        "name",
        "object_properties",
        "required",
        "type",
    )

    name: str
    type: str
    item_type: str | None
    enum: tuple[Any, ...]
    description: str | None
    required: bool
    object_properties: tuple[FunctionParam, ...]

    def __init__(
        self,
        name: str,
        type: str,
        *,
        item_type: str | None = None,
        enum: Iterable[Any] | None = None,
        description: str | None = None,
        required: bool = False,
        object_properties: Iterable[FunctionParam] = (),
    ) -> None:
        enum_values = tuple(enum or ())
        props = tuple(object_properties or ())
        errors = _shape_errors(type, item_type, enum_values, props)
        if not isinstance(name, str) or not name.strip():
            errors.insert(0, ("name", "can't be blank"))
        if description is not None and not isinstance(description, str):
            errors.append(("description", "must be a string"))
        if not isinstance(required, bool):
            # a definition error, read by the programmer about a Python value
            # (True/False), not a JSON problem a model reads: Python's words
            errors.append(("required", "must be a boolean"))
        if errors:
            raise FunctionDefinitionError(errors, subject=f"parameter {name!r}")
        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "type", type)
        set_(self, "item_type", item_type)
        set_(self, "enum", enum_values)
        set_(self, "description", description)
        set_(self, "required", required)
        set_(self, "object_properties", props)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("FunctionParam is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt through the constructor (and its checks), never set slot by slot
        options = {f: getattr(self, f) for f in _OPTIONS}
        return (_rebuilt, (self.name, self.type, options))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FunctionParam):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, f) for f in self.__slots__))

    def __repr__(self) -> str:
        extras = "".join(
            f", {f}={getattr(self, f)!r}"
            for f in _OPTIONS
            if getattr(self, f) not in (None, (), False)
        )
        return f"FunctionParam({self.name!r}, {self.type!r}{extras})"

    def to_json_schema(self) -> dict[str, Any]:
        """This parameter's property schema."""
        schema: dict[str, Any]
        if self.type == "object":
            schema = FunctionParam.to_parameters_schema(self.object_properties)
        elif self.type == "array":
            schema = {"type": "array"}
            if self.item_type == "object":
                schema["items"] = FunctionParam.to_parameters_schema(self.object_properties)
            elif self.item_type is not None:
                schema["items"] = {"type": self.item_type}
        else:
            schema = {"type": self.type}
            if self.enum:
                schema["enum"] = list(self.enum)
        if self.description is not None:
            schema["description"] = self.description
        return schema

    @staticmethod
    def to_parameters_schema(params: Iterable[FunctionParam]) -> dict[str, Any]:
        """The object schema for ``params``: closed at every level.

        Emits ``type``, ``properties``, ``required`` (declaration order) and
        ``additionalProperties: false``.
        """
        params = tuple(params)
        return {
            "type": "object",
            "properties": {p.name: p.to_json_schema() for p in params},
            "required": FunctionParam.required_properties(params),
            "additionalProperties": False,
        }

    @staticmethod
    def required_properties(params: Sequence[FunctionParam]) -> list[str]:
        """The names of the required parameters, in declaration order."""
        return list(dict.fromkeys(p.name for p in params if p.required))


def _rebuilt(name: str, type: str, options: dict[str, Any]) -> FunctionParam:
    """A FunctionParam again, from what its ``__reduce__`` kept."""
    return FunctionParam(name, type, **options)


def _shape_errors(
    type: str, item_type: str | None, enum: tuple[Any, ...], props: tuple[Any, ...]
) -> list[tuple[str, str]]:
    """What is wrong with a parameter's type and what depends on it (the Elixir rules)."""
    errors: list[tuple[str, str]] = []
    if type not in TYPES:
        errors.append(("type", f"must be one of {', '.join(TYPES)} (got {type!r})"))
    if enum and type not in _ENUM_TYPES:
        errors.append(("enum", f"not allowed for type {type!r}"))
    if item_type is not None and type != "array":
        errors.append(("item_type", f"not allowed for type {type!r}"))
    elif item_type is not None and (item_type not in TYPES):
        errors.append(("item_type", f"must be one of {', '.join(TYPES)} (got {item_type!r})"))
    object_items = type == "array" and item_type == "object"
    if type == "object" and not props:
        errors.append(("object_properties", "is required for object type"))
    elif object_items and not props:
        errors.append(("object_properties", "required when array type of object is used"))
    elif props and type != "object" and not object_items:
        errors.append(("object_properties", f"not allowed for type {type!r}"))
    errors.extend(
        (f"object_properties[{i}]", f"expected a FunctionParam, got {prop!r:.60}")
        for i, prop in enumerate(props)
        if not isinstance(prop, FunctionParam)
    )
    return errors
