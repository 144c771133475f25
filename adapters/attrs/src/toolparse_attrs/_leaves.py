"""One problem for a failure with nothing below it, and what a type tells about it.

cattrs raises a bare exception for a value it could not structure; the type
the field declares says what the model should have sent, so the problem reads
in the shared words rather than as the exception's own text.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from toolparse import ArgumentProblem

from ._converter import Rejected
from ._reasons import custom
from ._types import (
    describe,
    is_enum,
    is_literal,
    is_model,
    json_kinds,
    union_members,
    unwrap,
)

__all__ = ["leaf", "model"]

Path = tuple[str | int, ...]


def leaf(exc: BaseException, path: Path, raw: Any, tp: Any) -> ArgumentProblem:
    """One problem for an exception with no structure below it."""
    if isinstance(exc, Rejected):
        return ArgumentProblem(path, exc.reason, raw)
    words, kinds, choice, objects = _facts(tp)
    if objects and isinstance(raw, Mapping):
        return ArgumentProblem(path, "Input does not match any of the allowed objects", raw)
    if words is not None and (choice or type(raw) not in kinds):
        return ArgumentProblem(path, f"must be {words}", raw)
    return ArgumentProblem(path, custom(exc), raw)


def model(tp: Any) -> type | None:
    """The attrs class or dataclass ``tp`` stands for (``None``: not one)."""
    try:
        return _cached_model(tp)
    except TypeError:  # an unhashable annotation (Annotated metadata)
        return _cached_model.__wrapped__(tp)


@functools.lru_cache(maxsize=512)
def _cached_model(tp: Any) -> type | None:
    target = unwrap(tp)
    origin = getattr(target, "__origin__", None) or target
    return origin if is_model(origin) else None


def _facts(tp: Any) -> tuple[str | None, frozenset[type], bool, bool]:
    """What :func:`_leaf` needs to know of a type (typing introspection is slow)."""
    try:
        return _cached_facts(tp)
    except TypeError:  # an unhashable annotation (Annotated metadata)
        return _cached_facts.__wrapped__(tp)


@functools.lru_cache(maxsize=512)
def _cached_facts(tp: Any) -> tuple[str | None, frozenset[type], bool, bool]:
    target = unwrap(tp)
    members = [m for m in union_members(target) if m is not type(None)]
    return (
        describe(target),
        json_kinds(target),
        is_literal(target) or is_enum(target),
        bool(members) and all(is_model(m) for m in members),
    )
