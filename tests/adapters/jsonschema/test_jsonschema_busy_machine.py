"""A pattern's time limit never rejects a valid value because the machine was busy.

The ``regex`` library's timeout counts wall time. On a loaded machine a search
that needs microseconds can wait longer than that for a core, and time out: a
valid ``"A-1"`` failed ``^[A-Z]-[0-9]+$`` 5 times in 1,600 calls. A search out
of time is tried once more before the value is called not checked in time.
"""

from __future__ import annotations

from typing import Any

import pytest
import regex  # type: ignore[import-untyped]  # no type information

import toolparse as tp
from toolparse_jsonschema import JsonSchema

SCHEMA = {
    "type": "object",
    "properties": {"code": {"type": "string", "pattern": "^[A-Z]-[0-9]+$"}},
    "required": ["code"],
}


class _Busy:
    """A compiled pattern whose first ``waits`` searches time out with no work done."""

    def __init__(self, pattern: Any, waits: int) -> None:
        self.pattern = pattern
        self.waits = waits
        self.searches = 0

    def search(self, text: str, *, timeout: float) -> Any:
        self.searches += 1
        if self.searches <= self.waits:
            raise TimeoutError("regex timeout")  # as the library says it, no CPU spent
        return self.pattern.search(text, timeout=timeout)


def _busy(monkeypatch: pytest.MonkeyPatch, waits: int) -> list[_Busy]:
    made: list[_Busy] = []
    compile_ = regex.compile

    def compiling(source: str, *args: Any, **kwargs: Any) -> _Busy:
        made.append(_Busy(compile_(source, *args, **kwargs), waits))
        return made[-1]

    monkeypatch.setattr(regex, "compile", compiling)
    return made


def test_a_search_that_waited_for_a_core_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    made = _busy(monkeypatch, waits=1)
    fn = tp.Function("t", lambda a: "ok", args_schema=JsonSchema(SCHEMA, fast=False))
    assert fn.execute({"code": "A-1"}) == tp.Ok("ok")
    assert [m.searches for m in made] == [2]


def test_a_search_out_of_time_twice_is_rejected_as_out_of_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _busy(monkeypatch, waits=2)
    fn = tp.Function("t", lambda a: "ok", args_schema=JsonSchema(SCHEMA, fast=False))
    result = fn.execute({"code": "A-1"})
    assert isinstance(result, tp.Error)
    assert "code: could not be checked against the pattern ^[A-Z]-[0-9]+$ in time" in result.message


def test_a_search_that_needs_more_time_is_out_of_time() -> None:
    # a backtracking pattern spends its time twice, then it is out of time
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": r"^(a|aa)+$"}}}
    fn = tp.Function(
        "t", lambda a: "ok", args_schema=JsonSchema(schema, fast=False, pattern_timeout=0.05)
    )
    result = fn.execute({"s": "a" * 34 + "!"})
    assert isinstance(result, tp.Error)
    assert "in time" in result.message
