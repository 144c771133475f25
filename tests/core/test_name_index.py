"""Costs that do not grow with the toolset: the same answers from tables worked out once.

An unknown tool name among many is answered from an index of the names
(:class:`toolparse.messages.NameIndex`): its "did you mean" and its list of
the closest names are exactly those of the plain search. A Toolset's export
is worked out once per provider and strictness, and each caller gets a copy
of it to change. A long list of Functions keeps its name tables for the next
batch given the same tools.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse import messages
from toolparse.messages import NameIndex

# names as a model writes them: few letters, so endings, swaps and containment meet often
_NAME = st.text(alphabet="abcdeAB_", max_size=12)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(_NAME, min_size=31, max_size=90), _NAME)
def test_the_index_finds_what_the_plain_search_finds(names: list[str], name: str) -> None:
    hint, listed = NameIndex(names).suggest(name, messages.MAX_NAMES)
    assert hint == messages.did_you_mean(name, names)
    assert listed == messages.closest(name, names)[: messages.MAX_NAMES]


def _same_as_the_plain_search(names: list[str], name: str, limit: int) -> None:
    hint, listed = NameIndex(names).suggest(name, limit)
    assert hint == messages.did_you_mean(name, names)
    assert listed == messages.closest(name, names)[: max(limit, 0)]


# short names, repeated ones and the same in other case: many tie on the letters they share
_MANY = st.lists(
    st.sampled_from(["", "a", "ab", "ba", "abc", "Abc", "ABC", "cab", "zz", "x_y"]) | _NAME,
    min_size=31,
    max_size=300,
)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    _MANY, _NAME | st.sampled_from(["", "a", "zz", "q", "abcabc"]), st.sampled_from([0, 1, 5, 30])
)
def test_the_index_reads_only_the_closest_names_and_finds_the_same(
    names: list[str], name: str, limit: int
) -> None:
    _same_as_the_plain_search(names, name, limit)


_WORDS = ("get", "set", "search", "order", "user", "report", "file", "sync", "Fetch", "ticket")


def _many_names(n: int) -> list[str]:
    return [
        f"{_WORDS[i % 10]}_{_WORDS[i // 10 % 10]}_{_WORDS[i // 100 % 10]}_{i}" for i in range(n)
    ]


@pytest.mark.parametrize(
    "name",
    [
        "serch_ordr",  # a typo: many score, the best ones listed
        "book_flight",  # like none: the names sharing the most letters listed
        "get",  # contained in many
        "get_user_file_1234",
        "qqq",  # shares no letter: the names in order
        "tikcet",
        "",
        "S",
    ],
)
def test_many_names_give_the_same_answers(name: str) -> None:
    names = _many_names(2_000)
    for limit in (0, 1, 30):
        _same_as_the_plain_search(names, name, limit)


@pytest.mark.parametrize(
    ("names", "name"),
    [
        # 2 letters of a name of 3 are as close as 3 of 6 to a name of 6: listed by name together
        (["zzx", "axq", "zxq", *(f"{c}yxqqw" for c in "cba"), *(["qqqqqqq"] * 30)], "xyzabc"),
        # fewer than the limit share a letter: the rest follow by name
        (["b_a", "c", *(f"q{i:02}" for i in range(40))], "abc"),
        # the same name twice, and in another case
        (
            ["Get_User", "get_user", "get_user", "GET_USER", *(f"n{i:02}" for i in range(30))],
            "gte_user",
        ),
    ],
)
def test_ties_short_names_and_repeats_give_the_same_answers(names: list[str], name: str) -> None:
    for limit in (0, 1, 3, 30):
        _same_as_the_plain_search(names, name, limit)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    st.lists(
        st.sampled_from(["get", "set", "list", "user", "order", "_", "s"]), min_size=1, max_size=4
    ).map("".join),
    st.data(),
)
def test_an_unknown_tool_reads_the_same_from_the_index(name: str, data: st.DataObject) -> None:
    words = st.lists(
        st.sampled_from(["get", "set", "user", "order", "list", "_"]), min_size=1, max_size=5
    )
    names = data.draw(st.lists(words.map("".join), min_size=31, max_size=60))
    assert messages.unknown_tool(name, NameIndex(names)) == messages.unknown_tool(name, names)


def _tools(n: int) -> list[tp.Function]:
    return [tp.Function(f"tool_{i}", lambda a: "ok", parameters=[]) for i in range(n)]


@pytest.mark.parametrize("size", [5, 200])
def test_an_unknown_tool_gets_the_same_answer_from_a_toolset_and_a_list(size: int) -> None:
    tools = _tools(size)
    call = tp.ToolCall("1", "tol_12", {})
    from_list = tp.execute_tool_calls(tools, [call])[0]
    assert from_list == tp.Toolset(tools).execute([call])[0]
    assert from_list == tp.execute_tool_calls(tools, [call])[0]  # the kept tables, the same answer
    assert from_list.content == messages.unknown_tool("tol_12", [fn.name for fn in tools])


def test_a_list_of_other_tools_gets_its_own_tables() -> None:
    tools = _tools(100)
    call = tp.ToolCall("1", "tool_7", {})
    assert not tp.execute_tool_calls(tools, [call])[0].is_error
    replaced = [*tools[:7], tp.Function("other", lambda a: "new", parameters=[]), *tools[8:]]
    assert tp.execute_tool_calls(replaced, [call])[0].is_error
    assert tp.execute_tool_calls(replaced, [tp.ToolCall("1", "other", {})])[0].content == "new"
    # a tool called under a provider's alias is still routed on a kept list
    dotted = [*tools, tp.Function("math.factorial", lambda a: "120", parameters=[])]
    for _ in range(2):
        found = tp.execute_tool_calls(dotted, [tp.ToolCall("1", "math_factorial", {})])[0]
        assert found.content == "120"


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "mcp", "openai-responses"])
@pytest.mark.parametrize("strict", [None, True, False])
def test_the_export_is_the_callers_copy(provider: str, strict: bool | None) -> None:
    tools = tp.Toolset(
        [tp.Function("weather", lambda a: "ok", parameters=[tp.FunctionParam("city", "string")])]
    )
    first = tools.to_tools(provider, strict=strict)
    assert first == tp.providers.to_tools(tools.functions, provider, strict=strict)
    expected = tools.to_tools(provider, strict=strict)
    first.append("changed")
    first[0]["changed"] = True
    for value in first[0].values():
        if isinstance(value, dict):
            value.clear()
    assert tools.to_tools(provider, strict=strict) == expected
    assert tools.to_tools(provider, strict=strict) is not tools.to_tools(provider, strict=strict)


def test_the_export_is_kept_per_strictness() -> None:
    tools = tp.Toolset([tp.Function("weather", lambda a: "ok", parameters=[])])
    assert tools.to_tools("openai", strict=True) != tools.to_tools("openai", strict=False)
    assert tools.to_tools("openai", strict=True) == tp.providers.to_tools(
        tools.functions, "openai", strict=True
    )
