"""The context's strings never reach the model: every error text and interrupt display has them
redacted, whatever raised or returned them, on every path (execute, aexecute, a batch, a worker
thread)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.context import MAX_SECRET_DEPTH, MIN_SECRET_CHARS, REDACTED, secrets_of

SECRET = "SECRET-123"
CONTEXT = {"api_key": SECRET, "user": {"token": "tok-abcdef"}}


def texts(outcome: Any) -> str:
    """Everything the model could read of an outcome or a result."""
    if isinstance(outcome, tp.ToolResult):
        return str(outcome.content)
    return str(outcome[0])


def raises(arguments: Any, context: Any) -> str:
    raise ValueError(f"bad key {context['api_key']} in {context}")


def returns_error(arguments: Any, context: Any) -> Any:
    return tp.Error(f"the key {context['user']['token']} was refused")


def raises_tool_error(arguments: Any, context: Any) -> str:
    raise tp.ToolError(f"refused {context['api_key']}")


def raises_tool_error_object(arguments: Any, context: Any) -> str:
    raise tp.ToolError({"key": context["api_key"]})  # type: ignore[arg-type]


def returns_error_object(arguments: Any, context: Any) -> Any:
    return tp.Error({"key": context["api_key"]})  # type: ignore[arg-type]


def interrupts(arguments: Any, context: Any) -> Any:
    return tp.Interrupt(f"Send with key {context['api_key']}?", {"key": context["api_key"]})


async def raises_async(arguments: Any, context: Any) -> str:
    await asyncio.sleep(0)
    raise RuntimeError(context["api_key"])


def reads_a_missing_key(arguments: Any, context: Any) -> str:
    return str(arguments[context["api_key"]])


BODIES = [
    raises,
    returns_error,
    raises_tool_error,
    raises_tool_error_object,
    returns_error_object,
    interrupts,
    raises_async,
]


@pytest.mark.parametrize("body", BODIES, ids=lambda b: b.__name__)
def test_a_body_never_shows_the_context(body: Any) -> None:
    fn = tp.Function("tool", body)
    for outcome in (fn.execute({}, CONTEXT), asyncio.run(fn.aexecute({}, CONTEXT))):
        text = texts(outcome)
        assert SECRET not in text
        assert "tok-abcdef" not in text
        assert REDACTED in text


def test_what_the_application_keeps_is_not_changed() -> None:
    error = tp.Function("tool", raises).execute({}, CONTEXT)
    assert isinstance(error, tp.Error)
    assert SECRET in str(error.exception)  # the exception, for logs, as raised
    interrupt = tp.Function("tool", interrupts).execute({}, CONTEXT)
    assert interrupt == tp.Interrupt(f"Send with key {REDACTED}?", {"key": SECRET})


def test_a_tool_answer_is_its_own() -> None:
    fn = tp.Function("tool", lambda arguments, context: f"your key is {context['api_key']}")
    assert fn.execute({}, CONTEXT) == tp.Ok(f"your key is {SECRET}")


def test_the_exception_text_keeps_its_shape() -> None:
    message = texts(tp.Function("tool", raises).execute({}, CONTEXT))
    assert message.startswith(f"ERROR: (ValueError) bad key {REDACTED} in ")
    assert message.endswith("test_redaction.py:" + message.rsplit(":", 2)[1] + ": raises")


def test_a_body_that_read_a_key_named_by_the_context() -> None:
    fn = tp.Function("tool", reads_a_missing_key, parameters=[tp.FunctionParam("a", "string")])
    assert SECRET not in texts(fn.execute({"a": "x"}, CONTEXT))


def test_a_parser_never_shows_the_context() -> None:
    def rejects(arguments: Any, context: Any) -> Any:
        return tp.Error(f"parser refused {context['api_key']}")

    def fails(arguments: Any, context: Any) -> Any:
        raise KeyError(context["api_key"])

    async def fails_async(arguments: Any, context: Any) -> Any:
        raise KeyError(context["api_key"])

    for parser in (rejects, fails, fails_async):
        fn = tp.Function("tool", lambda arguments: "ok", parse_args=parser)
        for outcome in (
            fn.execute({}, CONTEXT),
            fn.parse_arguments({}, CONTEXT),
            asyncio.run(fn.aexecute({}, CONTEXT)),
        ):
            assert SECRET not in texts(outcome)
            assert REDACTED in texts(outcome)


def test_an_adapter_parser_rejection_under_a_policy_is_redacted() -> None:
    def rejects(arguments: Any, context: Any) -> Any:
        return tp.Error(f"bad {context['api_key']}")

    # the policy's names joined to a parser's rejection: redacted after the join
    fn = tp.Function(
        "tool",
        lambda arguments: "ok",
        parameters_schema={"type": "object", "properties": {"a": {"type": "string"}}},
        parse_args=rejects,
        unknown_arguments="reject",
    )
    assert SECRET not in texts(fn.execute({"zzz": 1}, CONTEXT))


def test_every_batch_path_redacts() -> None:
    tools = [
        tp.Function("seq", raises),
        tp.Function("conc", raises, concurrent=True),
        tp.Function("conc_async", raises_async, concurrent=True),
        tp.Function("err", returns_error, concurrent=True),
    ]
    calls = [tp.ToolCall(str(i), fn.name, {}) for i, fn in enumerate(tools * 2)]
    for results in (
        tp.execute_tool_calls(tools, calls, CONTEXT),
        tp.execute_tool_calls(tools, calls, CONTEXT, timeout=5),
        asyncio.run(tp.aexecute_tool_calls(tools, calls, CONTEXT)),
    ):
        assert len(results) == len(calls)
        for result in results:
            assert result.is_error
            assert SECRET not in texts(result)
            assert "tok-abcdef" not in texts(result)


def test_the_tool_call_id_and_short_strings_are_not_secrets() -> None:
    def says(arguments: Any, context: Any) -> str:
        raise ValueError(f"call {context['tool_call_id']} in {context['lang']}")

    [result] = tp.execute_tool_calls(
        [tp.Function("says", says)], [tp.ToolCall("call_abcdef", "says", {})], {"lang": "en"}
    )
    assert "call call_abcdef in en" in texts(result)


@dataclasses.dataclass
class Credentials:
    username: str
    password: str


class Hidden:
    """Like pydantic's SecretStr: its text hides the value."""

    def __init__(self, value: str) -> None:
        self._value = value

    def get_secret_value(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Hidden('**********')"


def test_nested_values_dataclasses_and_secret_strings() -> None:
    context = {
        "db": Credentials("admin-user", "hunter2-pass"),
        "keys": ["key-one-111", ("key-two-222",), {"key-three-333"}],
        "vault": Hidden("vault-secret"),
    }

    def leaks(arguments: Any, context: Any) -> str:
        db, keys, vault = context["db"], context["keys"], context["vault"]
        raise ValueError(
            f"{db.username}:{db.password} {keys[0]} {keys[1][0]} {next(iter(keys[2]))} "
            f"{vault.get_secret_value()}"
        )

    text = texts(tp.Function("leaks", leaks).execute({}, context))
    for secret in (
        "admin-user",
        "hunter2-pass",
        "key-one-111",
        "key-two-222",
        "key-three-333",
        "vault-secret",
    ):
        assert secret not in text
    assert text.count(REDACTED) == 6


def test_escaped_forms_are_redacted() -> None:
    secret = "a\\b\"c'dé\n-xyz"
    context = {"key": secret}

    def leaks(arguments: Any, context: Any) -> str:
        raise ValueError(repr(context) + " " + str([context["key"]]))

    text = texts(tp.Function("leaks", leaks).execute({}, context))
    assert "dé" not in text
    assert "xyz" not in text


def test_no_part_of_a_secret_is_left_at_the_cut() -> None:
    secret = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for pad in range(270, 300):

        def leaks(arguments: Any, context: Any, pad: int = pad) -> str:
            raise ValueError("x" * pad + context["key"])

        text = texts(tp.Function("leaks", leaks).execute({}, {"key": secret}))
        assert "ABCDEF" not in text


def test_a_format_exception_hook_is_redacted() -> None:
    pm = tp.make_plugin_manager(load_entry_points=False)

    class Hook:
        @tp.hookimpl
        def toolparse_format_exception(self, exception: BaseException, function: Any) -> str:
            return f"hook: {exception}"

    pm.register(Hook())
    fn = tp.Function("tool", raises, plugin_manager=pm)
    text = texts(fn.execute({}, CONTEXT))
    assert text.startswith("hook: bad key [redacted]")
    assert SECRET not in text


def test_the_search_for_secrets_is_bounded() -> None:
    deep: Any = "deep-secret-value"
    for _ in range(MAX_SECRET_DEPTH):
        deep = [deep]
    assert secrets_of({"a": deep}) == ()  # past the depth looked at
    assert secrets_of({"a": deep[0]}) == ("deep-secret-value",)
    wide = {f"k{i}": f"value-{i:06d}" for i in range(100_000)}
    assert 0 < len(secrets_of(wide)) <= 1000
    cyclic: dict[str, Any] = {"me-secret": "cyclic-value"}
    cyclic["self"] = cyclic
    assert secrets_of(cyclic) == ("cyclic-value",)

    class Broken:
        def get_secret_value(self) -> str:
            raise RuntimeError("no")

    assert secrets_of({"b": Broken(), "c": "other-value"}) == ("other-value",)
    assert secrets_of(None) == ()
    assert secrets_of("a-whole-context") == ("a-whole-context",)


# -- generated: random secrets anywhere in the context, every way of leaking them ----------

_SAFE = st.characters(blacklist_categories=("Cs",), blacklist_characters="[]")
secrets = st.text(_SAFE, min_size=MIN_SECRET_CHARS, max_size=24).filter(
    lambda s: s.strip() == s and s.strip() != ""
)
keys = st.text(st.characters(min_codepoint=97, max_codepoint=122), min_size=1, max_size=5)


def _contexts(leaf: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        leaf,
        lambda inner: (
            st.dictionaries(keys, inner, max_size=3)
            | st.lists(inner, max_size=3)
            | st.tuples(inner)
        ),
        max_leaves=6,
    ).filter(lambda c: _depth(c) < MAX_SECRET_DEPTH)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, (list, tuple)):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


WAYS = ["raise", "raise_repr", "error", "tool_error", "interrupt", "parser", "parser_raises"]


def _tool(way: str) -> tp.Function:
    def leak(context: Any) -> str:
        return f"{context!r} {' '.join(_strings(context))}"

    def body(arguments: Any, context: Any) -> Any:
        if way == "raise":
            raise ValueError(" ".join(_strings(context)))
        if way == "raise_repr":
            raise LookupError(leak(context))
        if way == "error":
            return tp.Error(leak(context))
        if way == "tool_error":
            raise tp.ToolError(leak(context))
        if way == "interrupt":
            return tp.Interrupt(leak(context))
        return "ok"

    def parser(arguments: Any, context: Any) -> Any:
        if way == "parser_raises":
            raise TypeError(leak(context))
        return tp.Error(leak(context))

    uses_parser = way.startswith("parser")
    return tp.Function("leaky", body, parse_args=parser if uses_parser else None)


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(
    context=st.dictionaries(keys, _contexts(secrets), min_size=1, max_size=3),
    way=st.sampled_from(WAYS),
)
def test_random_secrets_never_appear_in_any_result(context: dict[str, Any], way: str) -> None:
    fn = _tool(way)
    [result] = tp.execute_tool_calls([fn], [tp.ToolCall("1", "leaky", {})], context)
    outcome = fn.execute({}, context)
    for text in (texts(result), texts(outcome)):
        for secret in _strings(context):
            assert secret not in text


def test_a_frameworks_run_state_is_not_searched() -> None:
    @dataclasses.dataclass
    class RunContext:  # what an agent framework hands over: the conversation, the tool's name
        tool_name: str
        prompt: str

    context = {"run_context": RunContext("lookup_city", "Where is Berlin?"), "deps": "deps-key-1"}

    def lookup_city(arguments: Any, context: Any) -> str:
        raise ValueError(f"no city named {context['deps']}")

    text = texts(tp.Function("lookup_city", lookup_city).execute({}, context))
    assert text.startswith(f"ERROR: (ValueError) no city named {REDACTED} at test_redaction.py:")
    assert text.endswith(".lookup_city")  # the qualified name, not redacted


# -- secrets from the environment ---------------------------------------------------------


SECRET_NAMES = ["OPENAI_API_KEY", "db_password", "GitHubToken", "AWS_SECRET", "X_AUTH", "PASSWD"]


@pytest.mark.parametrize("index", range(len(SECRET_NAMES)))
def test_a_secret_named_environment_value_never_reaches_the_model(
    monkeypatch: pytest.MonkeyPatch, index: int
) -> None:
    for i, name in enumerate(SECRET_NAMES):  # (all set at once, each with its own value)
        monkeypatch.setenv(name, "tok-8f2a91" if i == index else f"other-value-{i}")

    def opens(path: str) -> str:
        raise OSError(f"cannot open {path} with tok-8f2a91")

    def returns(path: str) -> tp.Error:
        return tp.Error(f"refused tok-8f2a91 for {path}")

    def says(path: str) -> str:
        raise tp.ToolError(f"the key tok-8f2a91 is expired ({path})")

    tools = [tp.tool(opens), tp.tool(returns), tp.tool(says)]
    calls = [tp.ToolCall(str(i), t.name, {"path": "db.yaml"}) for i, t in enumerate(tools)]
    for results in (
        tp.execute_tool_calls(tools, calls),
        asyncio.run(tp.aexecute_tool_calls(tools, calls)),
        [
            tp.ToolResult.from_outcome(c, t, t.execute(c.arguments))
            for c, t in zip(calls, tools, strict=True)
        ],
    ):
        texts = [r.text for r in results]
        assert all(r.is_error for r in results)
        assert all("tok-8f2a91" not in text and REDACTED in text for text in texts), texts
        assert texts[0].startswith("ERROR: (OSError) cannot open db.yaml with [redacted]")


def test_other_environment_values_and_short_secrets_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APP_REGION", "eu-west-1b")  # not named like a secret
    monkeypatch.setenv("SHORT_TOKEN", "ab12")  # under 6 characters: too common to hide

    def fails(a: Any) -> str:
        raise ValueError("eu-west-1b ab12")

    (result,) = tp.execute_tool_calls([tp.Function("f", fails)], [tp.ToolCall("1", "f")])
    assert "eu-west-1b ab12" in result.text


def test_a_secret_set_or_changed_later_is_redacted_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(a: Any) -> str:
        raise ValueError(f"saw {a.get('v')}")

    fn = tp.Function("f", fails)
    for value in ("first-secret-value", "second-secret-value"):
        monkeypatch.setenv("SERVICE_CREDENTIAL", value)
        (result,) = tp.execute_tool_calls([fn], [tp.ToolCall("1", "f", {"v": value})])
        assert value not in result.text
        assert "saw [redacted]" in result.text
    monkeypatch.delenv("SERVICE_CREDENTIAL")
    (result,) = tp.execute_tool_calls([fn], [tp.ToolCall("1", "f", {"v": "second-secret-value"})])
    assert "second-secret-value" in result.text  # no longer a secret of this process


def test_a_rejection_quoting_a_secret_changed_in_place_is_redacted_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("toolparse_jsonschema")
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    fn = tp.Function("f", lambda a: "ok", args_schema=schema)  # (the adapter's rejection)

    def rejection(value: str) -> str:
        result = fn.execute({"n": value})
        assert isinstance(result, tp.Error)
        return result.message

    before = "aaaa-1111"
    for value in (before, "bbbb-2222", "cccc-3333"):  # (one size: only the value changes)
        monkeypatch.setenv("QUEUE_TOKEN", value)
        text = rejection(value)
        assert value not in text
        assert REDACTED in text
        assert value == before or before in rejection(before)  # no longer a secret
    monkeypatch.delenv("QUEUE_TOKEN")  # the last secret gone: nothing is redacted any more
    assert "cccc-3333" in rejection("cccc-3333")
