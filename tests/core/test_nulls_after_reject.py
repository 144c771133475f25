"""``Compiled.nulls_after_reject``: a parser that checks the schema itself; nulls are restored after it rejects.

The step that restores what an export changed only turns a value the schema
rejects into one it may accept. For a parser that checks that very schema, an
accepted call has nothing to restore, so the look into nested values is paid
only by a rejected call, which is then parsed again. Every verdict must be the
one the step-first order gives.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.adapter import Compiled

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "tag": {"type": "string"},
        "meta": {"type": "object", "properties": {"x": {"type": "integer"}}},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"n": {"type": "integer"}, "note": {"type": "string"}},
                "required": ["n"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["id"],
}


def _wrong(value: Any, schema: dict[str, Any], path: str) -> str | None:
    """The first place ``value`` breaks ``schema`` (a strict checker of this schema)."""
    kind = schema.get("type")
    if kind == "integer":
        return None if type(value) is int else f"{path}: must be an integer"
    if kind == "string":
        return None if type(value) is str else f"{path}: must be a string"
    if kind == "array":
        if type(value) is not list:
            return f"{path}: must be a list"
        for i, item in enumerate(value):
            found = _wrong(item, schema["items"], f"{path}.{i}")
            if found:
                return found
        return None
    if type(value) is not dict:
        return f"{path}: must be an object"
    props = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in value:
            return f"{path}.{name}: is required"
    for name, item in value.items():
        if name in props:
            found = _wrong(item, props[name], f"{path}.{name}")
            if found:
                return found
        elif schema.get("additionalProperties") is False:
            return f"{path}.{name}: is not accepted"
    return None


class Counting:
    """The schema's own checker as a parser, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, args: dict[str, Any]) -> tp.ParseResult:
        self.calls += 1
        found = _wrong(args, SCHEMA, "$")
        return tp.ok() if found is None else tp.error(found)


class AsyncCounting(Counting):
    async def __call__(self, args: dict[str, Any]) -> tp.ParseResult:  # type: ignore[override]
        await asyncio.sleep(0)
        return Counting.__call__(self, args)


class CheckingAdapter:
    """An adapter whose parser checks the schema it exports."""

    name = "checking"

    def __init__(self, parser: Counting, after: bool) -> None:
        self.parser = parser
        self.after = after

    def accepts(self, source: object) -> bool:
        return source == "checked"

    def compile(self, source: object, **_: Any) -> Compiled:
        return Compiled(dict(SCHEMA), self.parser, nulls_after_reject=self.after)


def _fn(after: bool, parser: Counting | None = None, **kwargs: Any) -> tp.Function:
    adapter = CheckingAdapter(parser or Counting(), after)
    return tp.Function("t", lambda a: a, args_schema="checked", adapter=adapter, **kwargs)


def _count_restores(fn: tp.Function) -> list[Any]:
    """Wrap the Function's restore step; the list receives each argument it is given."""
    space = fn._parse.__globals__
    seen: list[Any] = []
    restore: Callable[[Any], Any] = space["restore"]

    def counting(args: Any) -> Any:
        seen.append(args)
        return restore(args)

    space["restore"] = counting
    return seen


VALID = {"id": 1, "tag": "a", "items": [{"n": 1, "note": "x"}, {"n": 2}], "meta": {"x": 3}}


def test_compiled_restores_first_by_default() -> None:
    assert Compiled({"type": "object"}).nulls_after_reject is False
    assert Compiled({"type": "object"}, nulls_after_reject=True).nulls_after_reject is True


def test_an_accepted_call_never_looks_for_nulls() -> None:
    fn = _fn(after=True)
    seen = _count_restores(fn)
    assert fn.parse_arguments(VALID) == tp.Ok(VALID)
    assert seen == []
    # restoring first looks into the list of objects on the same call
    first = _fn(after=False)
    seen_first = _count_restores(first)
    assert first.parse_arguments(VALID) == tp.Ok(VALID)
    assert seen_first == [VALID]


def test_a_nested_null_is_restored_after_the_rejection_and_parsed_again() -> None:
    parser = Counting()
    fn = _fn(after=True, parser=parser)
    sent = {"id": 1, "items": [{"n": 1, "note": None}], "meta": {"x": None}}
    assert fn.parse_arguments(sent) == tp.Ok({"id": 1, "items": [{"n": 1}], "meta": {}})
    assert parser.calls == 2
    # the body gets the restored arguments (a dict it returns is sent as JSON text)
    assert fn.execute(sent) == tp.Ok('{"id": 1, "items": [{"n": 1}], "meta": {}}')


def test_a_top_level_null_is_restored_before_the_parser() -> None:
    parser = Counting()
    fn = _fn(after=True, parser=parser)
    assert fn.parse_arguments({"id": 1, "tag": None}) == tp.Ok({"id": 1})
    assert parser.calls == 1


def test_a_rejection_with_nothing_to_restore_is_parsed_once() -> None:
    parser = Counting()
    fn = _fn(after=True, parser=parser)
    result = fn.execute({"id": "one", "items": [{"n": 1}]})
    assert isinstance(result, tp.Error)
    assert _verdict(result) == _verdict(
        _fn(after=False).execute({"id": "one", "items": [{"n": 1}]})
    )
    assert "$.id: must be an integer" in result.message
    assert parser.calls == 1


def test_the_restored_call_s_own_verdict_is_the_answer() -> None:
    # the null goes, and what is left is still wrong: that second rejection is the message
    sent = {"id": 1, "items": [{"n": "two", "note": None}]}
    after, first = _fn(after=True).execute(sent), _fn(after=False).execute(sent)
    assert isinstance(after, tp.Error)
    assert _verdict(after) == _verdict(first)
    assert "$.items.0.n: must be an integer" in after.message


def test_your_own_parse_args_is_never_parsed_twice() -> None:
    parser = Counting()
    fn = tp.Function(
        "t",
        lambda a: a,
        args_schema="checked",
        adapter=CheckingAdapter(Counting(), after=True),
        parse_args=parser,
    )
    seen = _count_restores(fn)
    # the step runs first, as for every parser of yours
    assert fn.parse_arguments({"id": 1, "items": [{"n": 1, "note": None}]}) == tp.Ok(
        {"id": 1, "items": [{"n": 1}]}
    )
    assert parser.calls == 1
    assert len(seen) == 1


def test_an_async_parser_is_parsed_again_too() -> None:
    parser = AsyncCounting()
    fn = _fn(after=True, parser=parser)
    sent = {"id": 1, "items": [{"n": 1, "note": None}]}
    assert asyncio.run(fn.aparse_arguments(sent)) == tp.Ok({"id": 1, "items": [{"n": 1}]})
    assert parser.calls == 2


_leaf = st.one_of(st.none(), st.integers(-3, 3), st.text(max_size=2), st.booleans())
_item = st.dictionaries(st.sampled_from(["n", "note", "zz"]), _leaf, max_size=3)
_calls = st.fixed_dictionaries(
    {},
    optional={
        "id": _leaf,
        "tag": _leaf,
        "meta": st.one_of(_leaf, st.dictionaries(st.sampled_from(["x", "y"]), _leaf, max_size=2)),
        "items": st.one_of(_leaf, st.lists(st.one_of(_item, _leaf), max_size=3)),
        "extra": _leaf,
        "tga": _leaf,
    },
)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(sent=_calls, policy=st.sampled_from(tp.adapter.POLICIES))
def test_after_the_rejection_or_first_the_verdict_is_the_same(
    sent: dict[str, Any], policy: str
) -> None:
    after = _fn(after=True, unknown_arguments=policy)
    first = _fn(after=False, unknown_arguments=policy)
    assert _verdict(after.parse_arguments(sent)) == _verdict(first.parse_arguments(sent))
    assert _verdict(after.execute(sent)) == _verdict(first.execute(sent))


def _verdict(result: Any) -> tuple[str, Any]:
    # an Error carries its exception, which compares by identity: its text is the verdict
    return ("error", result.message) if isinstance(result, tp.Error) else ("ok", result[0])
