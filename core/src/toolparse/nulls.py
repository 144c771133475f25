"""TEMPORARY shim until the one null walk lands (replaced at merge)."""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping
from typing import Any

from ._nulls import deep_names
from ._nulls import null_restorer as _old

__all__ = ["Restorer", "null_restorer"]


class _Every:
    def isdisjoint(self, other: object) -> bool:
        return False


_EVERY = _Every()


class Restorer:
    __slots__ = ("_deep", "_own", "_restore", "_watch", "deep")

    def __init__(self, schema: Mapping[str, Any], restore: Any) -> None:
        self._restore = restore
        props = schema.get("properties")
        self._own = frozenset(
            name
            for name in (props if isinstance(props, Mapping) else ())
            if isinstance(name, str) and not restore({name: None})
        )
        deep = deep_names(schema) if isinstance(props, Mapping) else None
        self._deep = deep
        self._watch = None if deep is None else self._own | deep
        self.deep: Any = _EVERY if deep is None else deep

    def __call__(self, arguments: Any) -> Any:
        watch = self._watch
        if watch is not None:
            if watch.isdisjoint(arguments):
                return arguments
            if self._deep.isdisjoint(arguments):  # type: ignore[union-attr]
                values = arguments.values()
                if all(values) or None not in values:
                    return arguments
        return self._restore(arguments)

    def top(self, arguments: dict[str, Any]) -> dict[str, Any]:
        values = arguments.values()
        if all(values) or None not in values:
            return arguments
        own = self._own
        if not any(v is None and k in own for k, v in arguments.items()):
            return arguments
        return {k: v for k, v in arguments.items() if not (v is None and k in own)}


def _build(schema: Mapping[str, Any]) -> Restorer | None:
    restore = _old(schema)
    return None if restore is None else Restorer(schema, restore)


class _Keyed:
    __slots__ = ("key", "value")

    def __init__(self, key: Hashable, value: Any) -> None:
        self.key = key
        self.value = value

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Keyed) and self.key == other.key


@functools.lru_cache(maxsize=256)
def _shared(keyed: _Keyed) -> Restorer | None:
    return _build(keyed.value)


def null_restorer(schema: Mapping[str, Any], key: Hashable | None = None) -> Restorer | None:
    if key is None:
        return _build(schema)
    return _shared(_Keyed(key, schema))
