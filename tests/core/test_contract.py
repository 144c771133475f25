from __future__ import annotations

import pickle

import pytest

import toolparse as tp


def test_constructors_build_the_three_shapes() -> None:
    assert tp.ok() == tp.Ok(None)
    assert tp.ok({"a": 1}) == tp.Ok({"a": 1})
    assert tp.ok("text", 42) == tp.Ok("text", 42)
    assert tp.error("bad") == tp.Error("bad")
    assert tp.interrupt("review", {"id": 1}) == tp.Interrupt("review", {"id": 1})


def test_fields_in_order_and_by_name() -> None:
    ok = tp.Ok("v", "p")
    assert (ok.value, ok.processed_content) == ("v", "p")
    exc = ValueError("x")
    err = tp.Error("m", exc)
    assert (err.message, err.exception) == ("m", exc)
    intr = tp.Interrupt("d", 5)
    assert (intr.display, intr.data) == ("d", 5)


def test_match_positional_patterns() -> None:
    def kind(outcome: object) -> str:
        match outcome:
            case tp.Ok(value, processed):
                return f"ok:{value}:{processed}"
            case tp.Error(message):
                return f"error:{message}"
            case tp.Interrupt(display, data):
                return f"interrupt:{display}:{data}"
        return "other"

    assert kind(tp.ok(1)) == "ok:1:None"
    assert kind(tp.error("no")) == "error:no"
    assert kind(tp.interrupt("wait", 3)) == "interrupt:wait:3"
    assert kind(("x", None)) == "other"


def test_equality_is_by_class_and_fields() -> None:
    assert tp.Ok(1) != tp.Error(1)  # type: ignore[arg-type]
    assert tp.Ok(1) != (1, None)
    assert tp.Ok(1) != (1, None)
    assert tp.Ok(1) != tp.Ok(2)
    assert tp.Error("m") == tp.Error("m", None)
    assert len({tp.Ok(1), tp.Ok(1), tp.Error("x")}) == 2


def test_unhashable_payloads_still_hash() -> None:
    assert isinstance(hash(tp.Ok({"a": [1]})), int)


@pytest.mark.parametrize("outcome", [tp.Ok(1), tp.Error("m"), tp.Interrupt("d")])
def test_immutable(outcome: object) -> None:
    with pytest.raises(AttributeError):
        outcome.value = 2  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        outcome.message = "x"  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        outcome.other = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "outcome", [tp.Ok({"a": 1}, [2]), tp.Error("m"), tp.Interrupt("d", {"k": 1})]
)
def test_pickle_round_trip(outcome: object) -> None:
    assert pickle.loads(pickle.dumps(outcome)) == outcome


def test_repr_reads_like_the_call() -> None:
    assert repr(tp.Ok("x")) == "Ok('x')"
    assert repr(tp.Ok("x", 1)) == "Ok('x', 1)"
    assert repr(tp.Error("m")) == "Error('m')"
    assert repr(tp.Ok()) == "Ok(None)"


def test_unpacking() -> None:
    value, processed = tp.ok("a", "b")
    assert (value, processed) == ("a", "b")


def test_tool_error_keeps_message() -> None:
    err = tp.ToolError("say this")
    assert err.message == "say this"
    assert str(err) == "say this"
