"""``CheckSummary``: the counts of checked calls, as a value that merges in any order and grouping."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
import toolparse._summary as summary_module
from toolparse._summary import summary_text
from toolparse.checking import CallCheck

TOOLS = ["weather", "score"]
REASONS = ["city: is required", "cty: unrecognized parameter", "invalid JSON", "n: too big"]


@st.composite
def checks(draw: st.DrawFn) -> CallCheck:
    """A result as check_calls gives one: accepted, rejected, an unknown tool, an unreadable record."""
    record = draw(st.integers(0, 50))
    kind = draw(st.sampled_from(["accepted", "rejected", "unknown", "unreadable"]))
    if kind == "accepted":
        tool = draw(st.sampled_from(TOOLS))
        return CallCheck(record, 0, None, tool, tool, True, (), None, "plain")
    if kind == "rejected":
        tool = draw(st.sampled_from(TOOLS))
        reasons = tuple(
            draw(st.lists(st.sampled_from(REASONS), min_size=1, max_size=3, unique=True))
        )
        return CallCheck(record, 0, "c1", tool, tool, False, reasons, "no", "openai")
    if kind == "unknown":
        name = draw(st.sampled_from(["wether", "scroe", "x"]))
        return CallCheck(record, 0, None, name, None, False, ("unknown tool",), "no", "plain")
    message = draw(
        st.sampled_from(["not JSON (Expecting value)", "not a tool call in any known shape"])
    )
    return CallCheck(record, 0, None, None, None, False, ("unreadable record",), message)


parts = st.lists(checks(), max_size=12)


@given(parts, parts)
def test_the_summary_of_two_parts_is_the_sum_of_theirs(
    a: list[CallCheck], b: list[CallCheck]
) -> None:
    assert tp.CheckSummary.of(a + b) == tp.CheckSummary.of(a) + tp.CheckSummary.of(b)


@given(parts, parts)
def test_merging_is_commutative(a: list[CallCheck], b: list[CallCheck]) -> None:
    x, y = tp.CheckSummary.of(a), tp.CheckSummary.of(b)
    assert x + y == y + x


@given(parts, parts, parts)
def test_merging_is_associative(a: list[CallCheck], b: list[CallCheck], c: list[CallCheck]) -> None:
    x, y, z = map(tp.CheckSummary.of, (a, b, c))
    assert (x + y) + z == x + (y + z)


@given(st.lists(parts, max_size=5))
def test_sum_with_an_empty_summary_as_start(groups: list[list[CallCheck]]) -> None:
    every = [check for group in groups for check in group]
    assert sum(map(tp.CheckSummary.of, groups), tp.CheckSummary()) == tp.CheckSummary.of(every)
    assert tp.CheckSummary.of(every) + tp.CheckSummary() == tp.CheckSummary.of(every)


@given(parts)
def test_the_counts(found: list[CallCheck]) -> None:
    summary = tp.CheckSummary.of(found)
    assert summary.total == len(found) == summary.accepted + summary.rejected
    assert summary.accepted == sum(c.accepted for c in found)
    assert summary.unreadable == sum(c.name is None for c in found)
    by_tool = summary.by_tool
    assert sum(row["total"] for row in by_tool.values()) == summary.total
    for name, row in by_tool.items():
        assert row["total"] == row["accepted"] + row["rejected"]
        if name in TOOLS:
            assert row["total"] == sum(c.tool == name for c in found)
    unknown = sum(c.name is not None and c.tool is None for c in found)
    assert by_tool.get("(unknown tools)", {"total": 0})["total"] == unknown
    assert by_tool.get("(unreadable records)", {"total": 0})["total"] == summary.unreadable
    expected: dict[str, int] = {}
    for check in found:
        for reason in check.reasons:
            expected[reason] = expected.get(reason, 0) + 1
    assert summary.by_reason == expected


@given(parts)
def test_add_counts_in_place_and_plus_makes_a_new_summary(found: list[CallCheck]) -> None:
    summary = tp.CheckSummary()
    for check in found:
        summary.add(check)
    assert summary == tp.CheckSummary.of(found)
    before = tp.CheckSummary.of(found)
    merged = summary + before
    assert merged is not summary
    assert summary == before  # neither side changed
    assert merged.total == 2 * len(found)


@given(parts)
def test_to_dict_is_json_and_a_summary_pickles(found: list[CallCheck]) -> None:
    summary = tp.CheckSummary.of(found)
    data = summary.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {"total", "accepted", "rejected", "unreadable", "by_tool", "by_reason"}
    for protocol in (2, 5):
        assert pickle.loads(pickle.dumps(summary, protocol)) == summary


def test_equal_by_value_and_not_hashable() -> None:
    a = tp.CheckSummary.of([CallCheck(1, 0, None, "w", "w", True)])
    b = tp.CheckSummary.of([CallCheck(1, 0, None, "w", "w", True)])
    assert a == b
    assert a != tp.CheckSummary()
    assert a != {"total": 1}
    with pytest.raises(TypeError):
        hash(a)


def test_of_the_checks_of_real_calls() -> None:
    weather = tp.Function(
        "weather", lambda a: "x", parameters=[tp.FunctionParam("city", "string", required=True)]
    )
    records = [
        {"name": "weather", "arguments": {"city": "Oslo"}},
        {"name": "weather", "arguments": {}},
        {"name": "wether", "arguments": {}},
        "not json",
    ]
    summary = tp.CheckSummary.of(tp.check_calls([weather], records, start=1))
    assert summary.to_dict() == {
        "total": 4,
        "accepted": 1,
        "rejected": 3,
        "unreadable": 1,
        "by_tool": {
            "weather": {"total": 2, "accepted": 1, "rejected": 1},
            "(unknown tools)": {"total": 1, "accepted": 0, "rejected": 1},
            "(unreadable records)": {"total": 1, "accepted": 0, "rejected": 1},
        },
        "by_reason": {"city: is required": 1, "unknown tool": 1, "unreadable record": 1},
    }
    assert repr(summary) == "CheckSummary(total=4, accepted=1, unreadable=1)"
    assert str(summary).splitlines() == [
        "tool                      calls   accepted   rejected",
        "weather                       2          1          1",
        "            1  city: is required  (first at record 2)",
        "(unknown tools)               1          0          1",
        "            1  wether: unknown tool  (first at record 3)",
        "(unreadable records)          1          0          1",
        "            1  unreadable record: not JSON  (first at record 4)",
        "4 calls: 1 accepted, 3 rejected",
    ]


# -- past the named reasons: the laws still hold ---------------------------------------

many_reasons = st.lists(
    st.builds(
        lambda record, reason: CallCheck(record, 0, None, "t", "t", False, (reason,)),
        st.integers(0, 20),
        st.sampled_from([f"r{i}" for i in range(8)]),
    ),
    max_size=10,
)


@settings(max_examples=200)
@given(many_reasons, many_reasons, many_reasons)
def test_the_laws_hold_past_the_named_reasons(
    a: list[CallCheck], b: list[CallCheck], c: list[CallCheck]
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(summary_module, "MAX_REASONS", 3)
        x, y, z = map(tp.CheckSummary.of, (a, b, c))
        assert (x + y) + z == x + (y + z) == (z + x) + y
        assert tp.CheckSummary.of(a + b + c) == x + y + z
        total = x + y + z
        counts = total.by_reason
        assert len(counts) <= 4  # three named, the rest together
        assert sum(counts.values()) == len(a) + len(b) + len(c)
        named = sorted(k for k in counts if k != "(other reasons)")
        assert named == sorted({ch.reasons[0] for ch in a + b + c})[:3]  # the first in text order


@given(parts, parts)
def test_plus_equals_adds_in_place_what_plus_adds(a: list[CallCheck], b: list[CallCheck]) -> None:
    running, other = tp.CheckSummary.of(a), tp.CheckSummary.of(b)
    same = running
    running += other
    assert running is same  # the running total itself, not a copy
    assert running == tp.CheckSummary.of(a) + tp.CheckSummary.of(b)
    assert other == tp.CheckSummary.of(b)  # the part added is left as it was


def test_other_reasons_made_by_the_sum_alone_name_no_first_place() -> None:
    # each part names all its reasons; only their sum has too many, so "(other reasons)"
    # was first seen in no part: its row says how many, not a place it never was
    def part(start: int) -> tp.CheckSummary:
        found = [
            CallCheck(i, 0, None, "w", "w", False, (f"r{i:02}",)) for i in range(start, start + 3)
        ]
        return tp.CheckSummary.of(found)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(summary_module, "MAX_REASONS", 4)
        text = summary_text([("a.jsonl", part(0)), ("b.jsonl", part(3))], top=5)
    assert "            2  (other reasons)\n" in text + "\n"
    assert "?" not in text
    assert "    1  r00  (first at a.jsonl:0)" in text
