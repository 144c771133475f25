"""What a field's failure texts mean in the shared words, worked out when a tool is defined.

marshmallow reports a failed field with texts only: the field's own message
for an error key (``"invalid"``, ``"null"``, ...) or a validator's message. The
converter knows every field and its validators, so for each field it works
out once the text each of them raises with marshmallow's default message, and
what it means: by the field's class and error key, and by the validator's type
(``Range``, ``Length``, ``OneOf``, ``Regexp``, ``Email``, ...). The error
reading looks texts up. A text the user wrote (a validator's ``error=``, a
field's ``error_messages``, a validator subclass with messages of its own, a
plain function) has no meaning here and keeps its words.

Nothing runs again to explain a failure but in one case: when a ``Range`` with
both bounds refused a value marshmallow converted (``"0"``, a date), the value
is converted again, without the validators, to tell which bound it crossed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Final

from marshmallow import Schema, fields

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import (
    FORMAT_WORDS,
    JSON_TYPES,
    REQUIRED,
    format_reason,
    one_of_reason,
    type_reason,
)

__all__ = [
    "ECHOED",
    "NO_TEXTS",
    "Meaning",
    "Path",
    "Texts",
    "field_own",
    "level_texts",
    "plain",
    "received",
]

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


def received(value: Any) -> Any:
    """``value`` as a problem echoes it (``NOT_GIVEN``: not echoed)."""
    return value if isinstance(value, ECHOED) else NOT_GIVEN


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
    if kind is not None:
        return kind
    if isinstance(value, Mapping):
        return "object"
    return "array" if isinstance(value, (list, tuple)) else None


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


#: field class -> the default texts marshmallow's own classes give it
_DEFAULTS: dict[type, dict[str, str]] = {}


def _own_defaults(kind: type) -> dict[str, str]:
    found = _DEFAULTS.get(kind)
    if found is None:
        found = {}
        for klass in reversed(kind.__mro__):
            if klass.__module__.partition(".")[0] == "marshmallow":
                messages = vars(klass).get("default_error_messages")
                if isinstance(messages, dict):
                    found.update((k, v) for k, v in messages.items() if isinstance(v, str))
        for key in _KEPT_KEYS:
            found.pop(key, None)
        _DEFAULTS[kind] = found
    return found


def field_own(field: fields.Field[Any], own: Mapping[str, Any]) -> dict[str, Meaning]:
    """The field's own default texts (wrong type, format, null, an unknown member)."""
    kind = own.get("type")
    types = (kind,) if isinstance(kind, str) else tuple(k for k in kind or () if k != "null")
    enum = own.get("enum")
    typed = _typed(types, own.get("format"), enum)
    # the names marshmallow fills a field's templates with (the received value
    # is not known: a template that needs it cannot be matched)
    words = {
        name: value
        for name, value in (
            ("obj_type", getattr(field, "OBJ_TYPE", None)),
            ("awareness", getattr(field, "AWARENESS", None)),
            ("choices", getattr(field, "choices_text", None)),
        )
        if value is not None
    }
    out: dict[str, Meaning] = {}
    for key, template in _own_defaults(type(field)).items():
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
