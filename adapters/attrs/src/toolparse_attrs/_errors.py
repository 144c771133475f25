"""The parser, and the one reading of what it rejects: cattrs' error tree as argument problems.

cattrs' ``ClassValidationError`` and ``IterableValidationError`` hold their
parts' exceptions with notes naming the attribute, index or key.
:class:`ErrorReader` walks that tree as ``cattrs.transform_error`` does,
alongside the arguments sent, so each problem has the model's path and value.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from typing import Any

import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError

from toolparse import NOT_GIVEN, ArgumentProblem, Limits, ParseResult, invalid_arguments, ok
from toolparse.adapter import MAX_PROBLEMS, type_reason

from ._checks import run_init_checks
from ._converter import get_structure_hook
from ._fields import FieldInfo, Fields
from ._scalars import Rejected
from ._types import describe, is_enum, is_literal, is_model, json_kinds, union_members, unwrap
from ._validators import custom

__all__ = ["ErrorReader", "make_parser"]

Path = tuple[str | int, ...]
_NOT_AN_OBJECT = type_reason("object")


def make_parser(
    converter: cattrs.BaseConverter,
    fields: Fields,
    cls: type,
    accepted: tuple[str, ...],
    recursive: bool = False,
) -> Callable[[dict[str, Any]], ParseResult]:
    """The parser for ``cls``: the converter's hook structures the arguments into an instance.

    A ``recursive`` class (one that holds itself) takes a value no deeper than
    the default depth limit: cattrs follows the value down on Python's stack,
    where a few hundred levels pass and a thousand do not, and a rejection's
    path hundreds of names long has no room in a message. The core says
    "nested too deeply" for the ``RecursionError`` raised.
    """
    hook = get_structure_hook(converter, cls)  # fetched once: no dispatch on each call
    reader = ErrorReader(fields)
    limit = Limits().max_depth

    def parse(arguments: dict[str, Any]) -> ParseResult:
        if recursive and _deeper(arguments, limit):
            raise RecursionError("the arguments are nested deeper than cattrs is given them")
        try:
            return ok(hook(arguments, cls))  # (the function: cheaper than Ok's own __new__)
        except Exception as exc:
            found, more = reader.problems(exc, arguments, cls)
            return invalid_arguments(
                found, arguments=arguments, accepted=accepted, cause=exc, more=more
            )

    return parse


def _deeper(value: Any, limit: int) -> bool:
    """Whether ``value`` nests objects and lists deeper than ``limit`` (level by level)."""
    level = [value]
    for _ in range(limit):
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, (dict, list))
        ]
        if not level:
            return False
    return True


class _Found(list[ArgumentProblem]):
    """The problems built, and :attr:`more`: how many past ``MAX_PROBLEMS`` were only counted."""

    more = 0


class ErrorReader:
    """Turns what structuring one class raised into :class:`ArgumentProblem` values."""

    def __init__(self, fields: Fields) -> None:
        self.fields = fields
        self._hooks: dict[int, Any] = {}  # each field's structure hook, by id of its FieldInfo
        self._models: dict[Any, type | None] = {}

    def problems(
        self, exc: BaseException, arguments: Any, cls: type
    ) -> tuple[list[ArgumentProblem], int]:
        """The problems in ``exc``, raised structuring ``arguments``, and how many more."""
        out = _Found()
        self._read(exc, (), arguments, cls, out)
        return (out or [ArgumentProblem((), custom(exc))]), out.more

    def _read(self, exc: BaseException, path: Path, raw: Any, tp: Any, out: _Found) -> None:
        if type(exc) is Rejected:  # the commonest: a strict hook's refusal
            out.append(ArgumentProblem(path, exc.args[0], raw))
        elif isinstance(exc, ClassValidationError):
            self._object(exc.cl, path, raw, exc, out)
        elif (cls := self._model(tp)) is not None:
            # __init__ raised (a converter, a validator, a post-init check), or
            # a converter without detailed validation let a field's error through
            self._object(cls, path, raw, exc, out)
        elif isinstance(exc, IterableValidationError):
            self._items(exc, path, raw, tp, out)
        else:
            out.append(_leaf(exc, path, raw, tp))

    def _object(self, cls: type, path: Path, raw: Any, exc: BaseException, out: _Found) -> None:
        """A class's problems: its fields' (cattrs' notes), its extra keys, its checks."""
        if type(raw) is not dict and not isinstance(raw, Mapping):
            out.append(ArgumentProblem(path, _NOT_AN_OBJECT, raw))
            return
        start = len(out)
        info = self.fields.info(cls)
        failed: set[str] = set()
        others: list[BaseException] = [exc]
        if isinstance(exc, ClassValidationError):
            noted, others = exc.group_exceptions()  # type: ignore[assignment]
            for sub, note in noted:
                failed.add(note.name)
                key = info.keys.get(note.name, note.name)
                if isinstance(sub, KeyError) and key not in raw:
                    out.append(ArgumentProblem.missing((*path, key)))
                else:
                    self._read(sub, (*path, key), raw.get(key, NOT_GIVEN), note.type, out)
        unexplained: list[BaseException] = []
        for other in others:
            if isinstance(other, ForbiddenExtraKeysError):
                names = sorted(other.extra_fields, key=str)
                out.extend(ArgumentProblem.unrecognized((*path, str(n))) for n in names)
            else:
                unexplained.append(other)
        # __init__ raised, or never ran the checks of the fields that structured
        if unexplained or not failed.issuperset(info.checked):
            before = len(out)
            run_init_checks(info, path, raw, failed, out, self._structure, self._read)
            if unexplained and len(out) == before:  # the class's own error (a post-init check)
                out.append(ArgumentProblem(path, custom(unexplained[0])))
            if len(out) - start > 1:  # the checks' problems back in field order
                order: dict[str | int, int] = {f.key: i for i, f in enumerate(info.fields)}
                depth = len(path)
                out[start:] = sorted(
                    out[start:],
                    key=lambda p: (
                        order.get(p.path[depth], len(order)) if len(p.path) > depth else -1
                    ),
                )

    def _items(
        self, exc: IterableValidationError, path: Path, raw: Any, tp: Any, out: _Found
    ) -> None:
        """A list's failing items under their index, a mapping's keys and values under the key."""
        noted, others = exc.group_exceptions()
        for sub, note in noted:
            if len(out) >= MAX_PROBLEMS:
                out.more += _leaves(sub)
                continue
            index, item = note.index, NOT_GIVEN
            if isinstance(raw, Mapping):
                where: Path = (*path, str(index))
                args = typing.get_args(unwrap(tp))
                if len(args) == 2 and args[0] != args[1] and note.type == args[0]:  # the key
                    said = _leaf(sub, where, index, note.type).reason
                    out.append(ArgumentProblem(where, f"Invalid key: {said}"))
                    continue
                item = raw.get(index, NOT_GIVEN)
            else:
                where = (*path, index)
                if isinstance(raw, (list, tuple)) and isinstance(index, int) and index < len(raw):
                    item = raw[index]
            self._read(sub, where, item, note.type, out)
        out.extend(_leaf(sub, path, raw, tp) for sub in others)

    def _model(self, tp: Any) -> type | None:
        """The attrs class or dataclass ``tp`` stands for (``None``: none), each type read once."""
        try:
            return self._models[tp]
        except KeyError:
            found = self._models[tp] = _model(tp)
            return found
        except TypeError:  # an unhashable annotation (Annotated metadata)
            return _model(tp)

    def _structure(self, f: FieldInfo, value: Any) -> Any:
        """One field's value structured as the class's hook structures it."""
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
        return ArgumentProblem(path, exc.args[0], raw)
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
    target = unwrap(tp)
    origin = typing.get_origin(target) or target
    return origin if is_model(origin) else None
