"""A rejection's problem lines, rendered only as far as a message reads them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, overload

from . import messages

if TYPE_CHECKING:
    from .problems import ArgumentProblem

__all__: list[str] = []


class _Lines(Sequence[str]):
    """The problems' message lines, rendered only as far as they are read.

    The message shows at most ``MAX_PROBLEM_LINES`` of them and counts the
    rest, so a call with hundreds of problems renders a screenful.
    """

    __slots__ = ("_length", "_problems", "_rendered")

    def __init__(self, problems: list[ArgumentProblem], more: int = 0) -> None:
        self._problems = problems
        self._rendered = [p.line() for p in problems[: messages.MAX_PROBLEM_LINES]]
        self._length = len(problems) + more  # the counted ones have no line to show

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self._problems))  # counted ones: no line
            if step == 1 and stop <= len(self._rendered):
                return self._rendered[start:stop]  # what a message shows: rendered already
            return [self[i] for i in range(start, stop, step)]
        if 0 <= index < len(self._rendered):
            return self._rendered[index]
        return self._problems[index].line()
