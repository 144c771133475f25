"""Tool calls assembled from streams: each call as soon as it is complete, equal to the parsed one."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse import providers

from .streamed import STREAMS, Cuts, anthropic_events, openai_events

#: every three characters: many deltas per call
EVERY_3: Cuts = lambda text: range(0, len(text), 3)  # noqa: E731
PLAN = [
    ("get_weather", {"city": "Paris", "days": 3}),
    ("math_factorial", {"n": 5}),  # the alias of math.factorial
    ("get_weather", {"city": 'Oslo \u00e9 "quoted", {"a": [1, 2]}'}),
]


def plan(provider: str) -> list[tuple[str, dict[str, Any]]]:
    """The plan with each name as ``provider`` was given it (Gemini's rule takes dots)."""
    rule = providers.get_provider(provider).name_rule  # type: ignore[attr-defined]
    alias = rule.alias("math.factorial")
    return [(alias if name == "math_factorial" else name, args) for name, args in PLAN]


def tools() -> tp.Toolset:
    return tp.Toolset(
        [
            tp.Function(
                "get_weather",
                lambda a: "sunny",
                parameters=[
                    tp.FunctionParam("city", "string", required=True),
                    tp.FunctionParam("days", "integer"),
                ],
                unknown_arguments="reject",
            ),
            tp.Function(
                "math.factorial",
                lambda a: "120",
                parameters=[tp.FunctionParam("n", "integer", required=True)],
            ),
        ]
    )


def streamed(provider: str, events: list[Any], functions: Any = None) -> list[list[tp.ToolCall]]:
    """What each event returned, then what ``close()`` returned."""
    stream = providers.ToolCallStream(provider, functions)
    return [stream.feed(event) for event in events] + [stream.close()]


@pytest.mark.parametrize("provider", sorted(STREAMS))
def test_streamed_calls_equal_the_parsed_response(provider: str) -> None:
    events, whole = STREAMS[provider](plan(provider), EVERY_3)
    toolset = tools()
    expected = toolset.parse_tool_calls(whole, provider)
    assert [c.name for c in expected] == ["get_weather", "math.factorial", "get_weather"]
    got = streamed(provider, events, toolset)
    assert [c for step in got for c in step] == expected
    assert got[-1] == []  # every call was complete before the end
    # the SDK's objects or their dicts: the same calls
    dumped = [e if isinstance(e, dict) else e.model_dump() for e in events]
    assert [c for step in streamed(provider, dumped, toolset) for c in step] == expected
    # toolset.stream is the same stream, and the calls run
    stream = toolset.stream(provider)
    calls = [c for event in events for c in stream.feed(event)]
    assert [r.content for r in toolset.execute(calls)] == ["sunny", "120", "sunny"][: len(calls)]


@pytest.mark.parametrize("provider", sorted(STREAMS))
def test_each_call_comes_with_the_event_that_completes_it(provider: str) -> None:
    events, _ = STREAMS[provider](PLAN, EVERY_3)
    got = streamed(provider, events)
    steps = [i for i, calls in enumerate(got) for _ in calls]
    assert len(steps) == 3
    assert got[-1] == []  # each came before the end
    data = [e if isinstance(e, dict) else e.model_dump() for e in events]
    completing = [data[i] for i in steps]
    if provider == "openai":  # the next call's first chunk, then the finish_reason
        firsts = [
            e for e in data if (d := e["choices"][0]["delta"].get("tool_calls")) and d[0].get("id")
        ]
        assert completing[:2] == firsts[1:]
        assert completing[2]["choices"][0]["finish_reason"] == "tool_calls"
    elif provider == "openai-responses":
        assert {e["type"] for e in completing} == {"response.output_item.done"}
    elif provider == "anthropic":
        assert {e["type"] for e in completing} == {"content_block_stop"}
    elif provider == "bedrock":
        assert all("contentBlockStop" in e for e in completing)
    else:  # gemini and ollama: the chunk that carries the call
        assert len(set(steps)) == (3 if provider == "gemini" else 1)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(
    arguments=st.lists(
        st.dictionaries(st.text(max_size=6), JSON, max_size=4), min_size=1, max_size=3
    ),
    cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=12),
    provider=st.sampled_from(["openai", "openai-responses", "anthropic", "bedrock"]),
)
def test_any_split_of_the_arguments_gives_the_parsed_calls(
    arguments: list[dict[str, Any]], cuts: list[int], provider: str
) -> None:
    plan = [(f"tool_{i}", args) for i, args in enumerate(arguments)]
    events, whole = STREAMS[provider](plan, lambda text: cuts)
    got = [c for step in streamed(provider, events) for c in step]
    assert got == providers.parse_tool_calls(whole, provider)


def test_pending_and_early_problems_before_the_call_is_complete() -> None:
    plan = [("get_wether", {"city": "Paris"}), ("get_weather", {"city": "Oslo", "verbose": True})]
    events, _ = openai_events(plan, lambda text: range(0, len(text), 4))
    stream = tools().stream("openai")
    stream.feed(events[0])
    assert stream.pending == []
    assert stream.early_problems() == []
    stream.feed(events[1])  # the first call's name
    (pending,) = stream.pending
    assert (pending.id, pending.name, pending.arguments_text) == ("call_0_0", "get_wether", "")
    (problem,) = stream.early_problems()
    assert problem.startswith(
        'Tool call made to get_wether but tool not found. Did you mean "get_weather"?'
    )
    second = next(
        i
        for i, e in enumerate(events)
        if e.choices[0].delta.tool_calls and e.choices[0].delta.tool_calls[0].index == 1
    )
    for event in events[2:second]:
        assert stream.feed(event) == []
    assert stream.pending[0].arguments_text == '{"city": "Paris"}'
    (done,) = stream.feed(events[second])
    assert done == tp.ToolCall("call_0_0", "get_wether", '{"city": "Paris"}')
    seen: list[list[str]] = []
    for event in events[second + 1 : -1]:
        stream.feed(event)
        seen.append(stream.early_problems())
    # "verbose" is complete long before the arguments are; "reject" refuses it
    first = next(i for i, p in enumerate(seen) if p)
    assert first < len(seen) - 2
    assert seen[-1][0].startswith("Unrecognized parameters for this tool.")
    assert "Unrecognized parameters: verbose" in seen[-1][0]
    assert stream.pending[0].arguments_text.startswith('{"city": "Oslo", "verbose"')


def test_a_typo_under_report_is_an_early_problem_as_the_model_is_told_it() -> None:
    fn = tp.Function(
        "weather",
        lambda a: "ok",
        parameters=[
            tp.FunctionParam("city", "string", required=True),
            tp.FunctionParam("units", "string"),
        ],
    )
    events, _ = anthropic_events(
        [("weather", {"city": "Oslo", "verbose": 1, "unit": "c"})], EVERY_3
    )
    stream = providers.ToolCallStream("anthropic", [fn])
    problems: list[str] = []
    for event in events:
        if stream.pending:
            problems = stream.early_problems()
        stream.feed(event)
    (problem,) = problems
    assert 'unit (did you mean "units"?)' in problem
    # one likely typo rejects the call: the model then learns every unknown name, as here
    assert problem == fn.execute({"city": "Oslo", "verbose": 1, "unit": "c"})[0]


def test_close_returns_a_call_cut_off_as_it_was_received() -> None:
    events, _ = anthropic_events([("get_weather", {"city": "Paris"})], EVERY_3)
    cut = [
        e for e in events if e.type not in ("content_block_stop", "message_stop", "message_delta")
    ]
    cut.pop()  # the last piece of the arguments never came
    stream = providers.ToolCallStream("anthropic")
    assert [c for e in cut for c in stream.feed(e)] == []
    (call,) = stream.close()
    assert call.id == "toolu_0_0"
    assert isinstance(call.arguments, str)  # broken JSON: answered as such, never half-read
    (result,) = tp.execute_tool_calls([tp.Function("get_weather", lambda a: "x")], [call])
    assert result.is_error


def test_mcp_and_foreign_events_are_refused() -> None:
    with pytest.raises(ValueError, match="mcp has no stream of tool calls"):
        providers.ToolCallStream("mcp")
    events, _ = anthropic_events([("a", {})], EVERY_3)
    stream = providers.ToolCallStream("openai")
    # described as a response of the wrong shape is: its kind, its type, its first keys
    with pytest.raises(
        ValueError,
        match=r"^openai: expected a stream event.* of type 'message_start' with keys message, type\. Was this stream from another provider\?",
    ):
        stream.feed(events[0])
    with pytest.raises(
        ValueError, match=r"^gemini: expected a stream event of this provider; got a str\."
    ):
        providers.ToolCallStream("gemini").feed("text")


# -- through the real clients, streaming server-sent events over a mock transport ------------


def sse(events: list[Any], named: bool) -> bytes:
    lines = []
    for event in events:
        data = json.dumps(event.model_dump(exclude_none=True, mode="json"))
        lines.append((f"event: {event.type}\n" if named else "") + f"data: {data}\n\n")
    if not named:
        lines.append("data: [DONE]\n\n")
    return "".join(lines).encode()


def transport(body: bytes) -> httpx2.MockTransport:
    return httpx2.MockTransport(
        lambda request: httpx2.Response(
            200, headers={"content-type": "text/event-stream"}, content=body
        )
    )


def test_the_openai_client_streaming_over_http() -> None:
    import openai

    events, whole = openai_events(PLAN, EVERY_3)
    client = openai.OpenAI(
        api_key="x", http_client=httpx2.Client(transport=transport(sse(events, False)))
    )
    toolset = tools()
    stream = toolset.stream("openai")
    calls = []
    for chunk in client.chat.completions.create(model="gpt-5", messages=[], stream=True):
        calls += stream.feed(chunk)
    calls += stream.close()
    assert calls == toolset.parse_tool_calls(whole, "openai")


def test_the_anthropic_client_streaming_over_http() -> None:
    import anthropic

    events, whole = anthropic_events(PLAN, EVERY_3)
    http = httpx2.Client(transport=transport(sse(events, True)))
    client = anthropic.Anthropic(api_key="x", http_client=http)
    toolset = tools()
    stream = toolset.stream("anthropic")
    calls = []
    with client.messages.stream(model="claude-opus-4-7", max_tokens=100, messages=[]) as events_:
        for event in events_:
            calls += stream.feed(event)
        final = events_.get_final_message()
    calls += stream.close()
    assert calls == toolset.parse_tool_calls(whole, "anthropic")
    assert calls == toolset.parse_tool_calls(final, "anthropic")
