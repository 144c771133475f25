"""The default converter: cattrs configured for the arguments an LLM sends.

cattrs structures leniently (``str(123)`` for a ``str``, ``int(True)`` for an
``int``, a string's characters for a ``list[str]``); a model must learn its
mistakes, so this converter refuses those coercions, saying why (the
:class:`Rejected` reason). Its errors are cattrs' own, notes included.
"""

from __future__ import annotations

import collections.abc as cabc
import functools
import json
import typing
from collections.abc import Callable
from typing import Any

import attrs
import cattrs
from cattrs.disambiguators import is_supported_union
from cattrs.errors import IterableValidationError, IterableValidationNote
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from toolparse.adapter import type_reason

from ._scalars import Rejected, register_scalar_hooks
from ._types import (
    SETS,
    NoneType,
    describe,
    is_array,
    is_empty_tuple,
    is_model,
    json_kinds,
    union_members,
    unwrap,
)
from ._validators import instance_of_type

__all__ = [
    "configure_converter",
    "default_converter",
    "dump",
    "get_structure_hook",
    "hook_overrides",
    "make_converter",
]

Hook = Callable[[Any, Any], Any]


def get_structure_hook(converter: cattrs.BaseConverter, cls: Any) -> Hook:
    """The converter's hook for ``cls`` (cattrs < 24 has none: its ``structure`` dispatches)."""
    getter = getattr(converter, "get_structure_hook", None)
    return converter.structure if getter is None else getter(cls)


_NOT_AN_ARRAY = type_reason("array")
_BUILDS: dict[Any, Callable[[Any], Any]] = {tuple: tuple, frozenset: frozenset}
_BUILDS.update(dict.fromkeys(SETS - {frozenset}, set))


def _array_hook(converter: cattrs.BaseConverter, tp: Any) -> Hook:
    """A strict array hook: only a JSON array is one; failing items raise cattrs' own error."""
    origin = typing.get_origin(tp) or tp
    args = () if is_empty_tuple(tp) else typing.get_args(tp)
    fixed = origin is tuple and (is_empty_tuple(tp) or (args and args[-1] is not Ellipsis))
    types = args if fixed else (args[0] if args else Any,)
    build = _BUILDS.get(origin, list)
    reason = f"must be {describe(tp)}"
    # worded once per type (a repr of a generic type is not free)
    prefix, message = f"Structuring {tp!r} @ index ", f"While structuring {tp!r}"
    untyped = types == (Any,)
    hooks: list[Hook] = []  # resolved on first use: a class may contain itself

    def structure(value: Any, _: Any) -> Any:
        if type(value) is not list and type(value) is not tuple:
            raise Rejected(_NOT_AN_ARRAY)
        if fixed and len(value) != len(types):
            raise Rejected(reason)
        if untyped:
            return build(value)
        if not hooks:
            hooks.extend(get_structure_hook(converter, t) for t in types)
        out: list[Any] = []
        try:  # a valid array's path: no list of errors, no index kept
            if fixed:
                for hook, item, element in zip(hooks, types, value, strict=True):
                    out.append(hook(element, item))
            else:  # the commonest: one hook for every item, in a tight loop
                hook, item = hooks[0], types[0]
                for element in value:
                    out.append(hook(element, item))
        except Exception as exc:
            raise IterableValidationError(message, failures(exc, value, len(out)), tp) from None
        return out if build is list else build(out)

    def failures(first: Exception, value: Any, start: int) -> list[Exception]:
        """The errors of the item at ``start`` (``first``) and of the failing items after it."""
        errors = [_noted(first, f"{prefix}{start}", start, types[start if fixed else 0])]
        for index in range(start + 1, len(value)):
            at = index if fixed else 0
            try:
                hooks[at](value[index], types[at])
            except Exception as exc:
                errors.append(_noted(exc, f"{prefix}{index}", index, types[at]))
        return errors

    return structure


def _noted(exc: Exception, text: str, index: int, item: Any) -> Exception:
    """``exc`` with cattrs' note for the item at ``index``, as cattrs adds it."""
    note = IterableValidationNote(text, index, item)
    exc.__notes__ = [*getattr(exc, "__notes__", []), note]  # type: ignore[attr-defined]  # not in 3.10 stubs; cattrs reads it
    return exc


def _is_mixed_union(tp: Any) -> bool:
    """A union cattrs has no hook for: not ``X | None``, not only classes."""
    members = [m for m in union_members(tp) if m is not NoneType]
    return len(members) > 1 and not is_supported_union(tp)


def _union_hook(converter: cattrs.BaseConverter, tp: Any) -> Hook:
    """A mixed union's hook: the members whose JSON kind fits, the value's exact type first.

    (``5`` stays an ``int`` in ``float | int``.) One member fitting, its own error stands.
    """
    kinds = [(m, json_kinds(m)) for m in union_members(tp)]
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


def _field_overrides(
    converter: cattrs.BaseConverter, cls: type, structuring: bool
) -> dict[str, Any]:
    """Each attrs field read under its alias (its ``__init__`` name)."""
    found: dict[str, Any] = {}
    for a in attrs.fields(cls) if attrs.has(cls) else ():
        hook = _instance_of_hook(converter, a) if structuring else None
        rename = a.alias if getattr(a, "alias", None) not in (None, a.name) else None
        if rename is not None or hook is not None:
            found[a.name] = override(rename=rename, struct_hook=hook)
    return found


def _structure_factory(converter: cattrs.BaseConverter, cls: Any) -> Any:
    if attrs.has(cls):
        attrs.resolve_types(cls)
    # detailed validation and extra keys as the converter says (cattrs' default)
    return make_dict_structure_fn(cls, converter, **_field_overrides(converter, cls, True))


def _unstructure_factory(converter: cattrs.BaseConverter, cls: Any) -> Any:
    if attrs.has(cls):
        attrs.resolve_types(cls)
    return make_dict_unstructure_fn(cls, converter, **_field_overrides(converter, cls, False))


@attrs.define
class _AliasProbe:
    a: Any = attrs.field(alias="b")


def hook_overrides(converter: cattrs.BaseConverter, cls: type) -> dict[str, Any]:
    """The renames and omissions ``converter``'s hook for ``cls`` was generated with.

    (Older cattrs keeps none: a converter reading an alias as this one does is taken to be one.)
    """
    try:
        found = getattr(get_structure_hook(converter, cls), "overrides", None)
    except Exception:  # cattrs cannot structure a field's type: the schema says which
        return {}
    if found is None:
        try:
            ours = converter.structure({"b": 1}, _AliasProbe).a == 1
        except Exception:
            ours = False
        found = _field_overrides(converter, cls, True) if ours else {}
    return dict(found)


def _instance_of_hook(converter: cattrs.BaseConverter, field: attrs.Attribute[Any]) -> Hook | None:
    """A field with no type but ``instance_of``: structured as that type (``3`` for a float)."""
    target = instance_of_type(field.validator) if field.type is None else None
    return None if target is None else (lambda value, _: converter.structure(value, target))


def configure_converter(converter: cattrs.Converter) -> cattrs.Converter:
    """Configure ``converter`` the way toolparse's default converter is, and return it.

    Strict hooks for ``str``, ``int``, ``float`` and ``bool`` (no ``123 -> "123"``,
    no ``True -> 1``; an ``int`` is a ``float``, a number with no fractional part
    an ``int``), ``Literal`` and enums matched by value and type, arrays only from
    JSON arrays, unions tried member by member, ISO 8601 text for ``datetime`` and
    ``date``, attrs fields read under their alias. Hooks you register afterwards win.
    """
    register_scalar_hooks(converter)
    converter.register_structure_hook_factory(is_array, functools.partial(_array_hook, converter))
    union = functools.partial(_union_hook, converter)
    converter.register_structure_hook_factory(_is_mixed_union, union)
    converter.register_structure_hook_factory(
        is_model, functools.partial(_structure_factory, converter)
    )
    unstructure = functools.partial(_unstructure_factory, converter)
    converter.register_unstructure_hook_factory(is_model, unstructure)
    return converter


def make_converter(*, forbid_extra_keys: bool = False) -> cattrs.Converter:
    """A new converter configured like the default one (detailed validation on).

    Add hooks of your own to it, then pass it with :func:`toolparse_attrs.using`.
    """
    return configure_converter(
        cattrs.Converter(
            detailed_validation=True,
            forbid_extra_keys=forbid_extra_keys,
            # JSON has arrays, not sets
            unstruct_collection_overrides={cabc.Set: list},
        )
    )


@functools.lru_cache(maxsize=2)
def default_converter(*, forbid_extra_keys: bool = False) -> cattrs.Converter:
    """The shared default converter, one per setting: each class's hook is compiled once."""
    return make_converter(forbid_extra_keys=forbid_extra_keys)


def dump(value: object, converter: cattrs.BaseConverter | None) -> str | None:
    """JSON text for attrs instances, unstructured by ``converter`` (``None``: the default)."""
    try:
        return json.dumps(
            (converter or default_converter()).unstructure(value),
            ensure_ascii=False,
            allow_nan=False,
            default=_default,
        )
    except (TypeError, ValueError):
        return None


def _default(value: Any) -> Any:
    """JSON for what your converter leaves as is (dates and times: ISO 8601; sets: arrays)."""
    if isinstance(value, (set, frozenset)):
        return list(value)
    if callable(isoformat := getattr(value, "isoformat", None)):
        return isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")
