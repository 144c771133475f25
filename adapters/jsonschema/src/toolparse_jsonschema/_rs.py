"""The jsonschema-rs engine: it decides a call, and reads a rejected call's errors once.

Each error says where the value is (``instance_path``) and which keyword failed
(``kind.name``, ``kind.value``); the few reasons that need more read the keyword
in the schema (at ``schema_path``). Patterns run in the library's linear-time
engine (``RegexOptions``); a schema whose patterns need backtracking is left to
the pure engine.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from graphlib import CycleError, TopologicalSorter
from typing import Any, NoReturn

from toolparse import NOT_GIVEN, ArgumentProblem, Ok, ParseResult, invalid_arguments
from toolparse.adapter import REQUIRED, length_reason

from . import _cost
from ._defaults import Plan, apply
from ._errors import KEPT, WORDS, Path, alternatives, ordered, reason, received
from ._patterns import is_regex
from ._schema import Definition, subschemas

__all__ = ["RsUnavailable", "rs_parser"]

#: the deepest value handed to jsonschema-rs under a recursive schema: it follows
#: one down a value with no bound on its stack (20,000 levels crash the process)
MAX_DEPTH = 500

#: what jsonschema-rs raises for a value that is not JSON data (``bytes``, a
#: ``str`` subclass, a mapping that is not a ``dict``, a name that is no string)
_NOT_JSON = (ValueError, TypeError, OverflowError)

#: keywords whose values are data, never subschemas (a "format" key there is a value)
_DATA_KEYWORDS = frozenset(("const", "default", "enum", "examples"))


class RsUnavailable(Exception):
    """``jsonschema-rs`` is missing, too old, or cannot take the schema."""


def _refuse(uri: str) -> NoReturn:
    # every reference was checked at definition to stay inside the schema;
    # should one still need fetching, refuse rather than touch the network
    raise ValueError(f"toolparse never fetches schemas: {uri}")


def _validator(definition: Definition, checked_formats: frozenset[str]) -> Any:
    """``jsonschema-rs``'s validator for ``definition``, or :class:`RsUnavailable`.

    The formats the pure engine does not check (not in ``checked_formats``)
    are taken out of the schema it compiles: installing it never makes a
    format checked.
    """
    try:
        import jsonschema_rs
    except ImportError as exc:
        raise RsUnavailable(
            'jsonschema-rs is not installed; pip install "toolparse-jsonschema[fast]"'
        ) from exc
    if _too_old():
        raise RsUnavailable(f"jsonschema-rs {_too_old()} is too old for toolparse (0.43 or later)")
    try:
        return jsonschema_rs.validator_for(
            _without_formats(definition.schema, checked_formats),
            validate_formats=True,
            # a "regex" is one Python's re compiles, as on the pure engine (not ECMA's)
            formats={"regex": is_regex} if "regex" in checked_formats else None,
            retriever=_refuse,
            pattern_options=jsonschema_rs.RegexOptions(),
        )
    except Exception as exc:  # several kinds, for a schema it cannot take
        raise RsUnavailable(f"jsonschema-rs cannot compile the schema: {exc}") from exc


@functools.cache
def _too_old() -> str:
    """The installed version when older than 0.43 (read once: reading it takes milliseconds)."""
    from importlib.metadata import version

    found = version("jsonschema-rs")
    return found if tuple(int(part) for part in found.split(".")[:2]) < (0, 43) else ""


def _without_formats(node: Any, kept: frozenset[str]) -> Any:
    """A copy of the schema ``node`` with only the ``format`` keywords named in ``kept``."""
    if isinstance(node, dict):
        return {
            key: value if key in _DATA_KEYWORDS else _without_formats(value, kept)
            for key, value in node.items()
            # only a string ``format`` is a keyword (a property may be called "format")
            if not (key == "format" and isinstance(value, str) and value not in kept)
        }
    if isinstance(node, list):
        return [_without_formats(value, kept) for value in node]
    return node


def rs_parser(
    definition: Definition,
    checked_formats: frozenset[str],
    defaults: Plan | None,
    accepted: tuple[str, ...],
    fallback: Callable[[Any], ParseResult],
) -> Callable[[dict[str, Any]], ParseResult]:
    """The parser of ``definition`` on ``jsonschema-rs``; :class:`RsUnavailable` when it cannot be.

    Under a schema whose references lead back into it, a value deeper than
    :data:`MAX_DEPTH` is refused as nested too deeply first. A rejected call
    whose errors would copy more than :data:`._cost.MAX_COPIED` values is explained
    by ``fallback``, the pure engine.
    """
    validator = _validator(definition, checked_formats)
    walked = list(subschemas(definition))
    recursive = _recursive(walked)
    is_valid = validator.is_valid
    explain = _Explainer(definition, validator, accepted, fallback, _cost.shape(walked)).explain

    def not_json(arguments: dict[str, Any]) -> ParseResult:
        # what jsonschema-rs cannot take is checked as the JSON it stands for
        try:
            plain = json.loads(json.dumps(arguments))
        except (TypeError, ValueError) as exc:
            problem = ArgumentProblem((), f"holds a value that is not JSON data ({exc})")
            return invalid_arguments([problem], arguments=arguments, accepted=accepted)
        if not is_valid(plain):
            return explain(arguments, plain)
        return Ok(arguments if defaults is None else apply(defaults, arguments))

    if defaults is None and not recursive:
        # the commonest case, on every call: a valid call handed on as it is
        def parse(arguments: dict[str, Any]) -> ParseResult:
            try:
                if is_valid(arguments):
                    return Ok(arguments)
            except _NOT_JSON:
                return not_json(arguments)
            return explain(arguments, arguments)

        # the verdict alone (Compiled.verdict): a call it accepts is this
        # parser's Ok of the very arguments, so the core need not call it
        setattr(parse, "verdict", is_valid)  # noqa: B010 - a plain function's attribute
        return parse

    def parse_any(arguments: dict[str, Any]) -> ParseResult:
        if recursive and _deeper(arguments, MAX_DEPTH):
            # the core words this as "nested too deeply"
            raise RecursionError("the arguments are nested too deeply for jsonschema-rs")
        try:
            if is_valid(arguments):
                return Ok(arguments if defaults is None else apply(defaults, arguments))
        except _NOT_JSON:
            return not_json(arguments)
        return explain(arguments, arguments)

    return parse_any


def _deeper(value: Any, limit: int) -> bool:
    """Whether ``value`` nests deeper than ``limit`` (level by level: no recursion)."""
    level = [value] if isinstance(value, (Mapping, list, tuple)) else []
    for _ in range(limit):
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, Mapping) else item)
            if isinstance(child, (Mapping, list, tuple))
        ]
        if not level:
            return False
    return True


def _recursive(walked: list[tuple[dict[str, Any], list[str | int], Any]]) -> bool:
    """Whether a reference of a schema (``walked``: its subschemas) leads back to where it stands.

    Errs on the side of ``True``: a dynamic reference, or one that leads out
    of the schema (to a metaschema, which recurs).
    """
    at = {tuple(path): id(node) for node, path, _ in walked}
    # a subschema follows from the one it is inside, and from a reference to it
    follows: dict[int, list[int]] = {id(node): [] for node, _, _ in walked}
    for node, path, resolver in walked:
        inside = (at.get(tuple(path[:i])) for i in range(len(path) - 1, -1, -1))
        parent = next((found for found in inside if found is not None), None)
        if parent is not None:
            follows[parent].append(id(node))
        if "$dynamicRef" in node or "$recursiveRef" in node:
            return True
        if isinstance(node.get("$ref"), str):
            target = id(resolver.lookup(node["$ref"]).contents)  # (checked at definition)
            if target not in follows:
                return True
            follows[id(node)].append(target)
    try:  # (graphlib looks for a cycle with a stack of its own: no recursion)
        TopologicalSorter(follows).prepare()
    except CycleError:
        return True
    return False


def _at(root: Any, path: Path) -> Any:
    for part in path:
        root = root[part]
    return root


def _fact(error: Any) -> tuple[str, Path, Any]:
    kind = error.kind
    return kind.name, tuple(error.instance_path), getattr(kind, "types", None)


#: a reason from a kind needs no subschema (draft 4's flags come as kinds of their own)
_NO_SCHEMA: Mapping[str, Any] = {}
#: the places whose reasons are kept (a schema has so many; no call grows it past)
_MAX_PLACES = 4096
#: the kinds that name the names they refuse
_NAMED = frozenset(("additionalProperties", "unevaluatedProperties"))
#: keywords with words of their own that need more than the keyword's value here
_SPECIAL = frozenset(("contains", "falseSchema"))
#: keys under which a key named "items" is a name, not the keyword
_NAMES = frozenset(("properties", "patternProperties", "$defs", "definitions"))


class _Explainer:
    """A rejected call's problems, from ``jsonschema-rs``'s errors."""

    __slots__ = (
        "accepted",
        "definition",
        "fallback",
        "iter_errors",
        "reasons",
        "resolver",
        "shape",
    )

    def __init__(
        self,
        definition: Definition,
        validator: Any,
        accepted: tuple[str, ...],
        fallback: Callable[[Any], ParseResult],
        shape: _cost.Shape,
    ) -> None:
        self.iter_errors = validator.iter_errors
        self.reasons: dict[tuple[Any, ...], str] = {}
        self.definition = definition  # its schema and its names' declaration order
        self.resolver = definition.registry.resolver(base_uri=definition.base_uri)
        self.accepted = accepted
        self.shape = shape
        self.fallback = fallback

    def explain(self, arguments: dict[str, Any], checked: Any) -> ParseResult:
        """The ``Error`` for ``arguments`` (``checked``: what was validated, they or their JSON)."""
        if _cost.copied(checked, self.shape, _cost.MAX_COPIED) > _cost.MAX_COPIED:
            return self.fallback(checked)  # (what was validated: the same names)
        found: list[ArgumentProblem] = []
        first = None
        more = 0
        done: set[Any] = set()
        try:
            errors = self.iter_errors(checked)
        except ValueError:  # "Recursion limit reached": a value too deep for its errors
            return self.fallback(checked)
        names: list[ArgumentProblem] = []  # every top-level missing name (the schema's own)
        for error in errors:
            if first is None:
                first = error
            kind = error.kind
            if kind.name == "required" and not error.instance_path:
                names += self.convert(error, checked, done)
                continue
            if len(found) >= KEPT:  # only counting now
                more += len(kind.unexpected) if kind.name in _NAMED else 1
                continue
            converted = self.convert(error, checked, done)
            room = KEPT - len(found)
            if len(converted) > room:
                more += len(converted) - room
                converted = converted[:room]
            found += converted
        return invalid_arguments(
            names + ordered(found, self.definition.order)
            or [ArgumentProblem((), "does not match the schema")],
            arguments=arguments,
            accepted=self.accepted,
            cause=first,
            more=more,
        )

    def convert(self, error: Any, root: Any, done: set[Any]) -> list[ArgumentProblem]:
        """One error's problems (``done``: the lists an ``items: false`` spoke for already)."""
        kind = error.kind
        path: Path = tuple(error.instance_path)
        keyword = kind.name
        # a keyword's reason is worded once per place in the schema (an $id's own
        # places are that resource's: its location tells them apart)
        place = (keyword, tuple(error.schema_path), getattr(error, "absolute_keyword_location", 0))
        text = self.reasons.get(place)
        if text is None:
            words = WORDS.get(keyword)
            if words is None or keyword in _SPECIAL:
                return self._special(error, path, root, done)
            value = kind.value  # the commonest: the keyword's name and value say it all
            if keyword == "type" and len(value) > 1:
                # the library sorts a list of types: the reason names them as written
                written = self._keyword(error)
                value = written if isinstance(written, list) else value
            text = words(value, _NO_SCHEMA)
            if len(self.reasons) < _MAX_PLACES:
                self.reasons[place] = text
        for part in path:  # the value at the path, to echo
            root = root[part]
        return [ArgumentProblem(path, text, received(root, keyword))]

    def _keyword(self, error: Any) -> Any:
        """The value of the keyword that failed, read in the schema (``NOT_GIVEN``: not found)."""
        node: Any = self.definition.schema
        try:
            # under an $id the place is that resource's (0.43 gives no location)
            location = getattr(error, "absolute_keyword_location", None)
            if location is not None:
                node = self.resolver.lookup(location.partition("#")[0]).contents
            for part in error.schema_path:
                node = node[part]
        except Exception:  # a place the schema does not hold as written
            return NOT_GIVEN
        return node

    def _special(self, error: Any, path: Path, root: Any, done: set[Any]) -> list[ArgumentProblem]:
        """The problems of an error whose keyword's name and value do not say it all."""
        kind = error.kind
        name, schema_path = kind.name, error.schema_path
        last = schema_path[-1] if schema_path else ""
        value = _at(root, path)
        if name == "required":
            return self._required(error, kind.property, path, value, last)
        if name == "additionalProperties" or (
            name == "unevaluatedProperties" and self._keyword(error) in (False, NOT_GIVEN)
        ):
            return [ArgumentProblem.unrecognized((*path, name)) for name in kind.unexpected]
        if name == "unevaluatedProperties":
            text = "is not allowed by the schema for other properties"
            return [ArgumentProblem((*path, name), text) for name in kind.unexpected]
        if (
            name == "falseSchema"
            and last == "items"
            and path
            and type(path[-1]) is int
            and (len(schema_path) < 2 or schema_path[-2] not in _NAMES)
        ):
            # `items: false`: one problem at the list, its first refused item's
            # index being how many items the list may have
            key = (path[:-1], tuple(schema_path))
            if key in done:
                return []
            done.add(key)
            text = length_reason(maximum=path[-1], items=True)
            return [ArgumentProblem(path[:-1], text, _at(root, path[:-1]))]
        if name == "contains":
            bound = self._keyword(error) if last in ("minContains", "maxContains") else NOT_GIVEN
            text = reason("contains" if bound is NOT_GIVEN else last, bound, _NO_SCHEMA)
            return [ArgumentProblem(path, text, value)]
        if name in ("anyOf", "oneOf"):
            options = self._keyword(error)

            def title(index: int) -> object:
                option = options[index] if isinstance(options, list) else None
                return option.get("title") if isinstance(option, dict) else None

            convert = lambda e: self.convert(e, root, done)  # noqa: E731  # (one use, here)
            return alternatives(path, value, kind.context, _fact, title, convert)
        if name == "propertyNames":
            name = kind.error.instance
            return [
                ArgumentProblem((*path, name), "property name " + problem.reason, name)
                for problem in self.convert(kind.error, root, done)
            ]
        if name == "additionalItems":
            return [ArgumentProblem(path, length_reason(maximum=kind.limit, items=True), value)]
        # a `false` schema, and what no reason has words for
        return [ArgumentProblem(path, reason(name, None, _NO_SCHEMA), received(value, ""))]

    def _required(
        self, error: Any, name: str, path: Path, value: Any, last: Any
    ) -> list[ArgumentProblem]:
        """A missing name; for ``dependentRequired``, with each name that asks for it."""
        if name in value:  # (0.61 reports a sent name that additionalProperties refuses)
            return []
        needs = self._keyword(error) if last in ("dependentRequired", "dependencies") else None
        found = [
            ArgumentProblem.missing((*path, name), f'{REQUIRED} when "{other}" is present')
            for other, wanted in (needs.items() if isinstance(needs, dict) else ())
            if other in value and isinstance(wanted, list) and name in wanted
        ]
        return found or [ArgumentProblem.missing((*path, name))]
