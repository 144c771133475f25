"""Restoring what an export changed, before the parser runs: ``null`` means "absent".

Strict provider modes require every property, so an optional property is
exported as nullable and a model that means to leave it out sends ``null``.
Before the parser runs, those nulls are dropped again so the default applies:
at every level, inside arrays, map values and every branch of a union. A
free-form object (an ``object`` with no declared properties) that a format
cannot express travels as a JSON-encoded string; it is decoded again here.
Both steps only ever turn a value the original schema rejects into one it may
accept: a ``null`` where the schema does not admit ``null``, a string where it
requires an object.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ._null_look import changes_of
from ._null_plan import plan_of
from ._schemas import MAX_DEPTH, free_form, merge_all_of, nullable, resolve_ref

__all__ = [
    "MAX_DEPTH",
    "free_form",
    "merge_all_of",
    "null_restorer",
    "nullable",
    "resolve_ref",
]


def null_restorer(schema: Mapping[str, Any]) -> Callable[[Any], Any] | None:
    """A function that undoes what an export changed, for one parameters schema.

    ``schema`` is the tool's own parameters schema. The returned function takes
    decoded arguments and returns them with every ``null`` for an optional
    property whose schema does not admit ``null`` removed, and every
    JSON-encoded string where a free-form object is required decoded: at every
    level, through ``properties``, ``items``, ``prefixItems``, map values,
    ``allOf``, local ``$ref`` and the branches of ``anyOf``/``oneOf`` (the
    branches a value fits, by required keys and ``const`` tags, decide; where
    several fit, a ``null`` is kept if any of them admits it).

    ``None`` when there is nothing to restore anywhere, so callers can skip the
    step. Built once per tool; per call it only walks the arguments. Schemas
    and arguments deeper than ``MAX_DEPTH`` levels are left unchanged below it.
    """
    plan = plan_of(schema)
    if plan is None:
        return None
    changes = changes_of(plan)

    def restore(arguments: Any) -> Any:
        # most calls hold nothing to restore: a look (no copies) says so first
        return plan.apply(arguments, 0) if changes(arguments, 0) else arguments

    return restore
