"""The built-in adapter for plain Python types (placeholder until written)."""

from __future__ import annotations

from typing import Any


class PlainAdapter:
    """Plain Python types: TypedDict, dataclasses and their field types."""

    name = "plain"

    def accepts(self, source: object) -> bool:
        return False

    def json_schema(self, source: Any) -> dict[str, Any]:
        raise NotImplementedError

    def parser(self, source: Any) -> Any:
        raise NotImplementedError
