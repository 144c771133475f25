"""The words for a failed JSON Schema keyword, and the problem rules both engines share.

Each engine words every failed keyword with :func:`reason`, made of the SDK's
shared vocabulary, so the same mistake reads the same on either; the value goes
in the problem's ``received`` slot (the libraries' own messages embed the whole
instance, noise for a model that must fix one value).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import (
    MAX_PROBLEMS,
    TYPE_WORDS,
    format_reason,
    length_reason,
    multiple_reason,
    none_of_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
    type_reason,
)
from toolparse.messages import value_text

__all__ = ["KEPT", "WORDS", "alternatives", "ordered", "reason", "received"]

Path = tuple[str | int, ...]
E = TypeVar("E")

#: the problems built for one call at most (the SDK's bound); the rest are counted
KEPT = MAX_PROBLEMS

#: the formats the shared vocabulary has no words for
_FORMAT_WORDS = {
    "idn-email": "an email address",
    "hostname": "a host name",
    "idn-hostname": "a host name",
    "uri-reference": "a URI reference",
    "iri": "an absolute IRI",
    "iri-reference": "an IRI reference",
    "uri-template": "a URI template",
    "json-pointer": 'a JSON Pointer like "/a/0"',
    "relative-json-pointer": "a relative JSON Pointer",
    "regex": "a valid regular expression",
}

#: keywords whose reason is worth the echo of a whole object
_ECHO_OBJECTS = frozenset({"type", "enum", "const"})


def _count(value: Any, one: str, many: str) -> str:
    return f"{value_text(value)} {one if value == 1 else many}"


def _contains(bound: str, value: Any) -> str:
    return f'must contain {bound} {_count(value, "item", "items")} matching the "contains" schema'


def _range(keyword: str, value: Any, schema: Mapping[str, Any]) -> str:
    # draft 4 says "exclusive" with a flag beside the bound
    exclusive = schema.get("exclusiveM" + keyword[1:]) is True
    return range_reason(**{("exclusive_" if exclusive else "") + keyword: value})


def _not_reason(schema: Any) -> str:
    # in words, never the schema's JSON: the model reads "must not be null", not a schema
    if isinstance(schema, Mapping) and len(schema) == 1:
        ((keyword, value),) = schema.items()
        if keyword == "type" and isinstance(value, (str, list)):
            kinds = [value] if isinstance(value, str) else value
            return "must not" + type_reason(*kinds)[len("must") :]
        if keyword in ("const", "enum"):
            values = [value] if keyword == "const" else value
            if isinstance(values, list) and values:
                return none_of_reason(values)
    return "is not allowed here" if schema == {} else "is a value this parameter does not allow"


#: each keyword's words: ``words(value, the subschema holding it)``
_WORDS: dict[Any, Callable[[Any, Mapping[str, Any]], str]] = {
    "type": lambda v, s: type_reason(*(v if isinstance(v, list) else [v])),
    "enum": lambda v, s: one_of_reason(v) if isinstance(v, list) and v else "must be one of: ",
    "const": lambda v, s: one_of_reason([v]),
    "minimum": lambda v, s: _range("minimum", v, s),
    "maximum": lambda v, s: _range("maximum", v, s),
    "exclusiveMinimum": lambda v, s: range_reason(exclusive_minimum=v),
    "exclusiveMaximum": lambda v, s: range_reason(exclusive_maximum=v),
    "multipleOf": lambda v, s: multiple_reason(v),
    "minLength": lambda v, s: length_reason(minimum=v),
    "maxLength": lambda v, s: length_reason(maximum=v),
    "pattern": lambda v, s: pattern_reason(str(v)),
    "format": lambda v, s: (
        "must be " + _FORMAT_WORDS[v] if v in _FORMAT_WORDS else format_reason(str(v))
    ),
    "minItems": lambda v, s: length_reason(minimum=v, items=True),
    "maxItems": lambda v, s: length_reason(maximum=v, items=True),
    "uniqueItems": lambda v, s: "must not contain the same item twice",
    "contains": lambda v, s: 'must contain an item that matches the "contains" schema',
    "minContains": lambda v, s: _contains("at least", v),
    "maxContains": lambda v, s: _contains("at most", v),
    "minProperties": lambda v, s: f"must have at least {_count(v, 'property', 'properties')}",
    "maxProperties": lambda v, s: f"must have at most {_count(v, 'property', 'properties')}",
    "unevaluatedItems": lambda v, s: "has more items than the schema allows",
    # `not: {}` is a `false` subschema as the pure engine rewrites it
    "not": lambda v, s: _not_reason(v),
    None: lambda v, s: "is not allowed here",  # a `false` schema (the pure engine's name)
    "falseSchema": lambda v, s: "is not allowed here",
}


#: the keywords :func:`reason` has words for (others fail "the rule of the schema"):
#: ``WORDS[keyword](value, schema)`` (``items: false`` aside)
WORDS: Mapping[Any, Callable[[Any, Mapping[str, Any]], str]] = _WORDS


def reason(keyword: Any, value: Any, schema: Mapping[str, Any]) -> str:
    """Plain words for one failed keyword, from its value (and the subschema holding it)."""
    if keyword in ("items", "additionalItems") and value is False:
        prefix = schema.get("prefixItems" if keyword == "items" else "items")
        return length_reason(maximum=len(prefix) if isinstance(prefix, list) else 0, items=True)
    words = _WORDS.get(keyword)
    return f'fails the "{keyword}" rule of the schema' if words is None else words(value, schema)


def received(value: Any, keyword: str) -> Any:
    """What to echo for ``value``: not a whole object, save for a reason about its type."""
    if type(value) in _NO_OBJECTS or keyword in _ECHO_OBJECTS or not isinstance(value, Mapping):
        return value
    return NOT_GIVEN


#: the types JSON decodes to that are never a mapping (spares the ABC check)
_NO_OBJECTS = frozenset((str, int, float, bool, type(None), list))


def ordered(found: list[ArgumentProblem], order: Mapping[str, int]) -> list[ArgumentProblem]:
    """``found`` ordered by path: indexes before names, a parent before its children.

    Names go in ``order``, the schema's (see ``Definition.order``). The sort is stable: problems at one path keep the order the engine found them in.
    """
    last = len(order)
    return sorted(
        found,
        key=lambda p: tuple(
            (0, x, "") if isinstance(x, int) else (1, order.get(x, last), str(x)) for x in p.path
        ),
    )


#: one error of an option, as the choice of the closest option reads it:
#: (keyword, where it is, the keyword's value)
Fact = tuple[str, Path, Any]


def alternatives(
    path: Path,
    value: Any,
    options: Sequence[Sequence[E]],
    fact: Callable[[E], Fact],
    title: Callable[[int], object],
    convert: Callable[[E], list[ArgumentProblem]],
) -> list[ArgumentProblem]:
    """A failed ``anyOf``/``oneOf``: one line, then the closest option's problems.

    ``options``: each option's errors (none: the option matched); ``title(i)``
    the title of option ``i`` (or ``None``); ``convert`` an error's problems.
    """
    count = len(options)
    shown = received(value, "anyOf")
    if not any(options):  # a oneOf that more than one option matched
        text = f"matches more than one of the {count} options; it must match exactly one"
        return [ArgumentProblem(path, text, shown)]
    facts = [[fact(error) for error in errors] for errors in options]
    words = _only_types(path, facts)
    if words:
        return [ArgumentProblem(path, "must be " + " or ".join(words), shown)]
    index = min((i for i in range(count) if facts[i]), key=lambda i: _distance(path, facts[i]))
    label = f"option {index + 1}"
    name = title(index)
    if isinstance(name, str):
        label += f' ("{name[:40]}")'
    head = ArgumentProblem(
        path, f"matches none of the {count} options; the closest is {label}", shown
    )
    return [head, *(problem for error in options[index] for problem in convert(error))]


def _distance(path: Path, facts: list[Fact]) -> tuple[int, int, int]:
    """How far an option is from the value (smaller is closer).

    An option whose type or discriminating constant does not match is far
    whatever else; then the fewer problems the closer; ties go to the option
    whose problems lie deeper (it matched more of the value), then to the first.
    """
    mismatch = 0
    for keyword, where, _ in facts:
        if keyword == "type" and where == path:
            mismatch += 2
        elif keyword in ("const", "enum") and len(where) == len(path) + 1 and where[:-1] == path:
            mismatch += 1
    return mismatch, len(facts), -max(len(where) for _, where, _ in facts)


def _only_types(path: Path, facts: list[list[Fact]]) -> list[str]:
    """The type words when every option failed on ``type`` alone, at this very path."""
    words: list[str] = []
    for errors in facts:
        if len(errors) != 1 or errors[0][0] != "type" or errors[0][1] != path:
            return []
        kinds = errors[0][2]
        for kind in kinds if isinstance(kinds, list) else [kinds]:
            word = TYPE_WORDS.get(kind, f'of type "{kind}"')
            if word not in words:
                words.append(word)
    return words
