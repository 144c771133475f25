"""``unevaluatedProperties`` for the pure engine, its ``patternProperties`` searched in bounded time.

The library's own search for the names a schema evaluates, with the bounded
:func:`~._patterns.matcher` for patterns and each subschema's resolver (found at
definition) for references. A name out of time counts as evaluated, and is
reported as out of time instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jsonschema.exceptions import ValidationError  # jsonschema ships no type information
from jsonschema.protocols import Validator  # jsonschema ships no type information
from referencing.jsonschema import lookup_recursive_ref

from ._patterns import OutOfTime, Refused, matcher

__all__ = ["unevaluated_properties"]

#: a subschema's ``id`` -> the resolver its references resolve with
Resolvers = Mapping[int, Any]


class _Finder:
    """The names of ``instance`` that a schema evaluates (the library's search, bounded)."""

    __slots__ = ("instance", "late", "legacy", "resolvers", "root", "validator")

    def __init__(
        self, validator: Validator, instance: Mapping[str, Any], resolvers: Resolvers, root: Any
    ) -> None:
        self.validator = validator
        self.instance = instance
        self.resolvers = resolvers
        self.root = root
        self.legacy = "$recursiveRef" in validator.VALIDATORS
        #: (pattern, name) whose search ran out of time
        self.late: list[tuple[str, str]] = []

    def valid(self, instance: Any, schema: Any, resolver: Any) -> bool:
        # at the keyword's own place the validator knows the way (dynamic scope
        # included); past a reference, that reference's resolver does
        if resolver is not None:
            resolver = self.resolvers.get(id(schema), resolver)
        return next(self.validator.descend(instance, schema, resolver=resolver), None) is None

    def keys(self, schema: Any, resolver: Any = None) -> list[str]:
        """The names ``schema`` evaluates (``resolver``: past a reference, its resolver)."""
        if not isinstance(schema, dict):
            return []
        return [
            *self._referred(schema, resolver),
            *self._own(schema, resolver),
            *self._applied(schema, resolver),
        ]

    def _referred(self, schema: dict[str, Any], resolver: Any) -> list[str]:
        found: list[str] = []
        for keyword in ("$ref", "$recursiveRef") if self.legacy else ("$ref", "$dynamicRef"):
            if isinstance(schema.get(keyword), str):
                here = resolver or self.resolvers.get(id(schema), self.root)
                resolved = (
                    lookup_recursive_ref(here)
                    if keyword == "$recursiveRef"
                    else here.lookup(schema[keyword])
                )
                found += self.keys(resolved.contents, resolved.resolver)
        return found

    def _own(self, schema: dict[str, Any], resolver: Any) -> list[str]:
        instance, legacy = self.instance, self.legacy
        found: list[str] = []
        for keyword in ("properties", "additionalProperties", "unevaluatedProperties"):
            value = schema.get(keyword)
            if value is True and (legacy or keyword != "properties"):
                found += instance.keys()
            elif isinstance(value, dict) and (legacy or keyword == "properties"):
                found += [name for name in value if name in instance]
            elif not legacy and value is not None and keyword != "properties":
                found += [k for k, v in instance.items() if self.valid(v, value, resolver)]
        if isinstance(schema.get("patternProperties"), dict):
            search = matcher().search
            for name in instance:
                for pattern in schema["patternProperties"]:
                    hit = search(pattern, name)
                    if hit is None:
                        self.late.append((pattern, name))
                    if hit is not False:  # (out of time counts as evaluated)
                        found.append(name)
        return found

    def _applied(self, schema: dict[str, Any], resolver: Any) -> list[str]:
        instance = self.instance
        found: list[str] = []
        for name, sub in (schema.get("dependentSchemas") or {}).items():
            if name in instance:
                found += self.keys(sub, resolver)
        for keyword in ("allOf", "oneOf", "anyOf"):
            for sub in schema.get(keyword, ()):
                if self.valid(instance, sub, resolver):
                    found += self.keys(sub, resolver)
        if "if" in schema:
            if self.valid(instance, schema["if"], resolver):
                found += self.keys(schema["if"], resolver) + self.keys(schema.get("then"), resolver)
            else:
                found += self.keys(schema.get("else"), resolver)
        return found


def unevaluated_properties(
    resolvers: Resolvers, root: Any
) -> Callable[..., Iterator[ValidationError]]:
    """The keyword function for one schema.

    ``resolvers``: each subschema's resolver; ``root`` the resolver for any
    other (a metaschema's, say).
    """

    def check(
        validator: Validator, unevaluated: Any, instance: Any, schema: Mapping[str, Any]
    ) -> Iterator[ValidationError]:
        if not isinstance(instance, dict):  # (the drafts' "object")
            return
        finder = _Finder(validator, instance, resolvers, root)
        evaluated = set(finder.keys(schema))
        for pattern, name in dict.fromkeys(finder.late):
            yield OutOfTime(pattern, name=True, path=(name,))
        left = [
            name
            for name in instance
            if name not in evaluated and not finder.valid(instance[name], unevaluated, None)
        ]
        if left:
            yield Refused("Unevaluated", left, closed=unevaluated is False)

    return check
