"""The fields of a class as one converter reads them: key, type, default, checks."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from typing import Any

import attrs
import cattrs

from ._converter import hook_overrides

__all__ = ["NO_DEFAULT", "ClassInfo", "FieldInfo", "Fields", "convert", "default_of"]

#: A field without a default (it is required).
NO_DEFAULT: Any = attrs.NOTHING
# attrs >= 24.1 wraps a converter that wants the instance or the field
_CONVERTER: Any = getattr(attrs, "Converter", None)


@dataclasses.dataclass(frozen=True, eq=False)
class FieldInfo:
    """One field: the attribute, the key the model sends, what it holds."""

    name: str
    key: str
    type: Any  #: the resolved annotation (``None``: not annotated)
    default: Any  #: :data:`NO_DEFAULT`, a value, or an ``attrs.Factory``
    field: Any  #: the ``attrs.Attribute`` or ``dataclasses.Field``
    validator: Any
    converter: Any
    hook: Any  #: the structure hook the class hook uses instead of the type's

    @property
    def required(self) -> bool:
        """Whether the model must send this field."""
        return self.default is NO_DEFAULT


@dataclasses.dataclass(frozen=True, eq=False)
class ClassInfo:
    """A class's fields in declaration order."""

    cls: type
    fields: tuple[FieldInfo, ...]
    description: str | None

    @functools.cached_property
    def keys(self) -> dict[str, str]:
        """The key of each field, by attribute name (cattrs' notes name them so)."""
        return {f.name: f.key for f in self.fields}

    @functools.cached_property
    def checked(self) -> frozenset[str]:
        """The fields with a validator or an attrs converter (``__init__`` runs them)."""
        return frozenset(
            f.name for f in self.fields if f.validator is not None or f.converter is not None
        )


class Fields:
    """Reads classes as one converter structures them (each class once)."""

    def __init__(self, converter: cattrs.BaseConverter) -> None:
        self.converter = converter
        #: the classes read so far (a class's own and its nested ones)
        self.read: dict[type, ClassInfo] = {}

    def info(self, cls: type) -> ClassInfo:
        """The :class:`ClassInfo` of an attrs class or dataclass."""
        found = self.read.get(cls)
        if found is None:
            found = self.read[cls] = ClassInfo(cls, self._fields(cls), _docstring(cls))
        return found

    def _fields(self, cls: type) -> tuple[FieldInfo, ...]:
        overrides = hook_overrides(self.converter, cls)
        if attrs.has(cls):
            attrs.resolve_types(cls)
            alias = bool(getattr(self.converter, "use_alias", False))
            found = [
                _field(a, (a.alias or a.name) if alias else a.name, a.type, a.default, overrides)
                for a in attrs.fields(cls)
                if a.init
            ]
        else:
            hints = typing.get_type_hints(cls, include_extras=True)
            found = [
                _field(f, f.name, hints.get(f.name, f.type), _dataclass_default(f), overrides)
                for f in dataclasses.fields(cls)
                if f.init
            ]
        return tuple(f for f in found if f is not None)


def _field(
    field: Any, key: str, tp: Any, default: Any, overrides: dict[str, Any]
) -> FieldInfo | None:
    found = overrides.get(field.name)
    if found is not None and found.omit:
        return None
    mine = isinstance(field, attrs.Attribute)
    return FieldInfo(
        name=field.name,
        key=(found.rename if found is not None else None) or key,
        type=tp,
        default=default,
        field=field,
        validator=field.validator if mine else None,
        converter=field.converter if mine else None,
        hook=found.struct_hook if found is not None else None,
    )


def _dataclass_default(f: dataclasses.Field[Any]) -> Any:
    if f.default_factory is not dataclasses.MISSING:
        return attrs.Factory(f.default_factory)
    return NO_DEFAULT if f.default is dataclasses.MISSING else f.default


def _docstring(cls: type) -> str | None:
    """The class docstring, unless it is the one ``dataclasses`` makes up."""
    doc = cls.__dict__.get("__doc__")
    if not doc or (dataclasses.is_dataclass(cls) and doc.startswith(f"{cls.__name__}(")):
        return None
    return inspect.cleandoc(doc).strip()  # (cleandoc keeps the last line's trailing spaces)


def default_of(f: FieldInfo) -> Any:
    """What ``__init__`` gives a field left out (:data:`NO_DEFAULT`: none, or from the instance)."""
    default = f.default
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        return NO_DEFAULT if default.takes_self else default.factory()
    return default


def convert(f: FieldInfo, value: Any, instance: Any) -> Any:
    """``value`` through the field's attrs converter, as attrs' ``__init__`` passes it."""
    converter = f.converter
    if _CONVERTER is not None and isinstance(converter, _CONVERTER):
        extra = (instance,) * converter.takes_self + (f.field,) * converter.takes_field
        return converter.converter(value, *extra)
    return converter(value)
