"""Patterns matched under a time bound, with the ``regex`` library's timeout.

The ``jsonschema`` library matches ``pattern``, ``patternProperties`` (and the
names ``additionalProperties`` and ``unevaluatedProperties`` leave over) with
Python's ``re``, which can backtrack for minutes on a short string
(``^(a|aa)+$`` against thirty ``a`` and a ``!``). The model writes those
strings, so every match toolparse runs goes through a :class:`Matcher`: a
search with a timeout for each match and a budget for each call. A search that
runs out of time rejects the value with its own reason (:data:`OUT_OF_TIME`).

The keyword functions replace the library's through its public extension
point (``jsonschema.validators.extend``); everything else is the library's own.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import regex  # type: ignore[import-untyped]  # no type information
from jsonschema import validators  # jsonschema ships no type information
from jsonschema.exceptions import ValidationError  # jsonschema ships no type information
from jsonschema.protocols import Validator  # jsonschema ships no type information

from ._errors import out_of_time_reason

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_TIMEOUT",
    "Matcher",
    "OutOfTime",
    "PatternRefused",
    "Refused",
    "bounded",
    "extras",
    "is_regex",
    "matcher",
    "schema_patterns",
]

#: seconds one pattern search may take
DEFAULT_TIMEOUT = 0.1
#: seconds all the pattern searches of one call may take together
DEFAULT_BUDGET = 1.0
#: the longest value the ``regex`` format compiles (compiling is linear, but a
#: value near the size limit would still take seconds)
MAX_REGEX_LENGTH = 10_000


class OutOfTime(ValidationError):  # type: ignore[misc]  # the library is untyped
    """A value (or a property name, ``name=True``) whose pattern search ran out of time."""

    def __init__(self, pattern: str, *, name: bool = False, path: tuple[Any, ...] = ()) -> None:
        super().__init__(out_of_time_reason(pattern), path=path)
        self.pattern = pattern
        self.name = name


_local = threading.local()
#: a call's state in its thread: the matcher, its deadline, the searches that timed out
_Call = tuple["Matcher", float, set[tuple[str, str]]]


class Matcher:
    """Pattern searches bounded in time: ``timeout`` seconds each, ``budget`` per call.

    :meth:`start` opens a call's budget (in this thread), :meth:`stop` closes
    it; :meth:`search`
    answers ``True``/``False``, or ``None`` when the search ran out of time
    (or the call's budget is spent). Compiled patterns are kept: they come
    from the schema, so there are as many as the schema has.
    """

    __slots__ = ("_compiled", "budget", "timeout")

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, budget: float = DEFAULT_BUDGET) -> None:
        self.timeout = timeout
        self.budget = budget
        self._compiled: dict[str, Callable[..., Any]] = {}

    def start(self) -> None:
        """Open the budget of one call, in this thread."""
        # one attribute for the call (matcher, deadline, timed-out searches):
        # every search reads the thread's state once
        _local.call = (self, time.monotonic() + self.budget, set())

    def stop(self) -> None:
        """Close the call's budget (searches outside a call get only their timeout)."""
        _local.call = None

    def prepare(self, pattern: str) -> None:
        """Compile ``pattern`` now (at definition); :class:`PatternRefused` if it cannot be bounded."""
        if pattern not in self._compiled:
            self._compiled[pattern] = _compile(pattern)

    def search(self, pattern: str, text: str) -> bool | None:
        """Whether ``pattern`` is found in ``text``; ``None``: not found out in time."""
        search = self._compiled.get(pattern)
        if search is None:
            search = self._compiled[pattern] = _compile(pattern)
        timeout = self.timeout
        late: set[tuple[str, str]] | None = None
        call: _Call | None = getattr(_local, "call", None)
        if call is not None and call[0] is self:
            late = call[2]
            # several keywords search one name with one pattern: time out once
            if late and (pattern, text) in late:
                return None
            left = call[1] - time.monotonic()
            if left <= 0:
                return None
            if left < timeout:
                timeout = left
        try:
            return search(text, timeout=timeout) is not None
        except TimeoutError:
            if late is not None:
                late.add((pattern, text))
            return None


#: a ``{`` that Python's ``re`` reads as a repeat: ``{2}``, ``{1,3}``, ``{,3}``, ``{2,}``
_REPEAT = re.compile(r"\{\d*(?:,\d*)?\}")


def regex_source(pattern: str) -> str:
    """``pattern`` written so that the ``regex`` library reads it as Python's ``re`` does.

    ``re`` reads a ``{`` that starts no repeat as a literal brace; ``regex``
    reads some of those as fuzzy-matching constraints (``a{e<=1}``, ``{s}``),
    which either fail to compile or match something else. Those braces are
    escaped; nothing else changes.
    """
    if "{" not in pattern:
        return pattern
    out: list[str] = []
    i, end, in_class = 0, len(pattern), False
    while i < end:
        ch = pattern[i]
        if ch == "\\":
            # an escape is copied whole (``\N{DIGIT ONE}`` with its name)
            stop = pattern.find("}", i) + 1 if pattern.startswith("N{", i + 1) else i + 2
            out.append(pattern[i : stop or end])
            i = stop or end
        elif in_class:
            in_class = ch != "]"
            out.append(ch)
            i += 1
        elif ch == "[":
            # a "]" right after "[" or "[^" is a member, not the end
            start = i + 1 + (pattern.startswith("^", i + 1))
            stop = start + (pattern.startswith("]", start))
            out.append(pattern[i:stop])
            i, in_class = stop, True
        elif ch == "{":
            repeat = _REPEAT.match(pattern, i)
            if repeat is None or repeat.end() == i + 2:  # "{}" is a brace and a brace
                out.append("\\{")
                i += 1
            else:
                out.append(repeat.group())
                i = repeat.end()
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class PatternRefused(Exception):
    """A pattern the ``regex`` library cannot compile (``re`` would run it without a bound)."""


def _compile(pattern: str) -> Callable[..., Any]:
    try:
        search: Callable[..., Any] = regex.compile(regex_source(pattern)).search
    except regex.error as exc:
        # valid for `re` (the metaschema checked it) but not for `regex`: no
        # search of it could be bounded, so the schema is refused
        raise PatternRefused(
            f"{pattern[:80]!r} cannot be searched under a time bound: the regex library, "
            f"which toolparse bounds pattern searches with, cannot compile it ({exc}); "
            "Python's re could, but with no bound on its time"
        ) from exc
    return search


#: keywords whose values are data, never subschemas
_DATA = frozenset(("const", "default", "enum", "examples"))
#: keywords whose value maps names to subschemas (a key there is a name, not a keyword)
_NAMES = frozenset(("properties", "$defs", "definitions", "dependentSchemas", "dependencies"))


def schema_patterns(schema: Any) -> Iterator[tuple[list[str | int], str]]:
    """Every pattern of ``schema`` with its place: ``pattern`` values, ``patternProperties`` keys."""
    todo: list[tuple[Any, list[str | int], bool]] = [(schema, [], False)]
    while todo:
        node, path, names = todo.pop()
        if isinstance(node, list):
            todo.extend((item, [*path, i], False) for i, item in enumerate(node))
            continue
        if not isinstance(node, dict):
            continue
        for key, value in node.items():
            if names:  # a name's value is a subschema
                todo.append((value, [*path, key], False))
            elif key == "pattern" and isinstance(value, str):
                yield [*path, key], value
            elif key == "patternProperties" and isinstance(value, dict):
                for pattern, sub in value.items():
                    yield [*path, key], pattern
                    todo.append((sub, [*path, key, pattern], False))
            elif key not in _DATA and isinstance(value, (dict, list)):
                todo.append((value, [*path, key], key in _NAMES))


def matcher() -> Matcher:
    """The matcher of the call under way in this thread (a default one outside a call)."""
    call: _Call | None = getattr(_local, "call", None)
    return call[0] if call is not None else _DEFAULT


_DEFAULT = Matcher()


def is_regex(value: object) -> bool:
    """The ``regex`` format: a value Python's ``re`` compiles, of a bounded length."""
    if not isinstance(value, str):
        return True
    if len(value) > MAX_REGEX_LENGTH:
        return False
    try:
        re.compile(value)
    except (re.error, RecursionError, OverflowError, ValueError):
        return False
    return True


# -- the keywords, as the library defines them, with bounded searches ---------------


# (the drafts' type checker calls exactly ``str`` a string and ``dict`` an object:
# isinstance says the same without the checker's lookups)


def _pattern(
    validator: Validator, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not isinstance(instance, str):
        return
    found = matcher().search(pattern, instance)
    if found is None:
        yield OutOfTime(pattern)
    elif not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Validator, patterns: Mapping[str, Any], instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not isinstance(instance, dict):
        return
    search = matcher().search
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            found = search(pattern, key)
            if found is None:
                yield OutOfTime(pattern, name=True, path=(key,))
            elif found:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def extras(instance: Mapping[str, Any], schema: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The names neither ``properties`` nor ``patternProperties`` cover, and the timed-out pattern.

    Returns ``(extra names, [pattern, name, pattern, name, ...])``: the second
    list pairs each name whose check ran out of time with its pattern.
    """
    declared = schema.get("properties") or {}
    patterns = schema.get("patternProperties")
    if not patterns:
        return [name for name in instance if name not in declared], []
    patterns = list(patterns)
    search = matcher().search
    found: list[str] = []
    late: list[str] = []
    for name in instance:
        if name in declared:
            continue
        covered = False
        for pattern in patterns:
            hit = search(pattern, name)
            if hit is None:
                late += (pattern, name)
                covered = True  # reported as out of time, not as an extra
                break
            if hit:
                covered = True
                break
        if not covered:
            found.append(name)
    return found, late


def _additional_properties(
    validator: Validator, extra: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not isinstance(instance, dict):
        return
    names, late = extras(instance, schema)
    if late:
        for pattern, name in zip(late[::2], late[1::2], strict=True):
            yield OutOfTime(pattern, name=True, path=(name,))
    if isinstance(extra, dict):  # (the drafts' "object", see above)
        for name in names:
            yield from validator.descend(instance[name], extra, path=name)
    elif not extra and names:
        yield Refused("Additional", names, closed=True)


class Refused(ValidationError):  # type: ignore[misc]  # the library is untyped
    """The names ``additionalProperties`` or ``unevaluatedProperties`` refused.

    The message is the library's own; the names are on :attr:`names` (the
    library sets the keyword and its value, as for any error a keyword yields).
    """

    def __init__(self, which: str, names: list[str], *, closed: bool) -> None:
        shown = ", ".join(repr(name) for name in sorted(names, key=str))
        verb = "was" if len(names) == 1 else "were"
        if closed:
            message = f"{which} properties are not allowed ({shown} {verb} unexpected)"
        else:
            message = (
                f"{which} properties are not valid under the given schema "
                f"({shown} {verb} {which.lower()} and invalid)"
            )
        super().__init__(message)
        self.names = names


#: the keyword functions every draft gets
KEYWORDS: dict[str, Callable[..., Iterator[ValidationError]]] = {
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
}

_classes: dict[type[Validator], type[Validator]] = {}
_lock = threading.Lock()


def bounded(
    cls: type[Validator], unevaluated: Callable[..., Iterator[ValidationError]] | None = None
) -> type[Validator]:
    """``cls`` with its pattern keywords searching under a time bound.

    ``unevaluated``: the schema's own ``unevaluatedProperties`` keyword (it
    knows the schema's references), in a class for that schema alone; the
    others are kept, one per draft.
    """
    keywords = {k: v for k, v in KEYWORDS.items() if k in cls.VALIDATORS}
    if unevaluated is not None:
        return validators.extend(cls, validators={**keywords, "unevaluatedProperties": unevaluated})
    with _lock:
        found = _classes.get(cls)
        if found is None:
            found = _classes[cls] = validators.extend(cls, validators=keywords)
        return found
