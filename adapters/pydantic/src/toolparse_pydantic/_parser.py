"""The parser: pydantic's validator, built once per tool, its errors read once as problems."""

from __future__ import annotations

import datetime
import inspect
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from pydantic import TypeAdapter, ValidationError

from toolparse import ArgumentProblem, Error, Ok, invalid_arguments, ok

from ._errors import FIXED, problems

__all__ = ["VALIDATE_EXTRA", "make_parser"]

#: pydantic 2.12 and later can forbid extra keys for one validation call, at
#: every level; older versions only through each model's own config
VALIDATE_EXTRA = "extra" in inspect.signature(TypeAdapter.validate_python).parameters


def make_parser(
    source: Any, kind: str, policy: str, accepted: Sequence[str]
) -> Callable[[dict[str, Any]], Ok[Any] | Error]:
    """A parser validating with pydantic, built once for ``source`` (of ``kind``)."""
    validate: Any  # pydantic-core's validate_python, a TypeAdapter's, or parse_obj
    caught: type[Exception] | tuple[type[Exception], ...] = ValidationError
    if kind == "v1":
        from pydantic.v1 import ValidationError as V1ValidationError  # imported by the model

        # pydantic.v1 lets an OverflowError out of a date or duration too big
        # for Python's types (86400000000000.0 seconds), or of an integer too big
        # for a float, and a TypeError out of a name that is not text: wrong values too
        validate, caught = source.parse_obj, (V1ValidationError, OverflowError, TypeError)
    elif kind == "model":
        if not source.__pydantic_complete__:
            source.model_rebuild()
        # the validator itself: model_validate is a Python-level wrapper around it
        validate = source.__pydantic_validator__.validate_python
    else:  # a TypeAdapter
        validate = source.validate_python
    if policy == "reject" and VALIDATE_EXTRA and kind != "v1":
        validate = partial(validate, extra="forbid")
    names = tuple(accepted)

    def parse(arguments: dict[str, Any]) -> Ok[Any] | Error:
        try:
            value = validate(arguments)
        except caught as exc:
            # its traceback is this frame alone (the validator is compiled code),
            # and through the frame it would hold the caller's result, which
            # holds it: a cycle per rejected call, left for the collector
            exc.__traceback__ = None
            if isinstance(exc, ValidationError):
                found, more = problems(exc.errors(include_url=False), arguments)
            else:
                found, more = _v1_problems(source, exc, arguments)
            return invalid_arguments(
                found, arguments=arguments, accepted=names, cause=exc, more=more
            )
        return ok(value)

    return parse


def _v1_problems(model: Any, exc: Any, arguments: Any) -> tuple[list[ArgumentProblem], int]:
    """The problems of a ``pydantic.v1`` model's ``ValidationError``, ``OverflowError`` or ``TypeError``."""
    from pydantic.v1 import ValidationError as V1ValidationError  # (imported by the model)

    if isinstance(exc, TypeError):
        odd = [key for key in arguments if not isinstance(key, str)]
        if not odd:
            raise exc
        # the names that are text are validated as they would be alone
        found = [ArgumentProblem((), "has a name that is not text", key) for key in odd]
        rest = {key: value for key, value in arguments.items() if isinstance(key, str)}
        try:
            model.parse_obj(rest)
        except (V1ValidationError, OverflowError, TypeError) as again:  # (the same three kinds)
            others, more = _v1_problems(model, again, rest)
            return found + others, more
        return found, 0
    if isinstance(exc, OverflowError):
        return _v1_overflow(model, exc, arguments)
    return problems(exc.errors(), arguments, v1=True)


#: the ``pydantic.v1`` error type of each type whose parsing can overflow
_V1_OVERFLOWS = {
    datetime.timedelta: "value_error.duration",
    datetime.datetime: "value_error.datetime",
    datetime.date: "value_error.date",
    datetime.time: "value_error.time",
}


#: the reason for an integer too big for a float (as the built-in adapter words it)
_FLOAT_RANGE = "must be a number within the range of a float"


def _beyond_floats(value: Any) -> bool:
    """Whether ``value`` holds an integer that no float reaches (level by level)."""
    todo = [value]
    while todo:
        item = todo.pop()
        if type(item) is int and abs(item) > sys.float_info.max:
            return True
        if isinstance(item, dict):
            todo += item.values()
        elif isinstance(item, (list, tuple)):
            todo += item
    return False


def _v1_overflow(
    model: Any, exc: OverflowError, arguments: Any
) -> tuple[list[ArgumentProblem], int]:
    """The problems of a ``pydantic.v1`` call that overflowed: the field(s) it came from, and the rest.

    Each top-level field is validated alone (a date, time or duration, or a
    number for a float, too big), the rest of the call without those too big;
    an overflow elsewhere is raised again.
    """
    from pydantic.v1 import ValidationError as V1ValidationError

    found: list[ArgumentProblem] = []
    for field in model.__fields__.values():
        if field.alias in arguments:
            value = arguments[field.alias]
            try:
                field.validate(value, {}, loc=field.alias, cls=model)
            except OverflowError:
                # a date or duration too big for Python's types, or an integer too big
                # for a float (else a validator's own overflow: the exception it is)
                kind = _V1_OVERFLOWS.get(field.type_)
                if kind is not None or _beyond_floats(value):
                    reason = FIXED[kind] if kind is not None else _FLOAT_RANGE
                    found.append(ArgumentProblem((field.alias,), reason, value))
    if not found:
        raise exc
    names = {p.path[0] for p in found}
    try:
        model.parse_obj({k: v for k, v in arguments.items() if k not in names})
    except OverflowError:
        raise exc from None
    except V1ValidationError as rest:
        others, more = problems(rest.errors(), arguments, v1=True)
        # the names left out to validate the rest were sent: not missing
        found += [p for p in others if not (p.kind == "missing" and p.path[0] in names)]
        return found, more
    return found, 0
