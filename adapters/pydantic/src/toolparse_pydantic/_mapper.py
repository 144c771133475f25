"""pydantic 2's errors as problems: the lines the message shows, and a count of the rest.

The message shows 20 problem lines and counts the rest, so the work stops
there for the common case: a wrong value at the top level is one line of its
own (pydantic reports one error per place), so past the lines shown it is only
counted. Every missing and unknown name (the message lists each) and every
problem deeper in the arguments is still built, up to the SDK's bound.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem, Error, invalid_arguments, invalid_rows
from toolparse.adapter import REQUIRED, type_reason
from toolparse.messages import MAX_PROBLEM_LINES

from ._errors import (
    _LEAVES,
    _MISSING,
    _TAGS,
    _UNRECOGNIZED,
    Path,
    _named,
    _received,
    _tag,
    _walk,
    kept,
)
from ._reasons import CONTEXTUAL, FIXED, TYPE_KINDS, reason
from ._rows import _NOT_PLAIN, problem_rows

__all__ = ["SHOWN", "Mapper", "problems"]

#: the problem lines a message shows: past them a wrong value at the top level
#: is only counted
SHOWN = MAX_PROBLEM_LINES
#: the reasons one tool remembers (a length's message holds the length sent, so
#: there can be many)
_REMEMBERED = 256

# the last type problem of a union's member: (its index, its path, its type
# words); the next member's, at the same place, joins it ("must be an integer
# or a string")
Union = tuple[int, Path, list[str]] | None


def _shape(loc: Sequence[Any]) -> tuple[Any, ...]:
    """``loc`` without list positions: the place in the model, whichever item failed."""
    if len(loc) == 1:
        return tuple(loc)
    return tuple(
        [None if type(part) is int else part for part in loc]
    )  # (quicker than a generator)


def _line(problem: ArgumentProblem) -> bool:
    """Whether ``problem`` takes a line of the message (a top-level name takes none)."""
    path = problem.path
    return problem.kind == "invalid" or len(path) != 1 or not isinstance(path[0], str)


def _lines(found: Sequence[ArgumentProblem]) -> int:
    """How many distinct lines of the message ``found`` take."""
    return len({(p.path, p.reason, p.kind) for p in found if _line(p)})


_LOC = itemgetter("loc")
_TYPE = itemgetter("type")
_FIRST = itemgetter(0)


def _plain(tail: Sequence[Mapping[str, Any]], seen: Mapping[Any, int], arguments: Any) -> bool:
    """Whether each error of ``tail`` is a wrong value at a top-level key of its own.

    Then each is one line of the message: the count is their number. (Read
    in whole passes, as ``map`` does in C: a loop over them costs several times more.)
    """
    locs = list(map(_LOC, tail))
    if set(map(len, locs)) != {1} or not _NOT_PLAIN.isdisjoint(map(_TYPE, tail)):
        return False
    names = set(map(_FIRST, locs))
    return len(names) == len(locs) and names.isdisjoint(seen) and arguments.keys() >= names


def _top(err: Mapping[str, Any], text: str) -> ArgumentProblem:
    """The problem of a wrong value at the top level (its ``loc`` is the path)."""
    value = err.get("input", NOT_GIVEN)
    if type(value) not in _LEAVES and isinstance(value, Mapping):
        value = NOT_GIVEN  # an object cut to 40 characters tells the model nothing
    return ArgumentProblem(err["loc"], text, value)


class Mapper:
    """One tool's pydantic 2 errors as problems: what the message shows, the rest counted.

    Past the lines shown, pydantic's errors are read without their context
    (most reasons are fixed words); the reason of a bound, a pattern or a
    choice is remembered per tool by error type, pydantic's message and place
    in the model, so the context is read only the first time one is met.
    """

    __slots__ = ("_accepted", "_reasons", "_shown")

    def __init__(self, shown: int = SHOWN, accepted: tuple[str, ...] = ()) -> None:
        self._reasons: dict[tuple[Any, ...], str] = {}
        self._shown = shown  # the lines built before top-level ones are only counted
        self._accepted = accepted  # the tool's top-level names, for its rejections

    def __call__(self, exc: Any, arguments: Any) -> tuple[list[ArgumentProblem], int]:
        """The problems of ``exc`` (a ``ValidationError``), and how many more were only counted."""
        if exc.error_count() <= self._shown:
            # all shown: read with the context at once (for a few errors it costs little)
            return self._every(exc.errors(include_url=False, include_context=True), arguments), 0
        return self._many(exc.errors(include_url=False, include_context=False), arguments, exc)

    def rejection(self, exc: Any, arguments: Any) -> Error:
        """The rejection of ``exc`` (a ``ValidationError``), rendered by the core.

        A few errors, none a union's member, a name deeper than the top level
        or a union's tag (the common rejection), are handed over as rows: the
        core renders their lines and builds the problems only if they are read.
        """
        accepted = self._accepted
        more = 0
        if exc.error_count() <= self._shown:
            errors = exc.errors(include_url=False, include_context=True)
            rows = problem_rows(errors, arguments, self)
            if rows is not None:
                return invalid_rows(rows, arguments=arguments, accepted=accepted, cause=exc)
            found = self._every(errors, arguments)
        else:
            found, more = self._many(
                exc.errors(include_url=False, include_context=False), arguments, exc
            )
        return invalid_arguments(
            found, arguments=arguments, accepted=accepted, cause=exc, more=more
        )

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

    def _every(
        self, errors: Sequence[Mapping[str, Any]], arguments: Any, exc: Any = None
    ) -> list[ArgumentProblem]:
        """The problems of a few errors, all shown: :meth:`map` without the counting."""
        out: list[ArgumentProblem] = []
        detailed: list[Any] = []
        top = type(arguments) is dict
        union: Union = None
        i = -1  # the error's index (its context is read by it, when ``errors`` lack it)
        for err in errors:
            i += 1
            kind = err["type"]
            loc = err["loc"]
            text = FIXED.get(kind)
            if text is not None and top and len(loc) == 1 and loc[0] in arguments:
                # the common case: a wrong value at the top level (_top, without its call)
                value = err.get("input", NOT_GIVEN)
                if type(value) not in _LEAVES and isinstance(value, Mapping):
                    value = NOT_GIVEN
                out.append(ArgumentProblem(loc, text, value))
            elif kind == "missing" and len(loc) == 1 and type(loc[0]) is str:
                out.append(ArgumentProblem(loc, REQUIRED, NOT_GIVEN, "missing"))  # the next one
            elif text is None:
                # a reason of its own (a bound, a choice): what _add does first
                out.append(self._other(err, kind, i, arguments, exc, detailed))
            else:
                union = self._add(out, err, kind, text, i, arguments, exc, detailed, union)
        return out

    def _many(
        self, errors: Sequence[Mapping[str, Any]], arguments: Any, exc: Any
    ) -> tuple[list[ArgumentProblem], int]:
        """:meth:`map` for more errors than the message shows lines."""
        errors, more = kept(errors)
        detailed: list[Any] = []  # the errors with their context, read once if needed
        out: list[ArgumentProblem] = []
        plain = _NOT_PLAIN
        top = type(arguments) is dict
        union: Union = None
        shown = self._shown
        lines = checked = 0  # problem lines built; their count when last checked
        # the index of the first error at each top-level key built or counted,
        # and of any further ones there (rare: a line only if it reads otherwise)
        seen: dict[Any, int] = {}
        again: dict[Any, list[int]] = {}
        i = -1
        for err in errors:
            i += 1
            kind = err["type"]
            loc = err["loc"]
            if top and len(loc) == 1 and kind not in plain and loc[0] in arguments:
                if seen.setdefault(loc[0], i) != i:
                    again.setdefault(loc[0], []).append(i)
                text = FIXED.get(kind) or self._reason(kind, err, i, exc, detailed)
                out.append(_top(err, text))
                lines += 1
            else:
                before = len(out)
                union = self._add(
                    out, err, kind, FIXED.get(kind), i, arguments, exc, detailed, union
                )
                if len(out) > before and _line(out[-1]):
                    lines += 1
            if lines >= shown and lines > checked:
                # repeats take no line: count the distinct ones (rarely more than once)
                checked = lines
                if _lines(out) >= shown:
                    break
        else:
            return out, more
        # the lines shown are built: a wrong value at the top level is only counted
        tail = errors[i + 1 :]
        if top and _plain(tail, seen, arguments):
            return out, more + len(tail)  # the common case: every one a line of its own
        # (a line counted between ends a union's run, as if it were built)
        for err in tail:
            i += 1
            loc = err["loc"]
            if top and len(loc) == 1 and err["type"] not in plain and loc[0] in arguments:
                first = seen.setdefault(loc[0], i)
                if first == i:
                    more += 1
                else:
                    earlier = [first, *again.get(loc[0], ())]
                    if self._new_reason(errors, earlier, i, exc, detailed):
                        more += 1
                    again.setdefault(loc[0], []).append(i)
                union = None
                continue
            kind = err["type"]
            union = self._add(out, err, kind, FIXED.get(kind), i, arguments, exc, detailed, union)
        return out, more

    def _new_reason(
        self,
        errors: Sequence[Mapping[str, Any]],
        earlier: list[int],
        i: int,
        exc: Any,
        detailed: list[Any],
    ) -> bool:
        """Whether error ``i`` reads otherwise than the ``earlier`` ones at its key."""

        def text(j: int) -> str:
            err = errors[j]
            return FIXED.get(err["type"]) or self._reason(err["type"], err, j, exc, detailed)

        return text(i) not in {text(j) for j in earlier}

    def _add(
        self,
        out: list[ArgumentProblem],
        err: Mapping[str, Any],
        kind: str,
        text: str | None,
        i: int,
        arguments: Any,
        exc: Any,
        detailed: list[Any],
        union: Union,
    ) -> Union:
        """Add the problem of ``err`` (a name, a deeper place, a union's member) to ``out``."""
        if text is None:
            out.append(self._other(err, kind, i, arguments, exc, detailed))
            return union
        path, _, whole = _walk(err["loc"], arguments, key_at_end=False)
        if not whole and kind in TYPE_KINDS:
            word = TYPE_KINDS[kind]
            if union is not None and union[0] == len(out) - 1 and union[1] == path:
                words = union[2]
                if word not in words:
                    words.append(word)
                    out[-1].reason = type_reason(*words)
                return union
            union = (len(out), path, [word])
        if not path:
            out.append(ArgumentProblem(path, text))
            return union
        value = err.get("input", NOT_GIVEN)
        if type(value) not in _LEAVES and isinstance(value, Mapping):
            value = NOT_GIVEN
        out.append(ArgumentProblem(path, text, value))
        return union

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
