"""cattrs' error tree to argument problems: the one reading of a rejected call.

With detailed validation cattrs raises a ``ClassValidationError`` for a class
and an ``IterableValidationError`` for a list or a mapping, each holding its
parts' exceptions with a note naming the attribute, index or key.
:class:`ErrorReader` walks that tree as ``cattrs.transform_error`` does,
alongside the arguments sent, so each problem has the path and the value the
model used (the key it sent, not the attribute name).

The tree cannot say what attrs' ``__init__`` found: it runs a class's
converters and validators once every field is structured, and stops at the
first that raises. So for a class whose ``__init__`` raised, or never ran
because a field failed, the reading runs them itself on the fields that
structured, naming every failure.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any

from attrs.validators import get_disabled
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
)

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import MAX_PROBLEMS, type_reason

from ._checks import FieldChecks
from ._converter import get_structure_hook
from ._fields import NO_DEFAULT, ClassInfo, FieldInfo, Fields, convert, default_of
from ._scalars import Rejected
from ._types import describe, is_enum, is_literal, is_model, json_kinds, union_members, unwrap
from ._validators import custom

__all__ = ["ErrorReader"]

Path = tuple[str | int, ...]
_NOT_AN_OBJECT = type_reason("object")


class _Found(list[ArgumentProblem]):
    """The problems built, and :attr:`more`: how many past ``MAX_PROBLEMS`` were only counted."""

    more = 0


class ErrorReader:
    """Turns what structuring one class raised into :class:`ArgumentProblem` values."""

    def __init__(self, fields: Fields) -> None:
        self.fields = fields
        self._hooks: dict[int, Any] = {}  # each field's structure hook, by id of its FieldInfo

    def problems(
        self, exc: BaseException, arguments: Any, cls: type
    ) -> tuple[list[ArgumentProblem], int]:
        """The problems in ``exc``, raised structuring ``arguments``, and how many more were counted."""
        out = _Found()
        self._read(exc, (), arguments, cls, out)
        return (out or [ArgumentProblem((), custom(exc))]), out.more

    def _read(self, exc: BaseException, path: Path, raw: Any, tp: Any, out: _Found) -> None:
        if type(exc) is Rejected:  # the commonest: a strict hook's refusal
            out.append(ArgumentProblem(path, exc.args[0], raw))
        elif isinstance(exc, ClassValidationError):
            self._object(exc.cl, path, raw, exc, out)
        else:
            cls = _model(tp)
            if cls is not None:
                # __init__ raised (a converter, a validator, a post-init
                # check), or a converter without detailed validation let a
                # field's error through as it was
                self._object(cls, path, raw, exc, out)
            elif isinstance(exc, IterableValidationError):
                self._items(exc, path, raw, tp, out)
            else:
                out.append(_leaf(exc, path, raw, tp))

    def _object(self, cls: type, path: Path, raw: Any, exc: BaseException, out: _Found) -> None:
        """A class's problems: its fields' (cattrs' notes), its extra keys, its checks."""
        if not isinstance(raw, Mapping):
            out.append(ArgumentProblem(path, _NOT_AN_OBJECT, raw))
            return
        start = len(out)
        info = self.fields.info(cls)
        failed: set[str] = set()
        if isinstance(exc, ClassValidationError):
            noted, others = exc.group_exceptions()
            for sub, note in noted:
                failed.add(note.name)
                self._field(sub, note, info, path, raw, out)
        else:
            others = [exc]
        unexplained: list[BaseException] = []
        for sub in others:
            if isinstance(sub, ForbiddenExtraKeysError):
                for name in sorted(sub.extra_fields, key=str):
                    out.append(ArgumentProblem.unrecognized((*path, str(name))))
            else:
                unexplained.append(sub)
        before = len(out)
        # __init__ raised, or never ran with fields it would have checked
        if unexplained or not failed.issuperset(info.checked):
            self._run_init_checks(info, path, raw, failed, out)
        if unexplained and len(out) == before:
            # nothing a field says: the class's own error (a post-init check)
            out.append(ArgumentProblem(path, custom(unexplained[0])))
        if len(out) - start > 1:
            # its checks' problems came after its fields': back in field order
            order, depth = info.order, len(path)
            out[start:] = sorted(
                out[start:],
                key=lambda p: order.get(p.path[depth], len(order)) if len(p.path) > depth else -1,
            )

    def _field(
        self,
        sub: Exception,
        note: AttributeValidationNote,
        info: ClassInfo,
        path: Path,
        raw: Mapping[str, Any],
        out: _Found,
    ) -> None:
        found = info.by_name.get(note.name)
        key = found.key if found is not None else note.name
        if isinstance(sub, KeyError) and key not in raw:
            out.append(ArgumentProblem.missing((*path, key)))
        else:
            self._read(sub, (*path, key), raw.get(key, NOT_GIVEN), note.type, out)

    def _items(
        self, exc: IterableValidationError, path: Path, raw: Any, tp: Any, out: _Found
    ) -> None:
        """A list's failing items under their index; a mapping's keys and values under the key."""
        noted, others = exc.group_exceptions()
        args = typing.get_args(unwrap(tp))
        key_type = args[0] if len(args) == 2 and args[0] != args[1] else NOT_GIVEN
        for sub, note in noted:
            if len(out) >= MAX_PROBLEMS:
                out.more += _leaves(sub)
                continue
            index = note.index
            item: Any = NOT_GIVEN
            if isinstance(raw, (list, tuple)):
                where: Path = (*path, index)
                if isinstance(index, int) and 0 <= index < len(raw):
                    item = raw[index]
            elif isinstance(raw, Mapping):
                where = (*path, str(index))
                if note.type == key_type:  # the key itself
                    said = _leaf(sub, where, index, note.type).reason
                    out.append(ArgumentProblem(where, f"Invalid key: {said}"))
                    continue
                item = raw.get(index, NOT_GIVEN)
            else:
                where = (*path, index)
            self._read(sub, where, item, note.type, out)
        out.extend(_leaf(sub, path, raw, tp) for sub in others)

    def _run_init_checks(
        self, info: ClassInfo, path: Path, raw: Mapping[str, Any], failed: set[str], out: _Found
    ) -> None:
        """Run what ``__init__`` runs on the fields not ``failed``, naming every failure.

        Each is structured again, converted and set on a bare instance, as in
        ``__init__``; then every validator runs (unless attrs' are disabled).
        """
        instance: Any = object.__new__(info.cls)
        values: dict[str, Any] = {}
        for f in info.fields:
            if f.name in failed:
                continue
            where = (*path, f.key)
            sent = raw.get(f.key, NOT_GIVEN)
            if f.key in raw:
                try:
                    value = self._structure(f, sent)
                except Exception as exc:  # a converter without detailed validation
                    self._read(exc, where, sent, f.type, out)
                    continue
            else:
                value = default_of(f)
                if value is NO_DEFAULT:
                    if f.required:  # a converter without detailed validation
                        out.append(ArgumentProblem.missing(where))
                    continue
            if f.converter is not None:
                try:
                    value = convert(f, value, instance)
                except Exception as exc:
                    out.append(ArgumentProblem(where, custom(exc), sent))
                    continue
            object.__setattr__(instance, f.name, value)
            values[f.name] = value
        if get_disabled():
            return
        checks = FieldChecks(instance, out, partial=len(values) < len(info.fields))
        for f in info.fields:
            if f.validator is not None and f.name in values:
                sent = raw.get(f.key, NOT_GIVEN)
                checks.run(f.validator, f.field, values[f.name], (*path, f.key), sent)

    def _structure(self, f: FieldInfo, value: Any) -> Any:
        """One field's value structured as the converter's class hook structures it."""
        if f.hook is not None:
            return f.hook(value, f.type)
        if f.type is None:
            return value
        hook = self._hooks.get(id(f))
        if hook is None:
            hook = self._hooks[id(f)] = get_structure_hook(self.fields.converter, f.type)
        return hook(value, f.type)


def _leaves(exc: BaseException) -> int:
    """How many failures ``exc`` holds (an exception group counts its members')."""
    members = getattr(exc, "exceptions", None)
    if isinstance(members, tuple):
        return sum(_leaves(sub) for sub in members) or 1
    return 1


def _leaf(exc: BaseException, path: Path, raw: Any, tp: Any) -> ArgumentProblem:
    """One problem for an exception with no structure below it, worded from the type."""
    if isinstance(exc, Rejected):
        return ArgumentProblem(path, exc.reason, raw)
    target = unwrap(tp)
    members = [m for m in union_members(target) if m is not type(None)]
    if members and all(is_model(m) for m in members) and isinstance(raw, Mapping):
        return ArgumentProblem(path, "Input does not match any of the allowed objects", raw)
    words = describe(target)
    if words is not None and (
        is_literal(target) or is_enum(target) or type(raw) not in json_kinds(target)
    ):
        return ArgumentProblem(path, f"must be {words}", raw)
    return ArgumentProblem(path, custom(exc), raw)


def _model(tp: Any) -> type | None:
    """The attrs class or dataclass ``tp`` stands for (``None``: not one)."""
    target = unwrap(tp)
    origin = typing.get_origin(target) or target
    return origin if is_model(origin) else None
