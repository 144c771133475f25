"""A field of a plain type tree that another installed adapter validates.

A ``@tool`` parameter typed with a pydantic model, or a dataclass field typed
with an attrs class, is compiled by the adapter that owns the type; the plain
parser runs that adapter's parser for the field and keeps its problems, with
their paths under the field's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..adapter import type_reason
from ..contract import Ok
from ..problems import ArgumentProblem

__all__ = ["delegated"]


def delegated(
    parser: Callable[[Any], Any], failed: Callable[[list[list[Any]]], Any]
) -> Callable[[Any], Any]:
    """The converter for a field ``parser`` (another adapter's) validates.

    ``failed`` wraps problems as the plain parser's converters report them
    (``[reversed_path, reason, received, kind]`` each).
    """
    not_object = type_reason("object")

    def convert_delegated(value: Any) -> Any:
        if type(value) is not dict:
            return failed([[[], not_object, value, "invalid"]])
        out = parser(value)
        if isinstance(out, Ok):
            return value if out.value is None else out.value
        found = getattr(out.exception, "problems", None) or [ArgumentProblem((), out.message)]
        return failed([[list(reversed(p.path)), p.reason, p.received, p.kind] for p in found])

    return convert_delegated
