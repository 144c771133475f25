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
from ._null_plan import _Obj, plan_of
from ._schemas import MAX_DEPTH, free_form, merge_all_of, nullable, resolve_ref

__all__ = [
    "MAX_DEPTH",
    "deep_names",
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


#: root keywords that make the root's plan more than its own properties (merged,
#: referenced, branched or not an object): the names are then asked one by one
_NOT_PLAIN = ("allOf", "$ref", "anyOf", "oneOf", "items", "prefixItems")


def deep_names(schema: Mapping[str, Any]) -> frozenset[Any] | None:
    """The top-level properties under which the step may change something further down.

    A name is here when the step may drop a null or decode a text inside its
    value (its own null for "absent" aside): what asking :func:`null_restorer`
    about a schema of that one property, made required, says, read from one
    plan of the whole schema instead of one plan per name. ``None``: the root
    is not a plain object schema (``allOf``, ``$ref``, branches, several
    types), so one plan cannot say it; ask per name.
    """
    props = schema.get("properties")
    kind = schema.get("type", "object")
    if not isinstance(props, Mapping) or kind != "object" or any(k in schema for k in _NOT_PLAIN):
        return None
    plan = plan_of(schema)
    if plan is None:
        return frozenset()
    if not isinstance(plan, _Obj):
        return None
    if plan.extra is not None:  # every name's schema keeps the extra keys' plan
        return frozenset(props)
    # (a name that is no string cannot be required: the per-name ask says yes)
    return frozenset(name for name in props if name in plan.props or not isinstance(name, str))
