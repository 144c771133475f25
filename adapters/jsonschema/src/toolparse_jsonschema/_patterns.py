"""The pure engine's pattern searches, under a time bound (the ``regex`` library's timeout).

Python's ``re``, which the ``jsonschema`` library searches with, can backtrack for
minutes on a short string the model wrote (``^(a|aa)+$`` against thirty ``a`` and
a ``!``). So ``pattern``, ``patternProperties`` and the names ``additionalProperties``
leaves over are searched by a :class:`Matcher` (a timeout per search, a budget per
call), in keyword functions given to the library's ``validators.extend``; its
``multipleOf`` is kept there from raising on NaN, infinities and huge integers.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any

import regex  # type: ignore[import-untyped]  # no type information
from jsonschema import validators  # jsonschema ships no type information
from jsonschema.exceptions import ValidationError  # jsonschema ships no type information
from jsonschema.protocols import Validator  # jsonschema ships no type information

__all__ = ["Matcher", "OutOfTime", "PatternRefused", "Refused", "bounded", "is_regex", "matcher"]

#: the longest value the ``regex`` format compiles (compiling is linear, but a
#: value near the size limit would still take seconds)
MAX_REGEX_LENGTH = 10_000


class OutOfTime(ValidationError):  # type: ignore[misc]  # the library is untyped
    """A value (or a property name, ``name=True``) whose pattern search ran out of time."""

    def __init__(self, pattern: str, *, name: bool = False, path: tuple[Any, ...] = ()) -> None:
        super().__init__(
            f"could not be checked against the pattern {pattern[:80]} in time", path=path
        )
        self.name = name


class Refused(ValidationError):  # type: ignore[misc]  # the library is untyped
    """The names ``additionalProperties`` or ``unevaluatedProperties`` refused (:attr:`names`).

    The message is the library's own (a cause keeps it); the library sets the
    keyword and its value, as for any error a keyword yields.
    """

    def __init__(self, which: str, names: list[str], *, closed: bool) -> None:
        shown = ", ".join(map(repr, sorted(names, key=str)))
        verb = "was" if len(names) == 1 else "were"
        said = (
            ("not allowed", "unexpected")
            if closed
            else ("not valid under the given schema", "unevaluated and invalid")
        )
        super().__init__(f"{which} properties are {said[0]} ({shown} {verb} {said[1]})")
        self.names = names


class PatternRefused(Exception):
    """A pattern the ``regex`` library cannot compile (``re`` would run it without a bound)."""


_local = threading.local()


class Matcher:
    """Pattern searches bounded in time: ``timeout`` seconds each, ``budget`` per call.

    :meth:`start` opens a call's budget in this thread, :meth:`stop` closes
    it; :meth:`search` answers ``True``/``False``, or ``None`` when the search
    ran out of time (or the call's budget is spent).
    """

    __slots__ = ("_compiled", "budget", "timeout")

    def __init__(self, timeout: float = 0.1, budget: float = 1.0) -> None:
        self.timeout = timeout
        self.budget = budget
        self._compiled: dict[str, Callable[..., Any]] = {}

    def start(self) -> None:
        """Open the budget of one call, in this thread."""
        # one attribute for the call (matcher, deadline, searches out of time):
        # every search reads the thread's state once
        _local.call = (self, time.monotonic() + self.budget, set())

    def stop(self) -> None:
        """Close the call's budget (a search outside a call gets its timeout only)."""
        _local.call = None

    def prepare(self, pattern: str) -> None:
        """Compile ``pattern`` now (at definition); :class:`PatternRefused` if it cannot be bounded."""
        if pattern not in self._compiled:
            try:
                self._compiled[pattern] = regex.compile(_regex_source(pattern)).search
            except regex.error as exc:
                # valid for `re` (the metaschema checked it) but not for `regex`:
                # no search of it could be bounded, so the schema is refused
                raise PatternRefused(
                    f"{pattern[:80]!r} cannot be searched under a time bound: the regex "
                    f"library, which toolparse bounds pattern searches with, cannot compile "
                    f"it ({exc}); Python's re could, but with no bound on its time"
                ) from exc

    def search(self, pattern: str, text: str) -> bool | None:
        """Whether ``pattern`` is found in ``text``; ``None``: not found out in time."""
        if pattern not in self._compiled:
            self.prepare(pattern)
        timeout = self.timeout
        late: set[tuple[str, str]] | None = None
        call = getattr(_local, "call", None)
        search = self._compiled[pattern]
        # the library's timeout counts wall time: on a busy machine a quick search
        # can run out of it while its thread waits for a core, so a search out of
        # time is tried once more before the value is called not checked in time
        for _ in range(2):
            if call is not None and call[0] is self:
                late = call[2]
                # several keywords search one name with one pattern: time out once
                left = call[1] - time.monotonic()
                if (late and (pattern, text) in late) or left <= 0:
                    return None
                timeout = min(timeout, left)
            try:
                return search(text, timeout=timeout) is not None
            except TimeoutError:
                pass
        if late is not None:
            late.add((pattern, text))
        return None


_DEFAULT = Matcher()


def matcher() -> Matcher:
    """The matcher of the call under way in this thread (a default one outside a call)."""
    call = getattr(_local, "call", None)
    found: Matcher = _DEFAULT if call is None else call[0]
    return found


#: a ``{`` that Python's ``re`` reads as a repeat: ``{2}``, ``{1,3}``, ``{,3}``, ``{2,}``
_REPEAT = re.compile(r"\{\d*(?:,\d*)?\}")


def _regex_source(pattern: str) -> str:
    """``pattern`` written so that the ``regex`` library reads it as Python's ``re`` does.

    ``re`` reads a ``{`` that starts no repeat as a literal brace; ``regex``
    reads some of those as fuzzy-matching constraints (``a{e<=1}``, ``{s}``).
    Those braces are escaped; nothing else changes.
    """
    if "{" not in pattern:
        return pattern
    out: list[str] = []
    i, end, in_class = 0, len(pattern), False
    while i < end:
        ch, stop = pattern[i], i + 1
        if ch == "\\":
            # an escape is copied whole (``\N{DIGIT ONE}`` with its name)
            stop = (pattern.find("}", i) + 1 if pattern.startswith("N{", i + 1) else i + 2) or end
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            # a "]" right after "[" or "[^" is a member, not the end
            stop += pattern.startswith("^", stop)
            stop += pattern.startswith("]", stop)
            in_class = True
        elif ch == "{":
            repeat = _REPEAT.match(pattern, i)
            if repeat is None or repeat.end() == i + 2:  # "{}" is a brace and a brace
                out.append("\\")
            else:
                stop = repeat.end()
        out.append(pattern[i:stop])
        i = stop
    return "".join(out)


def is_regex(value: object) -> bool:
    """The ``regex`` format: a value Python's ``re`` compiles, of a bounded length."""
    if not isinstance(value, str):
        return True
    try:
        return len(value) <= MAX_REGEX_LENGTH and re.compile(value) is not None
    # (a FutureWarning of re's, "possible nested set", is raised where warnings are errors)
    except (re.error, RecursionError, OverflowError, ValueError, Warning):
        return False


# -- the keywords, as the library defines them, with bounded searches ---------------
# (the drafts' type checker calls exactly ``str`` a string and ``dict`` an object:
# isinstance says the same without the checker's lookups)


def _pattern(
    validator: Validator, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if isinstance(instance, str):
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


def _additional_properties(
    validator: Validator, extra: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """The names neither ``properties`` nor ``patternProperties`` cover, checked against ``extra``."""
    if not isinstance(instance, dict):
        return
    declared = schema.get("properties") or {}
    search = matcher().search
    names = []
    for name in instance:
        if name in declared:
            continue
        for pattern in schema.get("patternProperties") or ():
            found = search(pattern, name)
            if found is None:  # reported as out of time, not as an extra
                yield OutOfTime(pattern, name=True, path=(name,))
            if found is not False:
                break
        else:
            names.append(name)
    if isinstance(extra, dict):
        for name in names:
            yield from validator.descend(instance[name], extra, path=name)
    elif not extra and names:
        yield Refused("Additional", names, closed=True)


def _multiple_of(library: Callable[..., Iterator[ValidationError]]) -> Callable[..., Any]:
    """The library's ``multipleOf``, answering where it raises: NaN, an infinity, a huge integer."""

    def multiple_of(
        validator: Validator, factor: Any, instance: Any, schema: Mapping[str, Any]
    ) -> Iterator[ValidationError]:
        if isinstance(instance, float) and not math.isfinite(instance):
            yield ValidationError(f"{instance!r} is not a multiple of {factor!r}")
            return
        try:
            yield from library(validator, factor, instance, schema)
        except (OverflowError, ValueError):  # an integer past a float's range: exactly
            if isinstance(factor, (int, float)) and Fraction(instance) % Fraction(factor):
                yield ValidationError(f"the value is not a multiple of {factor!r}")

    return multiple_of


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

    ``unevaluated``: the schema's own ``unevaluatedProperties`` keyword, in a
    class for that schema alone; the others are kept, one per draft.
    """
    keywords = {k: v for k, v in KEYWORDS.items() if k in cls.VALIDATORS}
    if "multipleOf" in cls.VALIDATORS:
        keywords["multipleOf"] = _multiple_of(cls.VALIDATORS["multipleOf"])
    if unevaluated is not None:
        keywords["unevaluatedProperties"] = unevaluated
        extended: type[Validator] = validators.extend(cls, validators=keywords)
        return extended
    with _lock:
        found = _classes.get(cls)
        if found is None:
            found = _classes[cls] = validators.extend(cls, validators=keywords)
        return found
