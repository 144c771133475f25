"""cattrs' exception trees (and attrs validators) to argument problems.

With detailed validation cattrs raises a ``ClassValidationError`` for a class
and an ``IterableValidationError`` for a list or a mapping, each holding the
exceptions of its parts with a note naming the attribute, index or key. This
module walks that tree alongside the arguments the model sent, so each
problem gets the path and the value the model used (the key it sent, not the
attribute name). attrs validators run in ``__init__`` and stop at the first
failure; ``_checks`` reports that one and runs only what attrs never reached,
so the model learns every problem at once and no validator runs twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
from attrs.validators import get_disabled as _validators_disabled
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    IterableValidationError,
    IterableValidationNote,
)

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import MAX_PROBLEMS, REQUIRED, type_reason

from ._checks import Problem, problem, run, run_after
from ._converter import Rejected, get_structure_hook
from ._fields import NO_DEFAULT, ClassInfo, FieldInfo, Fields, convert, init_name
from ._leaves import leaf as _leaf
from ._leaves import model as _model
from ._parts import any_key_error, in_field_order, leaves, unnoted
from ._reasons import custom
from ._resumption import InitFailure, combinator, init_failure, resume, structured_values

__all__ = ["KEPT", "ErrorReader"]

Path = tuple[str | int, ...]
_NOT_AN_OBJECT = type_reason("object")


#: the problems of one call built at most (the SDK's bound); past them a list
#: item's errors are only counted
KEPT = MAX_PROBLEMS


class _Found(list[Problem]):
    """The problems built, and :attr:`more`: how many past :data:`KEPT` were only counted."""

    more = 0


class ErrorReader:
    """Turns what structuring one class raised into :class:`ArgumentProblem` values."""

    def __init__(self, fields: Fields) -> None:
        self.fields = fields
        self._hooks: dict[Any, Any] = {}
        # the classes read so far, looked up in place (no call per rejected class)
        self._infos = fields.cache

    def problems(self, exc: BaseException, arguments: Any, cls: type) -> tuple[list[Problem], int]:
        """The problems in ``exc`` (raised structuring ``arguments``), and how many more.

        Past :data:`KEPT`, a list item's failures are counted, not built.
        """
        out = _Found()
        self._walk(exc, (), arguments, cls, out)
        return (out or [ArgumentProblem((), custom(exc))]), out.more

    def _walk(
        self,
        exc: BaseException,
        path: Path,
        raw: Any,
        tp: Any,
        out: _Found,
    ) -> None:
        if type(exc) is Rejected:  # the commonest leaf: a strict hook's refusal
            out.append(ArgumentProblem(path, exc.reason, raw))
        elif isinstance(exc, ClassValidationError):
            self._class(exc.cl, path, raw, out, exc)
        elif isinstance(exc, IterableValidationError):
            self._items(exc, path, raw, tp, out)
        else:
            origin = _model(tp)
            if origin is not None and not isinstance(exc, Rejected):
                # __init__ failed (a validator, a converter, __attrs_post_init__),
                # or a converter without detailed validation raised as is
                self._class(origin, path, raw, out, None, exc)
            else:
                out.append(_leaf(exc, path, raw, tp))

    def _class(
        self,
        cls: type,
        path: Path,
        raw: Any,
        out: _Found,
        exc: ClassValidationError | None,
        init_error: BaseException | None = None,
    ) -> None:
        if type(raw) is not dict and not isinstance(raw, Mapping):
            out.append(ArgumentProblem(path, _NOT_AN_OBJECT, raw))
            return
        start = len(out)
        info = self._infos.get(cls) or self.fields.info(cls)
        by_name = info.by_name
        failed: set[str] = set()
        init_errors = [] if init_error is None else [init_error]
        if exc is not None:
            # cattrs' group_exceptions() in the loop itself (no lists of pairs):
            # the parts with an attribute's note in order, then the others
            without: list[BaseException] = []
            for sub in exc.exceptions:
                for note in getattr(sub, "__notes__", ()):
                    if note.__class__ is AttributeValidationNote:
                        break
                else:
                    without.append(sub)
                    continue
                found = by_name.get(note.name)
                key = found.key if found is not None else note.name
                failed.add(note.name)
                if type(sub) is Rejected:  # a strict hook's refusal, as in _walk
                    out.append(ArgumentProblem((*path, key), sub.args[0], raw.get(key, NOT_GIVEN)))
                elif isinstance(sub, KeyError) and key not in raw:
                    out.append(ArgumentProblem.missing((*path, key), REQUIRED))
                else:
                    self._walk(sub, (*path, key), raw.get(key, NOT_GIVEN), note.type, out)
            init_errors.extend(unnoted(without, path, out))
        self._settle(info, cls, path, raw, out, exc, start, failed, init_errors)

    def _settle(
        self,
        info: ClassInfo,
        cls: type,
        path: Path,
        raw: Mapping[str, Any],
        out: _Found,
        exc: ClassValidationError | None,
        start: int,
        failed: set[str],
        init_errors: list[BaseException],
    ) -> None:
        """A class's problems once its parts are read (``out[start:]``), as ``__init__`` ran.

        ``failed``: the fields cattrs could not structure; ``init_errors``:
        what raised with no field's note (``__init__``, a converter's own).
        """
        if init_errors and any_key_error(init_errors):
            # a converter without detailed validation: the first missing key raised
            absent = [f.key for f in info.fields if f.required and f.key not in raw]
            out.extend(ArgumentProblem.missing((*path, key), REQUIRED) for key in absent)
            if absent:
                return
        before = len(out)
        if info.checked and info.is_attrs:
            # attrs.validators.disabled(): __init__ ran none, and neither does this
            validate = not _validators_disabled()
            failure = init_failure(init_errors[0], cls) if init_errors else None
            if failure is not None:
                self._after_init(info, raw, path, failure, init_errors[0], out, validate)
            elif init_errors or not failed.issuperset(info.checked_names):
                # __init__ never ran: its converters and validators run here, once
                structured = structured_values(exc) if exc is not None and failed else None
                self._check(info, raw, path, failed, out, structured, validate)
        if init_errors and len(out) == before:
            out.append(ArgumentProblem(path, custom(init_errors[0])))
        if len(out) > before:
            in_field_order(out, start, info, len(path))

    def _items(
        self,
        exc: IterableValidationError,
        path: Path,
        raw: Any,
        tp: Any,
        out: _Found,
    ) -> None:
        without: list[BaseException] = []
        for sub in exc.exceptions:
            for note in getattr(sub, "__notes__", ()):
                if note.__class__ is IterableValidationNote:
                    break
            else:
                without.append(sub)
                continue
            if len(out) >= KEPT:
                out.more += leaves(sub)
                continue
            index = note.index
            if type(raw) is not list and isinstance(raw, Mapping):
                where = (*path, str(index))
                if str(note).startswith("Structuring mapping key"):
                    reason = _leaf(sub, where, index, note.type).reason
                    out.append(ArgumentProblem(where, f"Invalid key: {reason}"))
                else:
                    self._walk(sub, where, raw.get(index, NOT_GIVEN), note.type, out)
            else:
                item = NOT_GIVEN
                if (
                    isinstance(raw, (list, tuple))
                    and isinstance(index, int)
                    and 0 <= index < len(raw)
                ):
                    item = raw[index]
                if type(sub) is ClassValidationError:  # an object in an array, as in _walk
                    self._class(sub.cl, (*path, index), item, out, sub)
                else:
                    self._walk(sub, (*path, index), item, note.type, out)
        for sub in without:
            out.append(_leaf(sub, path, raw, tp))

    def _after_init(
        self,
        info: ClassInfo,
        raw: Mapping[str, Any],
        path: Path,
        failure: InitFailure,
        error: BaseException,
        out: _Found,
        validate: bool,
    ) -> None:
        """Every problem of a class whose ``__init__`` raised, no validator run twice."""
        instance = failure.instance
        at = info.positions.get(failure.name)
        if at is None:
            return  # post-init, a factory, a field not given to __init__: its message
        failing = info.fields[at]
        where = (*path, failing.key)
        sent = raw.get(failing.key, NOT_GIVEN)
        if failure.stage == "converter":
            # the fields after it were not converted and no validator ran
            out.append(ArgumentProblem(where, custom(error), sent))
            self._check(
                info, raw, path, {failure.name}, out, failure.structured, validate, instance, at
            )
            return
        # validators run in field order: the ones before passed
        value = getattr(instance, failing.name)
        validator = failing.validator
        if combinator(validator):
            resume(
                validator,
                failure.frames,
                error,
                instance,
                failing.field,
                value,
                where,
                out,
                sent=sent,
            )
        else:
            # a validator with no parts: nothing to go on from within it, no frame to read
            out.append(problem(validator, error, value, where, sent, False))
        run_after(info.validated_after[at], instance, path, raw, out)

    def _check(
        self,
        info: ClassInfo,
        raw: Mapping[str, Any],
        path: Path,
        failed: set[str],
        out: _Found,
        structured: Mapping[str, Any] | None,
        validate: bool,
        instance: Any = None,
        converted: int = 0,
    ) -> None:
        """Run the attrs converters and validators that never ran, keeping every failure.

        The fields that could not be structured are left out; the instance the
        validators see has every other field set, as in ``__init__``.
        ``structured`` holds the values cattrs structured (by ``__init__``
        argument name), so no field is structured twice; ``instance`` and
        ``converted``: ``__init__`` stopped at a converter, the fields before
        index ``converted`` are set on ``instance`` already. ``validate``:
        run the validators too (attrs' validators are not disabled).
        """
        if instance is None:
            instance = object.__new__(info.cls)
        values: dict[str, Any] = {}
        for index, f in enumerate(info.fields):
            if f.name in failed:
                continue
            if index < converted:
                values[f.name] = getattr(instance, f.name)
                continue
            value = self._value(f, raw, structured)
            if value is NO_DEFAULT:
                continue
            if f.converter is not None:
                try:
                    value = convert(f, value, instance)
                except Exception as exc:
                    out.append(
                        ArgumentProblem((*path, f.key), custom(exc), raw.get(f.key, NOT_GIVEN))
                    )
                    continue
            object.__setattr__(instance, f.name, value)
            values[f.name] = value
        if not validate:
            return
        partial = len(values) < len(info.fields)
        for f in info.fields:
            if f.validator is not None and f.name in values:
                run(
                    f.validator,
                    instance,
                    f.field,
                    values[f.name],
                    (*path, f.key),
                    out,
                    partial=partial,
                    sent=raw.get(f.key, NOT_GIVEN),
                )

    def _value(
        self, f: FieldInfo, raw: Mapping[str, Any], structured: Mapping[str, Any] | None
    ) -> Any:
        """The structured value of one field, or :data:`NO_DEFAULT` when there is none."""
        if f.key in raw:
            if structured is not None:
                return structured.get(init_name(f), NO_DEFAULT)
            converter = self.fields.converter
            try:
                if f.hook is not None:
                    return f.hook(raw[f.key], f.type)
                if f.type is None:
                    return raw[f.key]
                hook = self._hooks.get(f.type)
                if hook is None:
                    hook = self._hooks[f.type] = get_structure_hook(converter, f.type)
                return hook(raw[f.key], f.type)
            except Exception:
                return NO_DEFAULT  # reported where cattrs found it
        default = f.default
        if default is NO_DEFAULT:
            return NO_DEFAULT
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            if default.takes_self:
                return NO_DEFAULT
            return default.factory()
        return default
