"""Turning the ``jsonschema`` library's errors into argument problems.

The library's own messages embed the whole offending instance (``{'a': 1, ...}
is not of type 'array'``), which is noise for a model that must fix one value.
So every keyword gets a short reason of its own, in plain words, and the value
goes in the problem's ``received`` slot where the shared renderer cuts it.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from jsonschema.exceptions import ValidationError  # jsonschema ships no type information

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import MAX_PROBLEMS, REQUIRED, TYPE_WORDS

from ._patterns import OutOfTime, extras
from ._reasons import place_reason, reason

__all__ = ["KEPT", "kept_problems", "reason", "sort_key"]

Path = tuple[str | int, ...]

#: keywords whose name, when it is a property name, is not a keyword
_NAME_HOLDERS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)
#: keywords whose reason is worth the echo of a whole object
_ECHO_OBJECTS = frozenset({"type", "enum", "const"})


def sort_key(path: Sequence[str | int]) -> tuple[tuple[int, Any], ...]:
    """Order paths: indexes before names at one level, a parent before its children."""
    return tuple((0, p) if isinstance(p, int) else (1, str(p)) for p in path)


#: the problems built for one call at most (the SDK's bound); past these the
#: problems are only counted
KEPT = MAX_PROBLEMS


def kept_problems(
    errors: Iterator[ValidationError], total: Callable[[], int | None] | None = None
) -> tuple[list[ArgumentProblem], list[ValidationError], int]:
    """The first :data:`KEPT` problems in ``errors``, ordered by path; the rest only counted.

    Returns the problems, the errors they came from and how many problems
    were found past them. ``total``: when it gives a number (the problems of
    the whole call, counted more cheaply), the rest of ``errors`` is not read.
    """
    found: list[ArgumentProblem] = []
    used: list[ValidationError] = []
    more = 0
    # jsonschema reports one error per missing name, each carrying the whole
    # list: converting the list once per object keeps this linear
    seen_required: set[tuple[Any, ...]] = set()
    for error in errors:
        instance = error.instance
        if error.validator == "required" and _is_map(instance):
            path = tuple(error.absolute_path)
            key = (path, id(error.validator_value), id(instance))
            if key in seen_required:
                continue  # a missing name already reported
            seen_required.add(key)
            names = [n for n in error.validator_value if n not in instance]
        else:
            names = _NO_NAMES
        if len(found) >= KEPT:  # only counting now
            more += len(names) if names else 1
            continue
        used.append(error)
        room = KEPT - len(found)
        if names:  # thousands of names: the missing ones counted, not all built
            found.extend([ArgumentProblem.missing((*path, n)) for n in names[:room]])
            if len(names) > room:
                more += len(names) - room
        else:
            converted = _convert(error)
            if len(converted) > room:
                more += len(converted) - room
                converted = converted[:room]
            found.extend(converted)
        if len(found) >= KEPT and total is not None:
            counted = total()
            if counted is not None:
                more = max(more, counted - len(found))
                break
    try:
        # plain tuple order is this order wherever it never compares an index
        # with a name, and far cheaper (sorted: ``found`` keeps its order else)
        found = sorted(found, key=_path)
    except TypeError:
        found.sort(key=lambda p: sort_key(p.path))
    return found, used, more


_path = operator.attrgetter("path")


#: an error that is not a ``required`` one on an object names no missing names
_NO_NAMES: list[str] = []


def _is_map(value: Any) -> bool:
    # JSON objects are dicts: the exact type test spares the ABC check
    return type(value) is dict or isinstance(value, Mapping)


def _received(error: ValidationError, keyword: str) -> Any:
    if _is_map(error.instance) and keyword not in _ECHO_OBJECTS:
        return NOT_GIVEN
    return error.instance


#: the keywords :func:`_convert` words in a way of their own (every other one
#: is one problem worded by :func:`~._reasons.reason`)
_OWN_CONVERSIONS = frozenset(
    {
        "required",
        "dependentRequired",
        "dependencies",
        "additionalProperties",
        "unevaluatedProperties",
        "anyOf",
        "oneOf",
    }
)


def _convert(error: ValidationError) -> list[ArgumentProblem]:
    path: Path = tuple(error.absolute_path)
    keyword = error.validator
    if isinstance(error, OutOfTime):
        if error.name:  # a property name: the path ends with it
            return [
                ArgumentProblem(path, "property name " + error.message, path[-1] if path else "")
            ]
        if _property_name(error) is not None:
            return [
                ArgumentProblem(
                    (*path, error.instance), "property name " + error.message, error.instance
                )
            ]
        return [ArgumentProblem(path, error.message, _received(error, "pattern"))]
    value = error.validator_value
    instance = error.instance
    schema = error.schema if _is_map(error.schema) else {}
    if keyword not in _OWN_CONVERSIONS:
        # the commonest case (type, enum, minimum, ...): one problem, one reason
        name = _property_name(error)
        if name is None:
            return [
                ArgumentProblem(
                    path, place_reason(keyword, value, schema), _received(error, keyword)
                )
            ]
        return [
            ArgumentProblem((*path, name), "property name " + reason(keyword, value, schema), name)
        ]

    if keyword == "required":
        if not _is_map(instance):
            return []
        return [ArgumentProblem.missing((*path, name)) for name in value if name not in instance]
    if keyword in ("dependentRequired", "dependencies") and _is_map(instance):
        return [
            ArgumentProblem.missing((*path, need), f'{REQUIRED} when "{name}" is present')
            for name, needs in value.items()
            if name in instance and isinstance(needs, list)
            for need in needs
            if need not in instance
        ]
    if keyword == "additionalProperties" and _is_map(instance):
        return [ArgumentProblem.unrecognized((*path, name)) for name in _extras(instance, schema)]
    if keyword == "unevaluatedProperties":
        names = _quoted_names(error.message)
        if value is False and names:
            return [ArgumentProblem.unrecognized((*path, name)) for name in names]
        if names:
            return [
                ArgumentProblem((*path, name), "is not allowed by the schema for other properties")
                for name in names
            ]
    if keyword in ("anyOf", "oneOf") and isinstance(value, list):
        return _alternatives(error, path, keyword, value)
    name = _property_name(error)
    if name is not None:
        return [
            ArgumentProblem((*path, name), "property name " + reason(keyword, value, schema), name)
        ]
    return [ArgumentProblem(path, place_reason(keyword, value, schema), _received(error, keyword))]


def _extras(instance: Mapping[str, Any], schema: Mapping[str, Any]) -> list[str]:
    """The names ``additionalProperties`` refused (not declared, not patterned)."""
    # the same bounded search the keyword ran (a name out of time is reported there)
    return extras(instance, schema)[0]


_QUOTED = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*\"""")


def _quoted_names(message: str) -> list[str]:
    """The property names a message lists as Python string literals."""
    inside = message[message.find("(") + 1 :] if "(" in message else ""
    names: list[str] = []
    for literal in _QUOTED.findall(inside):
        try:
            name = ast.literal_eval(literal)
        except (ValueError, SyntaxError):
            continue
        if isinstance(name, str):
            names.append(name)
    return names


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


def _alternatives(
    error: ValidationError, path: Path, keyword: str, options: list[Any]
) -> list[ArgumentProblem]:
    """A failed ``anyOf``/``oneOf``: one line, plus the closest option's problems."""
    count = len(options)
    received = _received(error, keyword)
    if not error.context:
        # oneOf with more than one option matching
        return [
            ArgumentProblem(
                path,
                f"matches more than one of the {count} options; it must match exactly one",
                received,
            )
        ]
    by_option: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        index = sub.relative_schema_path[0] if sub.relative_schema_path else 0
        by_option.setdefault(int(index), []).append(sub)
    types = _only_types(path, by_option)
    if types is not None:
        return [ArgumentProblem(path, "must be " + " or ".join(types), received)]
    index = min(by_option, key=lambda i: _distance(path, by_option[i]))
    option = options[index] if index < count else None
    label = f"option {index + 1}"
    if isinstance(option, Mapping) and isinstance(option.get("title"), str):
        label += f' ("{option["title"][:40]}")'
    head = ArgumentProblem(
        path, f"matches none of the {count} options; the closest is {label}", received
    )
    return [head, *(p for sub in by_option.get(index, []) for p in _convert(sub))]


def _distance(path: Path, errors: list[ValidationError]) -> tuple[int, int, int]:
    """How far an option is from the instance (smaller is closer).

    An option whose type or discriminating constant does not match is far
    whatever else; then the fewer problems the closer; ties go to the option
    whose problems lie deeper (it matched more of the instance). Ties left go
    to the first option.
    """
    mismatch = 0
    for error in errors:
        where = tuple(error.absolute_path)
        if error.validator == "type" and where == path:
            mismatch += 2
        elif (
            error.validator in ("const", "enum")
            and where[: len(path)] == path
            and len(where) == len(path) + 1
        ):
            mismatch += 1
    depth = max((len(e.absolute_path) for e in errors), default=0)
    return mismatch, len(errors), -depth


def _only_types(path: Path, by_option: dict[int, list[ValidationError]]) -> list[str] | None:
    """The type words when every option failed on ``type`` alone, at this very path."""
    words: list[str] = []
    for subs in by_option.values():
        if len(subs) != 1 or subs[0].validator != "type" or tuple(subs[0].absolute_path) != path:
            return None
        for word in _type_words(subs[0].validator_value):
            if word not in words:
                words.append(word)
    return words or None


def _type_words(value: Any) -> list[str]:
    kinds = value if isinstance(value, list) else [value]
    return [TYPE_WORDS.get(kind, f'of type "{kind}"') for kind in kinds]
