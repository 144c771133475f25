"""pydantic's validation errors, as the structured problems the core renders.

pydantic's ``loc`` is not quite a path into the data: for unions it inserts
the member that was tried (``("pet", "cat", "meow")``, ``("value", "int")``,
``("x", "function-after[check(), int]")``) and ``pydantic.v1`` writes
``__root__`` for model-level errors. The model needs the path into what it
sent, so the path is found by walking ``loc`` through the arguments and
keeping only the steps that exist there.

The message shows 20 problem lines and counts the rest, so the work stops
there for the common case (a wrong value at the top level, one line each: past
the lines shown it is only counted); every missing and unknown name and every
problem deeper in the arguments is still built, up to the SDK's bound. The
per-error work is a few look-ups: a top-level ``loc`` is the path as it is,
and the reason of an error type comes from a table (see ``_reasons``).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import MAX_PROBLEMS, REQUIRED, one_of_reason, type_reason
from toolparse.messages import MAX_PROBLEM_LINES

from ._reasons import (
    CONTEXTUAL,
    FIXED,
    FIXED_V1,
    TYPE_KINDS,
    V1_TYPE_KINDS,
    choices,
    reason,
    reason_v1,
)

__all__ = ["KEPT", "SHOWN", "Mapper", "kept", "problems", "problems_v1", "raised_lines"]

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


#: the problem lines a message shows: past them a wrong value at the top level
#: is only counted
SHOWN = MAX_PROBLEM_LINES
#: the reasons one tool remembers (a length's message holds the length sent, so
#: there can be many)
_REMEMBERED = 256
# not a wrong value at its own key: a name (listed by name) or a union's tag
# (a problem at the tag's key)
_NOT_PLAIN = _NAMES | _TAGS


def _shape(loc: Sequence[Any]) -> tuple[Any, ...]:
    """``loc`` without list positions: the place in the model, whichever item failed."""
    return tuple(None if type(part) is int else part for part in loc)


def _lines(found: Sequence[ArgumentProblem]) -> int:
    """How many distinct lines of the message ``found`` take (a top-level name takes none)."""
    return len(
        {
            (p.path, p.reason, p.kind)
            for p in found
            if p.kind == "invalid" or len(p.path) != 1 or not isinstance(p.path[0], str)
        }
    )


class Mapper:
    """One tool's pydantic 2 errors as problems: what the message shows, the rest counted.

    The message shows 20 problem lines and counts the rest, so once 20 lines
    are built a wrong value at the top level is only counted (pydantic reports
    one error per place, so each is one line). Missing and unknown names are
    always built (the message lists every one), and so is a problem deeper in
    the arguments. Past the lines shown, pydantic's errors are read without
    their context (it costs about half of reading them, and most reasons are
    fixed words); the reason of a bound, a pattern or a choice is remembered
    per tool by error type, pydantic's message and place in the model, so the
    context is read only the first time one is met.
    """

    __slots__ = ("_reasons", "_shown")

    def __init__(self, shown: int = SHOWN) -> None:
        self._reasons: dict[tuple[Any, ...], str] = {}
        self._shown = shown  # the lines built before top-level ones are only counted

    def __call__(self, exc: Any, arguments: Any) -> tuple[list[ArgumentProblem], int]:
        """The problems of ``exc`` (a ``ValidationError``), and how many more were only counted."""
        if exc.error_count() <= self._shown:
            # all shown: read with the context at once (for a few errors it costs little)
            return self._every(exc.errors(include_url=False, include_context=True), arguments), 0
        return self._many(exc.errors(include_url=False, include_context=False), arguments, exc)

    def map(
        self, errors: Sequence[Mapping[str, Any]], arguments: Any, exc: Any = None
    ) -> tuple[list[ArgumentProblem], int]:
        """Turn ``ValidationError.errors(include_url=False)`` into problems and a count.

        ``exc`` is the error they came from: its context is read from it where
        ``errors`` lack it and a reason needs it.
        """
        if len(errors) <= self._shown:
            return self._every(errors, arguments, exc), 0
        return self._many(errors, arguments, exc)

    def _many(
        self, errors: Sequence[Mapping[str, Any]], arguments: Any, exc: Any
    ) -> tuple[list[ArgumentProblem], int]:
        """:meth:`map` for more errors than the message shows lines."""
        errors, more = kept(errors)
        detailed: list[Any] = []  # the errors with their context, read once if needed
        out: list[ArgumentProblem] = []
        append = out.append
        fixed = FIXED.get
        leaves = _LEAVES
        plain = _NOT_PLAIN
        top = type(arguments) is dict
        # the last type problem of a union's member: the next member's, at the
        # same place, joins it ("must be an integer or a string")
        union: tuple[int, Path, list[str]] | None = None
        lines = checked = 0  # problem lines built; their count when last checked
        shown = self._shown
        full = False  # the lines the message shows are built
        seen: set[tuple[Any, str]] = set()  # (top-level key, reason) of each line there
        for i, err in enumerate(errors):
            kind = err["type"]
            loc = err["loc"]
            text = fixed(kind)
            if top and len(loc) == 1 and kind not in plain and loc[0] in arguments:
                # the common case first: a wrong value at the top level
                if text is None:
                    text = self._reason(kind, err, i, exc, detailed)
                if full:
                    key = (loc[0], text)
                    if key not in seen:  # a repeat would be dropped from the message
                        seen.add(key)
                        more += 1
                    union = None  # the line between ends a union's run, as if built
                    continue
                seen.add((loc[0], text))
                value = err.get("input", NOT_GIVEN)
                if type(value) not in leaves and isinstance(value, Mapping):
                    value = NOT_GIVEN  # an object cut to 40 characters tells the model nothing
                append(ArgumentProblem(loc, text, value))
                lines += 1
            elif text is None:
                problem = self._other(err, kind, i, arguments, exc, detailed)
                append(problem)
                path = problem.path
                if problem.kind == "invalid" or len(path) != 1 or not isinstance(path[0], str):
                    lines += 1
            else:
                path, _, whole = _walk(loc, arguments, key_at_end=False)
                if not whole and kind in TYPE_KINDS:
                    word = TYPE_KINDS[kind]
                    if union is not None and union[0] == len(out) - 1 and union[1] == path:
                        words = union[2]
                        if word not in words:
                            words.append(word)
                            out[-1].reason = type_reason(*words)
                        continue
                    union = (len(out), path, [word])
                if path:
                    value = err.get("input", NOT_GIVEN)
                    if type(value) not in leaves and isinstance(value, Mapping):
                        value = NOT_GIVEN
                    append(ArgumentProblem(path, text, value))
                else:
                    append(ArgumentProblem(path, text))
                lines += 1
            if lines >= shown and lines > checked and not full:
                # repeats take no line: count the distinct ones (rarely more than once)
                checked = lines
                full = _lines(out) >= shown
        return out, more

    def _every(
        self, errors: Sequence[Mapping[str, Any]], arguments: Any, exc: Any = None
    ) -> list[ArgumentProblem]:
        """The problems of a few errors, all shown: :meth:`map` without the counting."""
        out: list[ArgumentProblem] = []
        append = out.append
        detailed: list[Any] = []
        top = type(arguments) is dict
        union: tuple[int, Path, list[str]] | None = None
        i = -1  # the error's index (its context is read by it, when ``errors`` lack it)
        for err in errors:
            i += 1
            kind = err["type"]
            loc = err["loc"]
            text = FIXED.get(kind)
            if text is None:
                append(self._other(err, kind, i, arguments, exc, detailed))
                continue
            if top and len(loc) == 1 and loc[0] in arguments:
                path: Path = loc
            else:
                path, _, whole = _walk(loc, arguments, key_at_end=False)
                if not whole and kind in TYPE_KINDS:
                    word = TYPE_KINDS[kind]
                    if union is not None and union[0] == len(out) - 1 and union[1] == path:
                        words = union[2]
                        if word not in words:
                            words.append(word)
                            out[-1].reason = type_reason(*words)
                        continue
                    union = (len(out), path, [word])
                if not path:
                    append(ArgumentProblem(path, text))
                    continue
            value = err.get("input", NOT_GIVEN)
            if type(value) not in _LEAVES and isinstance(value, Mapping):
                value = NOT_GIVEN  # an object cut to 40 characters tells the model nothing
            append(ArgumentProblem(path, text, value))
        return out

    def _reason(
        self, kind: str, err: Mapping[str, Any], i: int, exc: Any, detailed: list[Any]
    ) -> str:
        """The reason of an error whose words are not fixed (its context read if needed)."""
        ctx = err.get("ctx")
        msg: str = err["msg"]
        if ctx is not None or kind not in CONTEXTUAL:
            return reason(kind, ctx, msg)
        # pydantic's message holds the context's value: with the place in the
        # model, it says which reason this is
        key = (kind, msg, _shape(err["loc"]))
        found = self._reasons.get(key)
        if found is None:
            found = reason(kind, _detail(err, i, exc, detailed).get("ctx"), msg)
            if len(self._reasons) < _REMEMBERED:
                self._reasons[key] = found
        return found

    def _other(
        self,
        err: Mapping[str, Any],
        kind: str,
        i: int,
        arguments: Any,
        exc: Any,
        detailed: list[Any],
    ) -> ArgumentProblem:
        """The problem for an error whose reason is not one of the fixed ones."""
        loc = err["loc"]
        if kind in _MISSING:
            # (ArgumentProblem.missing, without its two calls: the most common problem)
            return ArgumentProblem(_named(loc, arguments), REQUIRED, NOT_GIVEN, "missing")
        if kind in _UNRECOGNIZED:
            return ArgumentProblem.unrecognized(_named(loc, arguments))
        path, _, whole = _walk(loc, arguments, key_at_end=False)
        if kind in _TAGS and whole:
            tagged = _tag(_detail(err, i, exc, detailed), path)
            if tagged is not None:
                return tagged
        ctx = err.get("ctx")
        if ctx is not None or kind not in CONTEXTUAL:
            text = reason(kind, ctx, err["msg"])
        else:
            text = self._reason(kind, err, i, exc, detailed)
        return ArgumentProblem(path, text, _received(err.get("input")) if path else NOT_GIVEN)


def _detail(err: Mapping[str, Any], i: int, exc: Any, detailed: list[Any]) -> Mapping[str, Any]:
    """``err`` with its context: the ``i``-th error of ``exc`` read with it (once per call)."""
    if "ctx" in err or exc is None:
        return err
    if not detailed:
        detailed.extend(exc.errors(include_url=False, include_context=True))
    found: Mapping[str, Any] = detailed[i]
    return found


def problems(errors: Sequence[Mapping[str, Any]], arguments: Any) -> list[ArgumentProblem]:
    """The problems of ``errors`` (see :class:`Mapper`), without the count of those left out."""
    return Mapper().map(errors, arguments)[0]


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
