"""pydantic's validation errors, as the structured problems the core renders.

pydantic's ``loc`` is not quite a path into the data: for unions it inserts
the member that was tried (``("pet", "cat", "meow")``, ``("value", "int")``,
``("x", "function-after[check(), int]")``) and ``pydantic.v1`` writes
``__root__`` for model-level errors. The model needs the path into what it
sent, so the path is found by walking ``loc`` through the arguments and
keeping only the steps that exist there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem

__all__ = ["problems", "problems_v1"]

# error types that say "a required name was not sent"
_MISSING = frozenset(
    {
        "missing",
        "missing_argument",
        "missing_keyword_only_argument",
        "missing_positional_only_argument",
    }
)
# error types that say "this name is not accepted"
_UNRECOGNIZED = frozenset({"extra_forbidden", "unexpected_keyword_argument"})
_V1_MISSING = "value_error.missing"
_V1_UNRECOGNIZED = "value_error.extra"
# pydantic prefixes the message of a ValueError raised in a validator; the
# user's own message is what the model should read
_VALUE_ERROR_PREFIX = "Value error, "


def _walk(
    loc: Sequence[Any], data: Any, *, key_at_end: bool
) -> tuple[tuple[str | int, ...], Any, bool]:
    """Follow ``loc`` through ``data``.

    Returns the data path, the value found there, and whether every step of
    ``loc`` was a step into the data. With ``key_at_end`` the last step names
    a key that may be absent (a missing field) and is kept anyway.
    """
    path: list[str | int] = []
    last = len(loc) - 1
    whole = True
    i = -1
    for part in loc:
        i += 1
        kind = type(data)
        # exact type checks first: arguments decoded from JSON are dicts and lists
        if kind is dict or (kind is not list and isinstance(data, Mapping)):
            if part in data and type(part) is str:
                path.append(part)
                data = data[part]
                continue
        elif (kind is list or kind is tuple) and type(part) is int and 0 <= part < len(data):
            path.append(part)
            data = data[part]
            continue
        if key_at_end and i == last and part != "__root__":
            path.append(part)
            break
        # a union member, a validator's label, ``__root__``: not a place in the data
        whole = False
    return tuple(path), data, whole


def _received(value: Any) -> Any:
    # an object cut to 40 characters of JSON tells the model nothing it can act on
    return NOT_GIVEN if type(value) is dict or isinstance(value, Mapping) else value


def problems(errors: Sequence[Mapping[str, Any]], arguments: Any) -> list[ArgumentProblem]:
    """Turn ``ValidationError.errors(include_url=False)`` into argument problems."""
    out: list[ArgumentProblem] = []
    for err in errors:
        kind = err["type"]
        if kind in _MISSING:
            path, _, _ = _walk(err["loc"], arguments, key_at_end=True)
            out.append(ArgumentProblem.missing(path))
        elif kind in _UNRECOGNIZED:
            path, _, _ = _walk(err["loc"], arguments, key_at_end=True)
            out.append(ArgumentProblem.unrecognized(path))
        else:
            path, _, _ = _walk(err["loc"], arguments, key_at_end=False)
            reason = str(err["msg"])
            if kind == "value_error" and reason.startswith(_VALUE_ERROR_PREFIX):
                reason = reason[len(_VALUE_ERROR_PREFIX) :]
            received = _received(err.get("input", NOT_GIVEN)) if path else NOT_GIVEN
            out.append(ArgumentProblem(path, reason, received))
    return out


def problems_v1(errors: Sequence[Mapping[str, Any]], arguments: Any) -> list[ArgumentProblem]:
    """Turn a ``pydantic.v1`` ``ValidationError.errors()`` into argument problems.

    ``pydantic.v1`` errors carry no input value, so the received value is
    read from the arguments at the error's path.
    """
    out: list[ArgumentProblem] = []
    for err in errors:
        kind = err["type"]
        if kind == _V1_MISSING:
            path, _, _ = _walk(err["loc"], arguments, key_at_end=True)
            out.append(ArgumentProblem.missing(path))
        elif kind == _V1_UNRECOGNIZED:
            path, _, _ = _walk(err["loc"], arguments, key_at_end=True)
            out.append(ArgumentProblem.unrecognized(path))
        else:
            path, value, whole = _walk(err["loc"], arguments, key_at_end=False)
            received = _received(value) if path and whole else NOT_GIVEN
            out.append(ArgumentProblem(path, str(err["msg"]), received))
    return out
