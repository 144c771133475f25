"""``Compiled.key``: an adapter says two compiled forms are the same; the core shares by it."""

from __future__ import annotations

from typing import Any

import pytest

import toolparse as tp
from toolparse.adapter import Compiled
from toolparse.nulls import null_restorer


class _Source:
    def __init__(self, name: str, optional: bool = True) -> None:
        self.name = name
        self.optional = optional


def _schema(source: _Source) -> dict[str, Any]:
    props: dict[str, Any] = {"id": {"type": "integer"}, "tag": {"type": "string"}}
    return {"type": "object", "properties": props, "required": ["id"]}


class KeyedAdapter:
    """Compiles a ``_Source``; its key is what the schema depends on."""

    name = "keyed"

    def __init__(self, key: Any = "use the name") -> None:
        self._key = key

    def accepts(self, source: object) -> bool:
        return isinstance(source, _Source)

    def compile(self, source: _Source, **_: Any) -> Compiled:
        key = source.name if self._key == "use the name" else self._key
        return Compiled(_schema(source), lambda args: tp.Ok(args), key=key)


class OtherKeyedAdapter(KeyedAdapter):
    name = "other"


def _fn(source: _Source, adapter: Any, **kwargs: Any) -> tp.Function:
    return tp.Function("t", lambda a: a, args_schema=source, adapter=adapter, **kwargs)


def test_compiled_has_no_key_by_default() -> None:
    assert Compiled({"type": "object"}).key is None
    assert Compiled({"type": "object"}, key=("x", 1)).key == ("x", 1)


@pytest.mark.parametrize(
    "adapter",
    [
        KeyedAdapter(),
        KeyedAdapter(key=None),
        KeyedAdapter(key=["not", "hashable"]),
        OtherKeyedAdapter(),
    ],
)
@pytest.mark.parametrize("policy", ["report", "ignore"])
def test_tools_of_one_key_or_none_each_restore_their_nulls(adapter: Any, policy: str) -> None:
    # an unusable key costs the sharing, never the tool
    for source in (_Source("a"), _Source("a"), _Source("b")):
        fn = _fn(source, adapter, unknown_arguments=policy)
        assert fn.parse_arguments({"id": 1, "tag": None}) == tp.Ok({"id": 1})
        assert fn.json_schema() == _schema(source)


def test_a_restorer_is_shared_by_key() -> None:
    schema = _schema(_Source("a"))
    first = null_restorer(schema, ("keyed", "a"))
    assert first is not None
    assert null_restorer(_schema(_Source("a")), ("keyed", "a")) is first
    assert null_restorer(schema, ("keyed", "b")) is not first
    assert null_restorer(schema) is not null_restorer(schema)
