"""The parser: pydantic's validator, built once per tool, its errors read once as problems."""

from __future__ import annotations

import datetime
import inspect
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from pydantic import TypeAdapter, ValidationError

from toolparse import ArgumentProblem, Error, Ok, invalid_arguments, ok

from ._errors import problems
from ._reasons import FIXED

__all__ = ["VALIDATE_EXTRA", "make_parser"]

#: pydantic 2.12 and later can forbid extra keys for one validation call, at
#: every level; older versions only through each model's own config
VALIDATE_EXTRA = "extra" in inspect.signature(TypeAdapter.validate_python).parameters

Parse = Callable[[dict[str, Any]], Ok[Any] | Error]
#: reads a library's exception once: the problems, and how many more were only counted
Read = Callable[[Any, dict[str, Any]], tuple[list[ArgumentProblem], int]]


def make_parser(source: Any, kind: str, policy: str, accepted: Sequence[str]) -> Parse:
    """A parser validating with pydantic, built once for ``source`` (of ``kind``)."""
    if kind == "v1":
        # already imported by whoever defined the model
        from pydantic.v1 import ValidationError as V1ValidationError

        def read_v1(exc: Any, arguments: dict[str, Any]) -> tuple[list[ArgumentProblem], int]:
            if isinstance(exc, OverflowError):
                return _v1_overflow(source, exc, arguments)
            return problems(exc.errors(), arguments, v1=True)

        # pydantic.v1 lets an OverflowError out of a date or duration too big
        # for Python's types (86400000000000.0 seconds): a wrong value too
        return _parser(source.parse_obj, (V1ValidationError, OverflowError), read_v1, accepted)
    validate: Any  # pydantic-core's validate_python, or TypeAdapter's
    if kind == "model":
        if not source.__pydantic_complete__:
            source.model_rebuild()
        # the validator itself: model_validate is a Python-level wrapper around it
        validate = source.__pydantic_validator__.validate_python
    else:
        validate = (source if kind == "adapter" else TypeAdapter(source)).validate_python
    if policy == "reject" and VALIDATE_EXTRA:
        validate = partial(validate, extra="forbid")
    return _parser(validate, ValidationError, _read, accepted)


def _read(exc: ValidationError, arguments: dict[str, Any]) -> tuple[list[ArgumentProblem], int]:
    return problems(exc.errors(include_url=False), arguments)


def _parser(
    validate: Callable[[Any], Any],
    error_types: type[Exception] | tuple[type[Exception], ...],
    read: Read,
    accepted: Sequence[str],
) -> Parse:
    """The parser: ``validate``'s value, or the rejection ``read`` from its error."""
    names = tuple(accepted)

    def parse(arguments: dict[str, Any]) -> Ok[Any] | Error:
        try:
            value = validate(arguments)
        except error_types as exc:
            # its traceback is this frame alone (the validator is compiled code),
            # and through the frame it would hold the caller's result, which
            # holds it: a cycle per rejected call, left for the collector
            exc.__traceback__ = None
            found, more = read(exc, arguments)
            return invalid_arguments(
                found, arguments=arguments, accepted=names, cause=exc, more=more
            )
        return ok(value)

    return parse


#: the ``pydantic.v1`` error type of each type whose parsing can overflow
_V1_OVERFLOWS = {
    datetime.timedelta: "value_error.duration",
    datetime.datetime: "value_error.datetime",
    datetime.date: "value_error.date",
    datetime.time: "value_error.time",
}


def _v1_overflow(
    model: Any, exc: OverflowError, arguments: Any
) -> tuple[list[ArgumentProblem], int]:
    """The problems of a ``pydantic.v1`` call that overflowed: the field(s) it came from, and the rest.

    Each top-level date, time or duration field is validated alone to find the
    value(s) too big; the rest of the call is validated without them. An
    overflow elsewhere (deeper, or another type) stays the exception it is.
    """
    from pydantic.v1 import ValidationError as V1ValidationError

    found: list[ArgumentProblem] = []
    for field in model.__fields__.values():
        kind = _V1_OVERFLOWS.get(field.type_)
        if kind is None or field.alias not in arguments:
            continue
        value = arguments[field.alias]
        try:
            field.validate(value, {}, loc=field.alias, cls=model)
        except OverflowError:
            found.append(ArgumentProblem((field.alias,), FIXED[kind], value))
    if not found:
        raise exc
    names = {p.path[0] for p in found}
    try:
        model.parse_obj({k: v for k, v in arguments.items() if k not in names})
    except V1ValidationError as rest:
        others, more = problems(rest.errors(), arguments, v1=True)
        # the names left out to validate the rest were sent: not missing
        found += [p for p in others if not (p.kind == "missing" and p.path[0] in names)]
        return found, more
    except OverflowError:
        raise exc from None
    return found, 0
