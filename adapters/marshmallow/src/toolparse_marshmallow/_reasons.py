"""What a field's failure texts mean in the shared words, worked out when a tool is defined.

marshmallow reports a failed field with texts only: the field's own message for
an error key (``"invalid"``, ``"null"``, ...) or a validator's. For every field
the converter works out once the text each raises with marshmallow's default
message and what it means: by the field's class and error key (here), and by the
validator's type (``_validators``). The error reading looks texts up; a text the
user wrote (a field's ``error_messages``, a validator's ``error=``, a plain
function) means nothing here and keeps its words.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Final

from marshmallow import Schema, fields

from toolparse import ArgumentProblem
from toolparse.adapter import (
    FORMAT_WORDS,
    JSON_TYPES,
    REQUIRED,
    format_reason,
    one_of_reason,
    type_reason,
)

__all__ = ["ECHOED", "NO_TEXTS", "Meaning", "Path", "Texts", "field_own", "level_texts", "plain"]

Path = tuple[str | int, ...]
#: what a failure text means: the reason; a function of where it is and the
#: value received there, giving the reason, the problems (at a list's items)
#: or ``None``; ``None``: no shared words fit, the text is kept
Meaning = str | Callable[[Path, Any], "str | list[ArgumentProblem] | None"] | None

#: the received values a problem echoes (an object is not echoed)
ECHOED = (str, int, float, bool, type(None), list, tuple)
#: marshmallow's own text for a required field left out
_REQUIRED_TEXT: Final = str(fields.Field.default_error_messages["required"])
#: field error keys whose default text no shared words fit (a validator that
#: returned False, a number too large for a float, NaN, dump-only formats, bytes)
_KEPT_KEYS: Final = frozenset(
    {"required", "validator_failed", "too_large", "special", "format", "invalid_utf8"}
)


def plain(text: str) -> str:
    """The sentence of a text without its closing period (the line goes on)."""
    text = text.strip()
    return text[:-1] if text.endswith(".") and not text.endswith("..") else text


class Texts:
    """One field's failure texts and what they mean.

    ``single`` maps a text to its meaning. ``alike`` maps a text that several
    validators raise with different meanings (two ``Regexp`` with the default
    message) to one meaning each, in the order marshmallow runs them: only
    when all of them failed does the order say which text is whose.
    ``required`` is the field's text for "left out" (the user's words, if any).
    """

    __slots__ = ("alike", "required", "required_reason", "single")

    def __init__(
        self,
        single: dict[str, Meaning],
        alike: dict[str, tuple[Meaning, ...]] | None = None,
        required: str | None = None,
    ) -> None:
        self.single = single
        self.alike = alike or {}
        self.required = required
        self.required_reason = REQUIRED if required == _REQUIRED_TEXT else plain(required or "")


#: a field whose texts mean nothing in the shared words
NO_TEXTS: Final = Texts({})


@functools.cache
def _schema_type_text() -> object:
    # the default texts of a schema, read from a bare instance (public API)
    return Schema().error_messages.get("type")


def level_texts(schema: Schema) -> Texts:
    """The texts of an object level: ``"Invalid input type."`` is "must be an object"."""
    text = schema.error_messages.get("type")
    if not isinstance(text, str) or text != _schema_type_text():
        return NO_TEXTS
    return Texts({text: _typed(("object",), None, None)})


# -- the field's own checks ------------------------------------------------------------


def _json_kind(value: Any) -> str | None:
    kind = JSON_TYPES.get(type(value))
    if kind is None and isinstance(value, (list, tuple, Mapping)):
        kind = "object" if isinstance(value, Mapping) else "array"
    return kind


def _typed(types: tuple[str, ...], fmt: Any, enum: Any) -> Meaning:
    """A field's "not a valid ..." text: a wrong JSON type, else its format or choices."""
    wrong = type_reason(*types) if types else None
    written = None
    if isinstance(fmt, str) and fmt in FORMAT_WORDS:
        written = format_reason(fmt)
    elif isinstance(enum, list):
        written = one_of_reason(enum)
    if wrong is None and written is None:
        return None
    accepted = frozenset(types) | ({"integer"} if "number" in types else frozenset())

    def meaning(path: Path, value: Any) -> str | None:
        if wrong is not None and _json_kind(value) not in accepted:
            return wrong
        # the right JSON type, wrongly written: its format or choices, and
        # where none is known (an IP address, a custom date format) marshmallow's
        return written

    return meaning


@functools.cache
def _own_defaults(kind: type) -> dict[str, str]:
    """The default texts marshmallow's own classes give a field class (with shared words)."""
    found: dict[str, str] = {}
    for klass in reversed(kind.__mro__):
        if klass.__module__.partition(".")[0] == "marshmallow":
            messages = vars(klass).get("default_error_messages")
            if isinstance(messages, dict):
                found.update((k, v) for k, v in messages.items() if isinstance(v, str))
    return {k: v for k, v in found.items() if k not in _KEPT_KEYS}


def field_own(field: fields.Field[Any], own: Mapping[str, Any]) -> dict[str, Meaning]:
    """The field's own default texts (wrong type, format, null, an unknown member)."""
    kind = own.get("type")
    types = (kind,) if isinstance(kind, str) else tuple(k for k in kind or () if k != "null")
    enum = own.get("enum")
    typed = _typed(types, own.get("format"), enum)
    # the names marshmallow fills a field's templates with (the received value
    # is not known: a template that needs it cannot be matched; a name the field
    # lacks gives a text it never raises)
    words = {
        "obj_type": getattr(field, "OBJ_TYPE", "?"),
        "awareness": getattr(field, "AWARENESS", "?"),
        "choices": getattr(field, "choices_text", "?"),
    }
    out: dict[str, Meaning] = {}
    field_class: Any = type(field)  # (hashable, as every class is)
    for key, template in _own_defaults(field_class).items():
        if field.error_messages.get(key) != template:
            continue  # the user's own words
        try:
            text = template.format_map(words)
        except (KeyError, IndexError, ValueError, AttributeError):
            continue
        if key == "unknown":  # an Enum field's member that does not exist
            out[text] = one_of_reason(enum) if isinstance(enum, list) else None
        else:
            out[text] = typed
    return out
