"""``unevaluatedProperties``, with ``patternProperties`` matched under a time bound.

The library's keyword finds the evaluated names with its own helper, which
matches ``patternProperties`` with Python's ``re``; this is that helper (for
2020-12, and for 2019-09 as its legacy form reads) with the one difference
that patterns go through the bounded :class:`~._patterns.Matcher`. A name
whose pattern ran out of time counts as evaluated there, and is reported as
out of time instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jsonschema.exceptions import ValidationError  # jsonschema ships no type information
from jsonschema.protocols import Validator  # jsonschema ships no type information
from referencing.jsonschema import lookup_recursive_ref

from ._patterns import OutOfTime, _matcher

__all__ = ["unevaluated_properties"]


def _valid(errors: Iterator[ValidationError]) -> bool:
    return next(errors, None) is None


class _Finder:
    """The names of ``instance`` that ``schema`` evaluates (the library's helper)."""

    __slots__ = ("instance", "late", "legacy")

    def __init__(self, instance: Mapping[str, Any], legacy: bool) -> None:
        self.instance = instance
        self.legacy = legacy
        #: (pattern, name) whose search ran out of time
        self.late: list[tuple[str, str]] = []

    def keys(self, validator: Validator, schema: Any) -> list[str]:
        if validator.is_type(schema, "boolean"):
            return []
        instance = self.instance
        found: list[str] = []
        refs = [schema.get("$ref")]
        if not self.legacy:
            refs.append(schema.get("$dynamicRef"))
        for ref in refs:
            if ref is not None:
                # the validator's resolver is what the library's own helper uses
                resolved = validator._resolver.lookup(ref)
                found += self.keys(
                    validator.evolve(schema=resolved.contents, _resolver=resolved.resolver),
                    resolved.contents,
                )
        if self.legacy and "$recursiveRef" in schema:
            resolved = lookup_recursive_ref(validator._resolver)
            found += self.keys(
                validator.evolve(schema=resolved.contents, _resolver=resolved.resolver),
                resolved.contents,
            )
        if self.legacy:
            for keyword in ("properties", "additionalProperties", "unevaluatedProperties"):
                if keyword in schema:
                    value = schema[keyword]
                    if validator.is_type(value, "boolean") and value:
                        found += instance.keys()
                    elif validator.is_type(value, "object"):
                        found += [name for name in value if name in instance]
        else:
            properties = schema.get("properties")
            if validator.is_type(properties, "object"):
                found += properties.keys() & instance.keys()
            for keyword in ("additionalProperties", "unevaluatedProperties"):
                sub = schema.get(keyword)
                if sub is not None:
                    found += [
                        key
                        for key, value in instance.items()
                        if _valid(validator.descend(value, sub))
                    ]
        if "patternProperties" in schema:
            matcher = _matcher()
            for name in instance:
                for pattern in schema["patternProperties"]:
                    hit = matcher.search(pattern, name)
                    if hit is None:
                        self.late.append((pattern, name))
                    if hit is not False:
                        found.append(name)
        if "dependentSchemas" in schema:
            for name, sub in schema["dependentSchemas"].items():
                if name in instance:
                    found += self.keys(validator, sub)
        for keyword in ("allOf", "oneOf", "anyOf"):
            for sub in schema.get(keyword, []):
                if _valid(validator.descend(instance, sub)):
                    found += self.keys(validator, sub)
        if "if" in schema:
            if validator.evolve(schema=schema["if"]).is_valid(instance):
                found += self.keys(validator, schema["if"])
                if "then" in schema:
                    found += self.keys(validator, schema["then"])
            elif "else" in schema:
                found += self.keys(validator, schema["else"])
        return found


def unevaluated_properties(*, legacy: bool) -> Callable[..., Iterator[ValidationError]]:
    """The keyword function (``legacy``: the 2019-09 reading)."""

    def check(
        validator: Validator, unevaluated: Any, instance: Any, schema: Mapping[str, Any]
    ) -> Iterator[ValidationError]:
        if not validator.is_type(instance, "object"):
            return
        finder = _Finder(instance, legacy)
        evaluated = set(finder.keys(validator, schema))
        for pattern, name in dict.fromkeys(finder.late):
            yield OutOfTime(pattern, name=True, path=(name,))
        left = []
        for name in instance:
            if name not in evaluated:
                for _ in validator.descend(
                    instance[name], unevaluated, path=name, schema_path=name
                ):
                    left.append(name)
                    break
        if left:
            # the library's own wording (the names are read back from it)
            shown = ", ".join(repr(name) for name in sorted(left, key=str))
            verb = "was" if len(left) == 1 else "were"
            if unevaluated is False:
                yield ValidationError(
                    f"Unevaluated properties are not allowed ({shown} {verb} unexpected)"
                )
            else:
                yield ValidationError(
                    "Unevaluated properties are not valid under the given schema "
                    f"({shown} {verb} unevaluated and invalid)"
                )

    return check
