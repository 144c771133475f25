"""What marshmallow's own error texts mean, in the shared words of the adapter SDK.

marshmallow reports a failed field as text only (``"Not a valid integer."``,
``"Must be greater than or equal to 1 and less than or equal to 30."``). The
converter knows every field and its validators, so at definition it works out
the exact text each of them raises *when the message is marshmallow's own*,
and what that text means (:class:`Reasons`); the error walk looks the texts up.
A validator given its own ``error=``, a field's ``error_messages``, a
validator subclass with other messages and a user-written validator raise
other texts, which are kept as written.

Nothing runs again to explain a failure: where a text alone does not say which
bound failed (a ``Range`` or ``Length`` with both), the value received says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from marshmallow import Schema, fields, validate

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import (
    FORMAT_WORDS,
    JSON_TYPES,
    format_reason,
    length_reason,
    none_of_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
    type_reason,
)

from ._keywords import NO_JSON, flatten, json_value, json_values, regexp_pattern

__all__ = ["REQUIRED_TEXT", "Explain", "Path", "Reasons", "object_reasons", "reasons_for"]

Path = tuple[str | int, ...]
#: what one failure text stands for: the reason itself, or a function of where
#: it is and the value received there giving the reason, the problems (at the
#: items of a list), or ``None`` (no shared words fit; the text is kept)
Explain = str | Callable[[Path, Any], "str | list[ArgumentProblem] | None"]

_SCALARS = (str, int, float, bool, type(None))
#: marshmallow's own text for a required field left out
REQUIRED_TEXT: Final = str(fields.Field.default_error_messages["required"])
#: field error keys whose default text no shared words fit (a validator that
#: returned False, a number too large for a float, NaN, dump-only formats, bytes)
_KEPT_KEYS: Final = frozenset(
    {"required", "validator_failed", "too_large", "special", "format", "invalid_utf8"}
)


class Reasons:
    """One field's failure texts and what they mean.

    ``fixed`` holds the field's own texts (wrong type, bad format, null, a
    value not among an ``Enum``'s); ``checks`` holds one entry per validator,
    in the order marshmallow runs them: the text it raises with its default
    message (``None`` when unknown) and how to explain it (``None``: kept).
    Validators report in the order they run, so a text is matched with the
    next validator that raises it.
    """

    __slots__ = ("checks", "fixed", "shared")

    def __init__(
        self,
        fixed: dict[str, Explain],
        checks: tuple[tuple[str | None, Explain | None], ...],
    ) -> None:
        self.fixed = fixed
        self.checks = checks
        #: a text that validators meaning different things raise (two
        #: ``Regexp``) -> how many raise it: only when every one of them
        #: failed does the order say which text is whose
        self.shared: dict[str, int] = {}
        meanings: dict[str, set[Any]] = {}
        for text, explain in checks:
            if text is not None:
                meanings.setdefault(text, set()).add(
                    explain if type(explain) is str else id(explain)
                )
        for text, meant in meanings.items():
            if len(meant) > 1:
                self.shared[text] = sum(1 for said, _ in checks if said == text)


def _received(value: Any) -> Any:
    return value if isinstance(value, _SCALARS) else NOT_GIVEN


def _json_kind(value: Any) -> str | None:
    kind = JSON_TYPES.get(type(value))
    if kind is not None:
        return kind
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return None


def _typed(types: tuple[str, ...], fmt: Any, enum: Any) -> Callable[[Path, Any], str | None] | None:
    """A field's "not a valid ..." text: a wrong JSON type, else its format or choices."""
    wrong_type = type_reason(*types) if types else None
    written = format_reason(fmt) if isinstance(fmt, str) and fmt in FORMAT_WORDS else None
    if written is None and isinstance(enum, list):
        written = one_of_reason(enum)
    if wrong_type is None and written is None:
        return None
    accepted = frozenset(types) | ({"integer"} if "number" in types else frozenset())

    def explain(path: Path, value: Any) -> str | None:
        if wrong_type is not None and _json_kind(value) not in accepted:
            return wrong_type
        if written is not None:
            return written
        # the right JSON type, wrongly written, and no shared words for what
        # the field wants (an IP address, a custom date format): marshmallow's
        return None

    return explain


#: field class -> its defaults (field classes are few: they are declared, not made per schema)
_DEFAULTS: dict[type, dict[str, str]] = {}


def _own_defaults(kind: type) -> dict[str, str]:
    """The default error texts marshmallow's own classes give a field class."""
    found = _DEFAULTS.get(kind)
    if found is not None:
        return found
    found = {}
    for klass in reversed(kind.__mro__):
        if klass.__module__.partition(".")[0] != "marshmallow":
            continue
        messages = klass.__dict__.get("default_error_messages")
        if isinstance(messages, dict):
            found.update({k: v for k, v in messages.items() if isinstance(v, str)})
    _DEFAULTS[kind] = found
    return found


class _FieldWords(dict[str, Any]):
    """The names marshmallow fills a field's message templates with."""

    def __init__(self, field: Any) -> None:
        super().__init__(
            obj_type=getattr(field, "OBJ_TYPE", None),
            awareness=getattr(field, "AWARENESS", None),
            choices=getattr(field, "choices_text", None),
        )

    def __missing__(self, key: str) -> Any:
        raise KeyError(key)


def _filled(template: str, field: Any) -> str | None:
    try:
        return template.format_map(_FieldWords(field))
    except (KeyError, IndexError, ValueError, AttributeError):
        return None  # a template that needs the value itself: it cannot be known


def _field_texts(field: Any, own: Mapping[str, Any]) -> dict[str, Explain]:
    kind = own.get("type")
    types = (kind,) if isinstance(kind, str) else tuple(k for k in kind or () if k != "null")
    typed = _typed(types, own.get("format"), own.get("enum"))
    enum = own.get("enum")
    out: dict[str, Explain] = {}
    for key, template in _own_defaults(type(field)).items():
        if key in _KEPT_KEYS or field.error_messages.get(key) != template:
            continue
        text = _filled(template, field)
        if text is None:
            continue
        if key == "unknown":  # an Enum field's member that does not exist
            if isinstance(enum, list):
                out[text] = one_of_reason(enum)
        elif typed is not None:
            out[text] = typed
    return out


# -- validators ---------------------------------------------------------------------


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


def _own_field(field: Any) -> bool:
    return type(field).__module__.partition(".")[0] == "marshmallow"


def _below(field: Any, v: validate.Range, value: Any) -> bool | None:
    """Whether ``value`` failed ``v``'s lower bound (``None``: cannot tell)."""
    sent = value
    if not _is_number(sent):
        if not _own_field(field):
            return None  # a custom field's conversion is the user's code: not run twice
        try:
            sent = field._deserialize(value, None, None)
        except Exception:
            return None
    try:
        return bool(sent < v.min if getattr(v, "min_inclusive", True) else sent <= v.min)
    except TypeError:
        return None


def _range(field: Any, v: validate.Range) -> tuple[str, Explain] | None:
    if v.error is not None:
        return None
    base = validate.Range
    low_in = getattr(v, "min_inclusive", True)
    high_in = getattr(v, "max_inclusive", True)
    min_op = getattr(base, "message_gte" if low_in else "message_gt", "")
    max_op = getattr(base, "message_lte" if high_in else "message_lt", "")
    low = None if v.min is None else json_value(field, v.min)
    high = None if v.max is None else json_value(field, v.max)
    if low is NO_JSON or high is NO_JSON:
        return None
    low_reason = (
        (range_reason(minimum=low) if low_in else range_reason(exclusive_minimum=low))
        if low is not None
        else None
    )
    high_reason = (
        (range_reason(maximum=high) if high_in else range_reason(exclusive_maximum=high))
        if high is not None
        else None
    )
    if low_reason is not None and high_reason is not None:
        template = str(base.message_all).format(min_op=min_op, max_op=max_op)
    elif low_reason is not None:
        template = str(base.message_min).format(min_op=min_op)
    elif high_reason is not None:
        template = str(base.message_max).format(max_op=max_op)
    else:
        return None
    text = template.format(input="", min=v.min, max=v.max)
    if low_reason is None or high_reason is None:
        return text, (low_reason or high_reason or "")

    def explain(path: Path, value: Any) -> str | None:
        below = _below(field, v, value)
        if below is None:
            return None
        return low_reason if below else high_reason

    return text, explain


def _length(v: validate.Length) -> tuple[str, Explain] | None:
    if v.error is not None:
        return None
    base = validate.Length
    low = v.equal if v.equal is not None else v.min
    high = v.equal if v.equal is not None else v.max
    if v.equal is not None:
        template = base.message_equal
    elif low is not None and high is not None:
        template = base.message_all
    elif low is not None:
        template = base.message_min
    elif high is not None:
        template = base.message_max
    else:
        return None
    text = str(template).format(input="", min=v.min, max=v.max, equal=v.equal)

    def explain(path: Path, value: Any) -> str | None:
        # characters for a string, items for a list; a mapping's size has no
        # shared words
        if isinstance(value, str):
            items = False
        elif isinstance(value, (list, tuple)):
            items = True
        else:
            return None
        if low is not None and (high is None or len(value) < low):
            return length_reason(minimum=low, items=items)
        return length_reason(maximum=high, items=items)

    return text, explain


def _member_check(
    choices: list[Any], reason: str, *, among: bool
) -> Callable[[Path, Any], list[ArgumentProblem] | None]:
    """``ContainsOnly``/``ContainsNoneOf``: a problem at each offending item."""

    def explain(path: Path, value: Any) -> list[ArgumentProblem] | None:
        if not isinstance(value, (list, tuple)):
            return None
        found = [
            ArgumentProblem((*path, i), reason, _received(item))
            for i, item in enumerate(value)
            if _is_member(item, choices) is not among
        ]
        return found or None  # marshmallow converted the items: the text says it

    return explain


def _is_member(item: Any, choices: list[Any]) -> bool:
    return any(item == c and type(item) is type(c) for c in choices)


def _text(template: Any, **names: Any) -> str | None:
    try:
        return str(template).format(input="", **names)
    except (KeyError, IndexError, ValueError):
        return None


def _check(field: Any, v: Any) -> tuple[str | None, Explain | None]:
    """One validator: its default failure text and what it means."""
    if isinstance(v, validate.Range):
        return _range(field, v) or (_default(v), None)
    if isinstance(v, validate.Length):
        return _length(v) or (_default(v), None)
    inner = getattr(field, "inner", None)
    if isinstance(v, validate.ContainsOnly):
        values = json_values(inner, v.choices) if inner is not None else None
        if v.error != validate.ContainsOnly.default_message or values is None:
            return _default(v), None
        text = _text(v.error, choices=v.choices_text, labels=v.labels_text)
        return text, _member_check(values, one_of_reason(values), among=True)
    if isinstance(v, validate.ContainsNoneOf):
        values = json_values(inner, v.iterable) if inner is not None else None
        if v.error != validate.ContainsNoneOf.default_message or values is None:
            return _default(v), None
        text = _text(v.error, values=v.values_text)
        return text, _member_check(values, none_of_reason(values), among=False)
    if isinstance(v, validate.OneOf):
        values = json_values(field, v.choices)
        if v.error != validate.OneOf.default_message or values is None:
            return _default(v), None
        return _text(v.error, choices=v.choices_text, labels=v.labels_text), (one_of_reason(values))
    if isinstance(v, validate.NoneOf):
        values = json_values(field, v.iterable)
        if v.error != validate.NoneOf.default_message or values is None:
            return _default(v), None
        return _text(v.error, values=v.values_text), (none_of_reason(values))
    if isinstance(v, validate.Equal):
        value = json_value(field, v.comparable)
        if v.error != validate.Equal.default_message or value is NO_JSON:
            return _default(v), None
        return _text(v.error, other=v.comparable), (one_of_reason([value]))
    if isinstance(v, validate.Regexp):
        pattern = regexp_pattern(v)
        if v.error != validate.Regexp.default_message or pattern is None:
            return _default(v), None
        return _text(v.error, regex=v.regex.pattern), (pattern_reason(pattern))
    if isinstance(v, validate.Email):
        if v.error != validate.Email.default_message:
            return _default(v), None
        return _text(v.error), (format_reason("email"))
    if isinstance(v, validate.URL):
        if v.error != validate.URL.default_message:
            return _default(v), None
        return _text(v.error), (format_reason("uri-reference" if v.relative else "uri"))
    return _default(v), None


def _default(v: Any) -> str | None:
    """The text of a validator kept as written (so it is not taken for another's)."""
    error = getattr(v, "error", None)
    if isinstance(v, validate.Validator) and isinstance(error, str) and "{" not in error:
        return error
    return None


def _checks(field: Any) -> tuple[tuple[str | None, Explain | None], ...]:
    found: list[Any] = []
    own_length = getattr(field, "validate_length", None)  # a Tuple's own size check
    if isinstance(own_length, validate.Length):
        found.append(own_length)
    found.extend(flatten(field.validators))
    return tuple(_check(field, v) for v in found)


def reasons_for(field: fields.Field[Any], own: Mapping[str, Any]) -> Reasons | None:
    """What ``field``'s failure texts mean; ``own`` is its JSON Schema before validators."""
    fixed = _field_texts(field, own)
    checks = _checks(field)
    if not fixed and all(explain is None for _, explain in checks):
        return None
    return Reasons(fixed, checks)


#: marshmallow's own text for "not an object" at a schema's level
_SCHEMA_TYPE: Final = str(getattr(Schema, "_default_error_messages", {}).get("type", ""))
_OBJECT: Final = _typed(("object",), None, None)


def object_reasons(schema: Schema) -> Reasons | None:
    """The schema-level texts of one object level (``"Invalid input type."``)."""
    text = schema.error_messages.get("type")
    if not _SCHEMA_TYPE or text != _SCHEMA_TYPE or _OBJECT is None:
        return None
    return Reasons({_SCHEMA_TYPE: _OBJECT}, ())
