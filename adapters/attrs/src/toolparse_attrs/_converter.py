"""The default converter: cattrs configured for the arguments an LLM sends.

cattrs structures leniently by default (``str(123)`` into a ``str`` field,
``int(True)`` into an ``int`` field, the characters of a string into a
``list[str]``). Arguments come from a model that must learn its mistakes, so
the converter built here refuses those coercions and says why in plain words
(the :class:`Rejected` reason), and reads ISO 8601 strings into
``datetime``/``date``.
"""

from __future__ import annotations

import collections.abc as cabc
import dataclasses
import datetime as dt
import typing
from collections.abc import Callable
from typing import Any

import attrs
import cattrs
from cattrs.disambiguators import is_supported_union
from cattrs.errors import IterableValidationError, IterableValidationNote
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from toolparse.adapter import type_reason

from ._inlining import inline_scalars
from ._scalars import (
    Rejected,
    enum_hook,
    literal_hook,
    parse_datetime,
    strict_bool,
    strict_date,
    strict_datetime,
    strict_float,
    strict_int,
    strict_str,
)
from ._types import (
    SETS,
    NoneType,
    describe,
    is_array,
    is_empty_tuple,
    is_enum,
    is_literal,
    is_model,
    json_kinds,
    union_members,
    unwrap,
)

__all__ = [
    "Rejected",
    "configure_converter",
    "default_converter",
    "get_structure_hook",
    "make_converter",
    "parse_datetime",
]


def get_structure_hook(converter: cattrs.BaseConverter, cls: Any) -> Any:
    """The converter's structure hook for ``cls`` (older cattrs has no public way)."""
    getter = getattr(converter, "get_structure_hook", None)
    if getter is not None:
        return getter(cls)
    return converter._structure_func.dispatch(cls)  # type: ignore[call-arg,misc]  # typed as an attribute, called as a method


# -- arrays -------------------------------------------------------------------

_NOT_AN_ARRAY = type_reason("array")


def _array_hook(converter: cattrs.BaseConverter) -> Callable[[Any], Any]:
    """A factory of strict array hooks: only a JSON array (list) is an array.

    cattrs would read any iterable (a string into its characters, an object
    into its keys). Errors carry cattrs' own notes, so they are walked like
    cattrs' own.
    """

    def factory(tp: Any) -> Callable[[Any, Any], Any]:
        origin = typing.get_origin(tp) or tp
        args = typing.get_args(tp)
        if is_empty_tuple(tp):
            return _fixed_tuple_hook(converter, tp, ())
        if origin is tuple and args and args[-1] is not Ellipsis:
            return _fixed_tuple_hook(converter, tp, args)
        item = args[0] if args else Any
        build: Callable[[list[Any]], Any]
        if origin is tuple:
            build = tuple
        elif origin is frozenset:
            build = frozenset
        elif origin in SETS:
            build = set
        else:
            build = list
        if item is Any:

            def structure_any(value: Any, _: Any) -> Any:
                if type(value) is not list and type(value) is not tuple:
                    raise Rejected(_NOT_AN_ARRAY)
                return list(value) if build is list else build(value)

            return structure_any
        handler: list[Any] = []  # resolved on first use: a class may contain itself
        # cattrs' texts for a failing item, worded once per type (a repr of a
        # generic type is not free, and this runs on every rejected array),
        # and the notes of the first items, each built once
        texts: tuple[str, str, dict[int, IterableValidationNote]] = (
            f"Structuring {tp!r} @ index ",
            f"While structuring {tp!r}",
            {},
        )

        def structure(value: Any, _: Any) -> Any:
            if type(value) is not list and type(value) is not tuple:
                raise Rejected(_NOT_AN_ARRAY)
            if not handler:
                handler.append(get_structure_hook(converter, item))
            hook = handler[0]
            out: list[Any] = []
            append = out.append
            try:
                for element in value:
                    append(hook(element, item))
            except Exception as exc:
                # go on from the item that failed: the ones before it are
                # structured (their validators ran) and are not structured again
                _failed(value, out, hook, item, tp, exc, texts)
            # the list built is the result (no copy of it for a list field)
            return out if build is list else build(out)

        return structure

    return factory


def _failed(
    value: Any,
    out: list[Any],
    hook: Any,
    item: Any,
    tp: Any,
    first: Exception,
    texts: tuple[str, str, dict[int, IterableValidationNote]],
) -> None:
    """Raise cattrs' error for an array whose item ``len(out)`` raised ``first``.

    The items after it are structured too (once each), so that every failing
    item is in the one error, with cattrs' notes. ``texts``: the start of each
    item's note, the error's message, and the notes built so far by index.
    """
    prefix, message, notes = texts
    start = len(out)
    errors = [_noted(first, prefix, start, item, notes)]
    try:
        for index in range(start + 1, len(value)):
            try:
                hook(value[index], item)
            except Exception as exc:
                errors.append(_noted(exc, prefix, index, item, notes))
        raise IterableValidationError(message, errors, tp)
    finally:
        # the error's traceback holds this frame: its locals must not hold the
        # items' errors (a reference cycle, left to the collector)
        del errors, first


#: the items whose note an array's hook keeps (a note reads the same on every call)
_KEPT_NOTES = 64


def _noted(
    exc: Exception, prefix: str, index: int, item: Any, notes: dict[int, IterableValidationNote]
) -> Exception:
    """``exc`` with cattrs' note for the array item at ``index``."""
    note = notes.get(index)
    if note is None:
        note = IterableValidationNote(f"{prefix}{index}", index, item)
        if index < _KEPT_NOTES:
            notes[index] = note
    exc.__notes__ = [*getattr(exc, "__notes__", []), note]  # type: ignore[attr-defined]  # not in 3.10 stubs; cattrs reads it
    return exc


def _fixed_tuple_hook(
    converter: cattrs.BaseConverter, tp: Any, args: tuple[Any, ...]
) -> Callable[[Any, Any], Any]:
    size = len(args)
    reason = f"must be {describe(tp)}"

    def structure(value: Any, _: Any) -> Any:
        if type(value) is not list and type(value) is not tuple:
            raise Rejected(_NOT_AN_ARRAY)
        if len(value) != size:
            raise Rejected(reason)
        out = []
        errors = []
        for index, (item, element) in enumerate(zip(args, value, strict=False)):
            try:
                out.append(get_structure_hook(converter, item)(element, item))
            except Exception as exc:
                note = IterableValidationNote(f"Structuring {tp!r} @ index {index}", index, item)
                exc.__notes__ = [*getattr(exc, "__notes__", []), note]  # type: ignore[attr-defined]  # not in 3.10 stubs; cattrs reads it
                errors.append(exc)
        if errors:
            raise IterableValidationError(f"While structuring {tp!r}", errors, tp)
        return tuple(out)

    return structure


# -- unions -------------------------------------------------------------------


def _is_mixed_union(tp: Any) -> bool:
    """A union cattrs has no hook for: not ``X | None``, not only classes."""
    members = [m for m in union_members(tp) if m is not NoneType]
    return len(members) > 1 and not is_supported_union(tp)


def _union_hook(converter: cattrs.BaseConverter) -> Callable[[Any], Any]:
    """A factory of hooks for unions of scalars, arrays and classes.

    Members are tried in order, the one whose Python type is exactly the
    value's first (so ``5`` stays an ``int`` in ``float | int``), and only
    those whose JSON kind fits the value. When exactly one member fits, its
    own error stands (with its nested paths); otherwise the problem lists
    what the union allows.
    """

    def factory(tp: Any) -> Callable[[Any, Any], Any]:
        members = union_members(tp)
        kinds = [(m, json_kinds(m)) for m in members]
        reason = f"must be {describe(tp)}"

        def structure(value: Any, _: Any) -> Any:
            kind = type(value)
            fitting = [m for m, allowed in kinds if kind in allowed]
            fitting.sort(key=lambda m: unwrap(m) is not kind)
            errors = []
            for member in fitting:
                if member is NoneType:
                    return None
                try:
                    return get_structure_hook(converter, member)(value, member)
                except Exception as exc:
                    errors.append(exc)
            if len(errors) == 1 and not isinstance(errors[0], Rejected):
                raise errors[0]  # an object or an array: its own paths say more
            raise Rejected(reason)

        return structure

    return factory


# -- classes ------------------------------------------------------------------


def field_keys(cls: type) -> dict[str, str]:
    """The key each field is read from: the attrs alias (the ``__init__`` name)."""
    if attrs.has(cls):
        return {a.name: getattr(a, "alias", None) or a.name for a in attrs.fields(cls)}
    return {f.name: f.name for f in dataclasses.fields(cls)}


def _class_hooks(
    converter: cattrs.Converter,
) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    def overrides(cls: type, structuring: bool) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for name, key in field_keys(cls).items():
            hook = None
            if structuring and attrs.has(cls):
                hook = _instance_of_hook(converter, attrs.fields_dict(cls)[name])
            if key != name or hook is not None:
                found[name] = override(rename=key if key != name else None, struct_hook=hook)
        return found

    def structure_factory(cls: Any) -> Any:
        if attrs.has(cls):
            attrs.resolve_types(cls)
        given = overrides(cls, True)
        hook = make_dict_structure_fn(
            cls,
            converter,
            _cattrs_forbid_extra_keys=converter.forbid_extra_keys,
            _cattrs_detailed_validation=converter.detailed_validation,
            **given,
        )
        if not hasattr(hook, "overrides"):  # cattrs < 24 does not record them
            hook.overrides = given  # type: ignore[attr-defined]
        return inline_scalars(hook)

    def unstructure_factory(cls: Any) -> Any:
        if attrs.has(cls):
            attrs.resolve_types(cls)
        return make_dict_unstructure_fn(cls, converter, **overrides(cls, False))

    return structure_factory, unstructure_factory


def _instance_of_hook(
    converter: cattrs.BaseConverter, field: attrs.Attribute[Any]
) -> Callable[[Any, Any], Any] | None:
    """For a field with no type but an ``instance_of`` validator: structure as that type.

    Without a type cattrs passes the value through untouched, and
    ``instance_of(float)`` would then refuse the ``3`` JSON Schema calls a number.
    """
    if field.type is not None:
        return None
    from ._validators import instance_of_type

    target = instance_of_type(field.validator)
    if target is None:
        return None
    return lambda value, _: converter.structure(value, target)


def configure_converter(converter: cattrs.Converter) -> cattrs.Converter:
    """Configure ``converter`` the way toolparse's default converter is, and return it.

    Registers strict hooks for ``str``, ``int``, ``float`` and ``bool`` (no
    ``123 -> "123"``, no ``True -> 1``; an ``int`` is accepted for ``float``
    and a number with no fractional part for ``int``), ``Literal`` and enums
    matched by value and type, arrays only from JSON arrays, unions of scalars
    tried member by member, ISO 8601 strings for ``datetime``/``date``, and
    attrs fields read under their alias. Your own hooks registered afterwards
    take precedence.
    """
    for kind, hook in (
        (str, strict_str),
        (int, strict_int),
        (float, strict_float),
        (bool, strict_bool),
        (dt.datetime, strict_datetime),
        (dt.date, strict_date),
    ):
        converter.register_structure_hook(kind, hook)
    converter.register_unstructure_hook(dt.datetime, dt.datetime.isoformat)
    converter.register_unstructure_hook(dt.date, dt.date.isoformat)
    converter.register_structure_hook_factory(is_literal, literal_hook)
    converter.register_structure_hook_factory(is_enum, enum_hook)
    converter.register_structure_hook_factory(is_array, _array_hook(converter))
    converter.register_structure_hook_factory(_is_mixed_union, _union_hook(converter))
    structure, unstructure = _class_hooks(converter)
    converter.register_structure_hook_factory(is_model, structure)
    converter.register_unstructure_hook_factory(is_model, unstructure)
    return converter


def make_converter(*, forbid_extra_keys: bool = False) -> cattrs.Converter:
    """A new converter configured like the default one (detailed validation on).

    Start from it to add hooks of your own, then pass it with
    :func:`toolparse_attrs.using`.
    """
    return configure_converter(
        cattrs.Converter(
            detailed_validation=True,
            forbid_extra_keys=forbid_extra_keys,
            # JSON has arrays, not sets
            unstruct_collection_overrides={cabc.Set: list},
        )
    )


_DEFAULTS: dict[bool, cattrs.Converter] = {}


def default_converter(*, forbid_extra_keys: bool = False) -> cattrs.Converter:
    """The shared default converter (one per setting, built on first use).

    Sharing it means cattrs compiles each class's hook once per process.
    """
    converter = _DEFAULTS.get(forbid_extra_keys)
    if converter is None:
        converter = _DEFAULTS.setdefault(
            forbid_extra_keys, make_converter(forbid_extra_keys=forbid_extra_keys)
        )
    return converter
