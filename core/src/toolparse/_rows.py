"""Rejections from rows, ``(path, reason, received, kind)``: what two adapters still hand over.

Kept only until those adapters build :class:`~toolparse.ArgumentProblem`
values themselves; it renders through :func:`~toolparse.invalid_arguments`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .contract import Error
from .problems import ArgumentProblem, ProblemRow, invalid_arguments

__all__ = ["invalid_rows"]


def invalid_rows(
    rows: Sequence[ProblemRow],
    *,
    arguments: Mapping[str, Any] | None = None,
    accepted: Sequence[str] = (),
    cause: BaseException | None = None,
) -> Error:
    """:func:`~toolparse.invalid_arguments` for problems given as rows."""
    found = [ArgumentProblem(*row) for row in rows]
    return invalid_arguments(found, arguments=arguments, accepted=accepted, cause=cause)
