"""The pure engine: the ``jsonschema`` library checks a call, and its errors are read once.

It is the engine of a schema when ``jsonschema-rs`` is not installed, cannot
take the schema, or is turned off (``JsonSchema(..., fast=False)``). One pass
of ``iter_errors``: its first error decides, the rest explain. Every pattern
search runs under the time bound of :mod:`._patterns`.
"""

from __future__ import annotations

import ast
import copy
import itertools
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jsonschema.exceptions import ValidationError, best_match  # jsonschema ships no types

from toolparse import ArgumentProblem, FunctionDefinitionError, Ok, ParseResult, invalid_arguments
from toolparse.adapter import REQUIRED

from ._defaults import Plan, apply
from ._errors import KEPT, alternatives, ordered, reason, received
from ._evaluated import unevaluated_properties
from ._formats import format_checker
from ._patterns import Matcher, OutOfTime, PatternRefused, Refused, bounded
from ._schema import Definition, path_text, subschemas

__all__ = ["pure_parser"]

Path = tuple[str | int, ...]

#: keywords whose name, when it is a property name, is not a keyword
_NAME_HOLDERS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)


def _validator(definition: Definition) -> Any:
    """The library's validator for ``definition``, its pattern searches bounded.

    It checks a copy where a ``false`` property or item schema reads
    ``{"not": {}}``: both reject everything, but the library reports a
    ``false`` subschema's error at the parent, without the name or index. Where
    ``unevaluatedProperties`` meets ``patternProperties``, the keyword is
    :mod:`._evaluated`'s (the library's own searches with Python's ``re``).
    """
    checked = Definition.of(copy.deepcopy(definition.schema), definition.dialect)
    walked = list(subschemas(checked))
    for node, _, _ in walked:
        for keyword in ("properties", "patternProperties"):
            value = node.get(keyword)
            if isinstance(value, dict):
                value.update({key: {"not": {}} for key, sub in value.items() if sub is False})
        for keyword in ("prefixItems", "items"):  # (an "items" mapping is one subschema)
            value = node.get(keyword)
            if isinstance(value, list):
                value[:] = [{"not": {}} if sub is False else sub for sub in value]
    unevaluated = None
    if any("unevaluatedProperties" in node for node, _, _ in walked) and any(
        "patternProperties" in node for node, _, _ in walked
    ):
        resolvers = {id(node): resolver for node, _, resolver in walked}
        unevaluated = unevaluated_properties(resolvers, walked[0][2])
    cls = bounded(definition.dialect.validator, unevaluated)
    checker = format_checker(definition.dialect.validator)
    return cls(checked.schema, registry=checked.registry, format_checker=checker)


def pure_parser(
    definition: Definition,
    bounds: tuple[float, float],
    defaults: Plan | None,
    accepted: tuple[str, ...],
) -> Callable[[dict[str, Any]], ParseResult]:
    """The parser of ``definition`` on the pure engine (``bounds``: a pattern search's seconds, a call's).

    Every pattern is compiled now: one that cannot be searched under the time
    bound is refused here, never searched without it.
    """
    matcher = Matcher(*bounds)
    for node, path, _ in subschemas(definition):
        patterns = [("patternProperties", p) for p in node.get("patternProperties") or ()]
        for keyword, pattern in [("pattern", node.get("pattern")), *patterns]:
            try:
                if isinstance(pattern, str):
                    matcher.prepare(pattern)
            except PatternRefused as exc:
                raise FunctionDefinitionError([(path_text([*path, keyword]), str(exc))]) from None
    iter_errors = _validator(definition).iter_errors
    start, stop = matcher.start, matcher.stop

    def parse(arguments: dict[str, Any]) -> ParseResult:
        start()  # the call's budget for pattern searches
        try:
            errors = iter_errors(arguments)
            first = next(errors, None)
            if first is None:
                return Ok(arguments if defaults is None else apply(defaults, arguments))
            found, used, more = _problems(itertools.chain((first,), errors))
        finally:
            stop()
        if not found:  # (every error was one a name already reported)
            found = [ArgumentProblem((), "does not match the schema")]
        return invalid_arguments(
            found, arguments=arguments, accepted=accepted, cause=best_match(used), more=more
        )

    return parse


def _problems(
    errors: Iterator[ValidationError],
) -> tuple[list[ArgumentProblem], list[ValidationError], int]:
    """The first :data:`~._errors.KEPT` problems, ordered by path, their errors, and the rest counted."""
    found: list[ArgumentProblem] = []
    used: list[ValidationError] = []
    more = 0
    # the library reports one error per missing name, each carrying the whole
    # list: the list is read once per object, which keeps this linear
    seen: set[tuple[Any, ...]] = set()
    for error in errors:
        names = None
        if error.validator == "required" and isinstance(error.instance, dict):
            key = (tuple(error.absolute_path), id(error.validator_value), id(error.instance))
            if key in seen:
                continue
            seen.add(key)
            names = [name for name in error.validator_value if name not in error.instance]
        room = KEPT - len(found)
        if room <= 0:  # only counting now
            more += len(names) if names is not None else len(getattr(error, "names", (0,)))
            continue
        used.append(error)
        if names is not None:
            # thousands of names: the problems past the bound are counted, not built
            path = tuple(error.absolute_path)
            converted = [ArgumentProblem.missing((*path, name)) for name in names[:room]]
            more += max(0, len(names) - room)
        else:
            converted = _convert(error)
            more += max(0, len(converted) - room)
        found += converted[:room]
    return ordered(found), used, more


def _convert(error: ValidationError) -> list[ArgumentProblem]:
    # (one return per kind of error, in the order they are worth testing)
    path: Path = tuple(error.absolute_path)
    keyword, value, instance = error.validator, error.validator_value, error.instance
    if isinstance(error, OutOfTime):
        name = path[-1] if error.name and path else _property_name(error)
        if name is None:
            return [ArgumentProblem(path, error.message, received(instance, "pattern"))]
        where = path if error.name else (*path, name)
        return [ArgumentProblem(where, "property name " + error.message, name)]
    if isinstance(error, Refused) or keyword == "unevaluatedProperties":
        # the library's own keyword lists the names in its message, as Python literals
        names = error.names if isinstance(error, Refused) else _quoted(error.message)
        if value is False:
            return [ArgumentProblem.unrecognized((*path, name)) for name in names]
        text = "is not allowed by the schema for other properties"
        return [ArgumentProblem((*path, name), text) for name in names]
    if keyword == "required" and isinstance(instance, dict):  # (within an option)
        return [ArgumentProblem.missing((*path, name)) for name in value if name not in instance]
    if keyword in ("dependentRequired", "dependencies") and isinstance(instance, dict):
        return [
            ArgumentProblem.missing((*path, need), f'{REQUIRED} when "{name}" is present')
            for name, needs in value.items()
            if name in instance and isinstance(needs, list)
            for need in needs
            if need not in instance
        ]
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    if keyword in ("anyOf", "oneOf") and isinstance(value, list):
        options: list[list[ValidationError]] = [[] for _ in value]
        for sub in error.context:
            options[int(sub.relative_schema_path[0]) if sub.relative_schema_path else 0].append(sub)

        def title(index: int) -> object:
            option = value[index]
            return option.get("title") if isinstance(option, Mapping) else None

        return alternatives(path, instance, options, _fact, title, _convert)
    name = _property_name(error)
    if name is not None:
        return [
            ArgumentProblem((*path, name), "property name " + reason(keyword, value, schema), name)
        ]
    return [ArgumentProblem(path, reason(keyword, value, schema), received(instance, keyword))]


_LITERAL = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*\"""")


def _quoted(message: str) -> list[str]:
    """The names a message of the library lists, after its first ``(``, as Python literals."""
    found = (ast.literal_eval(s) for s in _LITERAL.findall(message.partition("(")[2]))
    return [name for name in found if isinstance(name, str)]


def _fact(error: ValidationError) -> tuple[str, Path, Any]:
    return error.validator, tuple(error.absolute_path), error.validator_value


def _property_name(error: ValidationError) -> str | None:
    """The offending name when ``error`` came from ``propertyNames``."""
    if not isinstance(error.instance, str) or "propertyNames" not in error.relative_schema_path:
        return None  # (one scan in C says most errors are not a name's)
    schema_path = list(error.relative_schema_path)
    for i in range(len(schema_path) - 1, -1, -1):
        if schema_path[i] == "propertyNames" and (
            i == 0 or schema_path[i - 1] not in _NAME_HOLDERS
        ):
            return error.instance
    return None
