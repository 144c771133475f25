"""A recursive attrs class holds the depth limit: deeper values say "nested too deeply".

cattrs follows a value down on Python's stack: 300 levels used to pass (past the
256 the limit allows), and a rejection 400 levels down had a path too long for
any message (it read ``... and 1 more`` alone).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp

TOO_DEEP = "The arguments for tool tree are nested too deeply (depth 257; the limit is 256)."


@attrs.define
class Node:
    name: str
    child: Node | None = None


@attrs.define
class Branch:
    name: str
    children: list[Branch] = attrs.Factory(list)


@attrs.define
class Flat:
    name: str
    data: dict[str, Any] = attrs.Factory(dict)


NODE = tp.Function("tree", lambda node: node.name, args_schema=Node)
BRANCH = tp.Function("tree", lambda branch: branch.name, args_schema=Branch)


def _chain(levels: int, leaf: dict[str, Any]) -> dict[str, Any]:
    value = leaf
    for _ in range(levels):
        value = {"name": "n", "child": value}
    return value


def _branches(levels: int, leaf: dict[str, Any]) -> dict[str, Any]:
    value = leaf
    for _ in range(levels // 2):
        value = {"name": "n", "children": [value]}
    return value


@pytest.mark.parametrize("levels", [255, 256, 300, 1_000, 5_000])
@pytest.mark.parametrize("leaf", [{"name": "ok"}, {"name": 5}])
def test_past_the_limit_is_nested_too_deeply(levels: int, leaf: dict[str, Any]) -> None:
    result = NODE.execute(_chain(levels, leaf))
    if levels < 256:  # (levels + 1 objects)
        assert isinstance(result, tp.Ok) == (leaf["name"] == "ok")
        if isinstance(result, tp.Error):
            assert result.message.splitlines()[2].endswith(".name: must be a string (received 5)")
    else:
        assert result == tp.Error(TOO_DEEP, result.exception)  # type: ignore[union-attr]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(1, 700), st.sampled_from([{"name": "ok"}, {"name": 5}, {"name": None}]))
def test_any_depth_is_an_answer_or_nested_too_deeply(levels: int, leaf: dict[str, Any]) -> None:
    result = BRANCH.execute(_branches(levels, leaf))
    depth = (levels // 2) * 2 + 1
    if depth > 256:
        assert isinstance(result, tp.Error)
        assert result.message == TOO_DEEP
    elif isinstance(result, tp.Error):
        lines = result.message.splitlines()
        assert lines[0] == "Invalid arguments for this tool."
        assert lines[2].startswith("children[0]." if levels > 1 else "name: ")


def test_a_class_that_does_not_hold_itself_is_not_walked_for_depth() -> None:
    # its free-form values are the model's to nest (the core bounds JSON text)
    deep: Any = {}
    for _ in range(300):
        deep = {"a": deep}
    fn = tp.Function("flat", lambda flat: flat.name, args_schema=Flat)
    assert fn.execute({"name": "x", "data": deep}) == tp.Ok("x")
