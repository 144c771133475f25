"""Bounded work on hostile payloads, on every adapter path, as counts of work done.

Thousands of wrong items render only the lines a message shows (and count the
rest); thousands of unknown near-typo keys compare only the names a message
shows, each with a bounded number of candidates.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, TypedDict

import pytest
from tests.conftest import Count
from tests.reliability.adapter_tools import VALID, tools

import toolparse as tp
from toolparse import messages, problems
from toolparse.adapter import MAX_PROBLEMS

WRONG = 2_000


@dataclasses.dataclass
class Basket:
    owner: str
    ids: list[int]


class Bag(TypedDict):
    owner: str
    ids: list[int]


def _body(arguments: Any) -> str:
    return "ok"


# a list field of each tool, and an item that is wrong there
_LISTS: dict[str, tuple[str, Any]] = {
    "search": ("tags", 5),
    "order": ("lines", {"sku": 5, "quantity": 1}),
    "flight": ("seats", {"row": "x", "letter": "A"}),
    "flight_using": ("seats", {"row": 0, "letter": "A"}),
    "cart": ("items", {"name": 5, "price": 1}),
    "legacy": ("items", {"sku": "a", "quantity": "x"}),
    "tree_fast": ("children", 5),
    "tree_pure": ("children", 5),
    "tree_strict": ("children", 5),
    "params": ("ids", "x"),
    "basket": ("ids", "x"),
    "bag": ("ids", "x"),
}


def _cases() -> list[tuple[tp.Function, dict[str, Any]]]:
    extra = [
        tp.Function(
            "params",
            _body,
            parameters=[
                tp.FunctionParam("owner", "string", required=True),
                tp.FunctionParam("ids", "array", item_type="integer"),
            ],
        ),
        tp.Function("basket", _body, args_schema=Basket),
        tp.Function("bag", _body, args_schema=Bag),
    ]
    valid = {**VALID, **{name: {"owner": "a", "ids": [1]} for name in ("params", "basket", "bag")}}
    cases = []
    for fn in [*tools(), *extra]:
        if fn.name in _LISTS:
            key, item = _LISTS[fn.name]
            cases.append((fn, {**valid[fn.name], key: [item] * WRONG}))
    return cases


CASES = _cases()


@pytest.mark.parametrize(("fn", "arguments"), CASES, ids=[fn.name for fn, _ in CASES])
def test_many_wrong_items_render_only_the_lines_shown(
    fn: tp.Function, arguments: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered = 0
    line = problems.ArgumentProblem.line

    def counted(self: problems.ArgumentProblem) -> str:
        nonlocal rendered
        rendered += 1
        return line(self)

    monkeypatch.setattr(problems.ArgumentProblem, "line", counted)
    result = fn.execute(arguments)
    assert isinstance(result, tp.Error)
    assert len(result.message) <= messages.MAX_MESSAGE_CHARS
    assert rendered <= messages.MAX_PROBLEM_LINES
    more = re.search(r"\.\.\. and (\d+) more", result.message)
    assert more, result.message
    # the count says how many were not shown (a JSON Schema branch may add its own)
    assert int(more.group(1)) >= WRONG - messages.MAX_PROBLEM_LINES


@pytest.mark.parametrize(("fn", "arguments"), CASES, ids=[fn.name for fn, _ in CASES])
def test_many_near_typo_keys_compare_a_bounded_number_of_names(
    fn: tp.Function, arguments: dict[str, Any], comparisons: Count
) -> None:
    # each resembles a parameter: every tool has at least two, so an unbounded
    # search would compare at least 8,000 pairs
    name = next(iter(arguments))
    sent = {f"{name}{i}": 1 for i in range(4_000)}
    result = fn.execute({**arguments, **sent})
    assert isinstance(result, tp.Error)
    assert len(result.message) <= messages.MAX_MESSAGE_CHARS
    assert comparisons.count <= messages.MAX_NAMES * messages.MAX_CANDIDATES


#: the problems a rejected call keeps at most (the built-in adapter's bound);
#: past it the rest are counted, not built
KEPT = MAX_PROBLEMS


@pytest.mark.parametrize(("fn", "arguments"), CASES, ids=[fn.name for fn, _ in CASES])
def test_many_wrong_items_stop_building_problems_past_the_bound(
    fn: tp.Function, arguments: dict[str, Any], problems_built: Count
) -> None:
    result = fn.execute(arguments)
    assert isinstance(result, tp.Error)
    assert problems_built.count <= KEPT + messages.MAX_PROBLEM_LINES
    more = re.search(r"\.\.\. and (\d+) more", result.message)
    assert more, result.message
    assert int(more.group(1)) >= WRONG - messages.MAX_PROBLEM_LINES


#: the unknown top-level names of the 1 MiB payloads, about as many
UNKNOWN = 50_000


@pytest.mark.parametrize("fn", [c[0] for c in CASES], ids=[c[0].name for c in CASES])
def test_unknown_top_level_names_are_one_entry_counted_exactly(
    fn: tp.Function, problems_built: Count
) -> None:
    # every path names each unknown name; the built-in adapter and the policy
    # carry them as one entry, so no path builds a problem per name
    arguments = dict(next(a for f, a in CASES if f is fn))
    sent = {f"zz{i}_q": 0 for i in range(UNKNOWN)}
    result = fn.execute({**arguments, **sent})
    assert isinstance(result, tp.Error)
    assert len(result.message) <= messages.MAX_MESSAGE_CHARS
    line = next(t for t in result.message.splitlines() if t.startswith("Unrecognized parameters:"))
    shown = line.split(": ", 1)[1].split(", ... and ")[0].split(", ")
    more = re.search(r"\.\.\. and (\d+) more$", line)
    assert more, line
    assert len(shown) + int(more.group(1)) == UNKNOWN
    if fn.name in ("params", "basket", "bag"):
        # the core's own paths (no parser, the built-in adapter)
        assert problems_built.count <= KEPT + messages.MAX_PROBLEM_LINES
