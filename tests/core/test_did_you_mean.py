""" "Did you mean": the reference scores and the swap of two adjacent letters."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse import messages


@pytest.mark.parametrize(
    ("name", "candidate", "score"),
    [
        ("file_path", "path", 0.8333),
        ("patern", "pattern", 0.9524),
        ("lim", "limit", 0.88),
        ("query", "path", 0.0),
        ("ab", "abc", 0.8889),
    ],
)
def test_reference_values_hold(name: str, candidate: str, score: float) -> None:
    assert messages.similarity(name, candidate) == pytest.approx(score, abs=1e-4)


@pytest.mark.parametrize(
    ("name", "candidate"),
    [("kye", "key"), ("ab", "ba"), ("Kye", "key"), ("qeury", "query"), ("limti", "limit")],
)
def test_one_adjacent_swap_scores_at_least_three_quarters(name: str, candidate: str) -> None:
    assert messages.similarity(name, candidate) >= 0.75
    assert messages.similarity(candidate, name) >= 0.75


@pytest.mark.parametrize(
    ("name", "candidate"),
    [("kxe", "key"), ("yek", "key"), ("abc", "cba")],
)
def test_other_changes_are_not_a_swap(name: str, candidate: str) -> None:
    # not one swap of neighbours: the ordinary rules decide (all of these score 0)
    assert messages.similarity(name, candidate) == 0.0


def test_swap_suggests_the_name() -> None:
    assert messages.did_you_mean("kye", ["value", "key"]) == "key"


def test_swap_in_the_message_the_model_reads() -> None:
    fn = tp.Function(
        "store",
        lambda args: "stored",
        parameters=[tp.FunctionParam("key", "string"), tp.FunctionParam("value", "string")],
    )
    result = fn.execute({"kye": "b"})
    assert isinstance(result, tp.Error)
    assert 'kye (did you mean "key"?)' in result.message


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet="abcdefgh_", min_size=2, max_size=10), st.data())
def test_any_adjacent_swap_is_suggested(word: str, data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(word) - 2))
    swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    assert messages.similarity(swapped, word) >= 0.75
