"""The shared structure for argument problems, and its one renderer.

Every adapter turns its library's validation errors into
:class:`ArgumentProblem` values and calls :func:`invalid_arguments`; the core
renders them, so the model reads one layout whichever library validated.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Final, Literal

from . import messages
from ._lines import _Lines
from ._value_text import MAX_VALUE_CHARS as _MAX_VALUE_CHARS
from ._value_text import path_text as _path_text
from ._value_text import value_text as _value_text
from .adapter import REQUIRED
from .contract import Error

_new = tuple.__new__
_INVALID_HEAD = messages._INVALID_HEAD
_INVALID_TAIL = messages._INVALID_TAIL
#: the longest string echoed whole, with its two quotes, in a value's characters
_PLAIN_CHARS = _MAX_VALUE_CHARS - 2
#: integers shorter than this are echoed whole (their digits fit in a value's characters)
_SHORT_INT = 10**16

__all__ = [
    "NOT_GIVEN",
    "ArgumentProblem",
    "InvalidArguments",
    "ProblemRow",
    "invalid_arguments",
]


class _NotGiven:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __bool__(self) -> bool:
        return False


#: Marks "no received value to echo" (``None`` is a real JSON value: null).
NOT_GIVEN: Final[Any] = _NotGiven()

ProblemKind = Literal["invalid", "missing", "unrecognized"]

#: A problem as a plain tuple, ``(path, reason, received, kind)``, the
#: arguments of :class:`ArgumentProblem` (``path`` a tuple): what
#: :func:`invalid_rows` renders without building the problem first.
ProblemRow = tuple[tuple[str | int, ...], str, Any, ProblemKind]


class ArgumentProblem:
    """One problem with the arguments: where, what is wrong, and what was received.

    :param path: where the problem is, as keys and list indexes from the top of
        the arguments (``("items", 0, "qty")``); ``()`` for the whole object.
    :param reason: what is wrong, in plain words the model can act on.
    :param received: the offending value, echoed as JSON (cut to 40
        characters); leave it out when echoing would not help.
    :param kind: ``"missing"`` for a required name that was not sent,
        ``"unrecognized"`` for a name that is not accepted, else ``"invalid"``.
        Top-level missing and unrecognized names are gathered on their own
        lines of the message; nested ones get a line of their own.
    """

    __slots__ = ("kind", "path", "reason", "received")

    def __init__(
        self,
        path: Sequence[str | int],
        reason: str,
        received: Any = NOT_GIVEN,
        kind: ProblemKind = "invalid",
    ) -> None:
        self.path: tuple[str | int, ...] = tuple(path)
        self.reason = reason
        self.received = received
        self.kind: ProblemKind = kind

    @classmethod
    def missing(cls, path: Sequence[str | int] | str, reason: str = REQUIRED) -> ArgumentProblem:
        """A required name that was not sent (``path`` may be a plain name).

        The reason defaults to the shared words, ``is required``.
        """
        return cls((path,) if isinstance(path, str) else path, reason, kind="missing")

    @classmethod
    def unrecognized(
        cls, path: Sequence[str | int] | str, reason: str = "Unrecognized parameter"
    ) -> ArgumentProblem:
        """A name that is not accepted (``path`` may be a plain name)."""
        return cls((path,) if isinstance(path, str) else path, reason, kind="unrecognized")

    def line(self) -> str:
        """This problem as one line of the message (a reason of several lines joined by semicolons)."""
        return _line(self.path, self.reason, self.received)

    def _key(self) -> tuple[Any, ...]:
        return (self.path, self.reason, self.kind, repr(self.received))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ArgumentProblem):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = "" if self.received is NOT_GIVEN else f", received={self.received!r}"
        return f"ArgumentProblem({self.path!r}, {self.reason!r}{extra}, kind={self.kind!r})"


def _line(path: tuple[str | int, ...], reason: str, received: Any) -> str:
    """The message line of a problem at ``path`` (:meth:`ArgumentProblem.line`)."""
    if not reason.isprintable():  # a validator's own text may hold newlines or tabs
        reason = _one_line(reason)
    # most problems are on a top-level name: its path text is the name
    where = path[0] if len(path) == 1 and type(path[0]) is str else _path_text(path)
    if received is NOT_GIVEN:
        return f"{where}: {reason}"
    if (
        type(received) is str
        and len(received) <= _PLAIN_CHARS
        and received.isprintable()
        and '"' not in received
        and "\\" not in received
    ):
        # a short plain string, the most common value echoed: its JSON is
        # itself in quotes (as value_text writes it, without the call)
        return f'{where}: {reason} (received "{received}")'
    if type(received) is int and -_SHORT_INT < received < _SHORT_INT:
        return f"{where}: {reason} (received {received})"  # its JSON: its digits, uncut
    return f"{where}: {reason} (received {_value_text(received)})"


def _one_line(text: str) -> str:
    return "; ".join(
        part for part in (" ".join(line.split()) for line in text.splitlines()) if part
    )


class InvalidArguments(ValueError):
    """The exception kept on ``Error.exception`` when arguments were rejected.

    It carries the structured :attr:`problems` (for the application, its logs,
    and for the core to merge further problems into one message) and, as
    ``__cause__``, the library's own exception where there was one.
    ``more`` counts the problems found past those kept: a parser facing
    thousands of wrong items keeps the first ones and counts the rest (the
    message shows 20 lines and the count either way).

    ``unrecognized``: top-level names that are not accepted, carried as one
    entry (see :func:`invalid_arguments`); each is on :attr:`problems` too,
    as an ``"unrecognized"`` problem after the others.
    """

    # one is built per rejected call: slots and ``args`` set in place (not
    # through ValueError's constructor) halve what building it costs.
    # invalid_rows (in _rows) sets every slot itself, the problems left unbuilt
    __slots__ = (
        "_every",
        "_found",
        "_rows",
        "_unrecognized",
        "accepted",
        "arguments",
        "message",
        "more",
    )

    def __init__(
        self,
        message: str,
        problems: Sequence[ArgumentProblem],
        arguments: Mapping[str, Any],
        accepted: Sequence[str],
        *,
        more: int = 0,
        unrecognized: Sequence[str] = (),
    ) -> None:
        self.args = (message,)
        self.message = message
        self._found: tuple[ArgumentProblem, ...] | None = tuple(problems)
        self._rows: Sequence[ProblemRow] = ()
        #: names sent and not accepted, one entry for them all: a call with
        #: 50,000 of them builds no problem per name unless one is read
        self._unrecognized = tuple(unrecognized)
        self._every: tuple[ArgumentProblem, ...] | None = (
            None if self._unrecognized else self._found
        )
        self.arguments = arguments
        self.accepted = tuple(accepted)
        self.more = more

    @property
    def _problems(self) -> tuple[ArgumentProblem, ...]:
        """The problems as the parser gave them (its unrecognized names apart)."""
        found = self._found
        if found is None:
            # (the rows stay: a thread reading at once builds an equal tuple from them)
            found = self._found = tuple([ArgumentProblem(*row) for row in self._rows])
        return found

    def __reduce__(self) -> tuple[Any, ...]:
        # what the constructor takes (the default would pass ``args`` alone)
        # and the state a slot holds: a copy or a pickle is the same rejection
        state = (
            self.message,
            self._problems,
            self.arguments,
            self.accepted,
            {"more": self.more, "unrecognized": self._unrecognized},
        )
        return (_rebuilt, (type(self), state), self.__dict__ or None)

    @property
    def problems(self) -> tuple[ArgumentProblem, ...]:
        """Every problem found, one per unrecognized name too (built when first read)."""
        every = self._every
        if every is None:
            found = self._problems
            if self._unrecognized:
                seen = {p.path[0] for p in found if p.kind == "unrecognized" and len(p.path) == 1}
                names = [n for n in dict.fromkeys(self._unrecognized) if n not in seen]
                found = (*found, *map(ArgumentProblem.unrecognized, names))
            every = self._every = found
        return every


def _rebuilt(cls: type[InvalidArguments], state: tuple[Any, ...]) -> InvalidArguments:
    """An :class:`InvalidArguments` again, from what its ``__reduce__`` kept."""
    message, problems, arguments, accepted, options = state
    return cls(message, problems, arguments, accepted, **options)


def invalid_arguments(
    problems: Iterable[ArgumentProblem],
    *,
    arguments: Mapping[str, Any] | None = None,
    accepted: Sequence[str] = (),
    cause: BaseException | None = None,
    more: int = 0,
    unrecognized: Sequence[str] = (),
) -> Error:
    """Render argument problems into the one shared :class:`~toolparse.Error`.

    This is the public renderer for adapters and hand-written parsers: give it
    every problem found, the arguments the model sent (for "did you mean"
    suggestions) and the accepted top-level names (for the ``Accepted
    parameters`` line); it returns an ``Error`` whose ``message`` follows the
    project's layout and whose ``exception`` is an :class:`InvalidArguments`
    carrying the problems (with ``cause`` as its ``__cause__``). ``more``:
    how many further problems (nested ones, one line each) were found and
    only counted, so the message's ``... and N more`` counts them too.
    ``unrecognized``: top-level names sent that are not accepted, as one
    entry instead of an ``ArgumentProblem.unrecognized`` each (the same
    message, and the same :attr:`InvalidArguments.problems` once read);
    cheaper for a call that sends thousands of them.
    """
    # TEMPORARY (until the one renderer lands): every unknown top-level name is named
    if arguments and accepted:
        known = set(accepted)
        problems = list(problems)
        named = {p.path[0] for p in problems if p.kind == "unrecognized" and len(p.path) == 1}
        unrecognized = [
            *unrecognized,
            *(
                k
                for k in arguments
                if isinstance(k, str)
                and k not in known
                and k not in named
                and k not in unrecognized
            ),
        ]
    if arguments is not None and arguments is _pending.get():
        # the Function running this parser adds the policy's names to these
        # problems and renders them all once, at the end of the call
        exc = InvalidArguments(
            "", _dedupe(problems), arguments, accepted, more=more, unrecognized=unrecognized
        )
        if cause is not None:
            exc.__cause__ = cause
        return Error("", exc)
    return render_problems(problems, arguments, accepted, cause, more, unrecognized)


def render_problems(
    problems: Iterable[ArgumentProblem],
    arguments: Mapping[str, Any] | None,
    accepted: Sequence[str],
    cause: BaseException | None,
    more: int = 0,
    unrecognized: Sequence[str] = (),
) -> Error:
    """The one rendering of a rejected call's problems (see :func:`invalid_arguments`)."""
    arguments = arguments or {}
    if type(problems) is list and len(problems) == 1 and not more and not unrecognized:
        # the most common rejection, one wrong value: nothing to drop as a
        # repeat, no names lines, the text built here (as ``invalid`` would)
        problem = problems[0]
        if problem.kind == "invalid":
            line = problem.line()
            text = f"{_INVALID_HEAD}\n\n{line}\n\n{_INVALID_TAIL}"
            if len(text) > messages.MAX_MESSAGE_CHARS:
                text = messages.fitted_invalid([line], [], {}, accepted)
            exc = InvalidArguments(text, problems, arguments, accepted)
            if cause is not None:
                exc.__cause__ = cause
            return _new(Error, (text, exc))
    # one pass: drop repeats (as _dedupe does) and sort the top-level names out
    seen: set[tuple[Any, ...]] = set()
    kept: list[ArgumentProblem] = []
    missing: list[str] = []
    unknown: list[str] = []
    others: list[ArgumentProblem] = []
    for problem in problems:
        path = problem.path
        kind = problem.kind
        key = (path, problem.reason, kind)
        if key in seen:
            continue
        seen.add(key)
        kept.append(problem)
        if kind == "invalid" or len(path) != 1 or not isinstance(path[0], str):
            others.append(problem)
        elif kind == "missing":
            missing.append(str(path[0]))
        elif kind == "unrecognized":
            unknown.append(str(path[0]))
        else:
            others.append(problem)
    # a screenful or less: the lines themselves (the renderer reads a list
    # quicker); past it only the shown ones are rendered, the rest counted
    lines: Sequence[str] = (
        [p.line() for p in others]
        if not more and len(others) <= messages.MAX_PROBLEM_LINES
        else _Lines(others, more)
    )
    if accepted and len(missing) > 1:
        order = {name: i for i, name in enumerate(accepted)}
        missing.sort(key=lambda name: order.get(name, len(order)))
    names: Sequence[str] = unknown
    if unrecognized:
        # the names carried as one entry join those among the problems (a name
        # in both is one name: the suggestions' mapping keeps each once)
        names = [*unknown, *unrecognized] if unknown else unrecognized
    # for suggestions, never suggest a name sent: only the accepted names sent
    # matter then (not every name of a call that sent thousands)
    found = (
        messages.suggestions(names, accepted, [n for n in accepted if n in arguments])
        if names
        else {}
    )
    text = messages.invalid(lines, missing, found, accepted)
    exc = InvalidArguments(text, kept, arguments, accepted, more=more, unrecognized=unrecognized)
    if cause is not None:
        exc.__cause__ = cause
    return _new(Error, (text, exc))  # Error(text, exc) without its own __new__ frame


#: The arguments of the one parser call whose problems a Function renders
#: itself (set only while an adapter's parser runs on arguments with names
#: the policy may add; see :func:`pending`).
_pending: ContextVar[object] = ContextVar("toolparse_pending_problems", default=None)


@contextmanager
def pending(arguments: Mapping[str, Any]) -> Iterator[None]:
    """While this is open, :func:`invalid_arguments` for ``arguments`` leaves its problems unrendered.

    The ``Error`` it returns has an empty message; whoever opened this renders
    the problems (with any it adds) once, with :func:`render_problems`.
    """
    token = _pending.set(arguments)
    try:
        yield
    finally:
        _pending.reset(token)


def _dedupe(problems: Iterable[ArgumentProblem]) -> list[ArgumentProblem]:
    # the same place, reason and kind is the same problem, whatever was received
    seen: set[tuple[Any, ...]] = set()
    out: list[ArgumentProblem] = []
    for problem in problems:
        key = (problem.path, problem.reason, problem.kind)
        if key not in seen:
            seen.add(key)
            out.append(problem)
    return out
