"""Plain words for one failed JSON Schema keyword, from the SDK's vocabulary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolparse.adapter import (
    format_reason,
    length_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
    type_reason,
)
from toolparse.messages import value_text

__all__ = ["place_reason", "reason"]

#: the formats the shared vocabulary has no word for (the shared ones come from
#: ``format_reason``)
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


def _json(value: Any, limit: int = 60) -> str:
    # a value quoted in a reason reads like every echoed value
    return value_text(value, limit)


def _number(value: Any) -> str:
    return _json(value, 40)


def _items(count: Any) -> str:
    return f"{_number(count)} item" + ("" if count == 1 else "s")


def reason(keyword: Any, value: Any, schema: Mapping[str, Any]) -> str:
    """Plain words for one failed keyword."""
    if keyword == "type":
        return type_reason(*(value if isinstance(value, list) else [value]))
    if keyword == "enum":
        return one_of_reason(value) if isinstance(value, list) and value else "must be one of: "
    if keyword == "const":
        return one_of_reason([value])
    if keyword == "minimum":
        if schema.get("exclusiveMinimum") is True:  # draft 4
            return range_reason(exclusive_minimum=value)
        return range_reason(minimum=value)
    if keyword == "maximum":
        if schema.get("exclusiveMaximum") is True:  # draft 4
            return range_reason(exclusive_maximum=value)
        return range_reason(maximum=value)
    if keyword == "exclusiveMinimum":
        return range_reason(exclusive_minimum=value)
    if keyword == "exclusiveMaximum":
        return range_reason(exclusive_maximum=value)
    if keyword == "multipleOf":
        return f"must be a multiple of {_number(value)}"
    if keyword == "minLength":
        return length_reason(minimum=value)
    if keyword == "maxLength":
        return length_reason(maximum=value)
    if keyword == "pattern":
        return pattern_reason(str(value))
    if keyword == "format":
        words = _FORMAT_WORDS.get(value)
        return format_reason(str(value)) if words is None else "must be " + words
    if keyword == "minItems":
        return length_reason(minimum=value, items=True)
    if keyword == "maxItems":
        return length_reason(maximum=value, items=True)
    if keyword == "uniqueItems":
        return "must not contain the same item twice"
    if keyword == "contains":
        return 'must contain an item that matches the "contains" schema'
    if keyword == "minContains":
        return f'must contain at least {_items(value)} matching the "contains" schema'
    if keyword == "maxContains":
        return f'must contain at most {_items(value)} matching the "contains" schema'
    if keyword == "minProperties":
        return f"must have at least {_number(value)} propert{'y' if value == 1 else 'ies'}"
    if keyword == "maxProperties":
        return f"must have at most {_number(value)} propert{'y' if value == 1 else 'ies'}"
    if keyword in ("items", "additionalItems") and value is False:
        prefix = schema.get("prefixItems") if keyword == "items" else schema.get("items")
        return length_reason(maximum=len(prefix) if isinstance(prefix, list) else 0, items=True)
    if keyword == "unevaluatedItems":
        return "has more items than the schema allows"
    if keyword == "not":
        if value == {}:
            # a `false` schema, rewritten (see without_false_subschemas)
            return "is not allowed here"
        return f"must not match the schema {_json(value)}"
    if keyword is None:
        # a `false` schema: nothing is allowed here
        return "is not allowed here"
    return f'fails the "{keyword}" rule of the schema'


#: reasons already worded, per schema place: (id of the place's schema,
#: keyword) -> (that schema, the keyword's value, the reason). The entry holds
#: both, so the ids name no other objects while it is kept; a rejected call
#: mostly fails at places that failed before.
_REASONS: dict[tuple[int, Any], tuple[Any, Any, str]] = {}
_REMEMBERED_REASONS = 1024


def place_reason(keyword: Any, value: Any, schema: Mapping[str, Any]) -> str:
    """:func:`reason`, remembered for the schema place it came from."""
    if not schema:  # no place to remember it by (a `false` schema's stand-in)
        return reason(keyword, value, schema)
    key = (id(schema), keyword)
    known = _REASONS.get(key)
    if known is not None and known[0] is schema and known[1] is value:
        return known[2]
    text = reason(keyword, value, schema)
    if len(_REASONS) >= _REMEMBERED_REASONS:
        _REASONS.clear()
    _REASONS[key] = (schema, value, text)
    return text
