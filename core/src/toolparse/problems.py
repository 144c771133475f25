"""The one way to reject arguments: the problems found, and the one Error that names them.

Every adapter turns its library's validation errors into
:class:`ArgumentProblem` values and calls :func:`invalid_arguments`, which
renders them at once (with :mod:`toolparse.messages`), so the model reads one
layout whichever library validated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Literal

from .contract import Error
from .messages import MAX_PROBLEM_LINES, invalid, path_text, suggestions, value_text
from .messages._reasons import REQUIRED

__all__ = ["NOT_GIVEN", "ArgumentProblem", "InvalidArguments", "invalid_arguments"]


class _NotGiven:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __bool__(self) -> bool:
        return False


#: Marks "no received value to echo" (``None`` is a real JSON value: null).
NOT_GIVEN: Final[Any] = _NotGiven()

ProblemKind = Literal["invalid", "missing", "unrecognized"]


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
        """A required name that was not sent (``path`` may be a plain name): ``is required``."""
        return cls((path,) if isinstance(path, str) else path, reason, kind="missing")

    @classmethod
    def unrecognized(
        cls, path: Sequence[str | int] | str, reason: str = "is not accepted"
    ) -> ArgumentProblem:
        """A name that is not accepted (``path`` may be a plain name)."""
        return cls((path,) if isinstance(path, str) else path, reason, kind="unrecognized")

    def line(self) -> str:
        """This problem as one line of the message (a reason of several lines joined by semicolons)."""
        reason = self.reason
        if not reason.isprintable():  # a validator's own text may hold newlines or tabs
            parts = (" ".join(line.split()) for line in reason.splitlines())
            reason = "; ".join(part for part in parts if part)
        if self.received is NOT_GIVEN:
            return f"{path_text(self.path)}: {reason}"
        return f"{path_text(self.path)}: {reason} (received {value_text(self.received)})"

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


class InvalidArguments(ValueError):
    """The exception kept on ``Error.exception`` when arguments were rejected.

    It carries the structured :attr:`problems` (for the application and its
    logs) and, as ``__cause__``, the library's own exception where there was
    one. ``more`` counts the problems found past those kept: a parser facing
    thousands of wrong items keeps the first ones and counts the rest (the
    message shows 20 lines and the count either way).

    ``unknown``: top-level names sent and not accepted that no problem names;
    each is on :attr:`problems` as an ``"unrecognized"`` problem after the
    others, built when first read (a call may send tens of thousands).
    """

    # one is built per rejected call: its attributes in slots, and ``__dict__``
    # left for those an application sets
    __slots__ = ("_every", "_found", "_unknown", "accepted", "arguments", "message", "more")

    def __init__(
        self,
        message: str,
        problems: Sequence[ArgumentProblem],
        arguments: Mapping[str, Any],
        accepted: Sequence[str],
        more: int = 0,
        unknown: Sequence[str] = (),
    ) -> None:
        self.args = (message,)  # (what ValueError's own __init__ would set)
        self.message = message
        self.arguments = arguments
        self.accepted = tuple(accepted)
        self.more = more
        self._found = tuple(problems)
        self._unknown = tuple(unknown)
        self._every: tuple[ArgumentProblem, ...] | None = None if self._unknown else self._found

    @property
    def problems(self) -> tuple[ArgumentProblem, ...]:
        """Every problem found, one per unrecognized name too."""
        if self._every is None:
            self._every = (*self._found, *map(ArgumentProblem.unrecognized, self._unknown))
        return self._every

    def __reduce__(self) -> tuple[Any, ...]:
        # what the constructor takes (the default would pass ``args`` alone), and
        # the attributes an application set: a copy or a pickle is the same rejection
        fields = (self.message, self._found, self.arguments, self.accepted, self.more)
        return (type(self), (*fields, self._unknown), self.__dict__ or None)


def invalid_arguments(
    problems: Iterable[ArgumentProblem],
    *,
    arguments: Mapping[str, Any] | None = None,
    accepted: Sequence[str] = (),
    cause: BaseException | None = None,
    more: int = 0,
) -> Error:
    """Render argument problems into the one shared :class:`~toolparse.Error`.

    This is the public renderer for adapters and hand-written parsers: give it
    every problem found, the arguments the model sent and the accepted
    top-level names; it returns an ``Error`` whose ``message`` follows the
    project's layout and whose ``exception`` is an :class:`InvalidArguments`
    carrying the problems (with ``cause`` as its ``__cause__``).

    The same place, reason and kind is one problem, whatever was received.
    Top-level missing names go on the ``Missing parameters`` line, in the
    order of ``accepted``. With ``accepted`` and ``arguments`` given, every
    top-level name sent that is not accepted is named on the ``Unrecognized
    parameters`` line, with "did you mean" among the accepted names not sent,
    besides those the problems name; no need to make a problem of each.
    ``more``: how many further problems were found and only counted, so the
    message's ``... and N more`` counts them too.
    """
    arguments = {} if arguments is None else arguments
    seen: set[tuple[Any, ...]] = set()
    kept: list[ArgumentProblem] = []
    others: list[ArgumentProblem] = []
    missing: list[str] = []
    named: list[str] = []
    for problem in problems:
        path, kind = problem.path, problem.kind
        key = (path, problem.reason, kind)
        if key in seen:
            continue
        seen.add(key)
        kept.append(problem)
        if kind != "invalid" and len(path) == 1 and isinstance(path[0], str):
            (missing if kind == "missing" else named).append(str(path[0]))
        else:
            others.append(problem)
    if accepted and len(missing) > 1:
        order = {name: i for i, name in enumerate(accepted)}
        missing.sort(key=lambda name: order.get(name, len(order)))
    # the names sent, not accepted and not named already, in the order sent (set
    # operations first: a call may send tens of thousands of names)
    extra = arguments.keys() - accepted if accepted else None
    if extra:
        extra.difference_update(named)
    unknown = [key for key in arguments if key in extra and isinstance(key, str)] if extra else []
    names = [*named, *unknown] if named or unknown else None
    # "did you mean" looks among the accepted names the model did not send
    found = suggestions(names, accepted, [n for n in accepted if n in arguments]) if names else None
    lines = [problem.line() for problem in others[:MAX_PROBLEM_LINES]]
    text = invalid(lines, missing, found, accepted, len(others) - len(lines) + more)
    exc = InvalidArguments(text, kept, arguments, accepted, more, unknown)
    if cause is not None:
        exc.__cause__ = cause
    return Error(text, exc)
