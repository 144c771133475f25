"""The parts of a class's error: counted, sorted out, and put back in field order."""

from __future__ import annotations

from collections.abc import Iterator

from cattrs.errors import ForbiddenExtraKeysError

from toolparse import ArgumentProblem

from ._checks import Problem
from ._fields import ClassInfo

__all__ = ["any_key_error", "in_field_order", "leaves", "unnoted"]

Path = tuple[str | int, ...]


def leaves(exc: BaseException) -> int:
    """How many failures ``exc`` holds (an exception group counts its members')."""
    members = getattr(exc, "exceptions", None)
    if isinstance(members, tuple):
        return sum(leaves(sub) for sub in members) or 1
    return 1


def unnoted(
    without: list[BaseException], path: Path, out: list[Problem]
) -> Iterator[BaseException]:
    """The parts of a class's error with no field's note: extra keys as problems, the rest yielded."""
    for sub in without:
        if isinstance(sub, ForbiddenExtraKeysError):
            out.extend(
                ArgumentProblem.unrecognized((*path, str(k)))
                for k in sorted(sub.extra_fields, key=str)
            )
        else:
            yield sub


def in_field_order(out: list[Problem], start: int, info: ClassInfo, depth: int) -> None:
    """Put a class's problems (``out[start:]``, at ``depth``) back in field order.

    Its validators ran after structuring: their problems came last.
    """
    if len(out) - start > 1:
        order: dict[str | int, int] = {f.key: i for i, f in enumerate(info.fields)}

        def place(problem: Problem) -> int:
            path = problem.path if isinstance(problem, ArgumentProblem) else problem[0]
            return order.get(path[depth], len(order)) if len(path) > depth else -1

        out[start:] = sorted(out[start:], key=place)


def any_key_error(errors: list[BaseException]) -> bool:
    """Whether any of ``errors`` is a ``KeyError`` (a key cattrs found missing)."""
    # a loop: a generator in any() costs a frame on every rejected class
    for error in errors:  # noqa: SIM110
        if isinstance(error, KeyError):
            return True
    return False
