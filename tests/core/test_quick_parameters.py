"""The quick test of declared values only skips work.

A Function declared with FunctionParams first runs a quick test of the values
(each absent or of the exact type the check keeps, required ones read by
subscript); only a call it does not pass goes to the full check. The same
declaration with the quick test switched off must give the very same outcome
for every call, under every policy, whatever was sent before.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.function import _shared

FP = tp.FunctionParam


def _declaration() -> list[tp.FunctionParam]:
    return [
        FP("city", "string", required=True),
        FP("units", "string", required=True, enum=["celsius", "fahrenheit"]),
        FP("days", "integer", required=True),
        FP("price", "number"),
        FP("daily", "boolean"),
        FP("kind", "string", enum=["a", "b"]),
        FP("tags", "array", item_type="string"),
    ]


def _body(arguments: Any) -> str:
    return repr(sorted(arguments.items(), key=repr))


def _pair(policy: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[tp.Function, tp.Function]:
    quick = tp.Function("weather", _body, parameters=_declaration(), unknown_arguments=policy)
    with monkeypatch.context() as patch:
        patch.setattr(_shared, "_MAX_QUICK", -1)  # no quick test: the check runs every call
        full = tp.Function("weather", _body, parameters=_declaration(), unknown_arguments=policy)
    return quick, full


def _seen(outcome: object) -> tuple[str, Any]:
    """What the model reads of an outcome (an Error's exception is a new object each time)."""
    assert isinstance(outcome, (tp.Ok, tp.Error)), outcome
    return type(outcome).__name__, outcome[0]


_VALID = {
    "city": "Oslo",
    "units": "celsius",
    "days": 3,
    "price": 1.5,
    "daily": True,
    "kind": "a",
    "tags": ["x"],
}
_VALUES = st.sampled_from(
    [None, 0, 3, 1.5, True, False, "", "a", "b", "celsius", "Oslo", [], ["x"], [1], {}]
)
_EXTRA = st.sampled_from(["reasoning", "cty", "unit", "day", "extra_note"])


@st.composite
def _calls(draw: st.DrawFn) -> dict[str, Any]:
    arguments = dict(_VALID)
    for name in list(arguments):
        action = draw(st.sampled_from(["keep", "keep", "drop", "change"]))
        if action == "drop":
            del arguments[name]
        elif action == "change":
            arguments[name] = draw(_VALUES)
    for name in draw(st.lists(_EXTRA, max_size=2, unique=True)):
        arguments[name] = draw(_VALUES)
    return arguments


@pytest.mark.parametrize("policy", ["report", "reject", "ignore"])
def test_the_quick_test_gives_the_outcome_of_the_check(
    policy: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick, full = _pair(policy, monkeypatch)

    # one pair of Functions across all examples: what a Function remembers
    # (the last names that passed, names like no parameter) is exercised too
    @settings(max_examples=150, deadline=None, derandomize=True)
    @given(calls=st.lists(_calls(), min_size=1, max_size=4))
    def check(calls: list[dict[str, Any]]) -> None:
        for arguments in calls:
            assert _seen(quick.execute(dict(arguments))) == _seen(full.execute(dict(arguments)))

    check()


def test_a_valid_call_passes_without_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    fn = tp.Function("weather", _body, parameters=_declaration())
    assert fn.execute(dict(_VALID)) == tp.Ok(_body(_VALID))
    # count the check's calls: wrap what builds it (loaded when first needed)
    from toolparse.plain import _params

    calls = 0
    build = _params.params_checker

    def counting(*args: Any) -> Any:
        inner = build(*args)

        def run(value: Any) -> Any:
            nonlocal calls
            calls += 1
            return inner(value)

        return run

    monkeypatch.setattr(_params, "params_checker", counting)
    # a declaration of its own, so the shared check is built afresh, counted
    params = [*_declaration(), FP("quick_test_note", "string")]
    fn = tp.Function("weather", _body, parameters=params)
    # (a list parameter is the check's alone: a call that sends one is checked)
    valid = {k: v for k, v in _VALID.items() if k != "tags"}
    extra = {**valid, "reasoning": "asked"}
    for _ in range(3):
        assert fn.execute(dict(extra)) == tp.Ok(_body(extra))
    without_optional = {k: v for k, v in valid.items() if k not in ("price", "kind")}
    assert fn.execute(dict(without_optional)) == tp.Ok(_body(without_optional))
    assert calls == 0
    # a wrong value goes to the check, which says what is wrong
    result = fn.execute({**valid, "days": "3"})
    assert isinstance(result, tp.Error)
    assert 'days: must be an integer (received "3")' in result.message
    assert calls == 1
