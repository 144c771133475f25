"""``Compiled.key``: an adapter says two compiled forms are the same; the core shares by it."""

from __future__ import annotations

from typing import Any

import toolparse as tp
from toolparse.adapter import Compiled


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


def _restore(fn: tp.Function) -> Any:
    return fn._run.__globals__["restore"]


def _fn(source: _Source, adapter: Any, **kwargs: Any) -> tp.Function:
    return tp.Function("t", lambda a: a, args_schema=source, adapter=adapter, **kwargs)


def test_compiled_has_no_key_by_default() -> None:
    assert Compiled({"type": "object"}).key is None
    assert Compiled({"type": "object"}, key=("x", 1)).key == ("x", 1)


def test_equal_keys_share_the_null_step() -> None:
    adapter = KeyedAdapter()
    first = _fn(_Source("a"), adapter)
    second = _fn(_Source("a"), KeyedAdapter())
    assert _restore(first) is not None
    assert _restore(first) is _restore(second)
    assert second.parse_arguments({"id": 1, "tag": None}) == tp.Ok({"id": 1})


def test_other_keys_other_policies_other_adapter_types_do_not_share() -> None:
    first = _fn(_Source("a"), KeyedAdapter())
    assert _restore(_fn(_Source("b"), KeyedAdapter())) is not _restore(first)
    assert _restore(_fn(_Source("a"), KeyedAdapter(), unknown_arguments="ignore")) is not (
        _restore(first)
    )
    assert _restore(_fn(_Source("a"), OtherKeyedAdapter())) is not _restore(first)


def test_no_key_shares_nothing() -> None:
    first = _fn(_Source("a"), KeyedAdapter(key=None))
    second = _fn(_Source("a"), KeyedAdapter(key=None))
    assert _restore(first) is not _restore(second)


def test_an_unhashable_key_costs_the_sharing_not_the_tool() -> None:
    first = _fn(_Source("a"), KeyedAdapter(key=["not", "hashable"]))
    second = _fn(_Source("a"), KeyedAdapter(key=["not", "hashable"]))
    assert _restore(first) is not _restore(second)
    assert first.parse_arguments({"id": 2, "tag": None}) == tp.Ok({"id": 2})
