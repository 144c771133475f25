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
from typing import TYPE_CHECKING, Any

import pytest

from ..adapter import (
    REQUIRED,
    format_reason,
    length_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
    type_reason,
)
from ..contract import Error, Ok
from ..messages import invalid, path_text, value_text

if TYPE_CHECKING:
    from ..function import Function
    from ._case import ConformanceCase

__all__ = ["ONE_VOICE", "ONE_VOICE_BY_KEY", "OneVoice", "OneVoiceChecks", "one_voice_message"]

#: the nested object of the "object" and "nested_required" checks: one required string
_NAMED: dict[str, Any] = {
    "type": "object",
    "properties": {"name": {"type": "string"}},
    "required": ["name"],
}


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


def _typed(kind: str, wrong: Any, right: Any) -> OneVoice:
    return OneVoice(kind, {"type": kind}, wrong, type_reason(kind), right)


#: every check, in the order the kit runs them; in each a wrong value no
#: library takes for the declaration (lax ones included)
ONE_VOICE: tuple[OneVoice, ...] = (
    _typed("string", 42, "x"),
    _typed("integer", "lots", 3),
    _typed("number", "lots", 2.5),
    _typed("boolean", "maybe", True),
    OneVoice("object", _NAMED, "lots", type_reason("object"), {"name": "x"}),
    OneVoice("union", {"type": ["integer", "string"]}, [1], type_reason("integer", "string"), "x"),
    OneVoice(
        "list",
        {"type": "array", "items": {"type": "integer"}},
        "lots",
        type_reason("array"),
        [1, 2],
    ),
    OneVoice("enum", {"type": "string", "enum": ["a", "b"]}, "c", one_of_reason(["a", "b"]), "a"),
    OneVoice("minimum", {"type": "integer", "minimum": 1}, 0, range_reason(minimum=1), 1),
    OneVoice("maximum", {"type": "integer", "maximum": 50}, 51, range_reason(maximum=50), 50),
    OneVoice(
        "min_length", {"type": "string", "minLength": 3}, "ab", length_reason(minimum=3), "abc"
    ),
    OneVoice(
        "max_length",
        {"type": "string", "maxLength": 5},
        "abcdefg",
        length_reason(maximum=5),
        "abcde",
    ),
    OneVoice(
        "pattern",
        {"type": "string", "pattern": "^[A-Z]+$"},
        "abc",
        pattern_reason("^[A-Z]+$"),
        "ABC",
    ),
    OneVoice(
        "min_items",
        {"type": "array", "items": {"type": "integer"}, "minItems": 2},
        [1],
        length_reason(minimum=2, items=True),
        [1, 2],
    ),
    OneVoice(
        "date", {"type": "string", "format": "date"}, "soon", format_reason("date"), "2024-01-31"
    ),
    OneVoice(
        "nested_required", _NAMED, {}, REQUIRED, {"name": "x"}, ("value", "name"), echoed=False
    ),
)

#: the checks by key
ONE_VOICE_BY_KEY: Mapping[str, OneVoice] = {check.key: check for check in ONE_VOICE}


def one_voice_message(check: OneVoice) -> str:
    """The whole message the wrong call of ``check`` gets, under every adapter."""
    return invalid([check.line], (), {}, ())


class OneVoiceChecks:
    """The one-voice check of the conformance kit (a part of ``AdapterConformance``).

    For each :data:`ONE_VOICE` check the case's ``one_voice`` fixture returns
    a source declaring ``value`` (``None``: the library cannot declare it;
    the check is skipped); the wrong call must get exactly
    :func:`one_voice_message`, and the right one must pass. A check the case
    lists in ``one_voice_gaps`` is an expected failure, and a failure once it
    passes (so the entry goes when the adapter is fixed).
    """

    def case(self) -> ConformanceCase:
        raise NotImplementedError

    def tool(self, source: Any = None, body: Any = None, **kwargs: Any) -> Function:
        raise NotImplementedError

    @pytest.mark.parametrize("key", [check.key for check in ONE_VOICE])
    def test_the_same_wrong_call_reads_the_same_line(self, key: str) -> None:
        case = self.case()
        check = ONE_VOICE_BY_KEY[key]
        if case.one_voice is None:
            pytest.skip("the case names no one_voice sources")
        source = case.one_voice(check)
        if source is None:
            pytest.skip(f"the library cannot declare {key!r}")
        gap = case.one_voice_gaps.get(key)
        try:
            self._reads_the_shared_line(check, source)
        except AssertionError:
            if gap is None:
                raise
            pytest.xfail(f"an expected gap: {key!r} still reads {gap!r}")
        if gap is not None:
            pytest.fail(f"{key!r} is listed as a gap but reads the shared words now: remove it")

    def _reads_the_shared_line(self, check: OneVoice, source: Any) -> None:
        fn = self.tool(source)
        assert fn.required_param_names() == ["value"], "the source's one required field: value"
        assert fn.execute({"value": check.right}) == Ok("x"), (check.key, check.right)
        result = fn.execute(check.arguments)
        assert type(result) is Error, (check.key, result)
        assert result.message == one_voice_message(check), (check.key, result.message)
