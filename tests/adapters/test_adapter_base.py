"""``toolparse.adapter.AdapterBase``: the one compile step, the two-method form, compiled forms kept per key."""

from __future__ import annotations

from typing import Any

import pytest
from tests.conftest import race

import toolparse as tp
from toolparse.adapter import AdapterBase, Compiled, plugin_maps_fields


class Source:
    def __init__(self, name: str) -> None:
        self.name = name


class Counting(AdapterBase):
    """Builds one schema per source name, counting its builds; keyed by the name."""

    name = "counting"
    kept = 3

    def __init__(self, keyed: bool = True) -> None:
        super().__init__()
        self.keyed = keyed
        self.builds: list[tuple[str, str, bool]] = []

    def accepts(self, source: object) -> bool:
        return isinstance(source, Source)

    def build(
        self, source: Any, *, unknown_arguments: Any, field_schema: Any, parser: bool
    ) -> Compiled:
        self.builds.append((source.name, unknown_arguments, parser))
        item = field_schema(source.name, {"type": "array", "items": {"enum": [1]}})
        schema = {"type": "object", "properties": {source.name: item}}
        parse = (lambda args: tp.ok()) if parser else None
        return Compiled(schema, parse, accepted=[source.name], required=[], nulls_after_reject=True)

    def kept_key(self, source: Any, unknown_arguments: Any, field_schema: Any) -> Any:
        if not self.keyed or plugin_maps_fields(field_schema):
            return None
        return (source.name, unknown_arguments)


def test_a_kept_form_is_built_once_and_handed_out_as_each_tool_s_own_copy() -> None:
    adapter = Counting()
    first = adapter.compile(Source("a"))
    second = adapter.compile(Source("a"))
    assert adapter.builds == [("a", "report", True)]
    assert first.schema == second.schema
    assert first.schema is not second.schema
    # containers at every level are the tool's own
    assert first.schema["properties"]["a"]["items"] is not second.schema["properties"]["a"]["items"]
    first.schema["properties"]["a"]["items"]["enum"].append(2)
    assert second.schema["properties"]["a"]["items"]["enum"] == [1]
    assert first.parser is second.parser
    assert (first.accepted, first.required, first.key) == (("a",), (), ("a", "report"))
    assert first.nulls_after_reject is True


def test_the_policy_is_checked_and_keys_the_form() -> None:
    adapter = Counting()
    adapter.compile(Source("a"), unknown_arguments="reject")
    adapter.compile(Source("a"), unknown_arguments="ignore")
    assert [b[1] for b in adapter.builds] == ["reject", "ignore"]
    with pytest.raises(ValueError, match="unknown_arguments must be one of"):
        adapter.compile(Source("a"), unknown_arguments="drop")  # type: ignore[arg-type]


def test_a_tool_that_asks_for_no_parser_gets_none_and_the_parser_is_still_kept() -> None:
    adapter = Counting()
    assert adapter.compile(Source("a"), parser=False).parser is None
    assert adapter.compile(Source("a")).parser is not None
    assert adapter.builds == [("a", "report", True)]  # built once, with its parser


def test_no_key_builds_every_time_and_asks_for_the_parser_only_when_wanted() -> None:
    adapter = Counting(keyed=False)
    assert adapter.compile(Source("a"), parser=False).parser is None
    adapter.compile(Source("a"))
    assert adapter.builds == [("a", "report", False), ("a", "report", True)]
    assert adapter.compile(Source("a")).key is None


def test_the_store_is_bounded() -> None:
    adapter = Counting()
    for name in "abcdefgh":
        adapter.compile(Source(name))
    assert len(adapter._kept) <= adapter.kept
    adapter.compile(Source("h"))
    assert len(adapter.builds) == 8  # the latest is still kept


def test_a_plugin_that_maps_fields_keeps_nothing() -> None:
    class Mapping:
        @tp.hookimpl
        def toolparse_field_schema(
            self, adapter: str, field: object, schema: dict[str, Any]
        ) -> Any:
            return {**schema, "description": f"the {field}"}

    adapter = Counting()
    pm = tp.make_plugin_manager(load_entry_points=False)
    pm.register(Mapping())
    pm.register(_plugin(adapter))
    fn = tp.Function("t", lambda a: "ok", args_schema=Source("a"), plugin_manager=pm)
    again = tp.Function("t", lambda a: "ok", args_schema=Source("a"), plugin_manager=pm)
    assert fn.json_schema()["properties"]["a"]["description"] == "the a"
    assert len(adapter.builds) == 2
    assert again.json_schema() == fn.json_schema()


def test_the_two_method_form_comes_from_compile() -> None:
    adapter = Counting()
    assert adapter.json_schema(Source("a")) == {
        "type": "object",
        "properties": {"a": {"type": "array", "items": {"enum": [1]}}},
    }
    assert adapter.parser(Source("a"))({"a": [1]}) == tp.Ok(None)

    class NoParser(Counting):
        def build(self, source: Any, **options: Any) -> Compiled:
            return Compiled({"type": "object"})

    with pytest.raises(ValueError, match="built no parser"):
        NoParser().parser(Source("a"))


def test_tools_defined_from_many_threads_all_get_their_form() -> None:
    adapter = Counting()
    sources = [Source(name) for name in "abcdefghij"]

    def define(start: int) -> None:
        for i in range(start, 200, 8):
            compiled = adapter.compile(sources[i % len(sources)])
            assert compiled.accepted == (sources[i % len(sources)].name,)

    race(define, threads=8)
    # with no lock, each thread building at once may add its form after another emptied the
    # dict: bounded by the bound plus one per thread
    assert len(adapter._kept) <= adapter.kept + 8


def _plugin(adapter: AdapterBase) -> object:
    class Plugin:
        @tp.hookimpl
        def toolparse_register_adapters(self, register: Any) -> None:
            register(adapter)

    return Plugin()
