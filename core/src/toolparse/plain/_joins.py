"""How the plain parser's converters join what their children found, and the rejection it ends in.

A container moves each child's problems below the child's key and adds them
to its own (:func:`joined`; past :data:`~._scalars.KEPT` problems a list or
map only counts, :func:`joined_capped`). The top-level object hands the names
it does not accept back as one entry (:class:`Refused`), and :func:`rejection`
turns the whole into the one ``Error`` of the call.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import Any

from ..contract import Error
from ..problems import ArgumentProblem, invalid_arguments
from ._scalars import KEPT, _fail, _Failed

__all__ = ["UNRECOGNIZED", "Refused", "joined", "joined_capped", "rejection"]

#: the reason of a top-level name that is not accepted
UNRECOGNIZED = "Unrecognized parameter"


class Refused:
    """The top-level object's outcome when it was sent names it does not accept.

    ``names``: those names, in the order sent (one entry, however many: a call
    may send tens of thousands); ``failed``: what else failed in the object,
    or ``None``.
    """

    __slots__ = ("failed", "names")

    def __init__(self, failed: _Failed | None, names: list[Any]) -> None:
        self.failed = failed
        self.names = names


# a child's failures joined to its parent's in one call each, its path moved in
# place: a list of 50,000 wrong objects joins 100,000 failures, and the calls
# were most of its cost


def joined(failed: _Failed | None, more: _Failed, key: str | int) -> _Failed:
    """``more``'s problems moved below ``key`` and added to ``failed``."""
    problems = more.problems
    for problem in problems:
        problem[0].append(key)
    if failed is None:
        return more
    failed.problems.extend(problems)
    failed.more += more.more
    return failed


def joined_capped(failed: _Failed | None, more: _Failed, key: str | int) -> _Failed:
    """:func:`joined` for a container's items: past :data:`KEPT` problems, only counted.

    Once ``failed`` keeps as many as it may, a child's problems are counted
    with no path moved (the same count the join and the cut would give).
    """
    if failed is None:
        failed = joined(None, more, key)
    else:
        kept = failed.problems
        if len(kept) >= KEPT:
            failed.more += len(more.problems) + more.more
            return failed
        failed = joined(failed, more, key)
    kept = failed.problems
    if len(kept) > KEPT:
        failed.more += len(kept) - KEPT
        del kept[KEPT:]
    return failed


def rejection(
    result: _Failed | Refused, arguments: dict[str, Any], accepted: Sequence[str]
) -> Error:
    """The one ``Error`` of a call whose top-level object failed or was refused."""
    failed: _Failed | None
    names: list[Any] = []
    if isinstance(result, Refused):
        failed, names = result.failed, result.names
        if not accepted or not all(map(isinstance, names, repeat(str))):
            # a key that is not text (a mapping from Python code) is no name
            # of the names line, and with no accepted names the renderer finds
            # none: every unknown key is then a problem of its own, in the
            # order sent (a rare call; the renderer sorts the names)
            for key in names:
                failed = joined(failed, _fail(UNRECOGNIZED, kind="unrecognized"), key)
    else:
        failed = result
    problems = (
        [
            ArgumentProblem(tuple(reversed(path)), reason, received, kind)
            for path, reason, received, kind in failed.problems
        ]
        if failed is not None
        else []
    )
    more = failed.more if failed is not None else 0
    # the names not accepted are those the renderer finds in ``arguments``
    return invalid_arguments(problems, arguments=arguments, accepted=accepted, more=more)
