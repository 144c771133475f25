"""The parser: pydantic's validator, built once per tool, its errors as problems."""

from __future__ import annotations

import dataclasses
import datetime
import inspect
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError

from toolparse import ArgumentProblem, Error, Ok, invalid_arguments
from toolparse.adapter import new_outcome as _new

from . import _errors
from ._mapper import Mapper
from ._reasons import FIXED_V1

if TYPE_CHECKING:
    from ._adapter import Kind

__all__ = ["VALIDATE_EXTRA", "make_parser", "serialize"]

#: pydantic 2.12 and later can forbid extra keys for one validation call, at
#: every level; older versions only through each model's own config
VALIDATE_EXTRA = "extra" in inspect.signature(TypeAdapter.validate_python).parameters


def make_parser(
    source: Any, kind: Kind, policy: str, accepted: tuple[str, ...]
) -> Callable[[dict[str, Any]], Ok[Any] | Error]:
    """A parser validating with pydantic, built once for ``source``."""
    if kind == "v1":
        # already imported by whoever defined the model
        from pydantic.v1 import ValidationError as V1ValidationError

        def v1_rejection(exc: Any, arguments: Any) -> Error:
            if isinstance(exc, OverflowError):
                found, more = _v1_overflow(source, exc, arguments)
            else:
                found, more = _v1_problems(exc, arguments)
            return invalid_arguments(
                found, arguments=arguments, accepted=accepted, cause=exc, more=more
            )

        # pydantic.v1 lets an OverflowError out of a date or duration too big
        # for Python's types (86400000000000.0 seconds): a wrong value too
        return _make(source.parse_obj, (V1ValidationError, OverflowError), v1_rejection)
    validate: Any  # pydantic-core's validate_python, or TypeAdapter's
    if kind == "model":
        if not getattr(source, "__pydantic_complete__", True):
            source.model_rebuild()
        # the validator itself: model_validate is a Python-level wrapper around it
        validate = source.__pydantic_validator__.validate_python
    else:
        validate = (source if kind == "adapter" else TypeAdapter(source)).validate_python
    if policy == "reject" and VALIDATE_EXTRA:
        validate = partial(validate, extra="forbid")
    # one Mapper per tool: it remembers the reasons that need pydantic's context
    return _make(validate, ValidationError, Mapper(accepted=accepted).rejection)


def serialize(value: object, base: type) -> str | None:
    """JSON text for a pydantic model (``base`` is ``BaseModel``) or pydantic dataclass."""
    try:
        if isinstance(value, base):
            return str(value.model_dump_json())  # type: ignore[attr-defined]
        serializer = getattr(type(value), "__pydantic_serializer__", None)
        if serializer is not None and dataclasses.is_dataclass(value):
            # a pydantic dataclass: its own serializer, built with the class
            return str(serializer.to_json(value).decode())
        from ._adapter import _loaded

        v1 = _loaded("pydantic.v1.main", "BaseModel")
        if v1 is not None and isinstance(value, v1):
            return str(value.json())
    except (PydanticSerializationError, TypeError, ValueError):
        return None  # the core then says the tool returned something it cannot show
    return None


def _v1_problems(exc: Any, arguments: Any) -> tuple[list[Any], int]:
    errors, more = _errors.kept(exc.errors())
    return _errors.problems_v1(errors, arguments), more


#: the ``pydantic.v1`` error type of each type whose parsing can overflow
_V1_OVERFLOWS = {
    datetime.timedelta: "value_error.duration",
    datetime.datetime: "value_error.datetime",
    datetime.date: "value_error.date",
    datetime.time: "value_error.time",
}


def _v1_overflow(model: Any, exc: OverflowError, arguments: Any) -> tuple[list[Any], int]:
    """The problems of a ``pydantic.v1`` call that overflowed: the field(s) it came from, and the rest.

    Each top-level date, time or duration field is validated alone to find the
    value(s) too big; the rest of the call is validated without them. An
    overflow elsewhere (deeper, or another type) stays the exception it is.
    """
    from pydantic.v1 import ValidationError as V1ValidationError

    found: list[Any] = []
    for field in model.__fields__.values():
        kind = _V1_OVERFLOWS.get(field.type_)
        if kind is None or field.alias not in arguments:
            continue
        value = arguments[field.alias]
        try:
            field.validate(value, {}, loc=field.alias, cls=model)
        except OverflowError:
            found.append(ArgumentProblem((field.alias,), FIXED_V1[kind], value))
    if not found:
        raise exc
    names = {p.path[0] for p in found}
    try:
        model.parse_obj({k: v for k, v in arguments.items() if k not in names})
    except V1ValidationError as rest:
        others, more = _v1_problems(rest, arguments)
        # the names left out to validate the rest were sent: not missing
        found += [p for p in others if not (p.kind == "missing" and p.path[0] in names)]
        return found, more
    except OverflowError:
        raise exc from None
    return found, 0


def _make(
    validate: Callable[[Any], Any],
    error_type: type[Exception] | tuple[type[Exception], ...],
    rejection: Callable[[Any, Any], Error],
) -> Callable[[dict[str, Any]], Ok[Any] | Error]:
    # the accepted call's two look-ups as the closure's own (no global look-up)
    new, ok = _new, Ok

    def parse(arguments: dict[str, Any]) -> Ok[Any] | Error:
        try:
            value = validate(arguments)
        except error_type as exc:
            # its traceback is this frame alone (the validator is compiled code),
            # and through the frame it would hold the caller's result, which
            # holds it: a cycle per rejected call, left for the collector
            exc.__traceback__ = None
            return rejection(exc, arguments)
        return new(ok, (value, None))

    return parse
