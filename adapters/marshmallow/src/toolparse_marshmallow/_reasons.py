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

import functools
import weakref
from collections.abc import Callable, Mapping
from typing import Any, Final

from marshmallow import Schema, fields

from toolparse.adapter import FORMAT_WORDS, JSON_TYPES, format_reason, one_of_reason, type_reason

from ._checks import Check, Explain, Path
from ._checks import checks as validator_checks

__all__ = ["BY_TYPE", "REQUIRED_TEXT", "Reasons", "object_reasons", "reasons_for"]

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

    __slots__ = ("checks", "fixed", "shared", "single")

    def __init__(
        self,
        fixed: dict[str, Explain],
        checks: tuple[Check, ...],
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
        #: what a text means when it is the field's only failure (the common
        #: case, read with one lookup): what the error walk works out for a
        #: text alone, worked out once; a text not here is kept as written
        self.single: dict[str, Explain | None] = {}
        for text in (*fixed, *(said for said, _ in checks if said is not None)):
            if text not in self.single:
                self.single[text] = self._alone(text)

    def _alone(self, text: str) -> Explain | None:
        explain = self.fixed.get(text)
        if explain is None and text not in self.shared:
            # the first validator that raises it (a shared text: none can say)
            explain = next((how for said, how in self.checks if said == text), None)
        return explain


def _json_kind(value: Any) -> str | None:
    kind = JSON_TYPES.get(type(value))
    if kind is not None:
        return kind
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return None


#: the meanings that depend on the JSON type of the value alone (a wrong type's
#: words): the error tables work them out per type at definition
BY_TYPE: weakref.WeakSet[Callable[..., Any]] = weakref.WeakSet()


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

    BY_TYPE.add(explain)
    return explain


#: field class -> its defaults (field classes are few: they are declared, not made per schema)
_DEFAULTS: dict[type, dict[str, str]] = {}


def _own_defaults(kind: type) -> dict[str, str]:
    """The default error texts marshmallow's own classes give a field class (those with words)."""
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
    for key in _KEPT_KEYS:
        found.pop(key, None)
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


def _filled(template: str, words: Mapping[str, Any]) -> str | None:
    try:
        return template.format_map(words)
    except (KeyError, IndexError, ValueError, AttributeError):
        return None  # a template that needs the value itself: it cannot be known


@functools.lru_cache(maxsize=256)
def _typed_plain(types: tuple[str, ...], fmt: Any) -> Callable[[Path, Any], str | None] | None:
    # fields of one type and format (most of them) share their explanation
    return _typed(types, fmt, None)


def _field_texts(field: Any, own: Mapping[str, Any]) -> dict[str, Explain]:
    kind = own.get("type")
    types = (kind,) if isinstance(kind, str) else tuple(k for k in kind or () if k != "null")
    enum = own.get("enum")
    fmt = own.get("format")
    if enum is None and (fmt is None or isinstance(fmt, str)):
        typed = _typed_plain(types, fmt)
    else:
        typed = _typed(types, fmt, enum)
    out: dict[str, Explain] = {}
    words: _FieldWords | None = None
    own_messages = field.error_messages
    for key, template in _own_defaults(type(field)).items():
        if own_messages.get(key) != template:
            continue
        if "{" in template:
            words = words or _FieldWords(field)
            text = _filled(template, words)
            if text is None:
                continue
        else:
            text = template
        if key == "unknown":  # an Enum field's member that does not exist
            if isinstance(enum, list):
                out[text] = one_of_reason(enum)
        elif typed is not None:
            out[text] = typed
    return out


def reasons_for(field: fields.Field[Any], own: Mapping[str, Any]) -> Reasons | None:
    """What ``field``'s failure texts mean; ``own`` is its JSON Schema before validators."""
    fixed = _field_texts(field, own)
    checks = validator_checks(field)
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
