"""One voice: the same wrong call reads the same line whichever adapter found it.

Each :class:`OneVoice` is one JSON-level mistake (a wrong type, a value of
neither of two types, a value not among the choices, out of range, too short
or too long, too few items, not matching a pattern, not a date, a nested name
left out) made in the one required property ``value`` of a tool, and the line
the model must read for it, worded by the adapter SDK's vocabulary functions.
An adapter's fixture declares ``value`` as the check's
:attr:`~OneVoice.schema` says in its own library (where the library can say
it); the kit sends :attr:`~OneVoice.arguments` and compares the whole message.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..adapter import (
    REQUIRED,
    format_reason,
    length_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
    type_reason,
)
from ..messages import invalid, path_text, value_text

__all__ = ["ONE_VOICE", "OneVoice", "one_voice_message"]

#: the nested object of the "object" and "nested_required" checks: one required string
_NAMED = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


@dataclass(frozen=True)
class OneVoice:
    """One wrong call, and the line every adapter answers it with.

    :param key: the check's name (``"integer"``, ``"minimum"``, ``"pattern"``, ...).
    :param schema: the JSON Schema of the tool's one required property,
        ``value``, that the source declares.
    :param wrong: what the model sends: the value of ``value``.
    :param reason: the reason the line gives, in the shared words.
    :param right: a value the declaration takes (the source must accept it).
    :param path: where the line says the problem is (``("value",)`` unless
        the mistake is inside it).
    :param echoed: whether the line echoes the value received (not for a
        name left out).
    """

    key: str
    schema: Mapping[str, Any]
    wrong: Any
    reason: str
    right: Any
    path: tuple[str | int, ...] = ("value",)
    echoed: bool = field(default=True)

    @property
    def arguments(self) -> dict[str, Any]:
        """The arguments of the wrong call."""
        return {"value": self.wrong}

    @property
    def line(self) -> str:
        """The one problem line the message must hold."""
        text = f"{path_text(self.path)}: {self.reason}"
        return f"{text} (received {value_text(self.wrong)})" if self.echoed else text

    def json_schema(self) -> dict[str, Any]:
        """The tool's whole object schema: ``value``, required, declared as ``schema``."""
        return {
            "type": "object",
            "properties": {"value": copy.deepcopy(dict(self.schema))},  # the caller's to change
            "required": ["value"],
        }


def _typed(
    key: str, kind: str, wrong: Any, right: Any, reason: str = "", **keywords: Any
) -> OneVoice:
    """A check on a ``value`` of JSON type ``kind`` with ``keywords``: by default, a wrong type."""
    return OneVoice(key, {"type": kind, **keywords}, wrong, reason or type_reason(kind), right)


#: every check, in the order the kit runs them; in each a wrong value no
#: library takes for the declaration (lax ones included)
ONE_VOICE: tuple[OneVoice, ...] = (
    _typed("string", "string", 42, "x"),
    _typed("integer", "integer", "lots", 3),
    _typed("number", "number", "lots", 2.5),
    _typed("boolean", "boolean", "maybe", True),
    OneVoice("object", _NAMED, "lots", type_reason("object"), {"name": "x"}),
    OneVoice("union", {"type": ["integer", "string"]}, [1], type_reason("integer", "string"), "x"),
    _typed("list", "array", "lots", [1, 2], items={"type": "integer"}),
    _typed("enum", "string", "c", "a", one_of_reason(["a", "b"]), enum=["a", "b"]),
    _typed("minimum", "integer", 0, 1, range_reason(minimum=1), minimum=1),
    _typed("maximum", "integer", 51, 50, range_reason(maximum=50), maximum=50),
    _typed("min_length", "string", "ab", "abc", length_reason(minimum=3), minLength=3),
    _typed("max_length", "string", "abcdefg", "abcde", length_reason(maximum=5), maxLength=5),
    _typed("pattern", "string", "abc", "ABC", pattern_reason("^[A-Z]+$"), pattern="^[A-Z]+$"),
    _typed(
        "min_items",
        "array",
        [1],
        [1, 2],
        length_reason(minimum=2, items=True),
        items={"type": "integer"},
        minItems=2,
    ),
    _typed("date", "string", "soon", "2024-01-31", format_reason("date"), format="date"),
    OneVoice(
        "nested_required", _NAMED, {}, REQUIRED, {"name": "x"}, ("value", "name"), echoed=False
    ),
)


def one_voice_message(check: OneVoice) -> str:
    """The whole message the wrong call of ``check`` gets, under every adapter."""
    return invalid([check.line], (), {}, ())
