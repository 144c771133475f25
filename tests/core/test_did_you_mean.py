""" "Did you mean": the reference scores, the swap of two adjacent letters, the bounded search."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import Count

import toolparse as tp
from toolparse import messages


@pytest.mark.parametrize(
    ("name", "candidate", "score"),
    [
        ("file_path", "path", 0.8333),
        ("patern", "pattern", 0.9524),
        ("lim", "limit", 0.88),
        ("query", "path", 0.0),
        ("file_path", "offset", 0.0),
        ("ab", "abc", 0.8889),
        ("Path", "path", 1.0),
        # Jaro's own reference pairs (no containment, no swap of neighbours)
        ("martha", "marhta", 0.9444),
        ("dixon", "dicksonx", 0.7667),
        ("", "", 1.0),
        ("a", "", 0.0),
        # a shared ending alone is no typo; one changed letter before it is
        ("address", "express", 0.0),
        ("fetch_data", "catch_data", 0.0),
        ("user_id", "order_id", 0.0),
        ("get_user", "set_user", 0.9167),
        ("name", "game", 0.8333),
        ("location", "creation", 0.8333),
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


@pytest.mark.parametrize(("name", "candidate"), [("kxe", "key"), ("yek", "key"), ("abc", "cba")])
def test_other_changes_are_not_a_swap(name: str, candidate: str) -> None:
    # not one swap of neighbours: the ordinary rules decide (all of these score 0)
    assert messages.similarity(name, candidate) == 0.0


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet="abcdefgh_", min_size=2, max_size=10), st.data())
def test_any_adjacent_swap_is_suggested(word: str, data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(word) - 2))
    swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    assert messages.similarity(swapped, word) >= 0.75


def _jaro_by_the_book(a: str, b: str) -> float:
    """Jaro similarity as its definition reads, each window scanned one place at a time."""
    if a == b:
        return 1.0
    la, lb = len(a), len(b)
    if not la or not lb:
        return 0.0
    window = max(0, max(la, lb) // 2 - 1)
    a_hit, b_hit = [False] * la, [False] * lb
    matches = 0
    for i, ch in enumerate(a):
        for j in range(max(0, i - window), min(i + window + 1, lb)):
            if not b_hit[j] and b[j] == ch:
                a_hit[i] = b_hit[j] = True
                matches += 1
                break
    if not matches:
        return 0.0
    b_matched = [b[j] for j in range(lb) if b_hit[j]]
    a_matched = [a[i] for i in range(la) if a_hit[i]]
    transpositions = sum(x != y for x, y in zip(a_matched, b_matched, strict=True))
    m = float(matches)
    return (m / la + m / lb + (m - transpositions / 2) / m) / 3


def _similarity_by_the_book(name: str, candidate: str) -> float:
    """The rule of the message contract, word for word."""
    a, b = name.lower(), candidate.lower()
    if a == b:
        return 1.0
    shorter, longer = sorted((a, b), key=len)
    if len(shorter) >= 3 and shorter in longer:
        return 0.7 + 0.3 * len(shorter) / len(longer)
    jaro = _jaro_by_the_book(a, b)
    # the common ending removed, what is left of each
    ending = next(
        k for k in range(min(len(a), len(b)), -1, -1) if a[len(a) - k :] == b[len(b) - k :]
    )
    rest_a, rest_b = a[: len(a) - ending], b[: len(b) - ending]
    ending_only = ending > 0 and max(len(rest_a), len(rest_b)) > 1 and not set(rest_a) & set(rest_b)
    score = jaro if jaro > 0.7 and not ending_only else 0.0
    swapped = any(
        a[:i] + a[i + 1] + a[i] + a[i + 2 :] == b for i in range(len(a) - 1) if a[i] != a[i + 1]
    )
    return max(score, 0.75) if swapped else score


# names as a model writes them: few letters, so repeats and windows overlap often
_NAMES = st.text(alphabet="abcdeAB_", max_size=14)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(_NAMES, _NAMES)
def test_similarity_is_the_definition(a: str, b: str) -> None:
    assert messages.similarity(a, b) == pytest.approx(_similarity_by_the_book(a, b), abs=1e-12)


@given(st.text(max_size=12), st.text(max_size=12))
def test_similarity_is_bounded_and_symmetric_in_case(a: str, b: str) -> None:
    score = messages.similarity(a, b)
    assert 0.0 <= score <= 1.0
    assert score == messages.similarity(a.upper(), b.upper()) or a.upper().lower() != a.lower()


def test_did_you_mean_picks_the_best_and_the_first_on_a_tie() -> None:
    assert messages.did_you_mean("lim", ["offset", "limit"]) == "limit"
    assert messages.did_you_mean("query", ["path"]) is None
    assert messages.did_you_mean("abc", ["abcd", "abce"]) == "abcd"
    assert messages.did_you_mean("kye", ["value", "key"]) == "key"
    assert messages.did_you_mean("address", ["express", "city"]) is None
    assert messages.did_you_mean("adress", ["express", "address"]) == "address"


def test_a_swap_is_suggested_in_the_message_the_model_reads() -> None:
    fn = tp.Function(
        "store",
        lambda args: "stored",
        parameters=[tp.FunctionParam("key", "string"), tp.FunctionParam("value", "string")],
    )
    result = fn.execute({"kye": "b"})
    assert isinstance(result, tp.Error)
    assert 'kye (did you mean "key"?)' in result.message


def test_suggestions_come_from_the_names_not_sent() -> None:
    assert messages.suggestions(["nme", "zzz"], ["name", "count"], ["count"]) == {
        "nme": "name",
        "zzz": None,
    }
    # the model sent "name" already: it is no suggestion for "nme"
    assert messages.suggestions(["nme"], ["name", "count"], ["name"]) == {"nme": None}


def test_the_search_is_bounded(comparisons: Count) -> None:
    accepted = [f"field_{i}" for i in range(1000)]
    unknown = [f"fild_{i}" for i in range(500)]
    found = messages.suggestions(unknown, accepted, [])
    assert list(found) == sorted(unknown)
    # only the names a message shows are searched, each among the nearest candidates
    assert sum(v is not None for v in found.values()) <= messages.MAX_NAMES
    assert comparisons.count <= messages.MAX_NAMES * messages.MAX_CANDIDATES
    comparisons.count = 0
    assert messages.suggestions(["kye"], ["key", "value"], []) == {"kye": "key"}
    assert comparisons.count == 2
