"""Rejections rendered from plain rows: the problems built only if they are read.

An adapter that maps many rejections (pydantic's errors, one call after
another) hands the core ``(path, reason, received, kind)`` tuples instead of
:class:`~toolparse.ArgumentProblem` values; the message is the one
:func:`~toolparse.invalid_arguments` renders, and the problems on the
exception are built from the rows when first read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from . import messages
from ._names import MAX_NAMES
from ._value_text import path_text, value_text
from .contract import Error
from .messages import _ACCEPTED_TEXTS
from .problems import (
    _INVALID_HEAD,
    _INVALID_TAIL,
    _PLAIN_CHARS,
    _SHORT_INT,
    NOT_GIVEN,
    ArgumentProblem,
    InvalidArguments,
    ProblemRow,
    _line,
    _pending,
    invalid_arguments,
)

__all__ = ["invalid_rows"]

_new = tuple.__new__
_PATH = itemgetter(0)
_new_exc = InvalidArguments.__new__


def invalid_rows(
    rows: Sequence[ProblemRow],
    *,
    arguments: Mapping[str, Any] | None = None,
    accepted: Sequence[str] = (),
    cause: BaseException | None = None,
) -> Error:
    """:func:`invalid_arguments` for problems given as rows, ``(path, reason, received, kind)``.

    The same ``Error`` (the same message, the same
    :attr:`InvalidArguments.problems` once read), for an adapter that maps
    many rejections: the lines are rendered from the rows, and the
    :class:`ArgumentProblem` values are built only if the problems are read.
    Each ``path`` is a tuple; ``received`` is :data:`NOT_GIVEN` where no value
    is echoed. The exception keeps ``rows`` as given (not copied): the
    problems are built from it later, so it must not change afterwards.
    """
    count = len(rows)
    if count > messages.MAX_PROBLEM_LINES or (
        arguments is not None and arguments is _pending.get()
    ):
        # more lines than a message shows, or problems a Function merges before
        # rendering: the general path, which needs them built
        return _general(rows, arguments, accepted, cause)
    arguments = arguments or {}
    kept = rows  # (not copied: the rows are the exception's from here on)
    if count == 1 and rows[0][3] == "invalid":
        # the most common rejection, one wrong value (as render_problems has it)
        path, reason, received, _ = rows[0]
        line = _line(path, reason, received)
        text = f"{_INVALID_HEAD}\n\n{line}\n\n{_INVALID_TAIL}"
        if len(text) > messages.MAX_MESSAGE_CHARS:
            text = messages.fitted_invalid([line], [], {}, accepted)
    else:
        # render_problems' pass: repeats dropped, the top-level missing names
        # apart. A repeat is at a place met before: where every place is
        # distinct (one error per place, as most libraries report) none is
        # looked for row by row
        seen: set[tuple[Any, ...]] | None = None if len(set(map(_PATH, rows))) == count else set()
        missing: list[str] = []
        lines: list[str] = []
        repeats = 0
        for path, reason, received, kind in rows:
            if seen is not None:
                key = (path, reason, kind)
                if key in seen:
                    repeats += 1
                    continue
                seen.add(key)
            # most problems are on a top-level name: its text is the name
            if len(path) == 1 and type(where := path[0]) is str:
                if kind != "invalid":
                    if kind == "missing":
                        missing.append(where)
                        continue
                    if kind == "unrecognized":
                        # names to suggest for: the general path
                        return _general(rows, arguments, accepted, cause)
            elif kind != "invalid" and len(path) == 1 and isinstance(path[0], str):
                # a name of a class of its own: listed as its text
                if kind == "missing":
                    missing.append(str(path[0]))
                    continue
                if kind == "unrecognized":
                    return _general(rows, arguments, accepted, cause)
                lines.append(_line(path, reason, received))
                continue
            else:
                # a deeper place: its text as last written for it (a tool's
                # rejections come back to the same places), where the parts
                # are of the same types, so the same text
                try:
                    place = _WHERE.get(path)
                except TypeError:  # a part that is no key: written each time
                    place = None
                if place is not None and place[0] == tuple(map(type, path)):
                    where = place[1]
                else:
                    where = _where(path)
            # _line, written out: a call per line is much of what rendering costs
            if not reason.isprintable():
                lines.append(_line(path, reason, received))
            elif received is NOT_GIVEN:
                lines.append(f"{where}: {reason}")
            elif type(received) is str:
                if (
                    len(received) <= _PLAIN_CHARS
                    and received.isprintable()
                    and '"' not in received
                    and "\\" not in received
                ):
                    lines.append(f'{where}: {reason} (received "{received}")')
                else:
                    lines.append(f"{where}: {reason} (received {value_text(received)})")
            elif type(received) is int and -_SHORT_INT < received < _SHORT_INT:
                lines.append(f"{where}: {reason} (received {received})")
            else:
                lines.append(f"{where}: {reason} (received {value_text(received)})")
        if repeats:
            kept = _first(kept)
        if accepted and len(missing) > 1:
            order = {name: i for i, name in enumerate(accepted)}
            missing.sort(key=lambda name: order.get(name, len(order)))
        names = ", ".join(missing)
        known = _ACCEPTED_TEXTS.get(id(accepted))
        if (
            names
            and lines
            and len(missing) <= MAX_NAMES
            and known is not None
            and known[0] is accepted
            and known[1]
        ):
            # the usual text, problem lines then the names: what messages.invalid
            # writes first, without its call and its checks
            shown = "\n".join(lines)
            text = (
                f"{_INVALID_HEAD}\n\n{shown}\nMissing parameters: {names}\n"
                f"Accepted parameters: {known[1]}\n\n{_INVALID_TAIL}"
            )
            if len(text) > messages.MAX_MESSAGE_CHARS:
                text = messages.fitted_invalid(lines, missing, {}, accepted)
        else:
            text = messages.invalid(lines, missing, {}, accepted)
    # InvalidArguments._of_rows, written out (its problems built from ``kept``
    # when first read)
    exc = _new_exc(InvalidArguments, text)  # (its ``args`` set by BaseException's __new__)
    exc.message = text
    exc._found = None
    exc._rows = kept
    exc._unrecognized = ()
    exc._every = None
    exc.arguments = arguments
    exc.accepted = accepted if type(accepted) is tuple else tuple(accepted)
    exc.more = 0
    if cause is not None:
        exc.__cause__ = cause
    return _new(Error, (text, exc))


#: the text of each deeper place lately written, with its parts' types
_WHERE: dict[tuple[Any, ...], tuple[tuple[type, ...], str]] = {}
_REMEMBERED_PLACES = 1024
_PLAIN_PARTS = frozenset({str, int})


def _where(path: tuple[Any, ...]) -> str:
    """``path_text(path)``, remembered where every part is a plain name or index."""
    text = path_text(path)
    types = tuple(map(type, path))
    # a plain name or index is written by its value and type alone (a part of
    # a class of its own may write itself otherwise, whatever it equals)
    if _PLAIN_PARTS.issuperset(types):
        if len(_WHERE) >= _REMEMBERED_PLACES:
            _WHERE.clear()
        try:
            _WHERE[path] = (types, text)
        except TypeError:
            pass
    return text


def _general(
    rows: Sequence[ProblemRow],
    arguments: Mapping[str, Any] | None,
    accepted: Sequence[str],
    cause: BaseException | None,
) -> Error:
    return invalid_arguments(
        [ArgumentProblem(*row) for row in rows], arguments=arguments, accepted=accepted, cause=cause
    )


def _first(rows: Sequence[ProblemRow]) -> list[ProblemRow]:
    """``rows`` without repeats: the same place, reason and kind, whatever was received."""
    seen: set[tuple[Any, ...]] = set()
    out: list[ProblemRow] = []
    for row in rows:
        key = (row[0], row[1], row[3])
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out
