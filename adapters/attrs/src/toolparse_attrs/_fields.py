"""The fields of a class as one converter reads them: key, type, default, checks."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from typing import Any

import attrs
import cattrs

from ._converter import get_structure_hook

__all__ = ["NO_DEFAULT", "ClassInfo", "FieldInfo", "Fields", "convert", "init_name"]


class _NoDefault:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NO_DEFAULT"


#: A field without a default (it is required).
NO_DEFAULT: Any = _NoDefault()


@dataclasses.dataclass(frozen=True)
class FieldInfo:
    """One field: the attribute, the key the model sends, what it holds."""

    name: str
    key: str
    type: Any  #: the resolved annotation (``None``: not annotated)
    default: Any  #: :data:`NO_DEFAULT`, a value, or an ``attrs.Factory``
    field: Any  #: the ``attrs.Attribute`` or ``dataclasses.Field``
    validator: Any = None
    converter: Any = None
    #: the structure hook the converter's class hook uses instead of the type's
    hook: Any = None
    metadata: typing.Mapping[Any, Any] = dataclasses.field(default_factory=dict)

    @property
    def required(self) -> bool:
        """Whether the model must send this field."""
        return self.default is NO_DEFAULT


@dataclasses.dataclass(frozen=True)
class ClassInfo:
    """A class's fields in declaration order, by attribute name and by key."""

    cls: type
    fields: tuple[FieldInfo, ...]
    description: str | None

    @functools.cached_property
    def by_name(self) -> dict[str, FieldInfo]:
        """The fields by attribute name."""
        return {f.name: f for f in self.fields}

    @functools.cached_property
    def keys(self) -> dict[str, str]:
        """The key the model sends for each field, by attribute name."""
        return {f.name: f.key for f in self.fields}

    @functools.cached_property
    def positions(self) -> dict[str, int]:
        """Each field's place in :attr:`fields`, by attribute name."""
        return {f.name: i for i, f in enumerate(self.fields)}

    @functools.cached_property
    def validated_after(self) -> tuple[tuple[FieldInfo, ...], ...]:
        """For each place in :attr:`fields`, the fields after it that have a validator.

        Worked out once per class: a rejected call whose ``__init__`` stopped at
        a validator runs these, the ones attrs never reached.
        """
        fields = self.fields
        return tuple(
            tuple(f for f in fields[i + 1 :] if f.validator is not None) for i in range(len(fields))
        )

    @functools.cached_property
    def is_attrs(self) -> bool:
        """Whether the class is an attrs class (else a dataclass)."""
        return attrs.has(self.cls)

    @functools.cached_property
    def init_code(self) -> Any:
        """The code of the ``__init__`` attrs generated for the class (``None``: not one).

        A rejected call tells from it, without searching its traceback, that
        ``__init__`` itself raised.
        """
        code = getattr(getattr(self.cls, "__init__", None), "__code__", None)
        if (
            code is None
            or code.co_name not in ("__init__", "__attrs_init__")
            or not code.co_filename.startswith("<attrs generated")
        ):
            return None
        return code

    @functools.cached_property
    def plain_stops(
        self,
    ) -> dict[int, tuple[FieldInfo, tuple[FieldInfo, ...], dict[bool, str]]]:
        """The lines of that ``__init__`` that call a plain validator, by line number.

        For each, the field it validates, the fields after it with a
        validator (attrs never reached those), and the validator's words once
        said (by whether the value was a string). A validator made of parts
        (``and_``, ``optional``, ``deep_iterable``, ``deep_mapping``) is not
        in it: which part raised is read from its frames.
        """
        from ._resumption import COMBINATORS, init_line

        code = self.init_code
        if code is None:
            return {}
        stops: dict[int, tuple[FieldInfo, tuple[FieldInfo, ...], dict[bool, str]]] = {}
        for _, _, line in code.co_lines():
            call = init_line(code.co_filename, line) if line else None
            at = self.positions.get(call[1]) if call and call[0] == "validator" else None
            if at is not None and type(self.fields[at].validator).__name__ not in COMBINATORS:
                stops[line] = (self.fields[at], self.validated_after[at], {})
        return stops

    @functools.cached_property
    def checked_names(self) -> frozenset[str]:
        """The fields with a validator or an attrs converter."""
        return frozenset(
            f.name for f in self.fields if f.validator is not None or f.converter is not None
        )

    @functools.cached_property
    def checked(self) -> bool:
        """Whether any field has a validator or an attrs converter."""
        return bool(self.checked_names)


class Fields:
    """Reads classes as one converter structures them (cached per class)."""

    def __init__(self, converter: cattrs.BaseConverter) -> None:
        self.converter = converter
        #: the classes read so far (:meth:`info` fills it), for lookups on the error path
        self.cache: dict[type, ClassInfo] = {}

    @property
    def read(self) -> typing.Iterable[ClassInfo]:
        """The classes read so far (a class's own and its nested ones, once read)."""
        return self.cache.values()

    def info(self, cls: type) -> ClassInfo:
        """The :class:`ClassInfo` of an attrs class or dataclass."""
        found = self.cache.get(cls)
        if found is None:
            found = self.cache[cls] = self._read(cls)
        return found

    def _read(self, cls: type) -> ClassInfo:
        try:
            hook = get_structure_hook(self.converter, cls)
        except Exception:
            # cattrs cannot structure a field's type; the schema says which
            # (and the parser, built next, fails with cattrs' own words)
            hook = None
        # the renames and omissions the converter's hook was generated with
        overrides: dict[str, Any] = getattr(hook, "overrides", None) or {}
        use_alias = bool(getattr(self.converter, "use_alias", False))
        fields: list[FieldInfo] = []
        if attrs.has(cls):
            attrs.resolve_types(cls)
            for a in attrs.fields(cls):
                found = overrides.get(a.name)
                if not a.init or (found is not None and found.omit):
                    continue
                alias = getattr(a, "alias", None) or a.name
                key = found.rename if found is not None and found.rename else None
                fields.append(
                    FieldInfo(
                        name=a.name,
                        key=key or (alias if use_alias else a.name),
                        type=a.type,
                        default=NO_DEFAULT if a.default is attrs.NOTHING else a.default,
                        field=a,
                        validator=a.validator,
                        converter=a.converter,
                        metadata=a.metadata,
                        hook=found.struct_hook if found is not None else None,
                    )
                )
        else:
            hints = typing.get_type_hints(cls, include_extras=True)
            for f in dataclasses.fields(cls):
                found = overrides.get(f.name)
                if not f.init or (found is not None and found.omit):
                    continue
                default: Any = f.default
                if f.default_factory is not dataclasses.MISSING:
                    default = attrs.Factory(f.default_factory)
                elif default is dataclasses.MISSING:
                    default = NO_DEFAULT
                key = found.rename if found is not None and found.rename else None
                fields.append(
                    FieldInfo(
                        name=f.name,
                        key=key or f.name,
                        type=hints.get(f.name, f.type),
                        default=default,
                        field=f,
                        metadata=f.metadata,
                        hook=found.struct_hook if found is not None else None,
                    )
                )
        return ClassInfo(cls, tuple(fields), _docstring(cls))


def _docstring(cls: type) -> str | None:
    """The class docstring, unless it is the one ``dataclasses`` makes up."""
    doc = cls.__dict__.get("__doc__")
    if not doc:
        return None
    if dataclasses.is_dataclass(cls) and doc.startswith(f"{cls.__name__}("):
        return None
    return inspect.cleandoc(doc)


def init_name(f: FieldInfo) -> str:
    """The ``__init__`` argument a field is passed as (cattrs' key for it)."""
    return getattr(f.field, "alias", None) or f.name.lstrip("_")


def convert(f: FieldInfo, value: Any, instance: Any) -> Any:
    """``value`` through the field's attrs converter, as attrs' ``__init__`` passes it."""
    converter = f.converter
    # attrs >= 24.1 wraps converters that want the instance or the field
    if type(converter).__name__ == "Converter" and hasattr(converter, "takes_self"):
        args: list[Any] = [value]
        if converter.takes_self:
            args.append(instance)
        if converter.takes_field:
            args.append(f.field)
        return converter.converter(*args)
    return converter(value)
