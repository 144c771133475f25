"""pydantic's validation errors, as the structured problems the core renders.

pydantic's ``loc`` is not quite a path into the data: for unions it inserts
the member that was tried (``("pet", "cat", "meow")``, ``("value", "int")``,
``("x", "function-after[check(), int]")``) and ``pydantic.v1`` writes
``__root__`` for model-level errors. The model needs the path into what it
sent, so the path is found by walking ``loc`` through the arguments and
keeping only the steps that exist there.

The per-error work is a few look-ups: a top-level ``loc`` is the path as it
is, and the reason of an error type comes from a table (see ``_reasons``).
pydantic 2's errors are mapped by ``_mapper`` (which builds the lines the
message shows and counts the rest) with the helpers here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import MAX_PROBLEMS, REQUIRED, one_of_reason, type_reason

from ._reasons import (
    FIXED,
    FIXED_V1,
    V1_TYPE_KINDS,
    choices,
    reason,
    reason_v1,
)

__all__ = ["KEPT", "kept", "problems_v1", "raised_lines"]

Path = tuple[str | int, ...]

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
# a discriminated union: the tag is a key of the object at the error's path
_TAGS = frozenset({"union_tag_invalid", "union_tag_not_found"})
_V1_MISSING = "value_error.missing"
_V1_UNRECOGNIZED = "value_error.extra"
# values echoed as they are without an isinstance check (which is slow for ABCs)
_LEAVES = frozenset({str, int, float, bool, type(None), list})


def _walk(loc: Sequence[Any], data: Any, *, key_at_end: bool) -> tuple[Path, Any, bool]:
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
            if type(part) is str and part in data:
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


def _named(loc: Sequence[Any], arguments: Any) -> Path:
    """The path of a missing or unknown name (its last step need not be in the data)."""
    if len(loc) == 1 and type(loc[0]) is str:
        return tuple(loc)
    return _walk(loc, arguments, key_at_end=True)[0]


def _received(value: Any) -> Any:
    # an object cut to 40 characters of JSON tells the model nothing it can act on
    if type(value) in _LEAVES:
        return value
    return NOT_GIVEN if isinstance(value, Mapping) else value


def _tag(err: Mapping[str, Any], path: Path) -> ArgumentProblem | None:
    """A discriminated union's tag problem, at the tag's own key (``pet.kind``)."""
    ctx = err.get("ctx") or {}
    value = err.get("input")
    try:
        key = ast.literal_eval(str(ctx.get("discriminator")))
    except (ValueError, SyntaxError):
        return None  # a callable discriminator: no key in the data to point at
    if not isinstance(key, str) or not isinstance(value, Mapping):
        return None
    if err["type"] == "union_tag_not_found":
        return ArgumentProblem.missing((*path, key), REQUIRED)
    tags = choices(str(ctx.get("expected_tags", "")))
    if not tags:
        return None
    # the value the model sent (pydantic's ``tag`` is its text)
    return ArgumentProblem((*path, key), one_of_reason(tags), _received(value.get(key, NOT_GIVEN)))


#: the errors of one call turned into problems at most (the SDK's bound); past
#: them the rest are only counted
KEPT = MAX_PROBLEMS

# the top-level names a call lacks or should not send: kept wherever they come,
# so the Missing and Unrecognized lines name every one
_NAMES = _MISSING | _UNRECOGNIZED | {_V1_MISSING, _V1_UNRECOGNIZED}


def kept(errors: Sequence[Mapping[str, Any]]) -> tuple[Sequence[Mapping[str, Any]], int]:
    """The errors to turn into problems, and how many more are only counted."""
    if len(errors) <= KEPT:
        return errors, 0
    names = [e for e in errors[KEPT:] if len(e["loc"]) == 1 and e["type"] in _NAMES]
    return [*errors[:KEPT], *names], len(errors) - KEPT - len(names)


def problems_v1(errors: Sequence[Mapping[str, Any]], arguments: Any) -> list[ArgumentProblem]:
    """Turn a ``pydantic.v1`` ``ValidationError.errors()`` into argument problems.

    ``pydantic.v1`` errors carry no input value, so the received value is
    read from the arguments at the error's path. Its messages are already a
    validator's own (no prefix), so only the shared words replace any.
    """
    out: list[ArgumentProblem] = []
    # v1 reports each member of a failed union at the union's own path: the
    # type problems of one place join ("must be an integer or a string")
    union: tuple[int, Path, list[str]] | None = None
    for err in errors:
        kind = err["type"]
        if kind == _V1_MISSING:
            out.append(ArgumentProblem.missing(_named(err["loc"], arguments), REQUIRED))
        elif kind == _V1_UNRECOGNIZED:
            out.append(ArgumentProblem.unrecognized(_named(err["loc"], arguments)))
        else:
            path, value, whole = _walk(err["loc"], arguments, key_at_end=False)
            word = V1_TYPE_KINDS.get(kind)
            if word is not None:
                if union is not None and union[0] == len(out) - 1 and union[1] == path:
                    if word not in union[2]:
                        union[2].append(word)
                        out[-1].reason = type_reason(*union[2])
                    continue
                union = (len(out), path, [word])
            text = FIXED_V1.get(kind) or reason_v1(kind, err.get("ctx"), str(err["msg"]))
            out.append(
                ArgumentProblem(path, text, _received(value) if path and whole else NOT_GIVEN)
            )
    return out


#: how many of a raised error's problems are worded (the text is cut to
#: 300 characters anyway)
_RAISED_SHOWN = 10


def raised_lines(errors: Sequence[Mapping[str, Any]], *, v1: bool) -> list[str]:
    """Problem lines for a ``ValidationError`` a tool body raised on its own data.

    There are no arguments to walk, so the path is pydantic's ``loc`` (without
    ``__root__``), and no value is echoed (it is the tool's data, not the model's).
    """
    shown: list[str] = []
    for err in errors[:_RAISED_SHOWN]:
        kind = err["type"]
        path = tuple(part for part in err["loc"] if part != "__root__")
        if kind in _MISSING or kind == _V1_MISSING:
            problem = ArgumentProblem.missing(path, REQUIRED)
        elif kind in _UNRECOGNIZED or kind == _V1_UNRECOGNIZED:
            problem = ArgumentProblem.unrecognized(path)
        elif v1:
            msg = str(err["msg"])
            problem = ArgumentProblem(
                path, FIXED_V1.get(kind) or reason_v1(kind, err.get("ctx"), msg)
            )
        else:
            msg = str(err["msg"])
            problem = ArgumentProblem(path, FIXED.get(kind) or reason(kind, err.get("ctx"), msg))
        shown.append(problem.line())
    if len(errors) > _RAISED_SHOWN:
        shown.append(f"... and {len(errors) - _RAISED_SHOWN} more")
    return shown
