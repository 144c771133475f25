"""pydantic's validation errors, read once, as the problems the core renders.

A rejected call reads ``ValidationError.errors()`` (pydantic 2, or
``pydantic.v1``) once and turns each error into an
:class:`~toolparse.ArgumentProblem`: where, the reason in the shared words
(``_reasons``), and the value received.

pydantic's ``loc`` is not quite a path into the data: for unions it inserts
the member that was tried (``("pet", "cat", "meow")``, ``("value", "int")``,
``("x", "function-after[check(), int]")``) and ``pydantic.v1`` writes
``__root__`` for model-level errors. The model needs the path into what it
sent, so the path is found by walking ``loc`` through the arguments and
keeping only the steps that exist there.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import MAX_PROBLEMS, one_of_reason, type_reason

from ._reasons import FIXED, TYPE_KINDS, choices, reason

__all__ = ["problems", "raised_lines"]

Path = tuple[str | int, ...]

# error types that say "a required name was not sent" (the last one pydantic.v1's)
_MISSING = frozenset(
    {
        "missing",
        "missing_argument",
        "missing_keyword_only_argument",
        "missing_positional_only_argument",
        "value_error.missing",
    }
)
# error types that say "this name is not accepted" (the last one pydantic.v1's)
_UNRECOGNIZED = frozenset({"extra_forbidden", "unexpected_keyword_argument", "value_error.extra"})
_NAMES = _MISSING | _UNRECOGNIZED
# a discriminated union: the tag is a key of the object at the error's path
_TAGS = frozenset({"union_tag_invalid", "union_tag_not_found"})
# values echoed as they are without an isinstance check (which is slow for ABCs)
_LEAVES = frozenset({str, int, float, bool, type(None), list})


def _walk(loc: Sequence[Any], data: Any, *, key_at_end: bool = False) -> tuple[Path, Any, bool]:
    """Follow ``loc`` through ``data``.

    Returns the data path, the value found there, and whether every step of
    ``loc`` was a step into the data. With ``key_at_end`` the last step names
    a key that may be absent (a missing field) and is kept anyway.
    """
    path: list[str | int] = []
    last = len(loc) - 1
    whole = True
    for i, part in enumerate(loc):
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
        return ArgumentProblem.missing((*path, key))
    tags = choices(str(ctx.get("expected_tags", "")))
    if not tags:
        return None
    # the value the model sent (pydantic's ``tag`` is its text)
    return ArgumentProblem((*path, key), one_of_reason(tags), _received(value.get(key, NOT_GIVEN)))


def _kept(errors: Sequence[Mapping[str, Any]]) -> tuple[Sequence[Mapping[str, Any]], int]:
    """The errors turned into problems (the SDK's bound), and how many more are only counted.

    Top-level missing and unknown names past the bound are kept: the message
    names every one on its own line.
    """
    if len(errors) <= MAX_PROBLEMS:
        return errors, 0
    names = [e for e in errors[MAX_PROBLEMS:] if len(e["loc"]) == 1 and e["type"] in _NAMES]
    return [*errors[:MAX_PROBLEMS], *names], len(errors) - MAX_PROBLEMS - len(names)


def problems(
    errors: Sequence[Mapping[str, Any]], arguments: Any, *, v1: bool = False
) -> tuple[list[ArgumentProblem], int]:
    """``ValidationError.errors()`` as problems, and how many more were only counted.

    ``v1``: the errors are ``pydantic.v1``'s, which carry no input (the value
    received is read from the arguments at the error's path) and report each
    member of a failed union at the union's own path.
    """
    kept, more = _kept(errors)
    out: list[ArgumentProblem] = []
    # the type problems of one union's members join ("must be an integer or a
    # string"): the index of the last one in ``out``, its path and its words
    union: tuple[int, Path, list[str]] | None = None
    top = arguments if type(arguments) is dict else {}
    for err in kept:
        kind = err["type"]
        loc = err["loc"]
        if kind in _NAMES:
            out.append(_name(kind, loc, arguments))
            continue
        if len(loc) == 1 and loc[0] in top:
            # the most common place, a name sent at the top level: _walk's answer
            path, found, whole = loc, top[loc[0]], True
        else:
            path, found, whole = _walk(loc, arguments)
        text = FIXED.get(kind)
        if text is None:
            tagged = _tag(err, path) if kind in _TAGS and whole else None
            if tagged is not None:
                out.append(tagged)
                continue
            text = reason(kind, err.get("ctx"), str(err["msg"]))
        # pydantic 2 names a union's member in loc (so not whole); v1 does not
        elif (v1 or not whole) and kind in TYPE_KINDS:
            if union is not None and union[0] == len(out) - 1 and union[1] == path:
                _join(out[-1], union[2], TYPE_KINDS[kind])
                continue
            union = (len(out), path, [TYPE_KINDS[kind]])
        value = err.get("input", found if whole else NOT_GIVEN) if path else NOT_GIVEN
        if type(value) not in _LEAVES and isinstance(value, Mapping):
            value = NOT_GIVEN  # an object cut to 40 characters tells the model nothing
        out.append(ArgumentProblem(path, text, value))
    return out, more


def _name(kind: str, loc: Sequence[Any], arguments: Any) -> ArgumentProblem:
    """The problem of a required name not sent, or of a name not accepted."""
    path = _named(loc, arguments)
    if kind in _MISSING:
        return ArgumentProblem.missing(path)
    return ArgumentProblem.unrecognized(path)


def _join(problem: ArgumentProblem, words: list[str], word: str) -> None:
    """Join ``word`` to the type words of a union's ``problem`` (``must be an integer or a string``)."""
    if word not in words:
        words.append(word)
        problem.reason = type_reason(*words)


#: how many of a raised error's problems are worded (the text is cut to
#: 300 characters anyway)
_RAISED_SHOWN = 10


def raised_lines(errors: Sequence[Mapping[str, Any]]) -> list[str]:
    """Problem lines for a ``ValidationError`` a tool body raised on its own data.

    There are no arguments to walk, so the path is pydantic's ``loc`` (without
    ``__root__``), and no value is echoed (it is the tool's data, not the model's).
    """
    shown: list[str] = []
    for err in errors[:_RAISED_SHOWN]:
        kind = err["type"]
        path = tuple(part for part in err["loc"] if part != "__root__")
        if kind in _MISSING:
            problem = ArgumentProblem.missing(path)
        elif kind in _UNRECOGNIZED:
            problem = ArgumentProblem.unrecognized(path)
        else:
            text = FIXED.get(kind) or reason(kind, err.get("ctx"), str(err["msg"]))
            problem = ArgumentProblem(path, text)
        shown.append(problem.line())
    if len(errors) > _RAISED_SHOWN:
        shown.append(f"... and {len(errors) - _RAISED_SHOWN} more")
    return shown
