"""A fast-path rejection explained from ``jsonschema-rs``'s own errors, in the pure path's words.

``jsonschema-rs`` says where each error is (``instance_path``) and which keyword
of the schema failed (``schema_path``, the keyword's place in the schema even
through a ``$ref``). That is all the pure path's reasons read: the keyword's
value and the subschema holding it. So each place is looked up in the schema
once, its reason written once (with the very functions the pure path uses),
and a rejection costs one ``iter_errors`` of ``jsonschema-rs`` plus a problem
per error.

Where those errors cannot give the pure path's text, the pure library
explains that call instead (:meth:`RsProblems.problems` answers ``None``):
``anyOf``/``oneOf`` (the closest option's detail), ``propertyNames``,
``contains``, ``unevaluated*``, draft 7 ``items``/``additionalItems``,
schemas with nested ``$id`` or dynamic references, two different reasons at
one place (their order is each library's own), a value where the two
libraries decide a ``format``, ``pattern`` or ``multipleOf`` differently, a
pattern search out of time, and more than :data:`~._errors.KEPT` errors.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import REQUIRED, pattern_reason

from ._errors import KEPT, reason, sort_key
from ._patterns import Matcher, extras

__all__ = ["RsProblems", "explainable"]

# how a place's problems are built (the first item of its entry)
_PLAIN = 0  # one problem at the error's path, the reason fixed by the schema
_FORMAT = 1  # as _PLAIN, once the pure checker agrees the value fails
_PATTERN = 2  # as _PLAIN, once the bounded search says it does not match
_MULTIPLE = 3  # as _PLAIN, once the pure library's float test agrees
_REQUIRED = 4  # every missing name of the keyword, once per object
_DEPENDENT = 5  # dependentRequired / dependencies: every missing name, once
_CLOSED = 6  # additionalProperties: false: every extra name, once
_NO_MORE_ITEMS = 7  # items: false (2020-12): one problem at the array, once

#: keywords whose reason depends on the schema alone
_PLAIN_KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
        "not",
    }
)
#: keywords whose reason echoes an object (as the pure path's ``_received``)
_ECHO = frozenset({"type", "enum", "const"})
#: a ``false`` subschema under these reads "is not allowed here" on both paths
_FALSE_HOLDERS = frozenset(
    {
        "properties",
        "patternProperties",
        "prefixItems",
        "items",
        "allOf",
        "dependentSchemas",
        "dependencies",
        "$defs",
        "definitions",
    }
)
_FALSE_KEYWORDS = frozenset({"then", "else"})
#: a word anywhere on a place's path that the pure path explains in its own way
#: (a ``$defs`` name spelled so is refused too: a false alarm costs only speed)
_OWN_WAY = frozenset(
    {
        "anyOf",
        "oneOf",
        "propertyNames",
        "contains",
        "minContains",
        "maxContains",
        "unevaluatedProperties",
        "unevaluatedItems",
        "additionalItems",
    }
)
#: schema words after which the pure path's explanation cannot be rebuilt here
_UNSUPPORTED_SCHEMA = frozenset({"$dynamicRef", "$recursiveRef", "$dynamicAnchor"})

Entry = tuple[int, Any, Any]

#: the places kept worked out (a schema's keyword places; the bound only says
#: that no call can grow the table past it)
_MAX_PLACES = 4096

_path = operator.attrgetter("path")
#: values that are never a mapping (spares the ABC check for most echoes)
_SCALARS = frozenset((str, int, float, bool, type(None), list))


def explainable(schema: Any) -> bool:
    """Whether ``jsonschema-rs``'s places in ``schema`` are places in ``schema`` itself.

    Not so under a nested ``$id`` (``schema_path`` is then relative to that
    resource) or with dynamic references; such schemas are explained by the
    pure library.
    """
    todo = [(schema, True)]
    seen = 0
    while todo:
        node, top = todo.pop()
        seen += 1
        if seen > 100_000:
            return False
        if isinstance(node, list):
            todo.extend((item, False) for item in node)
        elif isinstance(node, dict):
            for key, value in node.items():
                unsupported = key in _UNSUPPORTED_SCHEMA or (key in ("$id", "id") and not top)
                if unsupported and isinstance(value, str):
                    return False
                if key in ("const", "enum", "default", "examples"):
                    continue  # data, not subschemas
                if isinstance(value, (dict, list)):
                    todo.append((value, False))
    return True


def _at(arguments: Any, path: tuple[Any, ...]) -> Any:
    node = arguments
    for part in path:
        node = node[part]
    return node


class RsProblems:
    """The problems of a call ``jsonschema-rs`` rejected, built from its errors.

    ``schema`` is the schema ``jsonschema-rs`` compiled the places from (the
    checked schema, before any rewriting); ``checker`` the pure path's format
    checker; ``matcher`` its bounded pattern search; ``multiple_of`` the pure
    library's ``multipleOf`` keyword function with its validator.
    """

    __slots__ = (
        "_checker",
        "_draft2020",
        "_entries",
        "_matcher",
        "_multiple_of",
        "_schema",
        "_validator",
    )

    def __init__(
        self, schema: dict[str, Any], *, validator: Any, checker: Any, matcher: Matcher
    ) -> None:
        self._schema = schema
        self._validator = validator
        self._checker = checker
        self._matcher = matcher
        self._multiple_of = validator.VALIDATORS.get("multipleOf")
        self._draft2020 = validator.META_SCHEMA.get("$schema", "").startswith(
            "https://json-schema.org/draft/2020-12"
        )
        #: a place in the schema -> how its problems are built (``None``: not here)
        self._entries: dict[tuple[Any, ...], Entry | None] = {}

    # -- what one place of the schema says, worked out once ---------------------------

    def _entry(self, place: tuple[Any, ...]) -> Entry | None:
        if any(part in _OWN_WAY for part in place if isinstance(part, str)):
            return None
        node: Any = self._schema
        parent: Any = None
        for part in place:
            by_name = isinstance(node, dict) and isinstance(part, str) and part in node
            by_index = isinstance(node, list) and type(part) is int and 0 <= part < len(node)
            if not (by_name or by_index):
                return None
            parent, node = node, node[part]
        if not place:
            return None
        last = place[-1]
        if node is False and last != "const":  # (a const false is data, not a schema)
            if last == "additionalProperties" and isinstance(parent, dict):
                return (_CLOSED, parent, None)
            if last == "items" and isinstance(parent, dict):
                if not self._draft2020:
                    return None  # draft 7 words it per item, at the array
                return (_NO_MORE_ITEMS, reason("items", False, parent), None)
            holder = place[-2] if len(place) > 1 else None
            if last in _FALSE_KEYWORDS or holder in _FALSE_HOLDERS:
                return (_PLAIN, "is not allowed here", False)
            return None
        if not isinstance(last, str) or not isinstance(parent, dict):
            return None
        keyword, value = last, node
        if keyword in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
            # draft 4: the pure library reports the bound, its flag read from the schema
            keyword = "minimum" if keyword == "exclusiveMinimum" else "maximum"
            if value is not True or keyword not in parent:
                return None
            value = parent[keyword]
        if keyword in _PLAIN_KEYWORDS:
            return (_PLAIN, reason(keyword, value, parent), keyword in _ECHO)
        if keyword == "format" and isinstance(value, str):
            return (_FORMAT, reason(keyword, value, parent), value)
        if keyword == "pattern" and isinstance(value, str):
            return (_PATTERN, pattern_reason(value), value)
        if keyword == "multipleOf":
            return (_MULTIPLE, reason(keyword, value, parent), (value, parent))
        if keyword == "required" and isinstance(value, list):
            return (_REQUIRED, value, None)
        if keyword in ("dependentRequired", "dependencies") and isinstance(value, dict):
            return (_DEPENDENT, value, None)
        return None

    # -- one call ------------------------------------------------------------------------

    def problems(self, arguments: Any, errors: list[Any]) -> list[ArgumentProblem] | None:
        """The call's problems, ordered by path as the pure path orders them (``None``: ask it).

        ``errors``: ``jsonschema-rs``'s errors for ``arguments`` (at most
        :data:`~._errors.KEPT`).
        """
        entries = self._entries
        found: list[ArgumentProblem] = []
        done: set[tuple[Any, ...]] = set()
        started = False
        try:
            for error in errors:
                place = tuple(error.schema_path)
                entry = entries.get(place, NOT_GIVEN)
                if entry is NOT_GIVEN:
                    entry = self._entry(place)
                    if len(entries) < _MAX_PLACES:
                        entries[place] = entry
                if entry is None:
                    return None
                how, what, extra = entry
                path = tuple(error.instance_path)
                if how == _PLAIN:  # the commonest: inlined
                    value = arguments
                    for part in path:
                        value = value[part]
                    kind = type(value)
                    if (
                        not extra
                        and kind not in _SCALARS
                        and (kind is dict or isinstance(value, Mapping))
                    ):
                        value = NOT_GIVEN
                    found.append(ArgumentProblem(path, what, value))
                    continue
                if how >= _REQUIRED:  # one keyword, all its names at once
                    key = (path, place)
                    if key in done:
                        continue
                    done.add(key)
                    if how == _NO_MORE_ITEMS:
                        path = path[:-1]
                    value = _at(arguments, path)
                    if how == _NO_MORE_ITEMS:
                        found.append(ArgumentProblem(path, what, value))
                    elif how == _REQUIRED:
                        for name in what:
                            if name not in value:
                                found.append(ArgumentProblem.missing((*path, name)))
                    elif how == _DEPENDENT:
                        found.extend(
                            ArgumentProblem.missing(
                                (*path, need), f'{REQUIRED} when "{name}" is present'
                            )
                            for name, needs in what.items()
                            if name in value and isinstance(needs, list)
                            for need in needs
                            if need not in value
                        )
                    else:
                        if not started:
                            self._matcher.start()
                            started = True
                        names, late = extras(value, what)
                        if late or not names:
                            return None  # out of time: the pure path says so
                        found.extend(ArgumentProblem.unrecognized((*path, n)) for n in names)
                    continue
                value = _at(arguments, path)
                if how == _FORMAT:
                    if self._checker.conforms(value, extra):
                        return None  # only jsonschema-rs refuses it
                elif how == _PATTERN:
                    if not started:
                        self._matcher.start()
                        started = True
                    if self._matcher.search(extra, value) is not False:
                        return None  # out of time, or only jsonschema-rs refuses it
                elif how == _MULTIPLE:
                    bound, schema = extra
                    if next(self._multiple_of(self._validator, bound, value, schema), None) is None:
                        return None  # the pure library's float test accepts it
                found.append(ArgumentProblem(path, what, value))
        except (KeyError, IndexError, TypeError):
            return None  # a path that does not lead into the arguments
        finally:
            if started:
                self._matcher.stop()
        return _ordered(found)


def _ordered(found: list[ArgumentProblem]) -> list[ArgumentProblem] | None:
    """``found`` ordered by path; ``None`` when one path holds two different reasons.

    The same reason twice at one path is one problem to the renderer; two
    different ones would come in each library's own keyword order.
    """
    if len(found) > KEPT:
        return None
    if len(found) == 1:
        return found
    if len({p.path for p in found}) < len(found):  # rare: a path twice
        reasons: dict[tuple[Any, ...], tuple[str, str]] = {}
        for problem in found:
            said = (problem.reason, problem.kind)
            if reasons.setdefault(problem.path, said) != said:
                return None
    try:
        # plain tuple order is the pure path's order wherever it never compares
        # an index with a name (and far cheaper than its sort key)
        return sorted(found, key=_path)
    except TypeError:
        return sorted(found, key=lambda p: sort_key(p.path))
