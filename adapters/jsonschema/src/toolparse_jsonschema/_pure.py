"""The pure engine: the ``jsonschema`` library checks a call, and its errors are read once.

It is the engine of a schema when ``jsonschema-rs`` is not installed, cannot
take the schema, or is turned off (``JsonSchema(..., fast=False)``). One pass
of ``iter_errors``: its first error decides, the rest explain. Every pattern
search runs under the time bound of :mod:`._patterns`; the formats it checks
are the library's, completed.
"""

from __future__ import annotations

import ast
import calendar
import copy
import itertools
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jsonschema import FormatChecker  # jsonschema ships no type information
from jsonschema.exceptions import ValidationError, best_match  # jsonschema ships no types
from jsonschema.protocols import Validator  # jsonschema ships no type information

from toolparse import ArgumentProblem, FunctionDefinitionError, Ok, ParseResult, invalid_arguments
from toolparse.adapter import REQUIRED

from ._defaults import Plan, apply
from ._errors import KEPT, Path, alternatives, ordered, reason, received
from ._evaluated import unevaluated_properties
from ._patterns import Matcher, OutOfTime, PatternRefused, Refused, bounded, is_regex
from ._schema import Definition, path_text, subschemas

__all__ = ["format_checker", "pure_parser"]

#: keywords whose keys are names, not keywords
_NAMES = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)


# -- the formats: the library's checker, with toolparse's own checks where it has none
# (it checks ``date-time`` and ``time`` only with ``rfc3339-validator`` installed,
# ``uri`` only with ``rfc3987`` or ``rfc3986-validator``: these are checked whatever
# else is installed, with RFC 3339 and RFC 3986 grammar)

_TIME = r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"
_DATE_TIME = re.compile(rf"([0-9]{{4}})-([0-9]{{2}})-([0-9]{{2}})[Tt]{_TIME}", re.ASCII)
_TIME_ONLY = re.compile(_TIME, re.ASCII)
_DAYS = (0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _time_ok(
    hour: str, minute: str, second: str, sign: str | None, oh: str | None, om: str | None
) -> bool:
    h, m, s = int(hour), int(minute), int(second)
    off_h = int(oh) if oh else 0
    off_m = int(om) if om else 0
    if h > 23 or m > 59 or s > 60 or off_h > 23 or off_m > 59:
        return False
    if s == 60:
        # a leap second happens at 23:59:60 UTC only
        offset = (off_h * 60 + off_m) * (-1 if sign == "-" else 1)
        return (h * 60 + m - offset) % (24 * 60) == 23 * 60 + 59
    return True


def is_date_time(value: object) -> bool:
    """RFC 3339 ``date-time``: ``2024-01-31T09:30:00Z``, ``...+02:00``."""
    if not isinstance(value, str):
        return True  # formats only constrain strings
    match = _DATE_TIME.fullmatch(value)
    if match is None:
        return False
    year, month, day, *time = match.groups()
    y, mo, d = int(year), int(month), int(day)
    if not 1 <= mo <= 12 or not 1 <= d <= _DAYS[mo]:
        return False
    return not (mo == 2 and d == 29 and not calendar.isleap(y)) and _time_ok(*time)


def is_time(value: object) -> bool:
    """RFC 3339 ``full-time``: ``09:30:00Z``, ``09:30:00.5+02:00``."""
    if not isinstance(value, str):
        return True
    match = _TIME_ONLY.fullmatch(value)
    return match is not None and _time_ok(*match.groups())


_HEX = "[0-9A-Fa-f]"
_PCT = f"%{_HEX}{_HEX}"
_UNRESERVED_SUB = r"[A-Za-z0-9\-._~!$&'()*+,;=]"
_PCHAR = f"(?:{_UNRESERVED_SUB}|{_PCT}|[:@])"
_URI = re.compile(
    r"[A-Za-z][A-Za-z0-9+\-.]*:"  # scheme
    rf"(?://(?:(?:{_UNRESERVED_SUB}|{_PCT}|:)*@)?"  # userinfo
    rf"(?:\[[0-9A-Fa-f:.]+\]|(?:{_UNRESERVED_SUB}|{_PCT})*)"  # host
    r"(?::[0-9]*)?"  # port
    rf"(?:/{_PCHAR}*)*"  # path-abempty
    rf"|/?(?:{_PCHAR}+(?:/{_PCHAR}*)*)?)"  # path-absolute, -rootless, -empty
    rf"(?:\?(?:{_PCHAR}|[/?])*)?"  # query
    rf"(?:#(?:{_PCHAR}|[/?])*)?",  # fragment
    re.ASCII,
)


def is_uri(value: object) -> bool:
    """RFC 3986 absolute ``URI`` (a scheme is required): ``https://example.com/a``."""
    if not isinstance(value, str):
        return True
    return _URI.fullmatch(value) is not None


_FALLBACKS = {"date-time": is_date_time, "time": is_time, "uri": is_uri}


def format_checker(validator: type[Validator]) -> FormatChecker:
    """The format checker for ``validator``'s draft: the library's, completed.

    A new checker each time (the library's own is shared and must not change).
    """
    checker = FormatChecker(formats=())
    checker.checkers = dict(validator.FORMAT_CHECKER.checkers)
    # a model-sent regex is compiled only up to a length (see _patterns)
    if "regex" in checker.checkers:
        checker.checkers["regex"] = (is_regex, ())
    # "time" is not a format of drafts 4 and 6; it is not added there
    old_draft = any(d in validator.META_SCHEMA.get("$schema", "") for d in ("-04/", "-06/"))
    for name, check in _FALLBACKS.items():
        if name not in checker.checkers and not (name == "time" and old_draft):
            checker.checks(name)(check)
    return checker


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
    order = definition.order
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
            found, used, more = _problems(itertools.chain((first,), errors), order)
        finally:
            stop()
        if not found:  # (every error was one a name already reported)
            found = [ArgumentProblem((), "does not match the schema")]
        return invalid_arguments(
            found, arguments=arguments, accepted=accepted, cause=best_match(used), more=more
        )

    return parse


def _problems(
    errors: Iterator[ValidationError], order: dict[str, int]
) -> tuple[list[ArgumentProblem], list[ValidationError], int]:
    """The first :data:`~._errors.KEPT` problems, ordered by path, their errors, and the rest counted.

    Every top-level missing name is kept besides (the schema's own names, not
    the model's: the message counts them exactly on its names line).
    """
    found: list[ArgumentProblem] = []
    names_missing: list[ArgumentProblem] = []
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
            if not error.absolute_path:
                names_missing += map(ArgumentProblem.missing, names)
                used.append(error)
                continue
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
    return names_missing + ordered(found, order), used, more


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
    path = list(error.relative_schema_path)
    # (a property called "propertyNames" is no keyword)
    keyword = (
        p == "propertyNames" and (i == 0 or path[i - 1] not in _NAMES) for i, p in enumerate(path)
    )
    return error.instance if any(keyword) else None
