"""The jsonschema-rs engine: it decides a call, and a rejected call's errors are read once.

``jsonschema-rs`` compiles the schema once; a call is its ``is_valid``, and
only a rejected call is read again, as ``iter_errors``: each error says where
the value is (``instance_path``), which keyword failed (its ``kind``, whose
attributes hold the keyword's value) and where that keyword is in the schema
(``schema_path``, read for the few reasons that need more than the kind says).
Patterns run in the library's linear-time engine (``RegexOptions``: no
backtracking, so no value can keep a search busy); a schema whose patterns need
backtracking is left to the pure engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from toolparse import NOT_GIVEN, ArgumentProblem, Ok, ParseResult, invalid_arguments
from toolparse.adapter import REQUIRED, length_reason

from ._defaults import Plan, apply
from ._errors import KEPT, alternatives, ordered, reason, received
from ._schema import Definition

__all__ = ["RsUnavailable", "rs_parser", "rs_validator"]

Path = tuple[str | int, ...]

#: the deepest value handed to jsonschema-rs under a recursive schema: it
#: follows one down a value with no bound on its stack (a mapping 20,000
#: deep crashed it; worker threads have smaller stacks)
MAX_DEPTH = 500

#: what jsonschema-rs raises for a value that is not JSON data (a ``bytes``,
#: a name that is not a string, a mapping that is not a ``dict``)
_NOT_JSON = (ValueError, TypeError, OverflowError)

#: keywords whose values are data, never subschemas (a "format" key there is a value)
_DATA_KEYWORDS = frozenset(("const", "default", "enum", "examples"))


class RsUnavailable(Exception):
    """``jsonschema-rs`` is missing, too old, or cannot take the schema."""


def _refuse(uri: str) -> NoReturn:
    # every reference was checked at definition to stay inside the schema;
    # should one still need fetching, refuse rather than touch the network
    raise ValueError(f"toolparse never fetches schemas: {uri}")


def rs_validator(definition: Definition, unchecked_formats: frozenset[str]) -> Any:
    """``jsonschema-rs``'s validator for ``definition``; :class:`RsUnavailable` when there is none.

    ``unchecked_formats``: the formats the pure engine does not check, taken
    out of the schema it compiles, so that installing ``jsonschema-rs`` never
    makes a format start being checked.
    """
    try:
        import jsonschema_rs
    except ImportError as exc:
        raise RsUnavailable(
            'jsonschema-rs is not installed; pip install "toolparse-jsonschema[fast]"'
        ) from exc
    from importlib.metadata import version

    found = version("jsonschema-rs")
    if tuple(int(part) for part in found.split(".")[:2]) < (0, 43):
        raise RsUnavailable(f"jsonschema-rs {found} is too old for toolparse (0.43 or later)")
    try:
        schema = _without_formats(definition.schema, unchecked_formats)
        return jsonschema_rs.validator_for(
            schema,
            validate_formats=True,
            retriever=_refuse,
            pattern_options=jsonschema_rs.RegexOptions(),
        )
    except Exception as exc:  # several kinds, for a schema it cannot take (or one too deep)
        raise RsUnavailable(f"jsonschema-rs cannot compile the schema: {exc}") from exc


def _without_formats(node: Any, off: frozenset[str]) -> Any:
    """A copy of the schema ``node`` without the ``format`` keywords named in ``off``."""
    if isinstance(node, dict):
        return {
            key: value if key in _DATA_KEYWORDS else _without_formats(value, off)
            for key, value in node.items()
            # only a string ``format`` is a keyword (a property may be called "format")
            if not (key == "format" and isinstance(value, str) and value in off)
        }
    if isinstance(node, list):
        return [_without_formats(value, off) for value in node]
    return node


def rs_parser(
    definition: Definition,
    validator: Any,
    defaults: Plan | None,
    accepted: tuple[str, ...],
    *,
    recursive: bool,
) -> Callable[[dict[str, Any]], ParseResult]:
    """The parser of ``definition`` on ``validator`` (see :func:`rs_validator`).

    ``recursive``: the schema's references lead back into it, so a value
    deeper than :data:`MAX_DEPTH` is refused as nested too deeply before
    ``jsonschema-rs`` sees it.
    """
    is_valid = validator.is_valid
    explain = _Explainer(definition, validator, accepted).explain

    def accept(arguments: dict[str, Any]) -> ParseResult:
        return Ok(arguments if defaults is None else apply(defaults, arguments))

    def rejected(arguments: dict[str, Any]) -> ParseResult:
        # a value that is not JSON data: its plain JSON copy is what is checked
        plain, problems = _plain(arguments)
        if problems:
            return invalid_arguments(problems, arguments=arguments, accepted=accepted)
        return accept(arguments) if is_valid(plain) else explain(arguments, plain)

    if defaults is None and not recursive:
        # the commonest case, on every call: jsonschema-rs's own verdict, and
        # a valid call handed on as it is
        def parse(arguments: dict[str, Any]) -> ParseResult:
            try:
                if is_valid(arguments):
                    return Ok(arguments)
            except _NOT_JSON:
                return rejected(arguments)
            return explain(arguments, arguments)

        return parse

    def parse_any(arguments: dict[str, Any]) -> ParseResult:
        if recursive and _deeper(arguments, MAX_DEPTH):
            # the core words this as "nested too deeply"
            raise RecursionError("the arguments are nested too deeply for jsonschema-rs")
        try:
            if is_valid(arguments):
                return accept(arguments)
        except _NOT_JSON:
            return rejected(arguments)
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


def _plain(value: Any, path: Path = ()) -> tuple[Any, list[ArgumentProblem]]:
    """``value`` as plain JSON data, and a problem for each part that is none."""
    if isinstance(value, str):
        return str.__str__(value), []
    if isinstance(value, (bool, int, float)) or value is None:
        return value, []
    if len(path) > MAX_DEPTH:
        raise RecursionError("the arguments are nested too deeply")
    problems: list[ArgumentProblem] = []
    out: Any
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if isinstance(key, str):
                out[str.__str__(key)], found = _plain(item, (*path, key))
                problems += found
            else:  # never a declared name
                problems.append(ArgumentProblem.unrecognized((*path, str(key))))
        return out, problems
    if isinstance(value, (list, tuple)):
        out = []
        for index, item in enumerate(value):
            plain, found = _plain(item, (*path, index))
            out.append(plain)
            problems += found
        return out, problems
    return None, [ArgumentProblem(path, f"must be JSON data, not {type(value).__name__}")]


def _at(root: Any, path: Path) -> Any:
    """The value at ``path`` in ``root``."""
    for part in path:
        root = root[part]
    return root


def _fact(error: Any) -> tuple[str, Path, Any]:
    kind = error.kind
    return kind.name, tuple(error.instance_path), getattr(kind, "types", None)


#: the kinds whose reason their attribute gives: (kind, keyword, attribute)
_PLAIN_KINDS = (
    ("Type", "type", "types"),
    ("Enum", "enum", "options"),
    ("Constant", "const", "expected_value"),
    ("Minimum", "minimum", "limit"),
    ("Maximum", "maximum", "limit"),
    ("ExclusiveMinimum", "exclusiveMinimum", "limit"),
    ("ExclusiveMaximum", "exclusiveMaximum", "limit"),
    ("MultipleOf", "multipleOf", "multiple_of"),
    ("MinLength", "minLength", "limit"),
    ("MaxLength", "maxLength", "limit"),
    ("Pattern", "pattern", "pattern"),
    ("Format", "format", "format"),
    ("MinItems", "minItems", "limit"),
    ("MaxItems", "maxItems", "limit"),
    ("UniqueItems", "uniqueItems", "name"),
    ("MinProperties", "minProperties", "limit"),
    ("MaxProperties", "maxProperties", "limit"),
    ("Not", "not", "schema"),
)
#: the subschema a reason from a kind needs: none (draft 4's flags come as their own kinds)
_NO_SCHEMA: Mapping[str, Any] = {}
#: keys under which a key named "items" is a name, not the keyword
_NAMES = frozenset(("properties", "patternProperties", "$defs", "definitions"))


class _Explainer:
    """A rejected call's problems, from ``jsonschema-rs``'s errors."""

    __slots__ = ("accepted", "iter_errors", "kinds", "resolver", "schema", "words")

    def __init__(self, definition: Definition, validator: Any, accepted: tuple[str, ...]) -> None:
        import jsonschema_rs

        self.iter_errors = validator.iter_errors
        self.schema = definition.schema
        self.resolver = definition.registry.resolver(base_uri=definition.base_uri)
        self.accepted = accepted
        self.kinds = kinds = jsonschema_rs.ValidationErrorKind
        self.words: dict[type, tuple[str, str]] = {
            getattr(kinds, kind): (keyword, attribute) for kind, keyword, attribute in _PLAIN_KINDS
        }

    def explain(self, arguments: dict[str, Any], checked: Any) -> ParseResult:
        """The ``Error`` for ``arguments`` (``checked``: what was validated, itself or its plain copy)."""
        found: list[ArgumentProblem] = []
        first = None
        more = 0
        done: set[tuple[Any, ...]] = set()
        names = (self.kinds.AdditionalProperties, self.kinds.UnevaluatedProperties)
        for error in self.iter_errors(checked):
            if first is None:
                first = error
            if len(found) >= KEPT:  # only counting now
                kind = error.kind
                more += len(kind.unexpected) if type(kind) in names else 1
                continue
            converted = self.convert(error, checked, done)
            room = KEPT - len(found)
            if len(converted) > room:
                more += len(converted) - room
                converted = converted[:room]
            found += converted
        if not found:
            found = [ArgumentProblem((), "does not match the schema")]
        return invalid_arguments(
            ordered(found), arguments=arguments, accepted=self.accepted, cause=first, more=more
        )

    def convert(
        self, error: Any, root: Any, done: set[tuple[Any, ...]] | None = None
    ) -> list[ArgumentProblem]:
        """One error's problems (``done``: the lists an ``items: false`` already spoke for)."""
        kind = error.kind
        path: Path = tuple(error.instance_path)
        words = self.words.get(type(kind))
        if words is not None:  # the commonest: the kind says it all
            keyword, attribute = words
            value = getattr(kind, attribute)
            if attribute == "types" and len(value) > 1:
                # the library sorts a list of types: the reason names them as written
                written = self._keyword(error)
                value = written if isinstance(written, list) else value
            text = reason(keyword, value, _NO_SCHEMA)
            return [ArgumentProblem(path, text, received(_at(root, path), keyword))]
        return self._special(error, kind, path, root, done)

    def _keyword(self, error: Any) -> Any:
        """The value of the keyword that failed, from the schema (``NOT_GIVEN``: not found)."""
        node: Any = self.schema
        try:
            # under an $id the place is that resource's (older releases give no location)
            location = getattr(error, "absolute_keyword_location", None)
            if location is not None:
                node = self.resolver.lookup(location.partition("#")[0]).contents
            for part in error.schema_path:
                node = node[part]
        except Exception:  # a place the schema does not hold, as written
            return NOT_GIVEN
        return node

    def _special(
        # (one branch per kind of error, as the library names them)
        self,
        error: Any,
        kind: Any,
        path: Path,
        root: Any,
        done: set[tuple[Any, ...]] | None,
    ) -> list[ArgumentProblem]:
        kinds, cls, schema_path = self.kinds, type(kind), error.schema_path
        last = schema_path[-1] if schema_path else ""
        if cls is kinds.Required:
            return self._required(error, kind.property, path, root, last)
        if cls is kinds.AdditionalProperties:
            return [ArgumentProblem.unrecognized((*path, name)) for name in kind.unexpected]
        if cls is kinds.UnevaluatedProperties:
            if self._keyword(error) in (False, NOT_GIVEN):
                return [ArgumentProblem.unrecognized((*path, name)) for name in kind.unexpected]
            text = "is not allowed by the schema for other properties"
            return [ArgumentProblem((*path, name), text) for name in kind.unexpected]
        if cls is kinds.FalseSchema:
            if (
                last == "items"
                and path
                and type(path[-1]) is int
                and (len(schema_path) < 2 or schema_path[-2] not in _NAMES)
            ):
                return self._no_more_items(path, schema_path, root, done)
            return [ArgumentProblem(path, "is not allowed here", received(_at(root, path), ""))]
        if cls is kinds.Contains:
            value = self._keyword(error) if last in ("minContains", "maxContains") else NOT_GIVEN
            keyword = "contains" if value is NOT_GIVEN else last
            return [ArgumentProblem(path, reason(keyword, value, _NO_SCHEMA), _at(root, path))]
        if cls in (kinds.AnyOf, kinds.OneOfNotValid, kinds.OneOfMultipleValid):
            options = self._keyword(error)

            def title(index: int) -> object:
                option = options[index] if isinstance(options, list) else None
                return option.get("title") if isinstance(option, dict) else None

            return alternatives(
                path, _at(root, path), kind.context, _fact, title, lambda e: self.convert(e, root)
            )
        if cls is kinds.PropertyNames:
            name = kind.error.instance
            return [
                ArgumentProblem((*path, name), "property name " + problem.reason, name)
                for problem in self.convert(kind.error, root)
            ]
        if cls is kinds.AdditionalItems:
            text = length_reason(maximum=kind.limit, items=True)
            return [ArgumentProblem(path, text, _at(root, path))]
        keyword = kind.name  # unevaluatedItems, and what no reason has words for
        return [
            ArgumentProblem(
                path, reason(keyword, None, _NO_SCHEMA), received(_at(root, path), keyword)
            )
        ]

    def _required(
        self, error: Any, name: str, path: Path, root: Any, last: Any
    ) -> list[ArgumentProblem]:
        """A missing name; for ``dependentRequired``, with the names that ask for it."""
        value = _at(root, path)
        if name in value:
            # (jsonschema-rs 0.61 reports a sent name that additionalProperties refuses)
            return []
        if last in ("dependentRequired", "dependencies"):
            needs = self._keyword(error)
            found = [
                ArgumentProblem.missing((*path, name), f'{REQUIRED} when "{other}" is present')
                for other, wanted in (needs.items() if isinstance(needs, dict) else ())
                if other in value and isinstance(wanted, list) and name in wanted
            ]
            if found:
                return found
        return [ArgumentProblem.missing((*path, name))]

    def _no_more_items(
        self, path: Path, schema_path: Any, root: Any, done: set[tuple[Any, ...]] | None
    ) -> list[ArgumentProblem]:
        """``items: false``: one problem at the list, however many items it refused.

        Its first refused item's index is how many items the list may have.
        """
        key = (path[:-1], tuple(schema_path))
        if done is not None:
            if key in done:
                return []
            done.add(key)
        text = length_reason(maximum=path[-1], items=True)
        return [ArgumentProblem(path[:-1], text, _at(root, path[:-1]))]
